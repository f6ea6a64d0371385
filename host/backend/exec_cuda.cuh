// CUDA backend: the same phase functors as Thrust for_each over the CUDA system, compiled by
// nvcc. Memory is device memory; host synchronisation happens only on copies.
#pragma once
#include <cuda_runtime.h>
#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/system/cuda/execution_policy.h>

#include <stdexcept>
#include <string>

namespace ls {

inline void cuda_check(cudaError_t e, const char* what) {
  if (e != cudaSuccess)
    throw std::runtime_error(std::string("CUDA ") + what + ": " + cudaGetErrorString(e));
}

struct CudaExec {
  static constexpr const char* kName = "cuda";
  static constexpr bool kFixedShapes = false;  // one instance of each kernel: nvcc is slow
  explicit CudaExec(int) {}
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
    thrust::for_each_n(thrust::cuda::par_nosync, thrust::counting_iterator<uint64_t>(0), n, f);
  }
  // Every cycle is one launch over all elements of the batch.
  template <class At>
  void run_cycles(uint64_t t0, uint64_t cycles, uint64_t n_inst, uint64_t per_inst, const At& at) {
    for (uint64_t c = 0; c < cycles; ++c) for_each(n_inst * per_inst, at(t0 + c));
  }
  void sync() { cuda_check(cudaDeviceSynchronize(), "sync"); }
};

}  // namespace ls
