// Bit layouts of the T3E router registers the kernels read beside the routing tags, shared
// with the host that builds them: R_CHAN (manual Table 10), R_VCSEL (manual Table 18), and the
// values R_LWHO and a PE's partition registers take for nobody.
#pragma once
#include <cstdint>

namespace ls::t3e {

// R_CHAN[7:0]: one per channel, R_CHAN0-5 the directions in direction order, R_CHAN6 the PE
// (support circuitry) channel, R_CHAN7 the I/O channel.
// kLinkDown is no hardware bit (R_CHAN<63:4> are unused): the model marks both ends of a failed
// link with it, standing for the dead wire, which carries nothing, adaptive packets included.
enum ChanBits : uint8_t {
  kIgnoreNormal = 1,
  kIgnoreSpcl = 2,
  kNoAdapt = 4,
  kNoFast = 8,
  kLinkDown = 16
};
constexpr uint32_t kPeChan = 6;

// R_VCSEL: SELECT<7:0>, DATELINE bit 32.
constexpr uint64_t kDatelineBit = uint64_t{1} << 32;

// R_LWHO of a node slot the machine leaves empty (a partial plane's), and the virtual PE limit
// of a PE that runs no application (in no partition).
constexpr uint32_t kNoPe = 0xFFFFFFFFu, kNoPartition = 0xFFFFFFFFu;

}  // namespace ls::t3e
