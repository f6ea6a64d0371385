// CUDA backend: the same phase functors, one thread per element, compiled by nvcc. Memory is
// device memory; host synchronisation happens only on copies.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>
#include <stdexcept>
#include <string>

namespace ls {

inline void cuda_check(cudaError_t e, const char* what) {
  if (e != cudaSuccess)
    throw std::runtime_error(std::string("CUDA ") + what + ": " + cudaGetErrorString(e));
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

struct CudaExec {
  static constexpr const char* kName = "cuda";
  static constexpr bool kFixedShapes = true;  // as on the CPU (vc_engine.hpp with_shape)
  static constexpr bool kStaged = false;      // one thread per router: RouterCycle
  explicit CudaExec(int) {
    int d = 0;
    if (cudaGetDevice(&d) != cudaSuccess ||
        cudaDeviceGetAttribute(&sms_, cudaDevAttrMultiProcessorCount, d) != cudaSuccess || sms_ < 1)
      sms_ = 1;
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
    if (n == 0) return;
    // The smallest block (32 to 256 threads) that spreads the elements over every multiprocessor:
    // a batch of a few thousand routers then runs on all of them rather than on a few, each
    // with its own L1 and load units (on an H100, 16x16x16 torus: 28.4 us per cycle against
    // 32.1 in blocks of 256; docs/performance.md).
    const uint64_t per_sm = (n + sms_ - 1) / sms_;
    const uint32_t block = per_sm <= 32 ? 32 : per_sm >= 256 ? 256 : (per_sm + 31) / 32 * 32;
    for_each_kernel<<<static_cast<uint32_t>((n + block - 1) / block), block>>>(f, n);
    cuda_check(cudaGetLastError(), "kernel launch");
  }
  // Every cycle is one launch over all elements of the batch.
  template <class At>
  void run_cycles(uint64_t t0, uint64_t cycles, uint64_t n_inst, uint64_t per_inst, const At& at) {
    for (uint64_t c = 0; c < cycles; ++c) for_each(n_inst * per_inst, at(t0 + c));
  }
  void sync() { cuda_check(cudaDeviceSynchronize(), "sync"); }

 private:
  int sms_ = 1;  // multiprocessors of the device
};

}  // namespace ls
