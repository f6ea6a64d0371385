// Builds without the CUDA backend never have a usable device.
#include <cstddef>

namespace ls {

bool cuda_available() {
  return false;
}

size_t cuda_memory_bytes() {
  return 0;
}

}  // namespace ls
