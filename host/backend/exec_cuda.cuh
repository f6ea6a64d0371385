// CUDA backend: the same phase functors, one thread per element, compiled by nvcc. Memory is
// device memory; host synchronisation happens only on copies.
#pragma once
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "../../kernels/common/block_cycles.hpp"
#include "schedule.hpp"

namespace ls {

inline void cuda_check(cudaError_t e, const char* what) {
  if (e != cudaSuccess)
    throw std::runtime_error(std::string("CUDA ") + what + ": " + cudaGetErrorString(e));
}

// kLanes threads of a warp as one element's tile (kernels/common/tile.hpp). A value crosses
// lanes as 4-byte words: reduce's bit_or on sm_80 and later is one instruction a word.
template <uint32_t kLanes>
struct CudaTile {
  cooperative_groups::thread_block_tile<kLanes> t;
  template <class F>
  __device__ __forceinline__ void each(uint32_t n, const F& f) const {
    for (uint32_t k = t.thread_rank(); k < n; k += kLanes) f(k);
    t.sync();
  }
  template <class F>
  __device__ __forceinline__ auto fold_or(uint32_t n, const F& f) const {
    using T = decltype(f(0u));
    static_assert(sizeof(T) % 4 == 0 && std::is_trivially_copyable<T>::value, "4-byte words");
    T x{};
    for (uint32_t k = t.thread_rank(); k < n; k += kLanes) x = x | f(k);
    uint32_t w[sizeof(T) / 4];
    memcpy(w, &x, sizeof(T));
    for (uint32_t& word : w)
      word = cooperative_groups::reduce(t, word, cooperative_groups::bit_or<uint32_t>());
    memcpy(&x, w, sizeof(T));
    return x;
  }
  template <class F>
  __device__ __forceinline__ auto single(const F& f) const {
    using T = decltype(f());
    if constexpr (std::is_void<T>::value) {
      if (t.thread_rank() == 0) f();
      t.sync();
    } else {
      T x{};
      if (t.thread_rank() == 0) x = f();
      t.sync();
      uint32_t w[(sizeof(T) + 3) / 4] = {};
      memcpy(w, &x, sizeof(T));
      for (uint32_t& word : w) word = t.shfl(word, 0);
      memcpy(&x, w, sizeof(T));
      return x;
    }
  }
};

// The calling thread's tile of kLanes threads in its block.
template <uint32_t kLanes>
__device__ CudaTile<kLanes> this_tile() {
  return {cooperative_groups::tiled_partition<kLanes>(cooperative_groups::this_thread_block())};
}
// ... or, on one lane, a stand-in that ElementCycle::router does not use.
template <uint32_t kLanes>
__device__ __forceinline__ auto this_tile_or_lane() {
  if constexpr (kLanes == 1)
    return 0;
  else
    return this_tile<kLanes>();
}

// One thread per element, f(e) for e in [0, n). The phase functor carries the whole view (about
// 850 bytes of parameters and state pointers) and is a __grid_constant__ parameter, so every
// thread reads it where it lies instead of copying it into its own local memory first, as a
// thrust::for_each kernel does: ptxas reported stack frames of 1.7-5 KB per thread there.
template <class F>
__global__ void for_each_kernel(const __grid_constant__ F f, uint64_t n) {
  const uint64_t e = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (e < n) f(e);
}

// The same with a tile of kLanes threads per element (run.lanes = "tile").
template <uint32_t kLanes, class F>
__global__ void for_each_tile_kernel(const __grid_constant__ F f, uint64_t n) {
  const uint64_t e = (static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / kLanes;
  if (e < n) element_cycle(this_tile<kLanes>(), f, e);
}

// run.roles: threads [0, tile_threads) run elements [0, n) without their one-lane stages, on
// tiles of kLanes (or one lane each), the rest those stages, f.roles() an element, one a thread:
// whole warps of their own (tile_threads is n * kLanes rounded up to a warp), so they run beside
// the elements instead of after them.
template <uint32_t kLanes, class F>
__global__ void for_each_roles_kernel(const __grid_constant__ F f, uint64_t n,
                                      uint64_t tile_threads, uint32_t per) {
  const uint64_t i = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const ElementCycle<F> element{f, 0};
  if (i < tile_threads) {
    if (i / kLanes < n) element.template router<kLanes>(this_tile_or_lane<kLanes>(), i / kLanes);
  } else if (i - tile_threads < n * per) {
    element.role((i - tile_threads) / per, static_cast<uint32_t>((i - tile_threads) % per));
  }
}

// A thread block as block_cycles() sees it: its threads (or tiles) take the elements in turn;
// with run.roles threads [0, split) the elements, the others their roles.
struct CudaBlock {
  uint32_t split = 0;
  template <class G>
  __device__ __forceinline__ void lanes(uint64_t n, const G& g) const {
    for (uint64_t k = threadIdx.x; k < n; k += blockDim.x) g(k);
  }
  template <uint32_t kLanes, class G>
  __device__ __forceinline__ void tiles(uint64_t n, const G& g) const {
    const CudaTile<kLanes> t = this_tile<kLanes>();
    for (uint64_t k = threadIdx.x / kLanes; k < n; k += blockDim.x / kLanes) g(t, k);
  }
  template <uint32_t kLanes, class G>
  __device__ __forceinline__ void roles(uint64_t n, uint32_t per, const G& g) const {
    if (threadIdx.x < split) {
      const auto t = this_tile_or_lane<kLanes>();
      for (uint64_t k = threadIdx.x / kLanes; k < n; k += split / kLanes)
        g.template router<kLanes>(t, k);
    } else {
      for (uint64_t i = threadIdx.x - split; i < n * per; i += blockDim.x - split)
        g.role(i / per, static_cast<uint32_t>(i % per));
    }
  }
  template <class G>
  __device__ __forceinline__ void leader(const G& g) const {
    if (threadIdx.x == 0) g();
  }
  __device__ __forceinline__ void barrier() const { __syncthreads(); }
  __device__ __forceinline__ void hide(void*, uint64_t) const {}
};

// A cooperative grid as block_cycles() sees it: every thread of the grid takes elements in turn,
// and the barrier is the grid's.
struct CudaGrid {
  template <class G>
  __device__ __forceinline__ void lanes(uint64_t n, const G& g) const {
    const uint64_t stride = uint64_t{gridDim.x} * blockDim.x;
    for (uint64_t k = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; k < n; k += stride) g(k);
  }
  template <uint32_t kLanes, class G>
  __device__ __forceinline__ void tiles(uint64_t n, const G& g) const {
    const CudaTile<kLanes> t = this_tile<kLanes>();
    const uint64_t stride = uint64_t{gridDim.x} * blockDim.x / kLanes;
    for (uint64_t k = (uint64_t{blockIdx.x} * blockDim.x + threadIdx.x) / kLanes; k < n;
         k += stride)
      g(t, k);
  }
  template <class G>
  __device__ __forceinline__ void leader(const G& g) const {
    if (threadIdx.x == 0) g();
  }
  __device__ __forceinline__ void barrier() const { cooperative_groups::this_grid().sync(); }
  __device__ __forceinline__ void hide(void*, uint64_t) const {}
};

// Dynamic shared memory of the kernels that run block_cycles: each thread's clock (thread_clock)
// first, then with a hot list the view's copy and the hot arrays' copies.
__host__ __device__ inline size_t clock_room(uint32_t threads) {
  return threads * sizeof(ThreadClock);
}

// run.schedule = block: block i runs instance i (elements [i * per_inst, (i + 1) * per_inst))
// through `cycles` cycles, the view where run.block_view says (kSharedView: a copy in shared
// memory after the clocks; a kernel of its own, so that the other's registers and address spaces
// are its own too), with run.hot_state = shared the hot arrays in shared memory after it (an
// empty list otherwise); with run.roles (kRoles) threads [0, split) run the elements, the others
// their roles.
template <uint32_t kLanes, class F, bool kSharedView, bool kRoles>
__global__ void block_cycles_kernel(const __grid_constant__ F f0, uint64_t t0, uint64_t cycles,
                                    uint64_t per_inst, const HotList hot, uint32_t split) {
  const uint64_t e0 = blockIdx.x * per_inst;
  if constexpr (kSharedView) {
    extern __shared__ __align__(16) unsigned char block_shared[];
    unsigned char* const room = block_shared + clock_room(blockDim.x);
    block_cycles_shared<kLanes, kRoles>(CudaBlock{split}, f0, reinterpret_cast<F*>(room), t0,
                                        cycles, e0, per_inst, hot, room + hot_room(sizeof(F)),
                                        blockIdx.x);
  } else {
    block_cycles<kLanes, kRoles>(CudaBlock{split}, f0, t0, cycles, e0, per_inst);
  }
}

// run.schedule = grid: the whole batch's n elements through `cycles` cycles, a grid-wide sync
// between them (a cooperative launch, so every block is resident).
template <uint32_t kLanes, class F>
__global__ void grid_cycles_kernel(const __grid_constant__ F f0, uint64_t t0, uint64_t cycles,
                                   uint64_t n) {
  block_cycles<kLanes>(CudaGrid{}, f0, t0, cycles, 0, n);
}

struct CudaExec {
  static constexpr const char* kName = "cuda";
  static constexpr bool kFixedShapes = true;  // as on the CPU (vc_engine.hpp with_shape)
  static constexpr bool kStaged = false;      // one thread per router: RouterCycle
  Schedule schedule;
  CudaExec(int, Schedule s) : schedule(s) {
    int d = 0;
    if (cudaGetDevice(&d) != cudaSuccess ||
        cudaDeviceGetAttribute(&sms_, cudaDevAttrMultiProcessorCount, d) != cudaSuccess || sms_ < 1)
      sms_ = 1;
    if (cudaDeviceGetAttribute(&cooperative_, cudaDevAttrCooperativeLaunch, d) != cudaSuccess)
      cooperative_ = 0;
  }
  void* alloc_bytes(size_t n) {
    void* p = nullptr;
    cuda_check(cudaMalloc(&p, n ? n : 1), "cudaMalloc");
    cuda_check(cudaMemset(p, 0, n ? n : 1), "cudaMemset");
    return p;
  }
  void free_bytes(void* p) { cudaFree(p); }
  void upload(void* dst, const void* src, size_t n) {
    cuda_check(cudaMemcpy(dst, src, n, cudaMemcpyHostToDevice), "upload");
  }
  void download(void* dst, const void* src, size_t n) const {
    cuda_check(cudaMemcpy(dst, src, n, cudaMemcpyDeviceToHost), "download");
  }
  template <class F>
  void for_each(uint64_t n, const F& f) {
    for_each_on<1>(n, f);
  }
  // f(e) for e in [0, n) on kLanes threads each (a tile, when more than one); with `roles`, the
  // role form (for_each_roles_kernel).
  template <uint32_t kLanes, class F>
  void for_each_on(uint64_t n, const F& f, bool roles = false) {
    if (n == 0) return;
    const uint64_t tile_threads = (n * kLanes + 31) / 32 * 32;
    uint32_t per = 0;
    if constexpr (has_role_form<F>::value) per = roles ? f.roles() : 0;
    const uint64_t threads = per ? tile_threads + n * per : n * kLanes;
    // The smallest block (32 to 256 threads) that spreads the elements over every multiprocessor:
    // a batch of a few thousand routers then runs on all of them rather than on a few, each
    // with its own L1 and load units (on an H100, 16x16x16 torus: 28.4 us per cycle against
    // 32.1 in blocks of 256; docs/performance.md).
    const uint64_t per_sm = (threads + sms_ - 1) / sms_;
    const uint32_t block = per_sm <= 32 ? 32 : per_sm >= 256 ? 256 : (per_sm + 31) / 32 * 32;
    const uint32_t blocks = static_cast<uint32_t>((threads + block - 1) / block);
    // (The roles kernel is compiled only for a functor with a role form.)
    if constexpr (has_role_form<F>::value)
      if (per) for_each_roles_kernel<kLanes><<<blocks, block>>>(f, n, tile_threads, per);
    if (per == 0) {
      if constexpr (kLanes == 1)
        for_each_kernel<<<blocks, block>>>(f, n);
      else
        for_each_tile_kernel<kLanes><<<blocks, block>>>(f, n);
    }
    cuda_check(cudaGetLastError(), "kernel launch");
  }
  // The cycles between two host events, as run.schedule asks: a launch per cycle over all
  // elements of the batch (launch), or launches of run.cycles_per_launch cycles each with a
  // block per instance (block) or a cooperative grid over the batch (grid); auto picks the
  // schedule and the lanes by the batch's shape (cuda_plan).
  template <class At>
  void run_cycles(uint64_t t0, uint64_t cycles, uint64_t n_inst, uint64_t per_inst, const At& at,
                  const HotList& hot_list = {}) {
    const CudaPlan plan = cuda_plan(schedule, n_inst, per_inst, static_cast<uint64_t>(sms_));
    with_lanes(plan.lanes, [&](auto lanes) {
      run_cycles_on<decltype(lanes)::value>(plan.kind, t0, cycles, n_inst, per_inst, at, hot_list);
    });
  }
  // The same under schedule `kind` with kLanes threads an element.
  template <uint32_t kLanes, class At>
  void run_cycles_on(ScheduleKind kind, uint64_t t0, uint64_t cycles, uint64_t n_inst,
                     uint64_t per_inst, const At& at, const HotList& hot_list) {
    using F = decltype(at(t0));
    if (kind == ScheduleKind::kLaunch) {
      for (uint64_t c = 0; c < cycles; ++c)
        for_each_on<kLanes>(n_inst * per_inst, at(t0 + c), schedule.roles);
      return;
    }
    if (kind == ScheduleKind::kBlock) {
      const HotList hot = schedule.hot_shared ? hot_list : HotList{};
      return with_flag<has_role_form<F>::value>(schedule.roles, [&](auto roles) {
        with_flag(schedule.view_shared || hot.count, [&](auto shared_view) {
          run_blocks<kLanes, decltype(shared_view)::value, decltype(roles)::value>(
              t0, cycles, n_inst, per_inst, at, hot);
        });
      });
    }
    const uint64_t most = schedule.cycles_per_launch ? schedule.cycles_per_launch : cycles;
    if (!cooperative_)
      throw std::runtime_error("run.schedule = \"grid\": this device has no cooperative launch");
    const uint32_t threads =
        std::max(kLanes, (schedule.block_threads ? schedule.block_threads : 128) / kLanes * kLanes);
    const size_t shared = clock_room(threads);
    int per_sm = 0;
    cuda_check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, grid_cycles_kernel<kLanes, F>,
                                                             static_cast<int>(threads), shared),
               "occupancy of the grid schedule");
    const uint64_t elements = n_inst * per_inst;
    const uint64_t blocks = std::min<uint64_t>(uint64_t{static_cast<uint32_t>(per_sm)} * sms_,
                                               (elements + threads - 1) / threads);
    if (blocks == 0)
      throw std::runtime_error("run.schedule = \"grid\": no block of " + std::to_string(threads) +
                               " threads fits on a multiprocessor; lower run.block_threads");
    for (uint64_t c = 0; c < cycles; c += most) {
      F f0 = clock_per_thread(at, t0 + c);
      uint64_t t = t0 + c, n = std::min(most, cycles - c), count = elements;
      void* args[] = {&f0, &t, &n, &count};
      cuda_check(cudaLaunchCooperativeKernel(grid_cycles_kernel<kLanes, F>,
                                             dim3(static_cast<uint32_t>(blocks)), dim3(threads),
                                             args, shared, cudaStream_t{}),
                 "grid schedule launch");
    }
  }
  void sync() { cuda_check(cudaDeviceSynchronize(), "sync"); }
  std::string schedule_name(uint64_t n_inst, uint64_t per_inst) const {
    const CudaPlan plan = cuda_plan(schedule, n_inst, per_inst, static_cast<uint64_t>(sms_));
    return ls::schedule_name(plan.kind, plan.lanes, plan.roles);
  }

 private:
  // run.schedule = block: a block an instance, in launches of run.cycles_per_launch cycles, each
  // running block_cycles_kernel with its view in shared memory (kSharedView) or not, and with
  // run.roles (kRoles) the roles on threads of their own.
  template <uint32_t kLanes, bool kSharedView, bool kRoles, class At>
  void run_blocks(uint64_t t0, uint64_t cycles, uint64_t n_inst, uint64_t per_inst, const At& at,
                  const HotList& hot) {
    using F = decltype(at(t0));
    const auto kernel = block_cycles_kernel<kLanes, F, kSharedView, kRoles>;
    // At most what the kernel's registers allow a block (the T3E's cycle takes 126 a thread:
    // 512 threads; docs/performance.md); a block with fewer threads than elements loops.
    cudaFuncAttributes attr{};
    cuda_check(cudaFuncGetAttributes(&attr, kernel), "block schedule kernel");
    const uint64_t most_threads = static_cast<uint64_t>(attr.maxThreadsPerBlock) / 32 * 32;
    // A tile's threads are whole: run.block_threads rounds down to a multiple of kLanes. With
    // roles, whole warps for the elements and for the roles, shared in proportion when the
    // block cannot hold both.
    uint32_t per = 0;
    if constexpr (kRoles) per = at(t0).roles();
    const uint64_t mine = (per_inst * kLanes + 31) / 32 * 32,
                   theirs = (per_inst * per + 31) / 32 * 32;
    const uint64_t want = schedule.block_threads ? schedule.block_threads : mine + theirs;
    const uint64_t most =
        std::max<uint64_t>(kRoles ? 64 : 32, std::min({want, most_threads, uint64_t{1024}}));
    const uint32_t threads =
        static_cast<uint32_t>(kRoles ? most / 32 * 32 : most / kLanes * kLanes);
    const uint32_t split = static_cast<uint32_t>(
        kRoles ? std::clamp<uint64_t>(threads * mine / (mine + theirs) / 32 * 32, 32, threads - 32)
               : 0);
    const size_t room = clock_room(threads) + (kSharedView ? hot_room(sizeof(F)) + hot.bytes : 0);
    if (room > 48 * 1024) {  // beyond the default: ask for it, up to what a block may have
      int most_room = 0, d = 0;
      cuda_check(cudaGetDevice(&d), "device");
      cuda_check(cudaDeviceGetAttribute(&most_room, cudaDevAttrMaxSharedMemoryPerBlockOptin, d),
                 "shared memory per block");
      if (room > static_cast<size_t>(most_room))
        throw std::runtime_error(
            "run.hot_state = \"shared\": an instance's hot arrays and view need " +
            std::to_string(room) + " bytes of shared memory, a block may have " +
            std::to_string(most_room) + "; use \"global\" or smaller instances");
      cuda_check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                      static_cast<int>(room)),
                 "shared memory of the block schedule");
    }
    const uint64_t launch = schedule.cycles_per_launch ? schedule.cycles_per_launch : cycles;
    for (uint64_t c = 0; c < cycles; c += launch) {
      const uint64_t n = std::min(launch, cycles - c);
      kernel<<<static_cast<uint32_t>(n_inst), threads, room>>>(clock_per_thread(at, t0 + c), t0 + c,
                                                               n, per_inst, hot, split);
      cuda_check(cudaGetLastError(), "block schedule launch");
    }
  }

  int sms_ = 1;          // multiprocessors of the device
  int cooperative_ = 0;  // whether it takes cooperative launches
};

}  // namespace ls
