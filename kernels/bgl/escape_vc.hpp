// The escape VC architectures (paper, "Virtual channel architecture"): where a packet goes when
// no dynamic VC is available, and which escape VC it takes. BG/L's own is the bubble escape VC,
// one per link, deadlock-free by the bubble rules (tokens.hpp). The paper compares it with the
// dateline pair of Dally and Seitz: two escape VCs per link, the lower-numbered before a packet
// crosses its dimension's dateline and the higher-numbered after (bgl.dateline_uncrossed: where
// a packet that never crosses goes); the datelines are the links
// leaving the maximum coordinate (the wrap-round links). Either is routed in dimension order
// (x, then y, then z) or in Cray's direction order (x+ y+ z+ x- y- z-). The high-priority VC is
// BG/L's bubble VC in dimension order whatever the escape architecture.
#pragma once
#include "hint_bits.hpp"

namespace ls::bgl {

// The escape direction of a packet with hint bits `hints` (non-zero): the first of its
// directions in dimension order, or in direction order.
LS_HD inline uint32_t escape_direction(uint32_t hints, bool direction_order) {
  if (direction_order) {
    const uint32_t plus_dirs = hints & 0x15u;  // x+ y+ z+ first, then x- y- z-
    hints = plus_dirs != 0 ? plus_dirs : hints;
  }
  return first_direction(hints);
}

// Of a dateline pair, the escape VC (0 lower, 1 higher) for a hop in direction d from node `at`
// towards `dest` of a packet whose route in that dimension began at `src`: the lower while the
// dateline still lies ahead (the packet will take the wrap-round link, that hop included), the
// higher once it is behind ("before crossing the dateline, the escape VC is the lower-numbered of
// the pair, but after crossing the dateline, the escape VC is the higher-numbered"). A packet
// whose route never crosses has not crossed: the lower (`uncrossed_higher`: the higher, grouping
// it with the crossed packets as Dally and Seitz's pair does). Either way neither VC's channels
// close a cycle: the lower's wrap-round channel leads only to the higher, and the higher carries
// no wrap-round hop. Minimal routes move one way round a ring, so the packet has crossed exactly
// when it now stands on the far side of its source.
LS_HD inline uint32_t dateline_vc(const Shape& s, uint32_t d, uint32_t at, uint32_t dest,
                                  uint32_t src, bool uncrossed_higher) {
  const uint32_t k = dim_of(d), c = s.coord(at, k), t = s.coord(dest, k), a = s.coord(src, k);
  const bool ahead = plus(d) ? t < c : t > c;
  const bool crossed = plus(d) ? c < a : c > a;
  return ahead ? 0u : (crossed || uncrossed_higher ? 1u : 0u);
}

}  // namespace ls::bgl
