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
// which buffer write takes last. Route computation and buffer write take one entry per head and
// per arriving flit rather than per router: how many a router has is random, so a loop over a
// router's heads or ports ended at a mispredicted branch.
//
// Terminals are gathered the same way, each with its router where a router has one terminal
// (meshes and tori), after the routers otherwise: most of them have nothing to do in a cycle,
// and what each has is known at its start (a flit or a credit arriving in its column of the
// router's belts, which no router writes for the current cycle; credits to return; a packet to
// start or inject; a creation due). Arriving credits are taken in the gather itself.
#pragma once
#include <type_traits>

#include "link_receive.hpp"
#include "route_compute.hpp"
#include "sw_alloc.hpp"
#include "terminal.hpp"
#include "vc_alloc.hpp"

namespace ls {

// The staged schedule's scratch (a range of routers uses its slices, numbering its routers and
// their terminals from 0): two lists of router numbers with their masks, for the allocators, two
// lists of entries router * 64 + index (push_bits), and three lists of terminals.
struct StagedScratch {
  uint64_t stride;       // E
  uint32_t* lists;       // [2, E] routers to VC-allocate, to switch-allocate
  uint64_t* masks;       // [2, E] their input VCs, beside them
  uint32_t head_width;   // entries per router of `heads` (ports x VCs) and of `arrivals`
  uint32_t port_width;   // (ports), at least 2 each (push_bits)
  uint32_t* heads;       // [E, head_width] heads to route: (router, input VC)
  uint32_t* arrivals;    // [E, port_width] flits to write: (router, input port)
  uint64_t node_stride;  // N: the terminals of every instance
  uint32_t* node_lists;  // [3, N] terminals that receive, send, and create a packet
};

// Appends an entry k * 64 + b for each set bit b of m to `list`, which holds n; returns the new
// count. A router mostly has none, one or two, so the first two are written without a branch
// (the slot after the last entry may be written too: with at least two slots per router in a
// list, a range's writes stay in its slice).
LS_FORCEINLINE uint32_t push_bits(uint32_t* list, uint32_t n, uint32_t k, uint64_t m) {
  constexpr uint64_t kStop = 1ull << 63;  // makes lowest_bit64 defined when m is empty
  list[n] = k << 6 | lowest_bit64(m | kStop);
  n += m != 0;
  m &= m - 1;
  list[n] = k << 6 | lowest_bit64(m | kStop);
  n += m != 0;
  m &= m - 1;
  for (; m; m &= m - 1) list[n++] = k << 6 | lowest_bit64(m);
  return n;
}

// The terminals of a range of routers with something to do this cycle, in three lists (numbered
// from the range's first terminal ne0), gathered as the routers are and run in the order of
// TerminalOps::operator(): receive, credits in (taken in the gather), send, create.
struct TerminalLists {
  uint32_t *rx, *tx, *gen;
  uint64_t ne0;
  uint32_t nrx = 0, ntx = 0, ngen = 0;
  TerminalLists(const StagedScratch& s, uint64_t first)
      : rx(s.node_lists + first), tx(rx + s.node_stride), gen(tx + s.node_stride), ne0(first) {}
  // Terminal k at `at`; its arriving credits are taken here unless `credits_taken`.
  template <class Ops>
  void gather(const Ops& term, uint32_t k, const typename Ops::Place& at, bool credits_taken) {
    const uint64_t ne = ne0 + k;
    const bool arriving = term.v.s.in_belt_valid[at.col] != 0;
    if (!credits_taken) term.credit_in(ne, at);
    rx[nrx] = k;
    nrx += term.receiving(ne, arriving);
    tx[ntx] = k;
    ntx += term.sending(ne, arriving);
    gen[ngen] = k;
    ngen += term.generating(ne);
  }
  template <class Ops>
  void run(const Ops& term, uint32_t inst, uint32_t n0) const {
    for (uint32_t i = 0; i < nrx; ++i)
      term.receive(ne0 + rx[i], n0 + rx[i], term.place(inst, n0 + rx[i]));
    for (uint32_t i = 0; i < ntx; ++i)
      term.send(ne0 + tx[i], inst, n0 + tx[i], term.place(inst, n0 + tx[i]));
    for (uint32_t i = 0; i < ngen; ++i)
      term.source().generate(ne0 + gen[i], term.v.traffic[inst], n0 + gen[i], ne0 + gen[i]);
  }
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
    uint32_t* const va_list = scratch.lists + e0;
    uint32_t* const sa_list = va_list + E;
    uint64_t* const va_wait = scratch.masks + e0;
    uint64_t* const sa_wait = va_wait + E;
    uint32_t* const heads = scratch.heads + e0 * scratch.head_width;
    uint32_t* const arrivals = scratch.arrivals + e0 * scratch.port_width;
    // With a delay of 0 a stage also takes what the stage before might hand on: as masks.
    const uint64_t rc_to_va = Shape::routing_delay(v.prm) == 0 ? ~0ull : 0;
    const uint64_t va_to_sa = Shape::vc_alloc_delay(v.prm) == 0 ? ~0ull : 0;

    const TerminalOps<Shape> term{v};
    const uint32_t T = Shape::terminals(v.prm), n0 = static_cast<uint32_t>(e0 - R0) * T;
    TerminalLists tl(scratch, L.node_elem(inst, n0));
    uint32_t nrc = 0, nva = 0, nsa = 0, nfr = 0;
    // Each router's belt row of this cycle, stepped from router to router.
    const uint64_t row_step = uint64_t{L.slots} * L.width;
    uint64_t row = L.row(e0, v.now);
    for (uint64_t e = e0; e < e1; ++e, row += row_step) {
      constexpr bool kWithTerminal = terminal_credits_with_router<Shape>();
      if (kWithTerminal && T == 1)  // the terminal's credits too: its column is in the same row
        credit_receive_with_terminal<Shape>(v, e, row, tl.ne0 + (e - e0));
      else
        credit_receive<Shape>(v, e, row);
      clear_grants<Shape>(v, e);
      const uint32_t k = static_cast<uint32_t>(e - e0);
      const uint64_t rc = v.s.rc_mask[e], va = v.s.va_mask[e], sa = v.s.sa_mask[e];
      const uint64_t to_va = va | (rc & rc_to_va), to_sa = sa | (to_va & va_to_sa);
      nrc = push_bits(heads, nrc, k, rc);
      va_list[nva] = k;
      va_wait[nva] = va;
      nva += to_va != 0;
      sa_list[nsa] = k;
      sa_wait[nsa] = sa;
      nsa += to_sa != 0;
      nfr = push_bits(arrivals, nfr, k, arriving_ports<Shape>(v, v.s.in_belt_valid + row));
      if (T == 1)  // its terminal, in the row just read: terminal n0 + k of router n0 + k
        tl.gather(term, k, term.place_at(e, n0 + k, row + L.ports, n0 + k), kWithTerminal);
    }
    if (T != 1)
      for (uint32_t k = 0; k < static_cast<uint32_t>(e1 - e0) * T; ++k)
        tl.gather(term, k, term.place(inst, n0 + k), false);
    // Route computation, compiled for each kind of network: routing's tests of it fold away.
    const auto route_heads = [&](auto topo) {
      for (uint32_t k = 0; k < nrc; ++k) {
        const uint64_t e = e0 + (heads[k] >> 6);
        route_compute_one<Shape>(v, e, inst, static_cast<uint32_t>(e - R0), heads[k] & 63, topo);
      }
    };
    switch (v.prm.topo) {
      case TopologyKind::kMesh:
        route_heads(std::integral_constant<TopologyKind, TopologyKind::kMesh>{});
        break;
      case TopologyKind::kTorus:
        route_heads(std::integral_constant<TopologyKind, TopologyKind::kTorus>{});
        break;
      case TopologyKind::kCrossbar:
        route_heads(std::integral_constant<TopologyKind, TopologyKind::kCrossbar>{});
        break;
    }
    for (uint32_t k = 0; k < nva; ++k) {
      const uint64_t e = e0 + va_list[k];
      vc_alloc<Shape>(v, e, rc_to_va ? v.s.va_mask[e] : va_wait[k]);
    }
    const InstanceSlots slots = instance_slots(v, inst);
    for (uint32_t k = 0; k < nsa; ++k) {
      const uint64_t e = e0 + sa_list[k];
      sw_alloc<Shape>(v, e, static_cast<uint32_t>(e - R0), slots,
                      va_to_sa ? v.s.sa_mask[e] : sa_wait[k]);
    }
    tl.run(term, inst, n0);
    for (uint32_t k = 0; k < nfr; ++k)
      flit_receive_one<Shape>(v, e0 + (arrivals[k] >> 6), arrivals[k] & 63);
  }
};

}  // namespace ls
