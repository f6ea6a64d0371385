// Debug mode's checks of one S-Connect router after a cycle: the pool's bookkeeping agrees
// with itself (free buffers + buffers held by the classes = the pool; each class's count = its
// buffers; every queue's linked list holds as many queued buffers as its count says, and queued
// + waiting unassigned + sent + quad-message parts + buffers reserved for parts to come = held),
// and how many messages the router owns for the conservation check: those it holds (reserved
// buffers hold none) less those it has sent and the receiver has already taken (its
// acknowledgement, on its way back, says so), less the copies sent again after a corrupted
// acknowledgement that are on their way to this router and that it has taken already.
#pragma once
#include "../common/violation.hpp"
#include "buffer_pool.hpp"

namespace ls::sconnect {

struct CheckInvariants {
  SconnectView v;
  uint64_t* owned;  // [inst, router]

  LS_HD void fail(uint64_t e, uint32_t code, uint32_t where, uint32_t value) const {
    record_violation(v.s.viol, v.s.viol_info, e, code, v.t, where, 0, value);
  }

  LS_HD void operator()(uint64_t e) const {
    const uint32_t B = v.lay.buffers;
    uint32_t per_class[kClasses] = {};
    uint32_t held = 0, sent = 0, pooled = 0, parts = 0, reserved = 0;
    for (uint32_t b = 0; b < B; ++b) {
      const uint64_t k = v.lay.buf(e, b);
      const bool free = v.s.free_mask[e] >> b & 1u;
      if (free != (v.s.buf_state[k] == kBufFree)) fail(e, kViolPoolCount, b, v.s.buf_state[k]);
      // With sent_apart exactly the sent messages are in their channels' stores (BufferPool).
      const bool stored = v.s.buf_class[k] & kStored;
      if (stored != (v.prm.sent_apart && !free && v.s.buf_state[k] == kBufSent))
        fail(e, kViolClassCount, b, v.s.buf_class[k]);
      if (free) continue;
      ++held;
      sent += v.s.buf_state[k] == kBufSent;
      pooled += v.s.buf_state[k] == kBufPool;
      parts += v.s.buf_state[k] == kBufPart;
      reserved += v.s.buf_state[k] == kBufReserved;
      if (BufferPool{v, e}.counted(b)) per_class[v.s.buf_class[k] % kClasses] += 1;
    }
    for (uint32_t c = 0; c < kClasses; ++c)
      if (per_class[c] != v.s.class_used[e * kClasses + c])
        fail(e, kViolClassCount, c, v.s.class_used[e * kClasses + c]);
    uint32_t queued = 0;
    for (uint32_t q = 0; q < v.lay.queues(); ++q) {
      const uint32_t n = v.s.q_count[v.lay.q(e, q)];
      uint32_t b = v.s.q_head[v.lay.q(e, q)];
      for (uint32_t i = 0; i < n; ++i) {
        if (b >= B || v.s.buf_state[v.lay.buf(e, b)] != kBufQueued) {
          fail(e, kViolQueue, q, n);
          break;
        }
        if (i + 1 == n && v.s.q_tail[v.lay.q(e, q)] != b) fail(e, kViolQueue, q, n);
        b = v.s.buf_next[v.lay.buf(e, b)];
      }
      queued += n;
    }
    if (queued + pooled + sent + parts + reserved != held)
      fail(e, kViolQueue, v.lay.queues(), queued + sent);
    uint32_t shadows = 0;
    const uint32_t r = v.lay.router_of(e), S = v.lay.slots;
    for (uint32_t s = 0; s < S; ++s)
      for (uint32_t p = 1; p < v.lay.ports; ++p) {
        const uint64_t at = v.lay.slot(e, s, p);
        const int16_t a = v.s.ack_belt[at];
        shadows += a != kNoAck && Ack::is(a, Ack::kOwned);
        if (!v.s.msg_valid[at]) continue;
        const uint64_t arrives = v.t + (s + S - v.t % S) % S;
        const uint32_t k = arrives % (2u * v.topo.delay[uint64_t{r} * v.lay.ports + p]);
        shadows += MessageMeta::seq(v.s.msg_belt[at].meta) != v.s.rx_seq[v.lay.engine(e, p, k)];
      }
    // The copies coming to this router are other routers' shadows: a router's count may be
    // negative, the instance's sum (modulo 2^64) is right.
    owned[e] = static_cast<uint64_t>(int64_t{held} - int64_t{reserved} - int64_t{shadows});
  }
};

}  // namespace ls::sconnect
