// VC allocation: input VCs whose head has been routed request free output VCs in their route's
// range; iSLIP (grant by the output VC's round-robin pointer, accept by the input VC's, pointers
// moved only on a first-iteration accept) or a separable input-first round-robin allocator.
// An input accepts the granted VC with the most room downstream. An output VC is requestable only
// when the downstream buffer can take the whole packet if flow control is virtual cut-through, and
// always for an adaptive VC: a packet must never hold an adaptive VC it cannot enter (the VC may
// still hold an earlier packet), or adaptive VCs could form a cycle of committed packets and defeat
// the escape sub-network (Duato's condition; the T3E's whole-packet admission).
#pragma once
#include "../common/round_robin.hpp"
#include "link_receive.hpp"

namespace ls {

namespace vc_alloc_detail {

// What one requesting input VC asks for, read once per cycle.
struct Request {
  uint16_t i;  // input VC, port*vcs + vc
  uint16_t adapt_ports;
  uint8_t port, lo, hi, adapt_lo, adapt_hi;
  uint16_t size;  // packet size (virtual cut-through admission)
  // 0 no, 1 escape (dimension order), 2 adaptive
  LS_HD int kind(uint32_t op, uint32_t ov) const {
    if (((adapt_ports >> op) & 1u) && ov >= adapt_lo && ov <= adapt_hi) return 2;
    return (op == port && ov >= lo && ov <= hi) ? 1 : 0;
  }
  // Calls f(op, ov, kind) for every output VC this request names (adaptive ones first).
  template <class F>
  LS_HD void for_each_candidate(F f) const {
    for (uint32_t m = adapt_ports; m; m &= m - 1) {
      const uint32_t op = lowest_bit(m);
      for (uint32_t ov = adapt_lo; ov <= adapt_hi; ++ov) f(op, ov, 2);
    }
    for (uint32_t ov = lo; ov <= hi; ++ov)
      if (kind(port, ov) == 1) f(port, ov, 1);
  }
};

struct RouterVa {
  const VcView& v;
  uint64_t e;
  uint32_t P, V, PV;
  // Is output VC (op, ov) free, and, where required, can it take the whole packet?
  LS_HD bool available(const Request& q, uint32_t op, uint32_t ov, int kind) const {
    const uint64_t o = v.lay.vc(e, op, ov);
    if (v.s.ovc_owner[o] != kNone) return false;
    const bool whole = v.prm.flow == FlowControl::kVct || kind == 2;
    return !whole || v.s.ovc_credits[o] >= q.size;
  }
  LS_HD void commit(const Request& q, uint32_t op, uint32_t ov, bool move_pointers) const {
    const uint64_t iv = e * PV + q.i, o = v.lay.vc(e, op, ov);
    v.s.ovc_owner[o] = static_cast<int16_t>(q.i);
    v.s.ivc_out_port[iv] = static_cast<int8_t>(op);
    v.s.ivc_out_vc[iv] = static_cast<uint8_t>(ov);
    v.s.ivc_state[iv] = kIvcActive;
    v.s.ivc_ready[iv] = static_cast<uint32_t>(v.t + v.prm.vc_alloc_delay);
    v.s.va_mask[e] &= ~(1ull << q.i);
    v.s.sa_mask[e] |= 1ull << q.i;  // its head is still in the buffer
    if (move_pointers) {
      v.s.ovc_va_ptr[o] = static_cast<uint16_t>(next_mod(q.i, PV));
      v.s.ivc_va_ptr[iv] = static_cast<uint16_t>(next_mod(op * V + ov, PV));
    }
  }
  // The input's pick among acceptable output VCs (the selection function): with adaptive
  // routing the most free downstream buffer, then adaptive before escape; then round-robin from
  // the input's pointer (dimension order uses round-robin alone, as BookSim's allocators do).
  // Always preferring adaptive VCs would crowd every packet into them and leave the escape VCs
  // idle (8x8 mesh, 2 VCs, uniform: saturation 0.20 instead of 0.28). Returns
  // port*vcs+vc or -1.
  template <class Acceptable>
  LS_HD int input_choice(const Request& q, Acceptable acceptable) const {
    const uint32_t ptr = v.s.ivc_va_ptr[e * PV + q.i];
    const bool adaptive = v.prm.routing == Routing::kMinAdaptive;
    int best = -1;
    uint32_t best_rank = 0;
    q.for_each_candidate([&](uint32_t op, uint32_t ov, int kind) {
      if (!acceptable(op, ov) || !available(q, op, ov, kind)) return;
      const uint32_t o = op * V + ov;
      const uint32_t room = adaptive ? v.s.ovc_credits[v.lay.vc(e, op, ov)] : 0;
      const uint32_t rank =
          (room << 16) | (static_cast<uint32_t>(kind) << 12) | (PV - add_mod(o, PV - ptr, PV));
      if (rank > best_rank) best_rank = rank, best = static_cast<int>(o);
    });
    return best;
  }
};

}  // namespace vc_alloc_detail

LS_HD inline void vc_alloc(const VcView& v, uint64_t e) {
  using namespace vc_alloc_detail;
  const VcLayout L = v.lay;  // a local copy: byte stores cannot alias it
  const uint32_t P = L.ports, V = L.vcs, PV = P * V;
  Request req[kMaxPorts * kMaxVcs];
  int nreq = 0;
  for (uint64_t m = v.s.va_mask[e]; m; m &= m - 1) {
    const uint32_t i = lowest_bit64(m);
    const uint64_t iv = e * PV + i;
    if (v.s.ivc_ready[iv] > v.t) continue;
    Request& q = req[nreq++];
    q.i = static_cast<uint16_t>(i);
    q.port = v.s.ivc_route_port[iv];
    q.lo = v.s.ivc_route_lo[iv];
    q.hi = v.s.ivc_route_hi[iv];
    q.adapt_ports = v.s.ivc_adapt_ports[iv];
    q.adapt_lo = v.s.ivc_adapt_lo[iv];
    q.adapt_hi = v.s.ivc_adapt_hi[iv];
    const uint32_t p = i / V;
    q.size = static_cast<uint16_t>(
        FlitMeta::size(v.s.buf.meta[L.slot(e, p, i - p * V, v.s.ivc_head[iv])]));
  }
  if (nreq == 0) return;
  RouterVa R{v, e, P, V, PV};

  if (v.prm.vc_alloc == Allocator::kSeparableInputFirst) {
    int16_t choice[kMaxPorts * kMaxVcs];
    for (int k = 0; k < nreq; ++k)
      choice[k] =
          static_cast<int16_t>(R.input_choice(req[k], [](uint32_t, uint32_t) { return true; }));
    for (int k = 0; k < nreq;
         ++k) {  // each chosen output VC takes the first chooser from its pointer
      if (choice[k] < 0) continue;
      const uint32_t o = static_cast<uint32_t>(choice[k]), op = o / V, ov = o - op * V;
      const uint32_t ptr = v.s.ovc_va_ptr[L.vc(e, op, ov)];
      int win = k;
      uint32_t best = add_mod(req[k].i, PV - ptr, PV);
      for (int j = k + 1; j < nreq; ++j) {
        if (choice[j] != choice[k]) continue;
        const uint32_t key = add_mod(req[j].i, PV - ptr, PV);
        if (key < best) best = key, win = j;
        choice[j] = -1;  // decided here
      }
      R.commit(req[win], op, ov, true);
    }
    return;
  }

  // iSLIP. Grant: each free output VC named by a request takes the requester first from its
  // pointer. Accept: each requester takes the granting VC first from its own pointer.
  bool matched[kMaxPorts * kMaxVcs];
  int16_t grant[kMaxPorts * kMaxVcs];
  uint16_t grant_key[kMaxPorts * kMaxVcs];
  for (int k = 0; k < nreq; ++k) matched[k] = false;
  for (uint32_t iter = 0; iter < v.prm.alloc_iters; ++iter) {
    for (uint32_t o = 0; o < PV; ++o) grant[o] = -1, grant_key[o] = static_cast<uint16_t>(PV);
    bool any = false;
    for (int k = 0; k < nreq; ++k) {
      if (matched[k]) continue;
      req[k].for_each_candidate([&](uint32_t op, uint32_t ov, int kind) {
        if (!R.available(req[k], op, ov, kind)) return;
        const uint32_t o = op * V + ov;
        const uint32_t key = add_mod(req[k].i, PV - v.s.ovc_va_ptr[L.vc(e, op, ov)], PV);
        if (key < grant_key[o])
          grant_key[o] = static_cast<uint16_t>(key), grant[o] = static_cast<int16_t>(k);
        any = true;
      });
    }
    if (!any) break;
    for (int k = 0; k < nreq; ++k) {
      if (matched[k]) continue;
      const int o =
          R.input_choice(req[k], [&](uint32_t op, uint32_t ov) { return grant[op * V + ov] == k; });
      if (o < 0) continue;
      matched[k] = true;
      R.commit(req[k], static_cast<uint32_t>(o) / V, static_cast<uint32_t>(o) % V, iter == 0);
    }
  }
}

struct VcAlloc {
  VcView v;
  LS_HD void operator()(uint64_t e) const { vc_alloc(v, e); }
};

}  // namespace ls
