// Debug mode's checks of one Blue Gene/L router after a cycle: no VC FIFO over its capacity;
// every VC's tokens conserved (the upstream sender's tokens + tokens on token-acks in flight +
// tokens of packets on the link + the FIFO's held tokens + tokens owed back = capacity); and the
// packets the router holds (VC FIFOs, reception buses, heads on its belts) for the host's
// conservation check: injected - delivered = held by all routers.
#pragma once
#include "../common/violation.hpp"
#include "tokens.hpp"

namespace ls::bgl {

struct CheckInvariants {
  BglView v;
  uint64_t* held;  // [inst, R]

  LS_HD void operator()(uint64_t e) const {
    const BglLayout& L = v.lay;
    const uint32_t inst = static_cast<uint32_t>(e / L.routers),
                   r = static_cast<uint32_t>(e % L.routers);
    uint64_t packets = 0;
    for (uint32_t d = 0; d < L.dirs; ++d) {
      packets += v.s.recv_busy[L.bus(e, d, 0)] + v.s.recv_busy[L.bus(e, d, 1)];
      const int32_t far = v.topo.far[uint64_t{r} * L.dirs + d];
      const uint64_t ue = uint64_t{inst} * L.routers + static_cast<uint32_t>(far) / L.dirs;
      const uint32_t ud = static_cast<uint32_t>(far) % L.dirs;  // the upstream's sender to us
      for (uint32_t w = 0; w < L.vcs; ++w) {
        const uint64_t q = L.vc(e, d, w);
        packets += v.s.count[q];
        const uint32_t cap = capacity(v.prm, w);
        if (v.s.used[q] > cap)
          record_violation(v.s.viol, v.s.viol_info, e, kViolOverflow, v.t, d, w, v.s.used[q]);
        uint32_t total = v.s.tokens[L.vc(ue, ud, w)] + v.s.used[q] + v.s.owed[q];
        for (uint32_t s = 0; s < L.slots; ++s) {
          const uint64_t b = L.belt(e, s, d), ub = L.belt(ue, s, ud);
          if (v.s.belt_valid[b] && Packet::vc(v.s.belt[b].meta) == w)
            total += charge(v.prm, w, Packet::chunks(v.s.belt[b].meta));
          if (v.s.tok_valid[ub]) total += v.s.tok_belt[L.tok(ub, w)];
        }
        if (total != cap)
          record_violation(v.s.viol, v.s.viol_info, e, kViolTokens, v.t, d, w, total);
      }
      for (uint32_t s = 0; s < L.slots; ++s) packets += v.s.belt_valid[L.belt(e, s, d)];
    }
    held[e] = packets;
  }
};

}  // namespace ls::bgl
