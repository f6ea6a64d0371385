// The per-router activity masks (which input VCs wait for a route, for a VC, for the switch;
// which output VCs have an owner)
// are derived state, kept in step by the stages for speed. This derives them from scratch: after
// set_state() changes the state from outside, and in debug mode to check the stages kept them.
#pragma once
#include "vc_state.hpp"

namespace ls {

struct Masks {
  uint64_t rc, va, sa, owned;
};

LS_HD inline Masks derive_masks(const VcView& v, uint64_t e) {
  const VcLayout L = v.lay;
  Masks m{0, 0, 0, 0};
  for (uint32_t p = 0, b = 0; p < L.ports; ++p)
    for (uint32_t vc = 0; vc < L.vcs; ++vc, ++b) {
      const uint64_t iv = L.vc(e, p, vc), bit = 1ull << b;
      const bool held = v.s.ivc_count[iv] > 0;
      if (v.s.ivc_state[iv] == kIvcIdle && held) m.rc |= bit;
      if (v.s.ivc_state[iv] == kIvcVcAlloc) m.va |= bit;
      if (v.s.ivc_state[iv] == kIvcActive && held) m.sa |= bit;
      const int8_t op = v.s.ivc_out_port[iv];  // the output VC it holds, if any
      if (op >= 0) m.owned |= 1ull << (static_cast<uint32_t>(op) * L.vcs + v.s.ivc_out_vc[iv]);
    }
  return m;
}

struct RebuildMasks {
  VcView v;
  LS_HD void operator()(uint64_t e) const {
    const Masks m = derive_masks(v, e);
    v.s.rc_mask[e] = m.rc;
    v.s.va_mask[e] = m.va;
    v.s.sa_mask[e] = m.sa;
    v.s.owned_mask[e] = m.owned;
  }
};

}  // namespace ls
