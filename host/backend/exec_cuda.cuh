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
  if (e != cudaSuccess) throw std::runtime_error(std::string("CUDA ") + what + ": " + cudaGetErrorString(e));
}

struct CudaExec {
  static constexpr const char* kName = "cuda";
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
  void sync() { cuda_check(cudaDeviceSynchronize(), "sync"); }
};

}  // namespace ls
