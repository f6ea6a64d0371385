// Many cycles in one launch: a group of threads (a GPU thread block, a whole cooperative grid,
// or a CPU loop standing in for either) advances a range of elements through several cycles,
// with one barrier between cycles. The lockstep rule makes this exact: inside a cycle elements
// read only what no element writes in that cycle (their own state, the belt slot of `now`), so
// the only ordering they need is "every element's cycle c before any element's cycle c + 1".
//
// The schedule is written once against a small Block interface, so the CPU runs the very code
// the GPU does:
//   b.lanes(n, g)  calls g(k) for every k in [0, n), each k on one of the group's threads, in
//                  any order (the CPU's CpuBlock can run them reversed or shuffled, to show the
//                  order does not matter);
//   b.tiles<G>(n, g) calls g(t, k) for every k in [0, n), each k on a tile t of G of the group's
//                  threads (tile.hpp), in any order, as lanes() does;
//   b.roles<G>(n, per, g) calls g.router<G>(t, k) for every k in [0, n) on a tile t of G
//                  threads (one lane: G = 1) and g.role(k, j) for every j in [0, per) on threads
//                  of their own, all in any order (run.roles: tile.hpp's role form);
//   b.leader(g)    calls g() on one thread of each block (a block's shared memory is its own);
//   b.barrier()    waits until every thread of the group has arrived, and makes their writes
//                  visible to each other;
//   b.hide(p, n)   marks n bytes of global memory as not to be read until the launch ends (the
//                  hot arrays' slices, whose copies are on chip: hot_state.hpp); a GPU does
//                  nothing, the CPU overwrites them.
#pragma once
#include <cstdint>
#include <type_traits>

#include "cycle_view.hpp"
#include "hd.hpp"
#include "hot_state.hpp"
#include "tile.hpp"

namespace ls {

// Element e0 + k's cycle, on a lane or a tile: a functor whose call is inlined by force, as a
// lambda's need not be (Blue Gene/L's tile cycle was called, its view then reached through a
// generic pointer: every state access generic; docs/performance.md).
template <class Cycle>
struct ElementCycle {
  const Cycle& f;
  uint64_t e0;
#ifdef __CUDACC__
#pragma nv_exec_check_disable
#endif
  LS_HD LS_FORCEINLINE void operator()(uint64_t k) const {
    f(e0 + k);
  }
#ifdef __CUDACC__
#pragma nv_exec_check_disable
#endif
  template <class Tile>
  LS_HD LS_FORCEINLINE void operator()(const Tile& t, uint64_t k) const {
    element_cycle(t, f, e0 + k);
  }
  // The role form's parts (run.roles): the element's cycle without its roles on kLanes threads
  // (t unused on one lane), and its role j.
#ifdef __CUDACC__
#pragma nv_exec_check_disable
#endif
  template <uint32_t kLanes, class Tile>
  LS_HD LS_FORCEINLINE void router(const Tile& t, uint64_t k) const {
    if constexpr (kLanes == 1)
      f.router(e0 + k);
    else
      f.router_tile(t, e0 + k);
  }
#ifdef __CUDACC__
#pragma nv_exec_check_disable
#endif
  LS_HD LS_FORCEINLINE void role(uint64_t k, uint32_t j) const {
    f.role(e0 + k, j);
  }
};

// Cycles [t0, t0 + cycles) of elements [e0, e0 + n) of a cycle functor f (a family's
// RouterCycle: a view `v` and operator()(e)) whose clock is per thread (clock_per_thread): each
// thread moves its own clock (thread_clock) after each cycle's barrier, so the view never
// changes during a launch and each cycle needs one barrier. f0: the functor as the caller put it
// (a GPU kernel's parameter, whose state pointers the compiler then knows to be global:
// run.block_view = "parameter"). kLanes: threads an element (run.lanes; 1, or a tile of
// kTileLanes: tile.hpp); kRoles: the element's one-lane stages on threads of their own
// (run.roles).
#ifdef __CUDACC__
#pragma nv_exec_check_disable
#endif
template <uint32_t kLanes = 1, bool kRoles = false, class Block, class Cycle>
LS_HD LS_FORCEINLINE void block_cycles(const Block& b, const Cycle& f, uint64_t t0, uint64_t cycles,
                                       uint64_t e0, uint64_t n) {
  static_assert(std::is_trivially_copyable<Cycle>::value, "a cycle functor is copied as bytes");
  const uint32_t slots = f.v.lay.slots;
  const ElementCycle<Cycle> element{f, e0};
  ThreadClock& clock = thread_clock();
  clock = {t0, belt_slot(t0, slots), 0};
  for (uint64_t c = 0; c < cycles; ++c) {
    if constexpr (kRoles)
      b.template roles<kLanes>(n, f.roles(), element);
    else if constexpr (kLanes == 1)
      b.lanes(n, element);
    else
      b.template tiles<kLanes>(n, element);
    b.barrier();
    tick(clock, slots);
  }
}

// The same cycles run on `room`, a copy of f0 in memory the block shares (run.block_view =
// "shared"), with a hot list (a block that runs one instance, `inst`) whose arrays live in `chip`
// for the launch and whose pointers in the copy are rebased onto them (hot_state.hpp).
#ifdef __CUDACC__
#pragma nv_exec_check_disable
#endif
template <uint32_t kLanes = 1, bool kRoles = false, class Block, class Cycle>
LS_HD LS_FORCEINLINE void block_cycles_shared(const Block& b, const Cycle& f0, Cycle* room,
                                              uint64_t t0, uint64_t cycles, uint64_t e0, uint64_t n,
                                              const HotList& hot = {},
                                              unsigned char* chip = nullptr, uint64_t inst = 0) {
  if (hot.count) {
    hot_copy(b, hot, f0.v, chip, inst, true);
    b.barrier();
  }
  b.leader([&] {
    *room = f0;
    hot_rebase(b, hot, f0.v, room->v, chip, inst);
  });
  b.barrier();
  block_cycles<kLanes, kRoles>(b, *room, t0, cycles, e0, n);
  if (hot.count) hot_copy(b, hot, f0.v, chip, inst, false);
}

}  // namespace ls
