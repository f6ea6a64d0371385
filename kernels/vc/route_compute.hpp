// Route computation: a head flit at the front of an idle input VC (written in an earlier
// cycle) gets its output port and VC range; VC allocation may start routing_delay cycles later.
#pragma once
#include "../common/round_robin.hpp"
#include "link_receive.hpp"
#include "routing.hpp"

namespace ls {

// The violation of input VC b of router e, whose front flit is not a head.
template <class Shape>
LS_HD void not_head(const VcView& v, uint64_t e, uint32_t b) {
  const VcLayout L = Shape::layout(v.lay);
  const uint32_t p = b / L.vcs, vc = b - p * L.vcs;
  const uint64_t iv = L.vc(e, p, vc);
  record_violation(v.s.viol, v.s.viol_info, e, kViolNotHead, v.t, p, vc,
                   v.s.buf[L.slot(e, p, vc, v.s.ivc_head[iv])].seq);
}

// The head at the front of input VC b (port * vcs + vc) of router e (router r of instance
// inst) gets its route; returns whether it did (a flit that is not a head is a violation,
// recorded here with kRecord, else by the caller: not_head). `topo` is the network's kind,
// v.prm.topo (a constant where the caller is compiled for one).
template <class Shape, bool kRecord = true>
LS_HD LS_FORCEINLINE bool route_head(const VcView& v, uint64_t e, uint32_t inst, uint32_t r,
                                     uint32_t b, TopologyKind topo) {
  const VcLayout L = Shape::layout(v.lay);  // a local copy: byte stores cannot alias it
  const VcPolicy pol = Shape::policy(v.prm.pol);
  const uint32_t p = b / L.vcs, vc = b - p * L.vcs;
  const uint64_t iv = L.vc(e, p, vc);
  const Flit& f = v.s.buf[L.slot(e, p, vc, v.s.ivc_head[iv])];
  if (!FlitMeta::head(f.meta)) {
    if constexpr (kRecord) not_head<Shape>(v, e, b);
    return false;
  }
  const uint32_t elem = (r * L.ports + p) * L.vcs + vc;  // same draw whatever the batch
  const uint32_t cls = pol.classes == 1 ? 0 : FlitMeta::cls(f.meta);  // folds for kPlain
  RouteResult rr = route(v.prm, topo, pol, v.topo.coords[r], p, vc, f.dest, v.topo.coords[f.dest],
                         cls, v.traffic[inst].seed, v.t, elem);
  v.s.ivc_route_port[iv] = rr.port;
  v.s.ivc_escape[iv] = vc_range(rr.lo, rr.hi);
  if (pol.routing == Routing::kMinAdaptive || pol.flow == FlowControl::kVct)
    v.s.ivc_route[iv] = RouteRecord{vc_range(rr.adapt_lo, rr.adapt_hi), rr.adapt_ports,
                                    static_cast<uint16_t>(FlitMeta::size(f.meta))};
  v.s.ivc_state[iv] = kIvcVcAlloc;
  if (Shape::track_ready(v.prm))
    v.s.ivc_ready[iv] = static_cast<uint32_t>(v.t + Shape::routing_delay(v.prm));
  return true;
}

// Route computation of router e's waiting heads; returns the input VCs routed (now waiting for
// VC allocation).
template <class Shape = AnyShape>
LS_HD inline uint64_t route_compute(const VcView& v, uint64_t e, uint32_t inst, uint32_t r) {
  uint64_t rc = v.s.rc_mask[e], routed = 0;
  for (uint64_t m = rc; m; m &= m - 1) {
    const uint32_t b = lowest_bit64(m);
    if (!route_head<Shape>(v, e, inst, r, b, v.prm.topo)) continue;
    rc &= ~(1ull << b);
    routed |= 1ull << b;
  }
  v.s.rc_mask[e] = rc;
  v.s.va_mask[e] |= routed;
  return routed;
}

// Route computation of one waiting head, input VC b of router e, in a network of kind `topo`.
template <class Shape = AnyShape>
LS_HD LS_FORCEINLINE void route_compute_one(const VcView& v, uint64_t e, uint32_t inst, uint32_t r,
                                            uint32_t b, TopologyKind topo) {
  if (!route_head<Shape>(v, e, inst, r, b, topo)) return;
  v.s.rc_mask[e] &= ~(1ull << b);
  v.s.va_mask[e] |= 1ull << b;
}

struct RouteCompute {
  VcView v;
  LS_HD void operator()(uint64_t e) const {
    route_compute(v, e, v.lay.inst_of_router(e), v.lay.router_of(e));
  }
};

}  // namespace ls
