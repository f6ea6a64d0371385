// The whole vc cycle of one router and its terminals as a single element: the phases in their
// order (credits in, route computation, VC allocation, switch allocation and traversal, the
// terminals, then buffer write). Routers interact only through belts with a spare slot, so
// running every router's phases in one step gives bit-identical results to one step per phase
// (a test checks this) with one synchronisation per cycle instead of six.
#pragma once
#include "link_receive.hpp"
#include "route_compute.hpp"
#include "sw_alloc.hpp"
#include "terminal.hpp"
#include "vc_alloc.hpp"

namespace ls {

template <class Shape = AnyShape>
struct RouterCycle : CycleForms<RouterCycle<Shape>> {
  VcView v;
  // The routers [e0, e1) of one instance, on one CPU thread (the CPU runs StagedCycle unless
  // run.schedule asks for the GPU's schedules).
  void range(uint64_t e0, uint64_t e1) const {
    for (uint64_t e = e0; e < e1; ++e) (*this)(e);
  }

  // The lane form (run.lanes = "tile", kernels/common/tile.hpp: lanes<true>): credits in and
  // buffer write a port a lane, route computation an input VC a lane, both allocators' requests
  // and commits an input VC a lane with their matchings on every lane alike (vc_alloc_lanes,
  // sw_alloc_lanes), switch traversal a matched port a lane, the terminals a lane each. What a
  // lane finds (routes, VCs joined, violations, mask changes) reaches the router's masks through
  // fold_or or a choice every lane makes alike, so no two lanes write one word.
  // The role form (run.roles, tile.hpp: one_lane<false>, lanes<false>): the cycle without the
  // terminals, and each terminal as an item of its own. A terminal touches only its own state
  // and its columns of its router's belts (the flit and credit of this cycle's row, the injected
  // flit and the returned credit in later rows), so it may run before, during or after its
  // router.
  // A router's terminals are nodes [r * T, r * T + T) (vc_setup.cpp checks the tables).
  LS_HD uint32_t roles() const { return Shape::terminals(v.prm); }
  LS_HD void role(uint64_t e, uint32_t k) const {
    const VcLayout L = Shape::layout(v.lay);
    const uint32_t inst = L.inst_of_router(e), n = L.router_of(e) * roles() + k;
    TerminalOps<Shape>{v}(L.node_elem(inst, n), inst, n);
  }

 private:
  friend struct CycleForms<RouterCycle>;
  template <bool kTerminals>
  LS_HD LS_FORCEINLINE void one_lane(uint64_t e) const {
    const VcLayout L = Shape::layout(v.lay);  // a local copy: byte stores cannot alias it
    const uint32_t inst = L.inst_of_router(e), r = L.router_of(e);
    credit_receive<Shape>(v, e, L.row(e, v.now));
    // Each stage tells the next what it did this cycle: those VCs are not ready for it yet.
    const uint64_t routed = route_compute<Shape>(v, e, inst, r);
    const uint64_t granted = vc_alloc<Shape>(v, e, va_waiting(v, e, routed));
    clear_grants<Shape>(v, e);
    sw_alloc<Shape>(v, e, r, instance_slots(v, inst), sa_active(v, e, granted));
    if constexpr (kTerminals)
      for (uint32_t k = 0; k < roles(); ++k) role(e, k);
    flit_receive<Shape>(v, e);
  }
  template <bool kTerminals, class Tile>
  LS_HD void lanes(const Tile& t, uint64_t e) const {
    const VcLayout L = Shape::layout(v.lay);
    const uint32_t inst = L.inst_of_router(e), r = L.router_of(e), PV = L.ports * L.vcs;
    const uint64_t row = L.row(e, v.now);
    int8_t* const cr = v.s.cr_belt + row;
    uint8_t* const credits = v.s.ovc_credits + e * PV;
    t.each(L.ports, [&](uint32_t p) { credit_receive_port(cr, credits, L.vcs, p); });
    // A VC whose front flit is not a head stays in rc_mask unrouted, as route_compute leaves it.
    const uint64_t rc = v.s.rc_mask[e];
    const uint64_t routed = t.fold_or(PV, [&](uint32_t b) -> uint64_t {
      return (rc >> b & 1) && route_head<Shape, false>(v, e, inst, r, b, v.prm.topo) ? 1ull << b
                                                                                     : 0;
    });
    t.single([&] {
      if (const uint64_t bad = rc & ~routed) not_head<Shape>(v, e, lowest_bit64(bad));
      v.s.rc_mask[e] = rc & ~routed;
      v.s.va_mask[e] |= routed;
    });
    const uint64_t granted = vc_alloc_lanes<Shape>(t, v, e, va_waiting(v, e, routed));
    sw_alloc_lanes<Shape>(t, v, e, r, instance_slots(v, inst), sa_active(v, e, granted));
    if constexpr (kTerminals) t.each(roles(), [&](uint32_t k) { role(e, k); });
    const uint8_t* const valid = v.s.in_belt_valid + row;
    const Joined j = t.fold_or(L.ports, [&](uint32_t p) {
      Joined x{0, 0, 0, 0};
      if (valid[p] && !BufferWrite<Shape>(v, e).template port<false>(p, x.rc, x.sa))
        x.overflow = 1u << p;
      return x;
    });
    if (j.rc | j.sa | j.overflow)
      t.single([&] {
        v.s.rc_mask[e] |= j.rc;
        v.s.sa_mask[e] |= j.sa;
        if (j.overflow) BufferWrite<Shape>(v, e).overflow(lowest_bit(j.overflow));
      });
  }

  // What buffer write's lanes found: the input VCs a flit joined, idle (rc) or active (sa), and
  // the ports whose flit found its VC full.
  struct Joined {
    uint64_t rc, sa;
    uint32_t overflow, unused;
    LS_HD Joined operator|(const Joined& o) const {
      return {rc | o.rc, sa | o.sa, overflow | o.overflow, 0};
    }
  };
};

}  // namespace ls
