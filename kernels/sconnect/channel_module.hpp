// The channel module (CM, section 3.2), receiving side: each channel is a conveyor belt with a
// fixed number of slots, each holding one message, and the receiver answers every slot with a
// piggybacked acknowledgement on the reverse channel. A message the receiver has no buffer for
// (reservation included) is refused; the sender keeps every message it sent locked in its
// buffer until the acknowledgement tells it the transfer succeeded (the buffer is freed) or
// failed (the message goes through a routing cycle again and is inserted at the head of its new
// queue, its age field incremented). Nothing is dropped or duplicated.
#pragma once
#include "routing.hpp"

namespace ls::sconnect {

struct ChannelModule {
  const SconnectView& v;
  uint64_t e;
  uint32_t inst, r;

  LS_HD BufferPool pool() const { return {v, e}; }

  // A message of this router's, in buffer b, waits to leave: in the TIC's queue for it (at the
  // head when requeued), or in the pool with its options (Figure 4), or in the host's queue. It
  // may leave this very cycle when bypass is on (a message for an idle channel cuts through),
  // else from the next.
  LS_HD void enqueue(uint32_t b, bool requeued, uint32_t failed) const {
    const uint64_t k = v.lay.buf(e, b);
    v.s.buf_ready[k] = static_cast<uint32_t>(v.t) + (v.prm.bypass || requeued ? 0u : 1u);
    const uint32_t dest = v.s.pool[k].dest;
    if (v.prm.assignment == Assignment::kNearOptimal && !for_host(v, r, dest)) {
      v.s.buf_state[k] = kBufPool;
      v.s.buf_opts[k] = options(v, r, dest, failed);
      return;
    }
    const uint32_t q = choose_queue(pool(), r, v.s.pool[k], failed);
    if (requeued)
      pool().push_head(q, b);
    else
      pool().push_tail(q, b);
  }

  // Acknowledgements arriving this cycle for what the router sent.
  LS_HD void receive_acks() const {
    for (uint32_t p = 1; p < v.lay.ports; ++p) {
      const uint64_t at = v.lay.slot(e, v.now, p);
      const int16_t a = v.s.ack_belt[at];
      if (a == kNoAck) continue;
      v.s.ack_belt[at] = kNoAck;
      const uint32_t b = static_cast<uint32_t>(a) >> 1;
      if (a & 1) {
        pool().release(b);
        v.s.last_move[e] = static_cast<uint32_t>(v.t);
        continue;
      }
      const uint64_t k = v.lay.buf(e, b);
      if (v.win.contains(v.t)) v.s.rejected[v.lay.port(e, p)] += 1;
      v.s.pool[k].meta = MessageMeta::aged(v.s.pool[k].meta);
      v.s.buf_failed[k] = static_cast<uint8_t>(p);
      enqueue(b, true, p);
    }
  }

  // Messages arriving this cycle: each is taken into the pool and routed, or refused; either way
  // the answer goes back to the sender on the reverse channel, arriving as far in the future
  // as the message took to come.
  LS_HD void receive_messages() const {
    for (uint32_t p = 1; p < v.lay.ports; ++p) {
      const uint64_t at = v.lay.slot(e, v.now, p);
      if (!v.s.msg_valid[at]) continue;
      v.s.msg_valid[at] = 0;
      Message m = v.s.msg_belt[at];
      const uint32_t sbuf = MessageMeta::sbuf(m.meta);
      m.meta = MessageMeta::with_hop(m.meta);
      const uint32_t cls = message_class(v, r, m.dest, MessageMeta::prio(m.meta));
      const bool ok = pool().can_take(cls);
      if (ok) {
        enqueue(pool().take(cls, m), false, 0);
        v.s.last_move[e] = static_cast<uint32_t>(v.t);
      }
      const int32_t peer = v.topo.peer[uint64_t{r} * v.lay.ports + p];
      const uint32_t rp = static_cast<uint32_t>(peer) / v.lay.ports,
                     pp = static_cast<uint32_t>(peer) % v.lay.ports;
      const uint32_t slot = (v.now + v.topo.delay[uint64_t{r} * v.lay.ports + p]) % v.lay.slots;
      v.s.ack_belt[v.lay.slot(uint64_t{inst} * v.lay.routers + rp, slot, pp)] =
          static_cast<int16_t>(sbuf << 1 | (ok ? 1u : 0u));
    }
  }
};

}  // namespace ls::sconnect
