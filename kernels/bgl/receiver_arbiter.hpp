// Arbitration, phase 2 (paper, "Torus network"): each receiver presents at most one of its VC
// FIFOs' requests per cycle. A high-priority packet wins; otherwise the modified SLQ by the
// FIFOs' two-bit fullness (slq.hpp).
#pragma once
#include "jsq_request.hpp"
#include "slq.hpp"

namespace ls::bgl {

struct ReceiverArbiter {
  const BglView& v;
  const Node& n;

  // The VC whose request receiver d presents (req: each VC's phase-1 request), or kNoRequest.
  LS_HD uint32_t operator()(uint32_t d, const Request* req) const {
    const BglParams& p = v.prm;
    if (req[priority_vc(p)].any()) return priority_vc(p);
    uint8_t vc[kMaxVcs], full[kMaxVcs];
    uint32_t count = 0;
    for (uint32_t w = 0; w < v.lay.vcs; ++w) {
      if (!req[w].any()) continue;
      vc[count] = static_cast<uint8_t>(w);
      full[count++] = static_cast<uint8_t>(range4(v.s.used[v.lay.vc(n.e, d, w)], capacity(p, w)));
    }
    if (count == 0) return kNoRequest;
    if (count == 1) return vc[0];
    return vc[slq_pick(p, arbiter_draw(v, n, 64 + d), full, count)];
  }
};

}  // namespace ls::bgl
