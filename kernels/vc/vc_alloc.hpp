// VC allocation: input VCs whose head has been routed request free output VCs in their route's
// range; iSLIP (grant by the output VC's round-robin pointer, accept by the input VC's, pointers
// moved only on a first-iteration accept) or a separable input-first round-robin allocator.
// An output VC is requestable only when the downstream buffer can take the whole packet if flow
// control is virtual cut-through, and always for an adaptive VC: a packet must never hold an
// adaptive VC it cannot enter (the VC may still hold an earlier packet), or adaptive VCs could
// form a cycle of committed packets and defeat the escape sub-network (Duato's condition; the
// T3E's whole-packet admission).
#pragma once
#include "../common/round_robin.hpp"
#include "link_receive.hpp"

namespace ls {

namespace vc_alloc_detail {

// What one requesting input VC asks for, read once per cycle.
struct Request : RouteRecord {
  uint16_t i;  // input VC, port*vcs + vc
  uint8_t port;
  // Calls f(op, ov, adaptive) for the output VCs this request names, adaptive ones first, until
  // f returns true; says whether one did. The escape range (on `port`) and the adaptive range
  // never overlap (routing.hpp).
  template <class F>
  LS_HD bool any_candidate(F f) const {
    for (uint32_t m = adapt_ports; m; m &= m - 1) {
      const uint32_t op = lowest_bit(m);
      for (uint32_t ov = adapt_lo; ov <= adapt_hi; ++ov)
        if (f(op, ov, true)) return true;
    }
    for (uint32_t ov = lo; ov <= hi; ++ov)
      if (f(port, ov, false)) return true;
    return false;
  }
  // Calls f(op, ov, adaptive) for every output VC this request names.
  template <class F>
  LS_HD void for_each_candidate(F f) const {
    any_candidate(
        [&](uint32_t op, uint32_t ov, bool adaptive) { return f(op, ov, adaptive), false; });
  }
};

// One router's VC allocator: its slices of the state, in locals so byte stores never force a
// reload, indexed by input VC i or output VC o = port*vcs + vc.
struct RouterVa {
  uint32_t V, PV;
  uint64_t t;
  uint32_t vc_alloc_delay;
  bool vct, adaptive;
  int16_t* owner;
  const uint8_t* credits;
  uint16_t* ovc_ptr;
  uint16_t* ivc_ptr;
  int8_t* out_port;
  uint8_t* out_vc;
  uint8_t* state;
  uint32_t* ready;
  uint64_t *va_mask, *sa_mask;

  // Is output VC o free, and, where required, can it take the whole packet?
  LS_HD bool available(const Request& q, uint32_t o, bool adaptive_vc) const {
    if (owner[o] != kNone) return false;
    return !(vct || adaptive_vc) || credits[o] >= q.size;
  }
  // Does the request name an available output VC at all?
  LS_HD bool any_available(const Request& q) const {
    return q.any_candidate([&](uint32_t op, uint32_t ov, bool adaptive_vc) {
      return available(q, op * V + ov, adaptive_vc);
    });
  }
  LS_HD void commit(const Request& q, uint32_t o, bool move_pointers) const {
    const uint32_t i = q.i;
    owner[o] = static_cast<int16_t>(i);
    out_port[i] = static_cast<int8_t>(o / V);
    out_vc[i] = static_cast<uint8_t>(o % V);
    state[i] = kIvcActive;
    ready[i] = static_cast<uint32_t>(t + vc_alloc_delay);
    *va_mask &= ~(1ull << i);
    *sa_mask |= 1ull << i;  // its head is still in the buffer
    if (move_pointers) {
      ovc_ptr[o] = static_cast<uint16_t>(next_mod(i, PV));
      ivc_ptr[i] = static_cast<uint16_t>(next_mod(o, PV));
    }
  }
  // The input's pick among acceptable output VCs (the selection function): with adaptive
  // routing the most free downstream buffer, then adaptive before escape; then round-robin from
  // the input's pointer (dimension order uses round-robin alone, as BookSim's allocators do).
  // Always preferring adaptive VCs would crowd every packet into them and leave the escape VCs
  // idle (8x8 mesh, 2 VCs, uniform: saturation 0.20 instead of 0.28). Returns o or -1.
  template <class Acceptable>
  LS_HD int input_choice(const Request& q, Acceptable acceptable) const {
    const uint32_t ptr = ivc_ptr[q.i];
    int best = -1;
    uint32_t best_rank = 0;
    q.for_each_candidate([&](uint32_t op, uint32_t ov, bool adaptive_vc) {
      const uint32_t o = op * V + ov;
      if (!acceptable(o) || !available(q, o, adaptive_vc)) return;
      const uint32_t room = adaptive ? credits[o] : 0;
      const uint32_t rank = (room << 16) | (static_cast<uint32_t>(adaptive_vc ? 2 : 1) << 12) |
                            (PV - add_mod(o, PV - ptr, PV));
      if (rank > best_rank) best_rank = rank, best = static_cast<int>(o);
    });
    return best;
  }
};

}  // namespace vc_alloc_detail

template <class Shape = AnyShape>
LS_HD inline void vc_alloc(const VcView& v, uint64_t e) {
  using namespace vc_alloc_detail;
  const VcLayout L = Shape::layout(v.lay);  // a local copy: byte stores cannot alias it
  const uint32_t V = L.vcs, PV = L.ports * V;
  const uint64_t ive = e * PV;
  if (v.s.va_mask[e] == 0) return;
  const RouterVa R{V,
                   PV,
                   v.t,
                   v.prm.vc_alloc_delay,
                   v.prm.flow == FlowControl::kVct,
                   v.prm.routing == Routing::kMinAdaptive,
                   v.s.ovc_owner + ive,
                   v.s.ovc_credits + ive,
                   v.s.ovc_va_ptr + ive,
                   v.s.ivc_va_ptr + ive,
                   v.s.ivc_out_port + ive,
                   v.s.ivc_out_vc + ive,
                   v.s.ivc_state + ive,
                   v.s.ivc_ready + ive,
                   v.s.va_mask + e,
                   v.s.sa_mask + e};
  // The requests of this cycle. One that names no available output VC can neither be granted
  // nor accept, and moves no pointer: it is left out, which changes nothing.
  Request req[kMaxPortVcs];
  int nreq = 0;
  for (uint64_t m = *R.va_mask; m; m &= m - 1) {
    const uint32_t i = lowest_bit64(m);
    if (R.ready[i] > v.t) continue;
    const uint64_t iv = ive + i;
    Request& q = req[nreq];
    static_cast<RouteRecord&>(q) = v.s.ivc_route[iv];
    q.i = static_cast<uint16_t>(i);
    q.port = v.s.ivc_route_port[iv];
    nreq += R.any_available(q);
  }
  if (nreq == 0) return;
  const auto all = [](uint32_t) { return true; };

  // A lone request wins whatever its input picks, under either allocator (every available
  // output VC grants it; pointers move as on a first-iteration accept).
  if (nreq == 1) {
    const int o = R.input_choice(req[0], all);
    if (o >= 0) R.commit(req[0], static_cast<uint32_t>(o), true);
    return;
  }

  if (v.prm.vc_alloc == Allocator::kSeparableInputFirst) {
    int16_t choice[kMaxPortVcs];
    for (int k = 0; k < nreq; ++k) choice[k] = static_cast<int16_t>(R.input_choice(req[k], all));
    for (int k = 0; k < nreq;
         ++k) {  // each chosen output VC takes the first chooser from its pointer
      if (choice[k] < 0) continue;
      const uint32_t o = static_cast<uint32_t>(choice[k]), ptr = R.ovc_ptr[o];
      int win = k;
      uint32_t best = add_mod(req[k].i, PV - ptr, PV);
      for (int j = k + 1; j < nreq; ++j) {
        if (choice[j] != choice[k]) continue;
        const uint32_t key = add_mod(req[j].i, PV - ptr, PV);
        if (key < best) best = key, win = j;
        choice[j] = -1;  // decided here
      }
      R.commit(req[win], o, true);
    }
    return;
  }

  // iSLIP. Grant: each free output VC named by a request takes the requester first from its
  // pointer. Accept: each requester takes the granting VC first from its own pointer.
  bool matched[kMaxPortVcs];
  int16_t grant[kMaxPortVcs];
  uint16_t grant_key[kMaxPortVcs];
  for (int k = 0; k < nreq; ++k) matched[k] = false;
  for (uint32_t iter = 0; iter < v.prm.alloc_iters; ++iter) {
    bool any = false;
    for (int k = 0; k < nreq; ++k) {  // reset the entries this round can touch
      if (matched[k]) continue;
      req[k].for_each_candidate([&](uint32_t op, uint32_t ov, bool) {
        grant[op * V + ov] = -1, grant_key[op * V + ov] = static_cast<uint16_t>(PV);
      });
    }
    for (int k = 0; k < nreq; ++k) {
      if (matched[k]) continue;
      req[k].for_each_candidate([&](uint32_t op, uint32_t ov, bool adaptive_vc) {
        const uint32_t o = op * V + ov;
        if (!R.available(req[k], o, adaptive_vc)) return;
        const uint32_t key = add_mod(req[k].i, PV - R.ovc_ptr[o], PV);
        if (key < grant_key[o])
          grant_key[o] = static_cast<uint16_t>(key), grant[o] = static_cast<int16_t>(k);
        any = true;
      });
    }
    if (!any) break;
    for (int k = 0; k < nreq; ++k) {
      if (matched[k]) continue;
      const int o = R.input_choice(req[k], [&](uint32_t o) { return grant[o] == k; });
      if (o < 0) continue;
      matched[k] = true;
      R.commit(req[k], static_cast<uint32_t>(o), iter == 0);
    }
  }
}

struct VcAlloc {
  VcView v;
  LS_HD void operator()(uint64_t e) const { vc_alloc(v, e); }
};

}  // namespace ls
