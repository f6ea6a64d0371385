// CPU backend: phases run as Thrust for_each over the OpenMP system (or sequentially with one
// thread), compiled by the host compiler. Memory is plain host memory.
#pragma once
#include <omp.h>
#include <thrust/execution_policy.h>
#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/system/cpp/execution_policy.h>
#include <thrust/system/omp/execution_policy.h>

#include <cstdlib>
#include <cstring>
#include <new>

namespace ls {

struct CpuExec {
  static constexpr const char* kName = "cpu";
  int threads;
  explicit CpuExec(int t) : threads(t > 0 ? t : omp_get_num_procs()) {}
  void* alloc_bytes(size_t n) {
    void* p = std::calloc(n ? n : 1, 1);
    if (!p) throw std::bad_alloc();
    return p;
  }
  void free_bytes(void* p) { std::free(p); }
  void upload(void* dst, const void* src, size_t n) { std::memcpy(dst, src, n); }
  void download(void* dst, const void* src, size_t n) const { std::memcpy(dst, src, n); }
  template <class F>
  void for_each(uint64_t n, const F& f) {
    thrust::counting_iterator<uint64_t> first(0);
    if (threads == 1) {
      thrust::for_each_n(thrust::cpp::par, first, n, f);
    } else {
      omp_set_num_threads(threads);
      thrust::for_each_n(thrust::omp::par, first, n, f);
    }
  }
  void sync() {}
};

}  // namespace ls
