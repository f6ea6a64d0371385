// VC allocation: input VCs whose head has been routed request free output VCs in their route's
// range; iSLIP (grant by the output VC's round-robin pointer, accept by the input VC's, pointers
// moved only on a first-iteration accept) or a separable input-first round-robin allocator.
// Adaptive candidates are accepted before escape ones. With virtual cut-through an output VC is
// requestable only when the downstream buffer can take the whole packet.
#pragma once
#include "link_receive.hpp"

namespace ls {

struct VcAlloc {
  VcView v;

  struct Router {
    const VcView& v;
    uint64_t e;
    uint32_t r, PV;
    LS_HD bool adaptive_ok(uint64_t iv, uint32_t op, uint32_t ov) const {
      return ((v.s.ivc_adapt_ports[iv] >> op) & 1u) && ov >= v.s.ivc_adapt_lo[iv] &&
             ov <= v.s.ivc_adapt_hi[iv];
    }
    // Does input VC i (port*vcs+vc) request output VC o, and is o free to give?
    LS_HD int requests(uint32_t i, uint32_t o) const {  // 0 no, 1 escape, 2 adaptive
      const VcLayout& L = v.lay;
      const uint64_t iv = e * PV + i, ov_i = e * PV + o;
      const uint32_t op = o / L.vcs, ov = o % L.vcs;
      if (v.s.ovc_owner[ov_i] != kNone) return 0;
      int kind = adaptive_ok(iv, op, ov) ? 2 : 0;
      if (!kind && op == v.s.ivc_route_port[iv] && ov >= v.s.ivc_route_lo[iv] &&
          ov <= v.s.ivc_route_hi[iv])
        kind = 1;
      if (!kind) return 0;
      if (v.prm.flow == FlowControl::kVct && v.topo.port_node[r * L.ports + op] < 0) {
        const uint64_t f = L.slot(e, i / L.vcs, i % L.vcs, v.s.ivc_head[iv]);
        if (v.s.ovc_credits[ov_i] < FlitMeta::size(v.s.buf.meta[f])) return 0;
      }
      return kind;
    }
    LS_HD void commit(uint32_t i, uint32_t o, bool move_pointers) const {
      const uint64_t iv = e * PV + i, ov_i = e * PV + o;
      v.s.ovc_owner[ov_i] = static_cast<int16_t>(i);
      v.s.ivc_out[iv] = static_cast<int16_t>(o);
      v.s.ivc_state[iv] = kIvcActive;
      v.s.ivc_ready[iv] = static_cast<uint32_t>(v.t + v.prm.vc_alloc_delay);
      if (move_pointers) {
        v.s.ovc_va_ptr[ov_i] = static_cast<uint16_t>((i + 1) % PV);
        v.s.ivc_va_ptr[iv] = static_cast<uint16_t>((o + 1) % PV);
      }
    }
    // Output VC in round-robin order from input i's pointer among `allowed` ones, preferring
    // adaptive candidates; -1 if none.
    template <class Allowed>
    LS_HD int input_choice(uint32_t i, Allowed allowed) const {
      const uint32_t ptr = v.s.ivc_va_ptr[e * PV + i];
      int best = -1, best_kind = 0;
      for (uint32_t k = 0; k < PV; ++k) {
        uint32_t o = (ptr + k) % PV;
        if (!allowed(o)) continue;
        int kind = requests(i, o);
        if (kind > best_kind) {
          best = static_cast<int>(o);
          best_kind = kind;
          if (kind == 2) break;
        }
      }
      return best;
    }
  };

  LS_HD void operator()(uint64_t e) const {
    const VcLayout& L = v.lay;
    const uint32_t PV = L.ports * L.vcs;
    Router R{v, e, L.router_of(e), PV};
    int16_t req[kMaxPorts * kMaxVcs];
    int nreq = 0;
    for (uint32_t i = 0; i < PV; ++i) {
      const uint64_t iv = e * PV + i;
      if (v.s.ivc_state[iv] == kIvcVcAlloc && v.s.ivc_ready[iv] <= v.t)
        req[nreq++] = static_cast<int16_t>(i);
    }
    if (nreq == 0) return;

    if (v.prm.vc_alloc == Allocator::kSeparableInputFirst) {
      int16_t choice[kMaxPorts * kMaxVcs];
      for (int k = 0; k < nreq; ++k)
        choice[k] = static_cast<int16_t>(R.input_choice(req[k], [](uint32_t) { return true; }));
      for (uint32_t o = 0; o < PV; ++o) {
        const uint32_t ptr = v.s.ovc_va_ptr[e * PV + o];
        int win = -1;
        uint32_t best = PV;
        for (int k = 0; k < nreq; ++k) {
          if (choice[k] != static_cast<int16_t>(o)) continue;
          uint32_t key = (req[k] + PV - ptr) % PV;
          if (key < best) best = key, win = req[k];
        }
        if (win >= 0) R.commit(static_cast<uint32_t>(win), o, true);
      }
      return;
    }

    // iSLIP.
    bool matched[kMaxPorts * kMaxVcs];
    for (int k = 0; k < nreq; ++k) matched[k] = false;
    int16_t grant[kMaxPorts * kMaxVcs];
    for (uint32_t iter = 0; iter < v.prm.alloc_iters; ++iter) {
      bool any = false;
      for (uint32_t o = 0; o < PV; ++o) {
        grant[o] = -1;
        const uint32_t ptr = v.s.ovc_va_ptr[e * PV + o];
        uint32_t best = PV;
        for (int k = 0; k < nreq; ++k) {
          if (matched[k] || !R.requests(req[k], o)) continue;
          uint32_t key = (req[k] + PV - ptr) % PV;
          if (key < best) best = key, grant[o] = static_cast<int16_t>(k);
        }
        any |= grant[o] >= 0;
      }
      if (!any) break;
      for (int k = 0; k < nreq; ++k) {
        if (matched[k]) continue;
        int o = R.input_choice(req[k], [&](uint32_t oo) { return grant[oo] == k; });
        if (o < 0) continue;
        matched[k] = true;
        R.commit(req[k], static_cast<uint32_t>(o), iter == 0);
      }
    }
  }
};

}  // namespace ls
