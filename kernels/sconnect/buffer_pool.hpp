// The TIC's shared buffer pool (section 3.1): messages of every port, priority and virtual
// channel share one pool, kept as linked queues; the location of an incoming message comes from
// a bit vector of the free buffers, and reservation logic guarantees each priority level and
// virtual channel a minimum number of buffers, so that no class can block another (sections
// 2.3, 2.4). All of it is one router's own state.
#pragma once
#include "../common/round_robin.hpp"
#include "sconnect_state.hpp"

namespace ls::sconnect {

// The pool of router element e.
struct BufferPool {
  const SconnectView& v;
  uint64_t e;

  // Reservation: class c may take n buffers (a quad-message's 4 at once) within its own reserve,
  // or from the pool's room left over once every other active class's unmet reserve is set
  // aside.
  LS_HD bool can_take(uint32_t cls, uint32_t n = 1) const {
    const uint8_t* used = v.s.class_used + e * kClasses;
    const uint32_t R = v.prm.reserve;
    if (popcount64(v.s.free_mask[e]) < n) return false;
    if (used[cls] + n <= R) return true;
    uint32_t unmet = 0;
    for (uint32_t c = 0; c < v.prm.priorities * kKinds; ++c)
      if (c != cls) unmet += used[c] < R ? R - used[c] : 0;
    return room() >= n + unmet;
  }
  // The buffers the pool has free. With the channels' stores apart (sent_apart), the pool's size
  // less the unsent messages it holds, which a refused message back from its store may take past
  // the size for a while; the layout's extra buffers (the stores', and a reserve a class) keep a
  // free one for each class within its reserve.
  LS_HD uint32_t room() const {
    const uint32_t free = popcount64(v.s.free_mask[e]);
    if (!v.prm.sent_apart) return free;
    uint32_t unsent = 0;
    for (uint32_t c = 0; c < kClasses; ++c) unsent += v.s.class_used[e * kClasses + c];
    const uint32_t left = unsent < v.prm.buffers ? v.prm.buffers - unsent : 0u;
    return left < free ? left : free;
  }
  // Whether buffer b's message counts in its class (class_used): all but, with sent_apart, those
  // sent, which wait for their acknowledgements in their channels' stores (kStored in buf_class).
  LS_HD bool counted(uint32_t b) const { return !(v.s.buf_class[v.lay.buf(e, b)] & kStored); }
  // With sent_apart, the messages sent this cycle leave the pool for their channels' stores. The
  // channels send on lanes of their own (Transmitter::lanes), so the class counts they share are
  // updated here, on one lane, once they have.
  LS_HD void sent_out() const {
    if (!v.prm.sent_apart) return;
    for (uint32_t b = 0; b < v.lay.buffers; ++b) {
      const uint64_t k = v.lay.buf(e, b);
      if (v.s.buf_state[k] == kBufSent && !(v.s.buf_class[k] & kStored)) {
        class_used(b) -= 1;
        v.s.buf_class[k] |= kStored;
      }
    }
  }
  // Buffer b's message, refused downstream, comes back from its channel's store into the pool.
  LS_HD void returned(uint32_t b) const {
    if (counted(b)) return;
    v.s.buf_class[v.lay.buf(e, b)] &= ~kStored;
    class_used(b) += 1;
  }
  LS_HD uint8_t& class_used(uint32_t b) const {
    return v.s.class_used[e * kClasses + (v.s.buf_class[v.lay.buf(e, b)] & ~kStored)];
  }

  // Takes the lowest free buffer for class cls (can_take must hold) and stores m in it.
  LS_HD uint32_t take(uint32_t cls, const Message& m) const {
    const uint32_t b = lowest_bit64(v.s.free_mask[e]);
    v.s.free_mask[e] &= ~(uint64_t{1} << b);
    v.s.class_used[e * kClasses + cls] += 1;
    const uint64_t k = v.lay.buf(e, b);
    v.s.pool[k] = m;
    v.s.buf_class[k] = static_cast<uint8_t>(cls);
    v.s.buf_quad[k] = kNil;  // no quad-message's parts behind it (quad.hpp links them)
    return b;
  }
  LS_HD void release(uint32_t b) const {
    const uint64_t k = v.lay.buf(e, b);
    v.s.free_mask[e] |= uint64_t{1} << b;
    if (counted(b)) class_used(b) -= 1;
    v.s.buf_class[k] &= ~kStored;
    v.s.buf_state[k] = kBufFree;
  }

  // Queue q's linked list: new traffic joins the tail, requeued traffic the head (section 3).
  LS_HD void push_tail(uint32_t q, uint32_t b) const {
    const uint64_t qi = v.lay.q(e, q), k = v.lay.buf(e, b);
    v.s.buf_next[k] = kNil;
    v.s.buf_state[k] = kBufQueued;
    if (v.s.q_count[qi] == 0)
      v.s.q_head[qi] = static_cast<uint8_t>(b);
    else
      v.s.buf_next[v.lay.buf(e, v.s.q_tail[qi])] = static_cast<uint8_t>(b);
    v.s.q_tail[qi] = static_cast<uint8_t>(b);
    v.s.q_count[qi] += 1;
  }
  LS_HD void push_head(uint32_t q, uint32_t b) const {
    const uint64_t qi = v.lay.q(e, q), k = v.lay.buf(e, b);
    v.s.buf_state[k] = kBufQueued;
    v.s.buf_next[k] = v.s.q_count[qi] ? v.s.q_head[qi] : kNil;
    if (v.s.q_count[qi] == 0) v.s.q_tail[qi] = static_cast<uint8_t>(b);
    v.s.q_head[qi] = static_cast<uint8_t>(b);
    v.s.q_count[qi] += 1;
  }
  LS_HD uint32_t pop(uint32_t q) const {
    const uint64_t qi = v.lay.q(e, q);
    const uint32_t b = v.s.q_head[qi];
    v.s.q_head[qi] = v.s.buf_next[v.lay.buf(e, b)];
    v.s.q_count[qi] -= 1;
    return b;
  }
  // Messages waiting for transmitter p, over its priorities and VCs.
  LS_HD uint32_t pending(uint32_t p) const {
    uint32_t n = 0;
    for (uint32_t q = SconnectLayout::queue(p, 0, 0); q < SconnectLayout::queue(p + 1, 0, 0); ++q)
      n += v.s.q_count[v.lay.q(e, q)];
    return n;
  }
};

}  // namespace ls::sconnect
