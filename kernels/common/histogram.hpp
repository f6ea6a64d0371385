// Latency histogram bins: exact below 64 cycles, then 16 bins per octave up to 2^20 cycles
// (relative error of a percentile read from a bin: under 3%). Shared by the sink kernels and
// the host's percentile computation.
#pragma once
#include <cstdint>

#include "hd.hpp"

namespace ls {

constexpr uint32_t kHistExact = 64;
constexpr uint32_t kHistSubBins = 16;
constexpr uint32_t kHistOctaves = 14;  // 2^6 .. 2^20
constexpr uint32_t kHistBins = kHistExact + kHistSubBins * kHistOctaves;

LS_HD inline uint32_t hist_bin(uint32_t v) {
  if (v < kHistExact) return v;
  uint32_t oct = 31 - (
#if defined(__CUDA_ARCH__)
                          __clz(v)
#else
                          __builtin_clz(v)
#endif
                      );  // floor(log2 v) >= 6
  uint32_t sub = (v >> (oct - 4)) & (kHistSubBins - 1);
  uint32_t b = kHistExact + (oct - 6) * kHistSubBins + sub;
  return b < kHistBins ? b : kHistBins - 1;
}

// Lower edge and width of a bin, for interpolation on the host.
inline void hist_bin_range(uint32_t b, double* lo, double* width) {
  if (b < kHistExact) {
    *lo = b;
    *width = 1;
    return;
  }
  uint32_t oct = (b - kHistExact) / kHistSubBins + 6, sub = (b - kHistExact) % kHistSubBins;
  *width = static_cast<double>(1u << (oct - 4));
  *lo = static_cast<double>(1u << oct) + sub * *width;
}

}  // namespace ls
