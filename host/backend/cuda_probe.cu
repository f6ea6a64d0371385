// Is a CUDA device usable here? Compiled only in CUDA builds (cuda_probe_none.cpp otherwise).
#include <cuda_runtime.h>

namespace ls {

bool cuda_available() {
  int n = 0;
  return cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
}

size_t cuda_memory_bytes() {
  size_t free = 0, total = 0;
  return cuda_available() && cudaMemGetInfo(&free, &total) == cudaSuccess ? total : 0;
}

}  // namespace ls
