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
struct RouterCycle {
  VcView v;
  LS_HD void operator()(uint64_t e) const {
    const VcLayout L = Shape::layout(v.lay);  // a local copy: byte stores cannot alias it
    const uint32_t inst = L.inst_of_router(e), r = L.router_of(e);
    credit_receive<Shape>(v, e, L.row(e, v.now));
    // Each stage tells the next what it did this cycle: those VCs are not ready for it yet.
    const uint64_t routed = route_compute<Shape>(v, e, inst, r);
    const uint64_t granted = vc_alloc<Shape>(v, e, va_waiting(v, e, routed));
    clear_grants<Shape>(v, e);
    sw_alloc<Shape>(v, e, r, instance_slots(v, inst), sa_active(v, e, granted));
    const TerminalOps<Shape> term{v};
    // A router's terminals are nodes [r * T, r * T + T) (vc_setup.cpp checks the tables).
    const uint32_t T = Shape::terminals(v.prm);
    for (uint32_t n = r * T; n < r * T + T; ++n) term(L.node_elem(inst, n), inst, n);
    flit_receive<Shape>(v, e);
  }
  // The routers [e0, e1) of one instance, on one CPU thread (the CPU runs StagedCycle unless
  // run.schedule asks for the GPU's schedules).
  void range(uint64_t e0, uint64_t e1) const {
    for (uint64_t e = e0; e < e1; ++e) (*this)(e);
  }
};

}  // namespace ls
