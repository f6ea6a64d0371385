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
#include "../common/tile.hpp"
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
  // Input VC i wins output VC o: its own state (commit_vc), then the router's masks (commit
  // does both; a matching of several commits each VC, then the masks once).
  LS_HD LS_FORCEINLINE void commit_vc(uint32_t i, uint32_t o, bool move_pointers) const {
    out_port[i] = static_cast<int8_t>(o / V);
    out_vc[i] = static_cast<uint8_t>(o % V);
    state[i] = kIvcActive;
    if (track_ready) ready[i] = static_cast<uint32_t>(t + vc_alloc_delay);
    if (move_pointers) {
      ovc_ptr[o] = static_cast<uint8_t>(next_mod(i, PV));
      ivc_ptr[i] = static_cast<uint8_t>(next_mod(o, PV));
    }
  }
  // The masks after input VCs `won` took output VCs, `owned_now` the router's owned VCs since.
  LS_HD LS_FORCEINLINE void commit_masks(uint64_t won, uint64_t owned_now) const {
    *owned = owned_now;
    *va_mask &= ~won;
    *sa_mask |= won;  // their heads are still in the buffer
  }
  LS_HD LS_FORCEINLINE void commit(const Request& q, uint32_t o, bool move_pointers) const {
    commit_vc(q.i, o, move_pointers);
    commit_masks(1ull << q.i, *owned | 1ull << o);
  }
  // The input's pick among `offered` (a non-empty set of its available output VCs), the
  // selection function: with adaptive routing the most free downstream buffer, then adaptive
  // before escape; then round-robin from the input's pointer (dimension order uses round-robin
  // alone, as BookSim's allocators do). Always preferring adaptive VCs would crowd every packet
  // into them and leave the escape VCs idle (8x8 mesh, 2 VCs, uniform: saturation 0.20 instead
  // of 0.28).
  // (Input VC i; `adapt` its request's adaptive VCs.)
  LS_HD uint32_t input_choice(uint32_t i, uint64_t adapt, uint64_t offered) const {
    const uint32_t ptr = ivc_ptr[i];
    if (!adaptive) return rr_first(offered, ptr);
    uint32_t best = 0, best_rank = 0;
    for (uint64_t m = offered; m; m &= m - 1) {
      const uint32_t o = lowest_bit64(m);
      const uint32_t rank = (static_cast<uint32_t>(credits[o]) << 16) |
                            ((adapt >> o & 1 ? 2u : 1u) << 12) | (PV - add_mod(o, PV - ptr, PV));
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
  if (a) R.commit(q, R.input_choice(i, q.adaptive, a), true);
}

// VC allocation's outcome (va_decide): the input VCs that won an output VC, the output VC each
// won, those whose win moves the round-robin pointers (a first-iteration accept), and the
// router's owned output VCs after.
template <class Shape>
struct VaMatch {
  uint64_t won, moved, owned;
  uint8_t out[Shape::kMaxPV];
};

// The matching of router e's requests (allocator R): the input VCs `asking` (ready, and naming
// an available output VC), avail_of(i) the output VCs available to input VC i at the start,
// adapt_of(i) its request's adaptive VCs. iSLIP (grant by the output VC's round-robin pointer,
// accept by the input VC's) or separable input-first. It writes nothing: an output VC taken
// leaves the later iterations' requests (they read avail_of(i) less what is owned since: the
// credits a request's availability reads do not change during allocation), and no pointer it
// reads can have moved (a won input or output VC is not asked again), so a lane form runs it on
// every lane alike.
template <class Shape, class AvailOf, class AdaptOf>
LS_HD inline void va_decide(const VcView& v, const RouterVa& R, uint64_t asking,
                            const AvailOf& avail_of, const AdaptOf& adapt_of, VaMatch<Shape>& M) {
  const VcPolicy pol = Shape::policy(v.prm.pol);
  M.won = M.moved = 0;
  M.owned = *R.owned;
  const auto win = [&](uint32_t i, uint32_t o, bool first_iteration) {
    M.won |= 1ull << i;
    M.moved |= static_cast<uint64_t>(first_iteration) << i;
    M.out[i] = static_cast<uint8_t>(o);
    M.owned |= 1ull << o;
  };
  const auto choice = [&](uint32_t i, uint64_t offered) {
    return R.input_choice(i, adapt_of(i), offered);
  };
  // Requests that name no output VC in common (a lone one, say) each win what their input
  // picks, under either allocator: every output VC they name has one requester and grants it,
  // and pointers move as on a first-iteration accept.
  uint64_t named = 0, shared = 0;  // output VCs named by a request, and by more than one
  for (uint64_t m = asking; m; m &= m - 1) {
    const uint64_t a = avail_of(lowest_bit64(m));
    shared |= named & a;
    named |= a;
  }
  if (!shared) {
    for (uint64_t m = asking; m; m &= m - 1) {
      const uint32_t i = lowest_bit64(m);
      win(i, choice(i, avail_of(i)), true);
    }
    return;
  }
  // Round-robin among the input VCs in `from` (a mask over input VCs) from output VC o's pointer.
  const auto output_choice = [&](uint64_t from, uint32_t o) {
    return rr_first(from, R.ovc_ptr[o]);
  };
  // Per output VC: the input VCs asking it (entries valid in `asked`).
  uint64_t from[Shape::kMaxPV];
  if (pol.vc_alloc == Allocator::kSeparableInputFirst) {
    // Each input VC chooses one output VC; each chosen output VC takes one of its choosers.
    uint64_t asked = 0;
    for (uint64_t m = asking; m; m &= m - 1) {
      const uint32_t i = lowest_bit64(m), o = choice(i, avail_of(i));
      from[o] = (asked >> o & 1 ? from[o] : 0) | 1ull << i;
      asked |= 1ull << o;
    }
    for (uint64_t m = asked; m; m &= m - 1) {
      const uint32_t o = lowest_bit64(m);
      win(output_choice(from[o], o), o, true);
    }
    return;
  }
  // iSLIP. Grant: each available output VC named by a request takes the requester first from
  // its pointer. Accept: each requester takes the granting VC first from its own pointer.
  uint64_t unmatched = asking;
  for (uint32_t iter = 0; iter < pol.alloc_iters; ++iter) {
    uint64_t asked = 0;
    for (uint64_t m = unmatched; m; m &= m - 1) {
      const uint32_t i = lowest_bit64(m);
      for (uint64_t n = avail_of(i) & ~M.owned; n; n &= n - 1) {
        const uint32_t o = lowest_bit64(n);
        from[o] = (asked >> o & 1 ? from[o] : 0) | 1ull << i;
        asked |= 1ull << o;
      }
    }
    if (!asked) break;
    uint64_t granted[Shape::kMaxPV], grantees = 0;  // per input VC: the output VCs granting it
    for (uint64_t m = asked; m; m &= m - 1) {
      const uint32_t o = lowest_bit64(m), i = output_choice(from[o], o);
      granted[i] = (grantees >> i & 1 ? granted[i] : 0) | 1ull << o;
      grantees |= 1ull << i;
    }
    for (uint64_t m = grantees; m; m &= m - 1) {
      const uint32_t i = lowest_bit64(m);
      win(i, choice(i, granted[i]), iter == 0);
    }
    unmatched &= ~grantees;
  }
}

// Allocates output VCs to the input VCs in `waiting` (ready or not, two or more) of router e.
template <class Shape>
LS_HD inline void match(const VcView& v, uint64_t e, uint64_t waiting) {
  const RouterVa R = router_va<Shape>(v, e);
  // The requests of this cycle with their available output VCs. One that names no available
  // output VC can neither be granted nor accept, and moves no pointer: it is left out, which
  // changes nothing.
  uint64_t avail[Shape::kMaxPV], adapt[Shape::kMaxPV], asking = 0;
  for (uint64_t m = waiting; m; m &= m - 1) {
    const uint32_t i = lowest_bit64(m);
    if (!R.ready_now(i)) continue;
    const Request q = request<Shape>(v, R, e, i);
    avail[i] = R.available(q);
    adapt[i] = q.adaptive;
    asking |= static_cast<uint64_t>(avail[i] != 0) << i;
  }
  if (asking == 0) return;
  VaMatch<Shape> M;
  va_decide(
      v, R, asking, [&](uint32_t i) { return avail[i]; }, [&](uint32_t i) { return adapt[i]; }, M);
  for (uint64_t m = M.won; m; m &= m - 1) {
    const uint32_t i = lowest_bit64(m);
    R.commit_vc(i, M.out[i], M.moved >> i & 1);
  }
  if (M.won) R.commit_masks(M.won, M.owned);
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

// vc_alloc of router e on a tile's lanes (kernels/common/tile.hpp): each waiting input VC's
// request and available output VCs an input VC a lane, gathered to every lane; the matching on
// every lane alike (va_decide); the winners' commits an input VC a lane and the masks on one.
// Returns the input VCs granted an output VC.
template <class Shape, class Tile>
LS_HD inline uint64_t vc_alloc_lanes(const Tile& tl, const VcView& v, uint64_t e,
                                     uint64_t waiting) {
  using namespace vc_alloc_detail;
  if (waiting == 0) return 0;
  const RouterVa R = router_va<Shape>(v, e);
  // The input VCs asking (ready, with an available output VC: any), and each one's available
  // output VCs (at[i]).
  const FoldMasks<Shape::kMaxPV> g = tl.fold_or(R.PV, [&](uint32_t i) {
    FoldMasks<Shape::kMaxPV> x{};
    if ((waiting >> i & 1) && R.ready_now(i)) {
      x.at[i] = R.available(request<Shape>(v, R, e, i));
      x.any = static_cast<uint64_t>(x.at[i] != 0) << i;
    }
    return x;
  });
  if (g.any == 0) return 0;
  VaMatch<Shape> M;
  va_decide(
      v, R, g.any, [&](uint32_t i) { return g.at[i]; },
      [&](uint32_t i) { return R.adaptive ? request<Shape>(v, R, e, i).adaptive : 0; }, M);
  tl.each(R.PV, [&](uint32_t i) {
    if (M.won >> i & 1) R.commit_vc(i, M.out[i], M.moved >> i & 1);
  });
  if (M.won) tl.single([&] { R.commit_masks(M.won, M.owned); });
  return M.won;
}

struct VcAlloc {
  VcView v;
  LS_HD void operator()(uint64_t e) const { vc_alloc(v, e, va_waiting(v, e, 0)); }
};

}  // namespace ls
