// METRO's debug invariants, checked after every clock in debug mode (the others, a belt slot
// written twice, a connection routed to the wrong endpoint, a bad checksum, a word lost to a
// reply, are recorded where they happen).
#pragma once
#include "metro_state.hpp"

namespace ls::metro {

// Debug mode: every crossbar connection is mirrored on its other port; `busy` counts the
// messages each endpoint holds unacknowledged (conservation against started - acked).
struct CheckInvariants {
  MetroView v;
  uint64_t* busy;  // [inst, elem]

  LS_HD void operator()(uint64_t e) const {
    const uint32_t inst = static_cast<uint32_t>(e / v.lay.elems),
                   x = static_cast<uint32_t>(e % v.lay.elems);
    busy[e] = 0;
    if (x >= v.lay.routers) {
      const uint64_t ne = v.lay.node(inst, x - v.lay.routers);
      busy[e] = v.s.src_mode[ne] != kSrcIdle && v.s.src_acked[ne] != kDone;
      return;
    }
    const uint32_t s = v.topo.stage[x], P = 2 * v.prm.radix[s] * v.prm.dilation[s];
    for (uint32_t p = 0; p < P; ++p) {
      const uint8_t c = v.s.conn[v.lay.rport(inst, x, p)];
      if (c != kNone8 && (c >= P || v.s.conn[v.lay.rport(inst, x, c)] != p))
        record_violation(v.s.viol, v.s.viol_info, e, kViolConn, v.t, p, 0, c);
    }
  }
};

}  // namespace ls::metro
