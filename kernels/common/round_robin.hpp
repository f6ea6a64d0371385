// Round-robin arbitration over a request bit mask: the first requester at or after the
// pointer wins. Used by every separable and iSLIP allocator stage.
#pragma once
#include <cstdint>

#include "hd.hpp"

namespace ls {

// Index of the lowest set bit of a non-zero mask.
LS_HD LS_FORCEINLINE uint32_t lowest_bit(uint32_t m) {
#if defined(__CUDA_ARCH__)
  return static_cast<uint32_t>(__ffs(static_cast<int>(m)) - 1);
#else
  return static_cast<uint32_t>(__builtin_ctz(m));
#endif
}

// Index of the highest set bit of a non-zero mask.
LS_HD LS_FORCEINLINE uint32_t highest_bit(uint32_t m) {
#if defined(__CUDA_ARCH__)
  return 31u - static_cast<uint32_t>(__clz(static_cast<int>(m)));
#else
  return 31u - static_cast<uint32_t>(__builtin_clz(m));
#endif
}

LS_HD LS_FORCEINLINE uint32_t lowest_bit64(uint64_t m) {
#if defined(__CUDA_ARCH__)
  return static_cast<uint32_t>(__ffsll(static_cast<long long>(m)) - 1);
#else
  return static_cast<uint32_t>(__builtin_ctzll(m));
#endif
}

// Set bits of a mask.
LS_HD inline uint32_t popcount32(uint32_t x) {
#if defined(__CUDA_ARCH__)
  return static_cast<uint32_t>(__popc(x));
#else
  return static_cast<uint32_t>(__builtin_popcount(x));
#endif
}

LS_HD inline uint32_t popcount64(uint64_t x) {
#if defined(__CUDA_ARCH__)
  return static_cast<uint32_t>(__popcll(x));
#else
  return static_cast<uint32_t>(__builtin_popcountll(x));
#endif
}

// The winner among a non-empty mask of requesters; ptr < 64.
LS_HD LS_FORCEINLINE uint32_t rr_first(uint64_t mask, uint32_t ptr) {
  const uint64_t hi = mask >> ptr << ptr;  // requesters at or after ptr
  return lowest_bit64(hi ? hi : mask);
}

// Returns the winning index in [0, 64) or -1 when mask is empty; ptr < 64.
LS_HD LS_FORCEINLINE int rr_pick(uint64_t mask, uint32_t ptr) {
  return mask ? static_cast<int>(rr_first(mask, ptr)) : -1;
}

// (x + 1) mod n and (x + d) mod n for x, d < n, without a division (pointers advance every cycle).
LS_HD LS_FORCEINLINE uint32_t next_mod(uint32_t x, uint32_t n) {
  return x + 1 == n ? 0 : x + 1;
}
LS_HD LS_FORCEINLINE uint32_t add_mod(uint32_t x, uint32_t d, uint32_t n) {
  return x + d >= n ? x + d - n : x + d;
}

}  // namespace ls
