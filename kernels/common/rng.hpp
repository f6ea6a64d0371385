// Counter-based randomness (Philox4x32-10, Random123). Every draw is a pure function of
// (seed, cycle, element, stream): no generator state, so results do not depend on thread count,
// scheduling or backend. The instance's position in its batch is deliberately not an input: an
// instance gives the same results alone or in any batch (instances differ by their seed).
#pragma once
#include <Random123/philox.h>

#include <cmath>
#include <cstdint>

#include "hd.hpp"

namespace ls {

// Streams keep draws for different purposes independent at the same (cycle, element).
enum RngStream : uint32_t {
  kStreamGenerate = 1,   // does a source create a packet this cycle
  kStreamDest = 2,       // destination of that packet
  kStreamSize = 3,       // size of that packet
  kStreamRoute = 4,      // routing tie-breaks
  kStreamOnOff = 5,      // on/off source state changes
  kStreamError = 6,      // transmission errors on a channel (S-Connect) or wire (METRO)
  kStreamOrder = 7,      // is a request ordered (T3E: sent without adaptive routing)
  kStreamEntry = 8,      // the entering port of a METRO source's attempt
  kStreamArbitrate = 9,  // Blue Gene/L's arbiters: JSQ ties, SLQ and random cycles
  kStreamPriority = 10,  // is a packet high priority, or deterministic (Blue Gene/L)
  kStreamAlltoall = 11,  // a source's order of its alltoall destinations
  kStreamBackoff = 12,   // a METRO source's random back-off before it retries
};

struct Draw {
  uint32_t w[4];
};

LS_HD LS_FORCEINLINE Draw philox_draw(uint64_t seed, uint64_t cycle, uint32_t element,
                                      uint32_t stream) {
  r123::Philox4x32 rng;
  r123::Philox4x32::ctr_type c = {
      {static_cast<uint32_t>(cycle), static_cast<uint32_t>(cycle >> 32), element, stream}};
  r123::Philox4x32::key_type k = {{static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32)}};
  r123::Philox4x32::ctr_type r = rng(c, k);
  return Draw{{r.v[0], r.v[1], r.v[2], r.v[3]}};
}

// The host's threshold for an event of probability p: a 32-bit draw is below it with chance p.
inline uint64_t draw_threshold(double p) {
  return static_cast<uint64_t>(std::ldexp(p, 32));
}

// Uniform in [0, 1) with 32 bits of resolution; exact and identical on host and device.
LS_HD LS_FORCEINLINE double u01(uint32_t x) {
  return x * (1.0 / 4294967296.0);
}

// Uniform integer in [0, n) by multiply-shift (no modulo bias worth noting for n << 2^32).
LS_HD LS_FORCEINLINE uint32_t below(uint32_t x, uint32_t n) {
  return static_cast<uint32_t>((static_cast<uint64_t>(x) * n) >> 32);
}

}  // namespace ls
