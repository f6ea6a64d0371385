// The escape VC architectures (paper, "Virtual channel architecture"): where a packet goes when
// no dynamic VC is available, and which escape VC it takes. BG/L's own is the bubble escape VC,
// one per link, deadlock-free by the bubble rules (tokens.hpp). The paper compares it with the
// dateline pair of Dally and Seitz: two escape VCs per link, the lower-numbered before a packet
// crosses its dimension's dateline and the higher-numbered after; the datelines are the links
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
// to `dest`: the lower while the dateline still lies ahead in that dimension (the packet will
// take the wrap-round link), the higher once it is behind or was never on the way. Each VC's
// channels then form a chain with no wrap-round dependency, which is what makes it acyclic.
LS_HD inline uint32_t dateline_vc(const Shape& s, uint32_t d, uint32_t at, uint32_t dest) {
  const uint32_t k = dim_of(d), c = s.coord(at, k), t = s.coord(dest, k);
  const bool ahead = plus(d) ? t < c : t > c;
  return ahead ? 0u : 1u;
}

}  // namespace ls::bgl
