// CPU backend: phases run as Thrust for_each over the OpenMP system (or sequentially with one
// thread), compiled by the host compiler. Memory is plain host memory.
#pragma once
#include <omp.h>
#include <thrust/execution_policy.h>
#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/system/cpp/execution_policy.h>
#include <thrust/system/omp/execution_policy.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <random>
#include <type_traits>
#include <vector>

#include "../../kernels/common/block_cycles.hpp"
#include "host_arena.hpp"
#include "schedule.hpp"
#include "thread_choice.hpp"
#include "write_audit.hpp"

namespace ls {

// A GPU thread block (or cooperative grid) as the CPU runs it: its threads' elements one after
// another between barriers, in the order run.block_order asks for (block_cycles.hpp). Shuffled
// orders differ from one call of lanes() to the next and are fixed by the seed. Each item tells
// the write audit which GPU thread it stands for (write_audit.hpp; nothing outside `make audit`).
class CpuBlock {
 public:
  CpuBlock(BlockOrder order, uint64_t seed) : order_(order), rng_(seed) {}
  template <class G>
  void lanes(uint64_t n, const G& g) const {
    in_order(n, [&](uint64_t k) {
      audit::agent(k);
      g(k);
    });
  }
  template <class G>
  void leader(const G& g) const {
    audit::agent(0);  // a GPU block's thread 0
    g();
  }
  void barrier() const { audit::cycle(); }
  // Garbage where a hot array's slice was: only its copy may be used until the launch ends.
  void hide(void* p, uint64_t n) const { std::memset(p, 0xA5, n); }
  // Each element on a tile whose lanes run in the block's order too.
  template <uint32_t G, class F>
  void tiles(uint64_t n, const F& g) const;
  // The elements without their roles and the roles, all items of one loop in the block's order.
  template <uint32_t G, class F>
  void roles(uint64_t n, uint32_t per, const F& g) const;

 private:
  friend class CpuTile;
  // g(k) for k in [0, n), in the block's order.
  template <class G>
  void in_order(uint64_t n, const G& g) const {
    if (order_ == BlockOrder::kForward) {
      for (uint64_t k = 0; k < n; ++k) g(k);
    } else if (order_ == BlockOrder::kReversed) {
      for (uint64_t k = n; k-- > 0;) g(k);
    } else {  // a vector of its own: a tile's lanes shuffle inside its block's
      std::vector<uint64_t> perm(n);
      std::iota(perm.begin(), perm.end(), uint64_t{0});
      std::shuffle(perm.begin(), perm.end(), rng_);
      for (uint64_t k : perm) g(k);
    }
  }

  BlockOrder order_;
  mutable std::mt19937_64 rng_;
};

// A tile of a block (kernels/common/tile.hpp) as the CPU runs it: its lanes' items one after
// another, in the block's order.
class CpuTile {
 public:
  explicit CpuTile(const CpuBlock& b) : block_(b) {}
  template <class F>
  void each(uint32_t n, const F& f) const {
    block_.in_order(n, [&](uint64_t k) {
      audit::lane(static_cast<uint32_t>(k % kTileLanes));
      f(static_cast<uint32_t>(k));
    });
    audit::sync();
  }
  template <class F>
  auto fold_or(uint32_t n, const F& f) const {
    decltype(f(0u)) x{};
    block_.in_order(n, [&](uint64_t k) {
      audit::lane(static_cast<uint32_t>(k % kTileLanes));
      x = x | f(static_cast<uint32_t>(k));
    });
    audit::sync();
    return x;
  }
  template <class F>
  auto single(const F& f) const {
    audit::lane(0);
    if constexpr (std::is_void<decltype(f())>::value) {
      f();
      audit::sync();
    } else {
      const auto x = f();
      audit::sync();
      return x;
    }
  }

 private:
  const CpuBlock& block_;
};

template <uint32_t G, class F>
void CpuBlock::tiles(uint64_t n, const F& g) const {
  lanes(n, [&](uint64_t k) { g(CpuTile(*this), k); });
}

template <uint32_t G, class F>
void CpuBlock::roles(uint64_t n, uint32_t per, const F& g) const {
  in_order(n + n * per, [&](uint64_t k) {
    audit::agent(k < n ? k : audit::kRole + k - n);
    if (k < n)
      g.template router<G>(CpuTile(*this), k);
    else
      g.role((k - n) / per, static_cast<uint32_t>((k - n) % per));
  });
}

struct CpuExec {
  static constexpr const char* kName = "cpu";
  static constexpr uint64_t kMinParallel = 256;
  // Compile the router cycle for the common router shapes too (vc_engine.hpp with_shape): 5-10%
  // faster; the host compiler takes a few seconds per shape.
  static constexpr bool kFixedShapes = true;
  // Routers of an instance run stage by stage (kernels/vc/staged_cycle.hpp).
  static constexpr bool kStaged = true;
  int threads;
  Schedule schedule;
  HostArena arena;
  // run.threads = 0: every core, a single split network on one of them when that is faster.
  bool every_core;
  ThreadChoice choice;
  CpuExec(int t, Schedule s) : threads(thread_count(t)), schedule(s), every_core(t <= 0) {}
  // run.threads, 0 for all; one in a write-audit build, whose bookkeeping is global.
  static int thread_count(int t) {
    if (audit::kOn) return 1;
    return t > 0 ? t : omp_get_num_procs();
  }
  // Zeroed and aligned to a cache line, in huge pages where the system has them (host_arena.hpp);
  // freed with the backend.
  void* alloc_bytes(size_t n) { return arena.alloc(n); }
  void free_bytes(void*) {}
  void upload(void* dst, const void* src, size_t n) { std::memcpy(dst, src, n); }
  void download(void* dst, const void* src, size_t n) const { std::memcpy(dst, src, n); }
  // One parallel step over n elements. Small steps run on one thread: a barrier costs more
  // than they do (the results are the same either way).
  template <class F>
  void for_each(uint64_t n, const F& f) {
    thrust::counting_iterator<uint64_t> first(0);
    if (threads == 1 || n < kMinParallel) {
      thrust::for_each_n(thrust::cpp::par, first, n, f);
    } else {
      omp_set_num_threads(threads);
      thrust::for_each_n(thrust::omp::par, first, n, f);
    }
  }

  // `cycles` cycles of a batch of independent instances, each `per_inst` elements (instance
  // major); at(t) is the element functor of cycle t. run.schedule = auto: run_ranges; launch:
  // one parallel step a cycle; block and grid: block_cycles() over each instance or over the
  // whole batch, as the GPU runs them.
  // With run.lanes = "tile" each element runs on a tile (kernels/common/tile.hpp) whose lanes
  // are a loop; the launch schedule's, forward. With run.roles (launch, block) a cycle's
  // elements without their roles and the roles run as items of one loop in run.block_order:
  // elements then roles, the reverse, or shuffled together, each tile's lanes in that order too.
  template <class At>
  void run_cycles(uint64_t t0, uint64_t cycles, uint64_t n_inst, uint64_t per_inst, const At& at,
                  const HotList& hot = {}) {
    with_lanes(schedule.lanes, [&](auto lanes) {
      run_cycles_on<decltype(lanes)::value>(t0, cycles, n_inst, per_inst, at, hot);
    });
  }
  template <uint32_t kLanes, class At>
  void run_cycles_on(uint64_t t0, uint64_t cycles, uint64_t n_inst, uint64_t per_inst, const At& at,
                     const HotList& hot) {
    switch (schedule.kind) {
      case ScheduleKind::kAuto:
        return run_ranges(t0, cycles, n_inst, per_inst, at);
      case ScheduleKind::kLaunch: {
        const CpuBlock forward(BlockOrder::kForward, 0);  // a tile's lanes, in order
        for (uint64_t c = 0; c < cycles; ++c) {
          using F = decltype(at(t0));
          const F f = at(t0 + c);
          if constexpr (has_role_form<F>::value) {
            if (schedule.roles) {
              CpuBlock(schedule.order, t0 + c)
                  .roles<kLanes>(n_inst * per_inst, f.roles(), ElementCycle<F>{f, 0});
              audit::cycle();
              continue;
            }
          }
          if constexpr (kLanes == 1)
            for_each(n_inst * per_inst, [&](uint64_t e) {
              audit::agent(e);
              f(e);
            });
          else
            for_each(n_inst * per_inst, [&](uint64_t e) {
              audit::agent(e);
              element_cycle(CpuTile(forward), f, e);
            });
          audit::cycle();
        }
        return;
      }
      case ScheduleKind::kBlock: {
        const HotList on_chip = schedule.hot_shared ? hot : HotList{};
        return with_flag<has_role_form<decltype(at(t0))>::value>(schedule.roles, [&](auto roles) {
          run_blocks<kLanes, decltype(roles)::value>(t0, cycles, n_inst, per_inst, at, on_chip,
                                                     schedule.view_shared || on_chip.count);
        });
      }
      case ScheduleKind::kGrid:  // (its view in the kernel's parameter, as on CUDA)
        return run_blocks<kLanes, false>(t0, cycles, 1, n_inst * per_inst, at, HotList{}, false);
    }
  }
  void sync() {}
  std::string schedule_name(uint64_t, uint64_t) const {
    return ls::schedule_name(schedule.kind, schedule.lanes, schedule.roles);
  }

  // The CPU's own schedule. With several instances, each thread owns whole instances and runs
  // each one through all the cycles before the next: no barrier, and one instance's state stays
  // in cache (a batch of 32 8x8 meshes, 9 MB in all, runs 1.7x faster on one thread this way
  // than cycle by cycle over the whole batch). The cycle functor's range(e0, e1) runs a cycle of
  // routers of one instance (StagedCycle). A single network of kMinParallel routers or more is
  // split into one share per thread, with a barrier per cycle: routers interact only through
  // belts, so shares may run in any order. With every core asked for, it runs in pieces on all
  // threads or on one, whichever is faster now (thread_choice.hpp).
  template <class At>
  void run_ranges(uint64_t t0, uint64_t cycles, uint64_t n_inst, uint64_t per_inst, const At& at) {
    const auto instance = [&](uint64_t i) {
      for (uint64_t c = 0; c < cycles; ++c) at(t0 + c).range(i * per_inst, (i + 1) * per_inst);
    };
    const thrust::counting_iterator<uint64_t> first(0);
    omp_set_num_threads(threads);
    if (n_inst > 1 && threads > 1) {
      thrust::for_each_n(thrust::omp::par, first, n_inst, instance);
    } else if (n_inst > 1 || threads == 1 || per_inst < kMinParallel) {
      for (uint64_t i = 0; i < n_inst; ++i) instance(i);
    } else {
      const uint64_t share = (per_inst + threads - 1) / threads;
      for (uint64_t c = 0; c < cycles;) {
        const ThreadChoice::Piece p =
            every_core ? choice.next(cycles - c) : ThreadChoice::Piece{true, cycles - c};
        const auto start = std::chrono::steady_clock::now();
        for (uint64_t end = c + p.cycles; c < end; ++c) {
          const auto f = at(t0 + c);
          if (!p.split) {
            f.range(0, per_inst);
            continue;
          }
          thrust::for_each_n(thrust::omp::par, first, threads, [&](uint64_t k) {
            const uint64_t lo = k * share, hi = lo + share < per_inst ? lo + share : per_inst;
            if (lo < hi) f.range(lo, hi);
          });
        }
        if (every_core)
          choice.took(
              std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
              p.cycles);
      }
    }
  }

 private:
  // Blocks of per_block elements, each through the cycles in launches of run.cycles_per_launch;
  // blocks run in parallel on the CPU's threads (each on one). With shared_view each block runs
  // a copy of the view of its own, and with a hot list (which needs it) it is an instance whose
  // hot arrays live in a buffer of its own for the launch. kRoles: run.roles.
  template <uint32_t kLanes, bool kRoles, class At>
  void run_blocks(uint64_t t0, uint64_t cycles, uint64_t blocks, uint64_t per_block, const At& at,
                  const HotList& hot, bool shared_view) {
    using F = decltype(at(t0));
    const uint64_t most = schedule.cycles_per_launch ? schedule.cycles_per_launch : cycles;
    for (uint64_t c = 0; c < cycles; c += most) {
      const uint64_t n = std::min(most, cycles - c);
      const F f0 = clock_per_thread(at, t0 + c);
      const auto block = [&](uint64_t i) {
        const CpuBlock b(schedule.order, (t0 + c) * blocks + i);
        if (!shared_view) {
          block_cycles<kLanes, kRoles>(b, f0, t0 + c, n, i * per_block, per_block);
        } else {
          F room = f0;
          std::vector<unsigned char> chip(hot.bytes);
          audit::region(chip.data(), chip.size(), "the hot arrays' copies on chip");
          block_cycles_shared<kLanes, kRoles>(b, f0, &room, t0 + c, n, i * per_block, per_block,
                                              hot, chip.data(), i);
          audit::forget(chip.data());
        }
        audit::cycle();  // the launch ends (after the hot arrays' copying back)
      };
      const thrust::counting_iterator<uint64_t> first(0);
      omp_set_num_threads(threads);
      if (blocks > 1 && threads > 1)
        thrust::for_each_n(thrust::omp::par, first, blocks, block);
      else
        for (uint64_t i = 0; i < blocks; ++i) block(i);
    }
  }
};

}  // namespace ls
