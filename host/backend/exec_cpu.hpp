// CPU backend: phases run as Thrust for_each over the OpenMP system (or sequentially with one
// thread), compiled by the host compiler. Memory is plain host memory.
#pragma once
#include <omp.h>
#include <thrust/execution_policy.h>
#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/system/cpp/execution_policy.h>
#include <thrust/system/omp/execution_policy.h>

#include <cstdint>
#include <cstring>

#include "host_arena.hpp"

namespace ls {

struct CpuExec {
  static constexpr const char* kName = "cpu";
  static constexpr uint64_t kMinParallel = 256;
  // Compile the router cycle for the common router shapes too (vc_engine.hpp with_shape): 5-10%
  // faster; the host compiler takes a few seconds per shape.
  static constexpr bool kFixedShapes = true;
  // Routers of an instance run stage by stage (kernels/vc/staged_cycle.hpp).
  static constexpr bool kStaged = true;
  int threads;
  HostArena arena;
  explicit CpuExec(int t) : threads(t > 0 ? t : omp_get_num_procs()) {}
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
  // major); at(t) is the element functor of cycle t. With several instances, each thread owns
  // whole instances and runs each one through all the cycles before the next: no barrier, and
  // one instance's state stays in cache (a batch of 32 8x8 meshes, 9 MB in all, runs 1.7x faster
  // on one thread this way than cycle by cycle over the whole batch).
  // The cycle functor's range(e0, e1) runs a cycle of routers of one instance (StagedCycle). A
  // single network of kMinParallel routers or more is split into one share per thread, with a
  // barrier per cycle: routers interact only through belts, so shares may run in any order.
  template <class At>
  void run_cycles(uint64_t t0, uint64_t cycles, uint64_t n_inst, uint64_t per_inst, const At& at) {
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
      for (uint64_t c = 0; c < cycles; ++c) {
        const auto f = at(t0 + c);
        thrust::for_each_n(thrust::omp::par, first, threads, [&](uint64_t k) {
          const uint64_t lo = k * share, hi = lo + share < per_inst ? lo + share : per_inst;
          if (lo < hi) f.range(lo, hi);
        });
      }
    }
  }
  void sync() {}
};

}  // namespace ls
