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

// Cycles [t0, t0 + cycles) of elements [e0, e0 + n) of a cycle functor (a family's RouterCycle:
// a view `v` and operator()(e)). f0 is its functor for cycle t0; `f` is room for two copies in
// memory each block shares (its shared memory on a GPU). Cycle c reads copy c & 1, while the
// leader sets the other's clock for cycle c + 1: that copy was last read in cycle c - 1, before
// its barrier, so each cycle needs one barrier and no thread keeps a copy of the view of its own
// (a copy per thread spills it to local memory: docs/performance.md). With a hot list (a block
// that runs one instance, `inst`), those arrays live in `chip` for the launch (hot_state.hpp).
// kLanes: threads an element (run.lanes; 1, or a tile of kTileLanes: tile.hpp).
#ifdef __CUDACC__
#pragma nv_exec_check_disable
#endif
template <uint32_t kLanes = 1, class Block, class Cycle>
LS_HD void block_cycles(const Block& b, const Cycle& f0, Cycle* f, uint64_t t0, uint64_t cycles,
                        uint64_t e0, uint64_t n, const HotList& hot = {},
                        unsigned char* chip = nullptr, uint64_t inst = 0) {
  static_assert(std::is_trivially_copyable<Cycle>::value, "a cycle functor is copied as bytes");
  b.leader([&] {
    f[0] = f0;
    f[1] = f0;
  });
  if (hot.count) {
    hot_copy(b, hot, f0.v, chip, inst, true);
    b.barrier();
    b.leader([&] {
      hot_rebase(b, hot, f0.v, f[0].v, chip, inst);
      f[1] = f[0];  // its clock is set for cycle 1 in cycle 0
    });
  }
  b.barrier();
  for (uint64_t c = 0; c < cycles; ++c) {
    const Cycle& now = f[c & 1];
    if constexpr (kLanes == 1)
      b.lanes(n, [&](uint64_t k) { now(e0 + k); });
    else
      b.template tiles<kLanes>(n,
                               [&](const auto& t, uint64_t k) { element_cycle(t, now, e0 + k); });
    b.leader([&] { set_clock(f[(c + 1) & 1].v, t0 + c + 1); });
    b.barrier();
  }
  if (hot.count) hot_copy(b, hot, f0.v, chip, inst, false);
}

}  // namespace ls
