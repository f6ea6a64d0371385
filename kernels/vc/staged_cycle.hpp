// The vc cycle of one instance's routers stage by stage, the CPU backend's schedule: each stage
// runs over a list of the routers that have work for it, gathered without a branch, instead of
// every router asking each stage whether it has work. Those answers are as random as the
// traffic, so the questions were often mispredicted, and mispredictions were a third of a
// router-cycle's time. The stages and their results are those of RouterCycle (in the
// phase-by-phase order, which tests show gives the fused cycle's state); a GPU runs RouterCycle,
// one thread per router, and so does the CPU in debug mode.
#pragma once
#include "link_receive.hpp"
#include "route_compute.hpp"
#include "sw_alloc.hpp"
#include "terminal.hpp"
#include "vc_alloc.hpp"

namespace ls {

template <class Shape = AnyShape>
struct StagedCycle {
  VcView v;
  uint32_t* work;   // [E] scratch: the routers with work for a stage (a range uses its slice,
                    // numbering its routers from 0)
  uint64_t* fresh;  // [E] scratch: input VCs routed, then granted, in this cycle

  // Routers [e0, e1), all of one instance (all its routers, or a thread's share of them).
  void range(uint64_t e0, uint64_t e1) const {
    const VcLayout L = Shape::layout(v.lay);  // a local copy: byte stores cannot alias it
    const uint32_t inst = L.inst_of_router(e0);
    const uint64_t R0 = L.router_elem(inst, 0);  // router r of the instance is element R0 + r
    uint32_t* const list = work + e0;
    // The routers that has_work(e) picks, into `list`, without a branch; then stage(e) for each.
    const auto gather = [&](auto has_work) {
      uint32_t n = 0;
      for (uint64_t e = e0; e < e1; ++e) {
        list[n] = static_cast<uint32_t>(e - e0);
        n += has_work(e);
      }
      return n;
    };
    const auto run = [&](uint32_t n, auto stage) {
      for (uint32_t k = 0; k < n; ++k) stage(e0 + list[k]);
    };
    for (uint64_t e = e0; e < e1; ++e) credit_receive<Shape>(v, e);

    // Route computation, for routers with a head waiting.
    run(gather([&](uint64_t e) {
          fresh[e] = 0;
          return v.s.rc_mask[e] != 0;
        }),
        [&](uint64_t e) {
          fresh[e] = route_compute<Shape>(v, e, inst, static_cast<uint32_t>(e - R0));
        });

    // VC allocation, for routers with a VC waiting that was not routed this cycle. Routers left
    // out grant nothing, and `fresh` keeps what they routed: not in their switch allocation's
    // set, so it changes nothing there.
    run(gather([&](uint64_t e) { return va_waiting(v, e, fresh[e]) != 0; }),
        [&](uint64_t e) { fresh[e] = vc_alloc<Shape>(v, e, fresh[e]); });

    // Switch allocation and traversal, for routers with an active VC not granted this cycle.
    run(gather([&](uint64_t e) {
          clear_grants<Shape>(v, e);
          return sa_active(v, e, fresh[e]) != 0;
        }),
        [&](uint64_t e) { sw_alloc<Shape>(v, e, inst, static_cast<uint32_t>(e - R0), fresh[e]); });

    // The terminals, then buffer write for routers with a flit arriving.
    const TerminalOps<Shape> term{v};
    const uint32_t T = v.prm.terminals;
    for (uint32_t k = 0; k < static_cast<uint32_t>(e1 - e0) * T; ++k) {
      const uint32_t node = static_cast<uint32_t>(e0 - R0) * T + k;
      term(L.node_elem(inst, node), inst, node);
    }
    run(gather([&](uint64_t e) {
          const uint8_t* const valid = v.s.in_belt_valid + L.row(e, v.now);
          uint32_t any = 0;
          for (uint32_t p = 0; p < L.ports; ++p) any |= valid[p];
          return any != 0;
        }),
        [&](uint64_t e) { flit_receive<Shape>(v, e); });
  }
};

}  // namespace ls
