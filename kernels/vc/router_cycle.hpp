// The whole vc cycle of one router and its terminals as a single element: the phases in their
// order (buffer write, route computation, VC allocation, switch allocation and traversal, then
// the terminals). Routers interact only through belts with a spare slot, so running every
// router's phases in one step gives bit-identical results to one step per phase (a test checks
// this) with one synchronisation per cycle instead of five.
#pragma once
#include "link_receive.hpp"
#include "route_compute.hpp"
#include "sw_alloc.hpp"
#include "terminal.hpp"
#include "vc_alloc.hpp"

namespace ls {

struct RouterCycle {
  VcView v;
  LS_HD void operator()(uint64_t e) const {
    const VcLayout L = v.lay;  // a local copy: byte stores cannot alias it
    const uint32_t inst = L.inst_of_router(e), r = L.router_of(e);
    link_receive(v, e, inst, r);
    route_compute(v, e, inst, r);
    vc_alloc(v, e);
    sw_alloc(v, e);
    const TerminalOps term{v};
    for (uint32_t p = 0; p < L.ports; ++p) {
      const int32_t node = v.topo.port_node[r * L.ports + p];
      if (node >= 0)
        term(L.node_elem(inst, static_cast<uint32_t>(node)), inst, static_cast<uint32_t>(node));
    }
  }
};

}  // namespace ls
