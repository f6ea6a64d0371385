// Debug mode's checks of one T3E router after a clock: no credit count above its buffer's size,
// and the flits the router holds (input buffers, and everything on the belts ending at it) for
// the host's conservation check: injected - ejected = held by all routers.
#pragma once
#include "../common/violation.hpp"
#include "t3e_state.hpp"

namespace ls::t3e {

struct CheckInvariants {
  T3eView v;
  uint64_t* held;  // [inst, R]

  LS_HD void operator()(uint64_t e) const {
    const T3eLayout& L = v.lay;
    uint64_t n = 0;
    for (uint32_t p = 0; p < kPorts; ++p)
      for (uint32_t vc = 0; vc < kVcs; ++vc) {
        const uint64_t k = L.vc(e, p, vc);
        n += v.s.ivc_count[k];
        if (v.s.ovc_credits[k] > L.credit_capacity(p, vc))
          record_violation(v.s.viol, v.s.viol_info, e, kViolCredits, v.t, p, vc,
                           v.s.ovc_credits[k]);
      }
    for (uint32_t s = 0; s < L.slots; ++s)
      for (uint32_t c = 0; c < kWidth; ++c) n += v.s.in_valid[L.row(e, s) + c];
    held[e] = n;
  }
};

}  // namespace ls::t3e
