// A special packet's header (special_network.hpp), shared with the host and Python: six delta
// values (primary X, Y, Z, secondary X, Y, Z; 6-bit two's complement, -32..31) at bits 6i,
// what it is (SPUT, SGET, SGET response) at bits 40-41, the register it names (R_SW or
// R_SGET_RTRN) at bit 42, and VALID at bit 63. R_SGET_RTRN holds deltas in the same layout.
// The manual gives the fields, not their bits: the packing is ours.
#pragma once
#include <cstdint>

#include "../common/hd.hpp"

namespace ls::t3e {

struct Special {
  enum Kind : uint32_t { kSput = 1, kSget = 2, kResponse = 3 };
  enum Reg : uint32_t { kRSw = 0, kRSgetRtrn = 1 };
  static constexpr uint64_t kValid = uint64_t{1} << 63;
  static constexpr uint64_t kDeltaBits = (uint64_t{1} << 36) - 1;

  LS_HD static bool valid(uint64_t h) { return h & kValid; }
  LS_HD static uint32_t kind(uint64_t h) { return static_cast<uint32_t>(h >> 40) & 3u; }
  LS_HD static uint32_t reg(uint64_t h) { return static_cast<uint32_t>(h >> 42) & 1u; }
  LS_HD static int32_t delta(uint64_t h, uint32_t i) {
    const int32_t d = static_cast<int32_t>(h >> (6 * i) & 63u);
    return d >= 32 ? d - 64 : d;
  }
  LS_HD static uint64_t make(uint32_t kind, uint32_t reg, uint64_t deltas) {
    return kValid | uint64_t{kind} << 40 | uint64_t{reg} << 42 | (deltas & kDeltaBits);
  }
  // The direction of the next hop (the first non-zero delta: +X .. -Z numbering), false when
  // every delta is spent.
  LS_HD static bool next_dir(uint64_t h, uint32_t& dir) {
    for (uint32_t i = 0; i < 6; ++i) {
      const int32_t d = delta(h, i);
      if (d == 0) continue;
      dir = i % 3 + (d < 0 ? 3u : 0u);
      return true;
    }
    return false;
  }
  // The header after one hop: the first non-zero delta one unit nearer 0.
  LS_HD static uint64_t hop(uint64_t h) {
    for (uint32_t i = 0; i < 6; ++i) {
      const int32_t d = delta(h, i);
      if (d == 0) continue;
      const uint64_t nd = static_cast<uint64_t>(d < 0 ? d + 1 : d - 1) & 63u;
      return (h & ~(uint64_t{63} << (6 * i))) | nd << (6 * i);
    }
    return h;
  }
};

}  // namespace ls::t3e
