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

// What one requesting input VC asks for, read once per cycle: the output VCs its route names as
// masks (bit port*vcs + vc, the per-router mask numbering; the two sets never overlap), so
// allocation works on words.
struct Request {
  uint64_t escape;    // dimension-order (escape) VCs on the route's port
  uint64_t adaptive;  // adaptive VCs on every productive port, 0 for dimension order
  uint32_t size;      // the packet's size in flits (read only where admission needs it)
  uint32_t i;         // input VC, port*vcs + vc
  LS_HD Request(uint16_t escape_vcs, const RouteRecord& r, uint32_t port, uint32_t V, uint32_t ivc,
                bool adaptive_routing, bool vct)
      : escape(uint64_t{escape_vcs} << (port * V)), adaptive(0), size(0), i(ivc) {
    // Neither adaptive routing nor VCT (known at compile time for some shapes): no record.
    if (!adaptive_routing && !vct) return;
    size = r.size;
    for (uint32_t m = adaptive_routing ? r.adapt_ports : 0; m; m &= m - 1)
      adaptive |= uint64_t{r.adapt_vcs} << (lowest_bit(m) * V);
  }
  Request() = default;
};

// One router's VC allocator: its slices of the state, in locals so byte stores never force a
// reload, indexed by input VC i or output VC o = port*vcs + vc. Sets of output VCs are bit masks.
struct RouterVa {
  uint32_t V, PV;
  uint64_t t;
  uint32_t vc_alloc_delay;
  bool vct, adaptive, track_ready;
  const uint8_t* credits;
  uint8_t* ovc_ptr;
  uint8_t* ivc_ptr;
  int8_t* out_port;
  uint8_t* out_vc;
  uint8_t* state;
  uint32_t* ready;
  uint64_t *va_mask, *sa_mask, *owned;

  LS_HD bool ready_now(uint32_t i) const { return !track_ready || ready[i] <= t; }
  // The output VCs of the request that are free and, where required, can take the whole packet.
  LS_HD uint64_t available(const Request& q) const {
    uint64_t ok = (q.escape | q.adaptive) & ~*owned;
    for (uint64_t m = ok & (vct ? q.escape | q.adaptive : q.adaptive); m; m &= m - 1) {
      const uint32_t o = lowest_bit64(m);
      ok &= ~(static_cast<uint64_t>(credits[o] < q.size) << o);
    }
    return ok;
  }
  LS_HD LS_FORCEINLINE void commit(const Request& q, uint32_t o, bool move_pointers) const {
    const uint32_t i = q.i;
    *owned |= 1ull << o;
    out_port[i] = static_cast<int8_t>(o / V);
    out_vc[i] = static_cast<uint8_t>(o % V);
    state[i] = kIvcActive;
    if (track_ready) ready[i] = static_cast<uint32_t>(t + vc_alloc_delay);
    *va_mask &= ~(1ull << i);
    *sa_mask |= 1ull << i;  // its head is still in the buffer
    if (move_pointers) {
      ovc_ptr[o] = static_cast<uint8_t>(next_mod(i, PV));
      ivc_ptr[i] = static_cast<uint8_t>(next_mod(o, PV));
    }
  }
  // The input's pick among `offered` (a non-empty set of its available output VCs), the
  // selection function: with adaptive routing the most free downstream buffer, then adaptive
  // before escape; then round-robin from the input's pointer (dimension order uses round-robin
  // alone, as BookSim's allocators do). Always preferring adaptive VCs would crowd every packet
  // into them and leave the escape VCs idle (8x8 mesh, 2 VCs, uniform: saturation 0.20 instead
  // of 0.28).
  LS_HD uint32_t input_choice(const Request& q, uint64_t offered) const {
    const uint32_t ptr = ivc_ptr[q.i];
    if (!adaptive) return rr_first(offered, ptr);
    uint32_t best = 0, best_rank = 0;
    for (uint64_t m = offered; m; m &= m - 1) {
      const uint32_t o = lowest_bit64(m);
      const uint32_t rank = (static_cast<uint32_t>(credits[o]) << 16) |
                            ((q.adaptive >> o & 1 ? 2u : 1u) << 12) |
                            (PV - add_mod(o, PV - ptr, PV));
      if (rank > best_rank) best_rank = rank, best = o;
    }
    return best;
  }
};

// Router e's VC allocator.
template <class Shape>
LS_HD LS_FORCEINLINE RouterVa router_va(const VcView& v, uint64_t e) {
  const VcLayout L = Shape::layout(v.lay);  // a local copy: byte stores cannot alias it
  const VcPolicy pol = Shape::policy(v.prm.pol);
  const uint32_t V = L.vcs, PV = L.ports * V;
  const uint64_t ive = e * PV;
  return RouterVa{V,
                  PV,
                  v.t,
                  Shape::vc_alloc_delay(v.prm),
                  pol.flow == FlowControl::kVct,
                  pol.routing == Routing::kMinAdaptive,
                  Shape::track_ready(v.prm),
                  v.s.ovc_credits + ive,
                  v.s.ovc_va_ptr + ive,
                  v.s.ivc_va_ptr + ive,
                  v.s.ivc_out_port + ive,
                  v.s.ivc_out_vc + ive,
                  v.s.ivc_state + ive,
                  v.s.ivc_ready + ive,
                  v.s.va_mask + e,
                  v.s.sa_mask + e,
                  v.s.owned_mask + e};
}

// Input VC i's request (router e, allocator R).
template <class Shape>
LS_HD LS_FORCEINLINE Request request(const VcView& v, const RouterVa& R, uint64_t e, uint32_t i) {
  const uint64_t iv = e * R.PV + i;
  return Request(v.s.ivc_escape[iv], v.s.ivc_route[iv], v.s.ivc_route_port[iv], R.V, i, R.adaptive,
                 R.vct);
}

// One input VC waiting, i (common under light load), wins what its input picks, if anything is
// available: what the matching below decides then, without its tables.
template <class Shape>
LS_HD LS_FORCEINLINE void match_one(const VcView& v, uint64_t e, uint32_t i) {
  const RouterVa R = router_va<Shape>(v, e);
  if (!R.ready_now(i)) return;
  const Request q = request<Shape>(v, R, e, i);
  const uint64_t a = R.available(q);
  if (a) R.commit(q, R.input_choice(q, a), true);
}

// Allocates output VCs to the input VCs in `waiting` (ready or not, two or more) of router e.
template <class Shape>
LS_HD inline void match(const VcView& v, uint64_t e, uint64_t waiting) {
  const VcPolicy pol = Shape::policy(v.prm.pol);
  const RouterVa R = router_va<Shape>(v, e);
  // The requests of this cycle, in input-VC order, with their available output VCs. One that
  // names no available output VC can neither be granted nor accept, and moves no pointer: it is
  // left out, which changes nothing.
  Request req[Shape::kMaxPV];
  uint64_t avail[Shape::kMaxPV];
  uint8_t k_of[Shape::kMaxPV];  // request number of each requesting input VC
  uint32_t nreq = 0;
  uint64_t named = 0, shared = 0;  // output VCs named by a request, and by more than one
  for (uint64_t m = waiting; m; m &= m - 1) {
    const uint32_t i = lowest_bit64(m);
    if (!R.ready_now(i)) continue;
    Request& q = req[nreq];
    q = request<Shape>(v, R, e, i);
    const uint64_t a = R.available(q);
    avail[nreq] = a;
    shared |= named & a;
    named |= a;
    k_of[i] = static_cast<uint8_t>(nreq);
    nreq += a != 0;
  }
  if (nreq == 0) return;

  // Requests that name no output VC in common (a lone one, say) each win what their input
  // picks, under either allocator: every output VC they name has one requester and grants it,
  // and pointers move as on a first-iteration accept.
  if (!shared) {
    for (uint32_t k = 0; k < nreq; ++k) R.commit(req[k], R.input_choice(req[k], avail[k]), true);
    return;
  }

  // Round-robin among the input VCs in `from` (a mask over input VCs) from output VC o's pointer.
  const auto output_choice = [&](uint64_t from, uint32_t o) {
    return k_of[rr_first(from, R.ovc_ptr[o])];
  };
  // Per output VC: the input VCs asking it (entries valid in `asked`).
  uint64_t from[Shape::kMaxPV];
  if (pol.vc_alloc == Allocator::kSeparableInputFirst) {
    // Each input VC chooses one output VC; each chosen output VC takes one of its choosers.
    uint64_t asked = 0;
    for (uint32_t k = 0; k < nreq; ++k) {
      const uint32_t o = R.input_choice(req[k], avail[k]);
      from[o] = (asked >> o & 1 ? from[o] : 0) | 1ull << req[k].i;
      asked |= 1ull << o;
    }
    for (uint64_t m = asked; m; m &= m - 1) {
      const uint32_t o = lowest_bit64(m);
      R.commit(req[output_choice(from[o], o)], o, true);
    }
    return;
  }

  // iSLIP. Grant: each available output VC named by a request takes the requester first from
  // its pointer. Accept: each requester takes the granting VC first from its own pointer.
  uint64_t unmatched = nreq == 64 ? ~0ull : (1ull << nreq) - 1;  // over request numbers
  for (uint32_t iter = 0; iter < pol.alloc_iters; ++iter) {
    uint64_t asked = 0;
    for (uint64_t m = unmatched; m; m &= m - 1) {
      const uint32_t k = lowest_bit64(m);
      const uint64_t a = iter == 0 ? avail[k] : R.available(req[k]);  // owners changed since
      for (uint64_t n = a; n; n &= n - 1) {
        const uint32_t o = lowest_bit64(n);
        from[o] = (asked >> o & 1 ? from[o] : 0) | 1ull << req[k].i;
        asked |= 1ull << o;
      }
    }
    if (!asked) break;
    uint64_t granted[Shape::kMaxPV], grantees = 0;  // per request: the output VCs granting it
    for (uint64_t m = asked; m; m &= m - 1) {
      const uint32_t o = lowest_bit64(m), k = output_choice(from[o], o);
      granted[k] = (grantees >> k & 1 ? granted[k] : 0) | 1ull << o;
      grantees |= 1ull << k;
    }
    for (uint64_t m = grantees; m; m &= m - 1) {
      const uint32_t k = lowest_bit64(m);
      R.commit(req[k], R.input_choice(req[k], granted[k]), iter == 0);
    }
    unmatched &= ~grantees;
  }
}

}  // namespace vc_alloc_detail

// The input VCs VC allocation considers in router e this cycle: those waiting for an output VC,
// less the heads routed in this same cycle (`routed`), which cannot be ready yet while
// routing_delay is 1 or more. Leaving them out saves a test of each VC's ready cycle that is as
// random as the traffic (a mispredicted branch).
LS_HD inline uint64_t va_waiting(const VcView& v, uint64_t e, uint64_t routed) {
  return v.s.va_mask[e] & ~(v.prm.routing_delay ? routed : 0);
}

// VC allocation of router e over the input VCs `waiting` (va_waiting); returns those granted an
// output VC.
template <class Shape = AnyShape>
LS_HD LS_FORCEINLINE uint64_t vc_alloc(const VcView& v, uint64_t e, uint64_t waiting) {
  if (waiting == 0) return 0;
  if ((waiting & (waiting - 1)) == 0)  // the allocator's one-VC path, inline here
    vc_alloc_detail::match_one<Shape>(v, e, lowest_bit64(waiting));
  else
    vc_alloc_detail::match<Shape>(v, e, waiting);
  return waiting & ~v.s.va_mask[e];
}

struct VcAlloc {
  VcView v;
  LS_HD void operator()(uint64_t e) const { vc_alloc(v, e, va_waiting(v, e, 0)); }
};

}  // namespace ls
