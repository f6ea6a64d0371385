// A flit is a 32-byte record of integers, in router buffers and on channel belts alike: moving
// one touches a single cache line (a single sector on a GPU) where six per-field arrays touched
// six, which made flit moves the largest cost of a router-cycle. `meta` packs the small fields.
#pragma once
#include <cstdint>

#include "hd.hpp"

namespace ls {

// meta bits: [0] head, [1] tail, [2..7] VC it travels on, [8..15] hops, [16..30] packet size,
// [31] message class (0 request or plain packet, 1 reply).
struct FlitMeta {
  static constexpr uint32_t kHead = 1u, kTail = 2u;
  LS_HD static uint32_t make(bool head, bool tail, uint32_t vc, uint32_t hops, uint32_t size,
                             uint32_t cls) {
    return (head ? kHead : 0u) | (tail ? kTail : 0u) | ((vc & 63u) << 2) | ((hops & 255u) << 8) |
           ((size & 0x7FFFu) << 16) | (cls << 31);
  }
  LS_HD static uint32_t cls(uint32_t m) { return m >> 31; }
  LS_HD static bool head(uint32_t m) { return m & kHead; }
  LS_HD static bool tail(uint32_t m) { return m & kTail; }
  LS_HD static uint32_t vc(uint32_t m) { return (m >> 2) & 63u; }
  LS_HD static uint32_t hops(uint32_t m) { return (m >> 8) & 255u; }
  LS_HD static uint32_t size(uint32_t m) { return (m >> 16) & 0x7FFFu; }
  LS_HD static uint32_t with_vc(uint32_t m, uint32_t vc) {
    return (m & ~(63u << 2)) | ((vc & 63u) << 2);
  }
  LS_HD static uint32_t with_hop(uint32_t m) {
    uint32_t h = hops(m) + 1;
    return (m & ~(255u << 8)) | ((h > 255u ? 255u : h) << 8);
  }
};

struct alignas(32) Flit {
  uint32_t dest;   // destination node
  uint32_t src;    // source node
  uint32_t seq;    // packet number at its source
  uint32_t ctime;  // cycle the packet was created (source queueing counts in latency)
  uint32_t itime;  // cycle the head entered the network
  uint32_t meta;   // FlitMeta
  uint32_t unused[2];
};
static_assert(sizeof(Flit) == 32, "a flit is one 32-byte record");

}  // namespace ls
