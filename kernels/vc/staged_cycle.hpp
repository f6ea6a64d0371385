// The vc cycle of one instance's routers stage by stage, the CPU backend's schedule: each stage
// runs over a list of the routers that have work for it, instead of every router asking each
// stage whether it has work. Those answers are as random as the traffic, so the questions were
// often mispredicted, and mispredictions were a third of a router-cycle's time. The stages and
// their results are those of RouterCycle (in the phase-by-phase order, which tests show gives
// the fused cycle's state); a GPU runs RouterCycle, one thread per router, and so does the CPU in
// debug mode.
//
// All four lists are gathered, without branches, in one pass over the routers at the start of
// the cycle, together with credit receive. That is possible because each stage's work is known
// then: route computation takes the heads waiting at the start of the cycle, and while
// routing_delay and vc_alloc_delay are 1 or more, VC allocation takes the VCs that waited for it
// at the start (those routed in this cycle are not ready yet) and switch allocation the VCs that
// were active at the start (those granted in this cycle are not ready yet); the masks of the
// start of the cycle travel in the lists. With a delay of 0 a stage also takes what the stage
// before it did in the same cycle, so its list takes every router the earlier stage might touch
// and it reads the masks as that stage left them. No stage writes a router's arriving flits,
// which buffer write takes last.
#pragma once
#include "link_receive.hpp"
#include "route_compute.hpp"
#include "sw_alloc.hpp"
#include "terminal.hpp"
#include "vc_alloc.hpp"

namespace ls {

// The staged schedule's scratch: four lists of router numbers and two of masks, each [E] (a
// range of routers uses its slice, numbering its routers from 0).
struct StagedScratch {
  uint64_t stride;  // E
  uint32_t* lists;  // [4, E] routers to route, VC-allocate, switch-allocate, and write flits into
  uint64_t* masks;  // [2, E] the VC and switch allocators' input VCs, beside their lists
};

template <class Shape = AnyShape>
struct StagedCycle {
  VcView v;
  StagedScratch scratch;

  // Routers [e0, e1), all of one instance (all its routers, or a thread's share of them).
  void range(uint64_t e0, uint64_t e1) const {
    const VcLayout L = Shape::layout(v.lay);  // a local copy: byte stores cannot alias it
    const uint32_t inst = L.inst_of_router(e0);
    const uint64_t R0 = L.router_elem(inst, 0);  // router r of the instance is element R0 + r
    const uint64_t E = scratch.stride;
    uint32_t* const rc_list = scratch.lists + e0;
    uint32_t* const va_list = rc_list + E;
    uint32_t* const sa_list = va_list + E;
    uint32_t* const fr_list = sa_list + E;
    uint64_t* const va_wait = scratch.masks + e0;
    uint64_t* const sa_wait = va_wait + E;
    // With a delay of 0 a stage also takes what the stage before might hand on: as masks.
    const uint64_t rc_to_va = v.prm.routing_delay == 0 ? ~0ull : 0;
    const uint64_t va_to_sa = v.prm.vc_alloc_delay == 0 ? ~0ull : 0;

    uint32_t nrc = 0, nva = 0, nsa = 0, nfr = 0;
    for (uint64_t e = e0; e < e1; ++e) {
      credit_receive<Shape>(v, e);
      clear_grants<Shape>(v, e);
      const uint32_t k = static_cast<uint32_t>(e - e0);
      const uint64_t rc = v.s.rc_mask[e], va = v.s.va_mask[e], sa = v.s.sa_mask[e];
      const uint64_t to_va = va | (rc & rc_to_va), to_sa = sa | (to_va & va_to_sa);
      const bool arrived = flits_arriving<Shape>(v, v.s.in_belt_valid + L.row(e, v.now));
      rc_list[nrc] = k;
      nrc += rc != 0;
      va_list[nva] = k;
      va_wait[nva] = va;
      nva += to_va != 0;
      sa_list[nsa] = k;
      sa_wait[nsa] = sa;
      nsa += to_sa != 0;
      fr_list[nfr] = k;
      nfr += arrived;
    }
    for (uint32_t k = 0; k < nrc; ++k) {
      const uint64_t e = e0 + rc_list[k];
      route_compute<Shape>(v, e, inst, static_cast<uint32_t>(e - R0));
    }
    for (uint32_t k = 0; k < nva; ++k) {
      const uint64_t e = e0 + va_list[k];
      vc_alloc<Shape>(v, e, rc_to_va ? v.s.va_mask[e] : va_wait[k]);
    }
    for (uint32_t k = 0; k < nsa; ++k) {
      const uint64_t e = e0 + sa_list[k];
      sw_alloc<Shape>(v, e, inst, static_cast<uint32_t>(e - R0),
                      va_to_sa ? v.s.sa_mask[e] : sa_wait[k]);
    }
    const TerminalOps<Shape> term{v};
    const uint32_t T = v.prm.terminals;
    for (uint32_t k = 0; k < static_cast<uint32_t>(e1 - e0) * T; ++k) {
      const uint32_t node = static_cast<uint32_t>(e0 - R0) * T + k;
      term(L.node_elem(inst, node), inst, node);
    }
    for (uint32_t k = 0; k < nfr; ++k) flit_receive<Shape>(v, e0 + fr_list[k]);
  }
};

}  // namespace ls
