// Routing by hint bits (paper, "Torus network"): six bits in the header, one per direction
// (x+ x- y+ y- z+ z-), say where a packet may still move. The hardware sets them at injection
// for minimal routing, from the two registers per dimension that give the cut-off between going
// + and going - (here: the shorter way round; half way round, as software sets the registers,
// bgl.half_way: + from an even coordinate in that dimension and - from an odd one, + from a node
// whose coordinates sum to an even number, or always +); a dimension's bits clear as the packet
// leaves a node in a direction that brings it to its destination's coordinate there. There are
// no routing tables: the bits and the VC are all the routers look at.
#pragma once
#include "bgl_state.hpp"

namespace ls::bgl {

LS_HD inline uint32_t dim_of(uint32_t d) {
  return d >> 1;
}
LS_HD inline bool plus(uint32_t d) {
  return (d & 1u) == 0;
}

// The node next to `at` in direction d.
LS_HD inline uint32_t neighbour(const Shape& s, uint32_t at, uint32_t d) {
  const uint32_t k = dim_of(d), n = s.radix[k], c = s.coord(at, static_cast<int>(k));
  return at - c * s.stride[k] + (plus(d) ? (c + 1) % n : (c + n - 1) % n) * s.stride[k];
}

// The first direction (x+ x- y+ y- z+ z-) whose bit is set in non-zero hint bits h.
LS_HD inline uint32_t first_direction(uint32_t h) {
  uint32_t d = 0;
  while (!((h >> d) & 1u)) ++d;
  return d;
}

// The hint bits of a packet from node src to node dest.
LS_HD inline uint32_t initial_hints(const Shape& s, uint32_t src, uint32_t dest, HalfWay half) {
  uint32_t h = 0, sum = 0;
  for (uint32_t k = 0; k < s.ndims; ++k) sum += s.coord(src, k);
  for (uint32_t k = 0; k < s.ndims; ++k) {
    const uint32_t n = s.radix[k], a = s.coord(src, k), b = s.coord(dest, k);
    if (a == b) continue;
    const uint32_t up = (b + n - a) % n;  // hops going +
    const bool tie_plus =
        half == kHalfWayPlus || (half == kHalfWayCoordinate ? a % 2 == 0 : sum % 2 == 0);
    const bool go_plus = up < n - up || (up == n - up && tie_plus);
    h |= 1u << (2 * k + (go_plus ? 0u : 1u));
  }
  return h;
}

// The hint bits after leaving node `at` in direction d: that dimension's clear if the next node
// has the destination's coordinate.
LS_HD inline uint32_t hints_after(const Shape& s, uint32_t hints, uint32_t at, uint32_t dest,
                                  uint32_t d) {
  const uint32_t k = dim_of(d), n = s.radix[k], c = s.coord(at, k);
  const uint32_t next = plus(d) ? (c + 1) % n : (c + n - 1) % n;
  return next == s.coord(dest, k) ? hints & ~(3u << (2 * k)) : hints;
}

}  // namespace ls::bgl
