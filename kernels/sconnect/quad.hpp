// Quad-messages (section 3.2, footnote 1): "trains of 4 messages that traverse the interconnect as
// one unit. Since the entire quad messages must be transferred atomically, adjacent CM slots are
// coupled". The paper says no more; our reading keeps every slot's 1-bit window as it is and
// couples the slots of a train on each channel:
//   - a quad is 4 buffers of one router, chained head to last part (buf_quad); only its head is
//     queued or matched to a transmitter, and it moves as one: whole into a router, whole out;
//   - a channel sends a train's parts in adjacent slots (a part whose slot must carry a message
//     sent again after a corrupted acknowledgement waits for the next free one), and starts no
//     train while it still awaits answers for the last;
//   - the receiver accepts all or nothing: the head finds buffers for all 4 parts of its class
//     or is refused, and then so are the parts behind it. A part that arrives corrupted at a
//     receiver holding buffers for it is answered so (Ack::kHeld) and sent again in its slot;
//     the quad goes on from the receiver only once all 4 parts are in;
//   - the sender frees each part acknowledged; a refused train goes back, whole, through a
//     routing cycle once every part is answered (all are refused: none found buffers). A head
//     sent again alone after a corrupted acknowledgement is marked so (MessageMeta::kResent): a
//     receiver that had refused the train refuses it again rather than hold buffers for parts
//     that will not come.
#pragma once
#include "buffer_pool.hpp"

namespace ls::sconnect {

constexpr uint32_t kQuadParts = 4;

struct QuadTrain {
  const SconnectView& v;
  uint64_t e;

  LS_HD uint64_t port(uint32_t p) const { return v.lay.port(e, p); }
  LS_HD uint32_t next(uint32_t b) const { return v.s.buf_quad[v.lay.buf(e, b)]; }
  // Whether a queued or waiting message (never a part) is a quad's head: parts follow it.
  LS_HD bool is_head(uint32_t b) const { return next(b) != kNil; }

  // Takes 4 buffers of class cls (can_take(cls, 4) must hold) for quad m: every part stored
  // (`whole`, the host injecting it) or only the head, the rest reserved for parts to come.
  // Returns the head's buffer; the parts are held apart from the queues.
  LS_HD uint32_t take(uint32_t cls, const Message& m, bool whole) const {
    const BufferPool pool{v, e};
    uint32_t head = kNil, last = kNil;
    for (uint32_t k = 0; k < kQuadParts; ++k) {
      Message part = m;
      part.meta = MessageMeta::quad_part(m.meta, k);
      const bool stored = whole || k == 0;
      const uint32_t b = pool.take(cls, stored ? part : Message{});
      v.s.buf_state[v.lay.buf(e, b)] = stored ? kBufPart : kBufReserved;
      if (last == kNil)
        head = b;
      else
        v.s.buf_quad[v.lay.buf(e, last)] = static_cast<uint8_t>(b);
      last = b;
    }
    return head;
  }
  LS_HD void release(uint32_t head) const {
    for (uint32_t b = head; b != kNil;) {
      const uint32_t n = next(b);
      BufferPool{v, e}.release(b);
      b = n;
    }
  }

  // Receiving on port p: whether buffers are held for a train, and a part arriving into them.
  // Returns the quad's head once all its parts are in (it is then routed), else kNil.
  LS_HD bool held(uint32_t p) const { return v.s.quad_rx_head[port(p)] != kNil; }
  LS_HD void hold(uint32_t p, uint32_t head) const {
    v.s.quad_rx_head[port(p)] = static_cast<uint8_t>(head);
    v.s.quad_rx_parts[port(p)] = 1;
  }
  LS_HD uint32_t fill(uint32_t p, const Message& m) const {
    const uint32_t head = v.s.quad_rx_head[port(p)], part = MessageMeta::part(m.meta);
    uint32_t b = head;
    for (uint32_t k = 0; k < part; ++k) b = next(b);
    v.s.pool[v.lay.buf(e, b)] = m;
    v.s.buf_state[v.lay.buf(e, b)] = kBufPart;
    uint8_t& in = v.s.quad_rx_parts[port(p)];
    in |= static_cast<uint8_t>(1u << part);
    if (in != (1u << kQuadParts) - 1) return kNil;
    v.s.quad_rx_head[port(p)] = kNil;
    in = 0;
    return head;
  }

  // Sending on port p. quad_tx_open: [0..2] parts not yet answered, [3] one was accepted, [4] one
  // was refused.
  static constexpr uint8_t kOpen = 7, kAccepted = 8, kRefused = 16;
  LS_HD bool can_start(uint32_t p) const { return v.s.quad_tx_head[port(p)] == kNil; }
  LS_HD void start(uint32_t p, uint32_t head) const {
    v.s.quad_tx_next[port(p)] = static_cast<uint8_t>(next(head));
    v.s.quad_tx_head[port(p)] = static_cast<uint8_t>(head);
    v.s.quad_tx_open[port(p)] = kQuadParts;
  }
  // The train's next part, leaving now in the slot after the last (kNil: none to send).
  LS_HD uint32_t pop_next(uint32_t p) const {
    uint8_t& n = v.s.quad_tx_next[port(p)];
    const uint32_t b = n;
    if (b != kNil) n = static_cast<uint8_t>(next(b));
    return b;
  }
  // A part's final answer. Returns the head to route again once the last answer says the train
  // was refused, else kNil. Answers that disagree are a split quad (a violation).
  LS_HD uint32_t answer(uint32_t p, bool accepted, bool& split) const {
    uint8_t& open = v.s.quad_tx_open[port(p)];
    open = static_cast<uint8_t>((open - 1u) | (accepted ? kAccepted : kRefused));
    if (open & kOpen) return kNil;
    split = (open & kAccepted) && (open & kRefused);
    const uint32_t head = v.s.quad_tx_head[port(p)];
    v.s.quad_tx_head[port(p)] = kNil;
    return (open & kRefused) && !split ? head : kNil;
  }
};

}  // namespace ls::sconnect
