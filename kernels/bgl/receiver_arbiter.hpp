// Arbitration, phase 2 (paper, "Torus network"): each receiver presents at most one of its VC
// FIFOs' requests per cycle. A high-priority packet wins; otherwise the modified SLQ by the
// FIFOs' two-bit fullness (slq.hpp) among the buffered packets, and a packet on the bypass
// channel (flowing through an idle FIFO while its tail arrives) only when no other requests: "A
// packet on the bypass channel always receives the lowest priority unless it is a high-priority
// packet".
#pragma once
#include "jsq_request.hpp"
#include "slq.hpp"

namespace ls::bgl {

struct ReceiverArbiter {
  const BglView& v;
  const Node& n;

  // The VC whose request receiver d presents (req: each VC's phase-1 request; bypass: bit w set
  // when VC w's request is its bypass channel's), or kNoRequest.
  LS_HD uint32_t operator()(uint32_t d, const Request* req, uint32_t bypass) const {
    const BglParams& p = v.prm;
    if (req[priority_vc(p)].any()) return priority_vc(p);
    uint8_t vc[kMaxVcs], full[kMaxVcs];
    uint32_t count = 0, through = kNoRequest;
    for (uint32_t w = 0; w < v.lay.vcs; ++w) {
      if (!req[w].any()) continue;
      if ((bypass >> w) & 1u) {
        through = w;
        continue;
      }
      vc[count] = static_cast<uint8_t>(w);
      full[count++] = static_cast<uint8_t>(range4(v.s.used[v.lay.vc(n.e, d, w)], capacity(p, w)));
    }
    if (count == 0) return through;
    if (count == 1) return vc[0];
    return vc[slq_pick(p, arbiter_draw(v, n, 64 + d), full, count)];
  }
};

}  // namespace ls::bgl
