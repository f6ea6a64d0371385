// Round-robin arbitration over a request bit mask: the first requester at or after the
// pointer wins. Used by every separable and iSLIP allocator stage.
#pragma once
#include <cstdint>

#include "hd.hpp"

namespace ls {

// Returns the winning index in [0, n) or -1 when mask is empty. n <= 64.
LS_HD LS_FORCEINLINE int rr_pick(uint64_t mask, int ptr, int n) {
  if (mask == 0) return -1;
  uint64_t hi = mask >> ptr << ptr;  // requesters at or after ptr
  uint64_t pick = hi ? hi : mask;
#if defined(__CUDA_ARCH__)
  return __ffsll(static_cast<long long>(pick)) - 1;
#else
  (void)n;
  return __builtin_ctzll(pick);
#endif
}

}  // namespace ls
