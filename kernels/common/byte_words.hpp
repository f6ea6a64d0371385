// A router's byte-wide state (a belt row's columns, its VCs' counters and owners) read as
// words on the CPU, and turned into bit masks: on x86-64 a few loads and SSE2 compares instead
// of a load and a branch per byte, whose outcome is random. On the GPU (and other CPUs), byte by
// byte.
#pragma once
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "hd.hpp"
#if defined(__SSE2__) && defined(__x86_64__) && !defined(__CUDA_ARCH__)
#include <emmintrin.h>
#define LS_BYTE_WORDS_SSE2 1
#endif

namespace ls {

#if !defined(__CUDA_ARCH__)
// Exactly the W bytes (1 to 8) at `at` as one little-endian word, the rest of it zero: for an
// array's slice, which may be its last bytes.
template <uint32_t W>
inline uint64_t load_exact(const void* at) {
  static_assert(W >= 1 && W <= 8, "1 to 8 bytes");
  const auto* b = static_cast<const uint8_t*>(at);
  if constexpr (W == 8 || W == 4 || W == 2 || W == 1) {
    using Word = std::conditional_t<
        W == 8, uint64_t,
        std::conditional_t<W == 4, uint32_t, std::conditional_t<W == 2, uint16_t, uint8_t>>>;
    Word w;
    std::memcpy(&w, b, W);
    return w;
  } else {
    constexpr uint32_t kLow = W > 4 ? 4 : W > 2 ? 2 : 1;  // the largest power of two below W
    return load_exact<kLow>(b) | load_exact<W - kLow>(b + kLow) << (8 * kLow);
  }
}

// The first W bytes (5 to 8) at `at` as one little-endian word, the rest of it zero. W = 7
// reads 8 bytes, in one load: only for a row of 8 bytes or more (a belt row: the router's
// own), never for an array's last 7.
template <uint32_t W>
inline uint64_t load_bytes(const void* at) {
  static_assert(W >= 5 && W <= 8, "5 to 8 bytes");
  if constexpr (W == 7)
    return load_exact<8>(at) & ~0ull >> 8;
  else
    return load_exact<W>(at);
}
#endif

// Bit i set where byte i of w is 1, each byte being 0 or 1: packed into bits by one
// multiplication (byte i's bit lands on bit 56 + i, no two on the same place, no carries).
LS_HD LS_FORCEINLINE uint32_t gather_byte_bits(uint64_t w) {
  return static_cast<uint32_t>((w * 0x0102040810204080ull) >> 56);
}

#if defined(LS_BYTE_WORDS_SSE2)
// Bit i set where byte i of the 16 at `at` is zero; and of word w's 8.
inline uint32_t zero_byte_bits16(const void* at) {
  const __m128i w = _mm_loadu_si128(static_cast<const __m128i*>(at));
  return static_cast<uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(w, _mm_setzero_si128())));
}
inline uint32_t zero_byte_bits8(uint64_t w) {
  const __m128i x = _mm_cvtsi64_si128(static_cast<long long>(w));
  return static_cast<uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(x, _mm_setzero_si128()))) & 255u;
}
#endif

// Bit i set where bytes[i] is not zero, i < N <= 64; reads exactly those N bytes.
template <uint32_t N>
LS_HD LS_FORCEINLINE uint64_t nonzero_bytes(const uint8_t* bytes) {
  static_assert(N >= 1 && N <= 64, "a 64-bit mask");
#if defined(LS_BYTE_WORDS_SSE2)
  constexpr uint64_t kAll = N == 64 ? ~0ull : (1ull << N) - 1;
  if constexpr (N <= 8) {
    return ~zero_byte_bits8(load_exact<N>(bytes)) & kAll;
  } else if constexpr (N < 16) {
    return ~(zero_byte_bits8(load_exact<8>(bytes)) | zero_byte_bits8(load_exact<8>(bytes + N - 8))
                                                         << (N - 8)) &
           kAll;
  } else {
    uint64_t zero = 0;
    for (uint32_t i = 0; i + 16 <= N; i += 16) zero |= uint64_t{zero_byte_bits16(bytes + i)} << i;
    if constexpr (N % 16 != 0)  // the last N % 16 bytes: the 16 ending with them
      zero |= uint64_t{zero_byte_bits16(bytes + N - 16)} << (N - 16);
    return ~zero & kAll;
  }
#else
  uint64_t m = 0;
  for (uint32_t i = 0; i < N; ++i) m |= uint64_t{bytes[i] != 0} << i;
  return m;
#endif
}

// Bit i set where the signed byte bytes[i] is not negative (a VC or port, not -1), i < N <= 8;
// reads exactly those N bytes.
template <uint32_t N>
LS_HD LS_FORCEINLINE uint32_t nonnegative_bytes(const int8_t* bytes) {
  static_assert(N >= 1 && N <= 8, "one word");
#if defined(LS_BYTE_WORDS_SSE2)
  const __m128i w = _mm_cvtsi64_si128(static_cast<long long>(load_exact<N>(bytes)));
  return ~static_cast<uint32_t>(_mm_movemask_epi8(w)) & ((1u << N) - 1);
#else
  uint32_t m = 0;
  for (uint32_t i = 0; i < N; ++i) m |= uint32_t{bytes[i] >= 0} << i;
  return m;
#endif
}

// Bit i set where words[i] is not zero, i < N <= 8, N even (64-bit masks: the requesters of an
// output's VCs); reads exactly those N words.
template <uint32_t N>
LS_HD LS_FORCEINLINE uint32_t nonzero_words(const uint64_t* words) {
  static_assert(N >= 2 && N <= 8 && N % 2 == 0, "pairs of words");
#if defined(LS_BYTE_WORDS_SSE2)
  uint32_t zero = 0;
  for (uint32_t i = 0; i < N; i += 2) {
    // A word is zero where both its halves are: its high half's compare ANDed with its low's.
    const __m128i c = _mm_cmpeq_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(words + i)),
                                      _mm_setzero_si128());
    const __m128i both = _mm_and_si128(c, _mm_shuffle_epi32(c, 0xb1));
    zero |= static_cast<uint32_t>(_mm_movemask_pd(_mm_castsi128_pd(both))) << i;
  }
  return ~zero & ((1u << N) - 1);
#else
  uint32_t m = 0;
  for (uint32_t i = 0; i < N; ++i) m |= uint32_t{words[i] != 0} << i;
  return m;
#endif
}

}  // namespace ls
