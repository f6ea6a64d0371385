// A router's byte-wide state (a belt row's columns, its VCs' counters and owners) read as
// words on the CPU, and turned into bit masks: one or two loads and a multiplication instead
// of a load and a branch per byte, whose outcome is random. On the GPU, byte by byte.
#pragma once
#include <cstdint>
#include <cstring>

#include "hd.hpp"

namespace ls {

#if !defined(__CUDA_ARCH__)
// The first W bytes (5 to 8) at `at` as one little-endian word, in one or two loads; the
// rest of the word is zero. W = 7 reads 8 bytes: only for a row of 8 bytes or more (a belt
// row: the router's own), never for an array's last 7.
template <uint32_t W>
inline uint64_t load_bytes(const void* at) {
  static_assert(W >= 5 && W <= 8, "5 to 8 bytes");
  const auto* b = static_cast<const uint8_t*>(at);
  uint64_t w = 0;
  if constexpr (W >= 7) {
    std::memcpy(&w, b, 8);
    return W == 8 ? w : w & ~0ull >> 8;
  } else {
    uint32_t lo;
    std::memcpy(&lo, b, 4);
    w = lo;
    if constexpr (W == 6) {
      uint16_t mid;
      std::memcpy(&mid, b + 4, 2);
      return w | uint64_t{mid} << 32;
    }
    return w | uint64_t{b[4]} << 32;
  }
}
#endif

// Bit i set where byte i of w is 1, each byte being 0 or 1: packed into bits by one
// multiplication (byte i's bit lands on bit 56 + i, no two on the same place, no carries).
LS_HD LS_FORCEINLINE uint32_t gather_byte_bits(uint64_t w) {
  return static_cast<uint32_t>((w * 0x0102040810204080ull) >> 56);
}

// Bit i set where byte i of w is not zero.
LS_HD LS_FORCEINLINE uint32_t nonzero_byte_bits(uint64_t w) {
  constexpr uint64_t kLow7 = 0x7f7f7f7f7f7f7f7full;
  return gather_byte_bits(((((w & kLow7) + kLow7) | w) & ~kLow7) >> 7);
}

// Bit i set where bytes[i] is not zero, for i < N <= 64.
template <uint32_t N>
LS_HD LS_FORCEINLINE uint64_t nonzero_bytes(const uint8_t* bytes) {
  static_assert(N <= 64, "a 64-bit mask");
  uint64_t m = 0;
  uint32_t i = 0;
#if !defined(__CUDA_ARCH__)
  for (; i + 8 <= N; i += 8) m |= uint64_t{nonzero_byte_bits(load_bytes<8>(bytes + i))} << i;
  if constexpr (N % 8 >= 5) {
    m |= uint64_t{nonzero_byte_bits(load_bytes<N % 8>(bytes + i))} << i;
    i = N;
  }
#endif
  for (; i < N; ++i) m |= uint64_t{bytes[i] != 0} << i;
  return m;
}

// Bit i set where the signed byte bytes[i] is not negative (a VC or port, not -1), i < N <= 8.
template <uint32_t N>
LS_HD LS_FORCEINLINE uint32_t nonnegative_bytes(const int8_t* bytes) {
  static_assert(N <= 8, "one word");
#if !defined(__CUDA_ARCH__)
  if constexpr (N >= 5) {
    uint64_t w;
    if constexpr (N == 7)  // as 6 and 1: they may be the array's last 7
      w = load_bytes<6>(bytes) | uint64_t{static_cast<uint8_t>(bytes[6])} << 48;
    else
      w = load_bytes<N>(bytes);
    const uint64_t sign = w & 0x8080808080808080ull;
    return gather_byte_bits((sign ^ 0x8080808080808080ull) >> 7) & ((1u << N) - 1);
  }
#endif
  uint32_t m = 0;
  for (uint32_t i = 0; i < N; ++i) m |= uint32_t{bytes[i] >= 0} << i;
  return m;
}

}  // namespace ls
