// The transmitters (sections 2.2, 3): each outbound channel sends at most one message per
// routing cycle, into the slot entering its belt. Queues are served in strict priority order (no
// lower priority while a higher one has a message ready) and, within a priority, the two virtual
// channels fairly (alternating when both have traffic; either takes the whole channel when the
// other has none). The message stays locked in its buffer until acknowledged.
#pragma once
#include "channel_module.hpp"

namespace ls::sconnect {

struct Transmitter {
  const SconnectView& v;
  uint64_t e;
  uint32_t inst, r;

  // Whether queue q's head may leave this cycle.
  LS_HD bool ready(uint32_t q) const {
    const uint64_t qi = v.lay.q(e, q);
    return v.s.q_count[qi] != 0 &&
           v.s.buf_ready[v.lay.buf(e, v.s.q_head[qi])] <= static_cast<uint32_t>(v.t);
  }

  LS_HD void send(uint32_t p) const {
    const int32_t peer = v.topo.peer[uint64_t{r} * v.lay.ports + p];
    if (peer < 0) return;
    for (uint32_t prio = v.prm.priorities; prio-- > 0;) {
      const bool r0 = ready(SconnectLayout::queue(p, prio, 0)),
                 r1 = ready(SconnectLayout::queue(p, prio, 1));
      if (!r0 && !r1) continue;
      uint8_t& last = v.s.tx_vc[v.lay.port(e, p)];
      const uint32_t vc = r0 && r1 ? 1u - (last >> prio & 1u) : (r1 ? 1u : 0u);
      last = static_cast<uint8_t>((last & ~(1u << prio)) | vc << prio);
      const uint32_t b = BufferPool{v, e}.pop(SconnectLayout::queue(p, prio, vc));
      const uint64_t k = v.lay.buf(e, b);
      v.s.buf_state[k] = kBufSent;
      Message m = v.s.pool[k];
      m.meta = MessageMeta::with_sbuf(MessageMeta::with_vc(m.meta, vc), b);
      const uint32_t rp = static_cast<uint32_t>(peer) / v.lay.ports,
                     pp = static_cast<uint32_t>(peer) % v.lay.ports;
      const uint32_t slot = (v.now + v.topo.delay[uint64_t{r} * v.lay.ports + p]) % v.lay.slots;
      const uint64_t at = v.lay.slot(uint64_t{inst} * v.lay.routers + rp, slot, pp);
      v.s.msg_belt[at] = m;
      v.s.msg_valid[at] = 1;
      if (v.win.contains(v.t)) v.s.sent[v.lay.port(e, p)] += 1;
      return;
    }
  }

  LS_HD void operator()() const {
    for (uint32_t p = 1; p < v.lay.ports; ++p) send(p);
  }
};

}  // namespace ls::sconnect
