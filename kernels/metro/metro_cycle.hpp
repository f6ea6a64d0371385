// One clock of a METRO network: every router (crossbar.hpp) and every endpoint (endpoint.hpp)
// reads the words arriving on its ports and writes only its own state and the belt slots its
// words enter, so all elements of a batch run as one parallel step, in any order.
#pragma once
#include "crossbar.hpp"
#include "endpoint.hpp"

namespace ls::metro {

struct MetroCycle {
  MetroView v;

  LS_HD void operator()(uint64_t e) const {
    const uint32_t inst = static_cast<uint32_t>(e / v.lay.elems),
                   x = static_cast<uint32_t>(e % v.lay.elems);
    if (x < v.lay.routers) {
      Crossbar(v, inst, x).clock();
    } else {
      Endpoint(v, inst, x - v.lay.routers).clock();
    }
  }
  // The elements [e0, e1) of one instance, on one CPU thread (CpuExec::run_cycles).
  void range(uint64_t e0, uint64_t e1) const {
    for (uint64_t e = e0; e < e1; ++e) (*this)(e);
  }
};

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
      busy[e] = v.s.src_mode[ne] != kSrcIdle && !v.s.src_acked[ne];
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
