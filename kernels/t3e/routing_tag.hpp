// The T3E routing tag (manual, "Routing Tag"; paper section 2): the X, Y and Z address and
// direction of the destination, an initial +X/+Y/+Z hop, a final -Z hop and the ADAPT bit. The
// PE interface reads it from the source router's R_NET_LUT (or R_LUT_OVERRIDE, mode 3) and it
// rides in the packet's header flit; routers compare it with their physical coordinates.
//
// The manual's Table 12 bit layout is not in our copy of it, so the packing is ours:
//   <4:0> X_ADR  <5> X_SGN   <10:6> Y_ADR  <11> Y_SGN   <16:12> Z_ADR  <17> Z_SGN
//   <19:18> INITIAL_HOP (0 +X, 1 +Y, 2 +Z, 3 none)  <20> FINAL_HOP (-Z)  <21> ADAPT
//   <22> FINAL_TAKEN (set by the router that takes the final hop; never in a table)
//   <23> NO_ROUTE (ours: software marks a destination it cannot reach around faults; the PE
//        interface does not send to it)
// SGN 0 is +, 1 is -, as in the manual. Addresses have 5 bits: rings of up to 32 nodes.
#pragma once
#include <cstdint>

#include "../common/hd.hpp"
#include "../common/round_robin.hpp"
#include "register_bits.hpp"

namespace ls::t3e {

// Directions in direction order (section 2.1): +X, +Y, +Z, -X, -Y, -Z. A direction's dimension
// is dir % 3, its sign dir / 3.
enum Direction : uint32_t { kPlusX, kPlusY, kPlusZ, kMinusX, kMinusY, kMinusZ, kDirections };
constexpr uint32_t kNoHop = 3;  // INITIAL_HOP "none"

// The direction opposite dir (a direction, < kDirections): what a packet arriving through the
// port of direction dir travels in. (dir + 3) % kDirections, without the division.
LS_HD inline uint32_t opposite(uint32_t dir) {
  return dir < 3 ? dir + 3 : dir - 3;
}

// R_NET_LUT modes (R_LUT_OVERRIDE selects one): an entry per logical PE, an entry per 4 PEs
// (two fillings of the entries' low address bits), the override register's tag for every
// packet; and ours, tags computed from coordinates, for machines beyond 2176 PEs.
enum LutMode : uint32_t { kMode0, kMode1, kMode2, kMode3, kComputed };

struct Tag {
  static constexpr uint32_t kAdrBits = 5, kAdrMask = 31;
  LS_HD static uint32_t adr(uint32_t tag, uint32_t dim) { return (tag >> (6 * dim)) & kAdrMask; }
  LS_HD static uint32_t sgn(uint32_t tag, uint32_t dim) { return (tag >> (6 * dim + 5)) & 1u; }
  LS_HD static uint32_t initial(uint32_t tag) { return (tag >> 18) & 3u; }
  LS_HD static bool final_hop(uint32_t tag) { return (tag >> 20) & 1u; }
  LS_HD static bool adapt(uint32_t tag) { return (tag >> 21) & 1u; }
  LS_HD static bool final_taken(uint32_t tag) { return (tag >> 22) & 1u; }
  LS_HD static bool no_route(uint32_t tag) { return (tag >> 23) & 1u; }
  static constexpr uint32_t kNoRoute = 1u << 23;
  // The tag without its initial and final hops: as an adaptive packet reads it (manual,
  // "Adaptive Routing": it "does not use the initial hop value and the final hop value").
  LS_HD static uint32_t without_hops(uint32_t tag) { return (tag | 3u << 18) & ~(1u << 20); }
  // The tag as the routers read it: an adaptive packet's without its hops, unless
  // t3e.adaptive_hops = "taken" (`hops_taken`).
  LS_HD static uint32_t as_read(uint32_t tag, bool hops_taken) {
    return adapt(tag) && !hops_taken ? without_hops(tag) : tag;
  }

  // adr[d], sgn[d] for d = X, Y, Z; initial in 0..3; final and adapt as bits.
  LS_HD static uint32_t make(const uint32_t adr[3], const uint32_t sgn[3], uint32_t initial,
                             bool final_hop, bool adapt) {
    uint32_t t = 0;
    for (uint32_t d = 0; d < 3; ++d) t |= ((adr[d] & kAdrMask) | ((sgn[d] & 1u) << 5)) << (6 * d);
    return t | ((initial & 3u) << 18) | (uint32_t{final_hop} << 20) | (uint32_t{adapt} << 21);
  }
  LS_HD static uint32_t without_initial(uint32_t tag) { return tag | (3u << 18); }
  LS_HD static uint32_t with_final_taken(uint32_t tag) { return tag | (1u << 22); }
  LS_HD static uint32_t with_adapt(uint32_t tag, bool a) {
    return (tag & ~(1u << 21)) | (uint32_t{a} << 21);
  }
};

// Physical coordinates of a router, packed as R_PWHO packs them (manual Table 4: X <2:0>,
// Y <12:8>, Z <19:16>), each field widened to 8 bits so rings of up to 32 nodes fit.
LS_HD inline uint32_t pwho_coord(uint32_t pwho, uint32_t dim) {
  return (pwho >> (8 * dim)) & 255u;
}
LS_HD inline uint32_t make_pwho(uint32_t x, uint32_t y, uint32_t z) {
  return x | (y << 8) | (z << 16);
}

// The directions a packet at physical node `here` still has to travel (bit dir), as its tag
// says: dimension d is satisfied when the node's ordinate equals the tag's address.
LS_HD inline uint32_t unsatisfied(uint32_t tag, uint32_t here) {
  uint32_t m = 0;
  for (uint32_t d = 0; d < 3; ++d)  // no branch: which dimensions are done is random
    m |= uint32_t{pwho_coord(here, d) != Tag::adr(tag, d)} << (d + 3 * Tag::sgn(tag, d));
  return m;
}

// The lowest and the highest direction of a non-empty mask of them.
LS_HD inline uint32_t lowest_dir(uint32_t m) {
  return lowest_bit(m);
}
LS_HD inline uint32_t highest_dir(uint32_t m) {
  return highest_bit(m);
}

// The next hop of direction-order routing (paper sections 2.1-2.3) for a packet with `tag` at
// physical node `here`, `from_pe` when it has just left its source PE: the initial hop there,
// then the lowest-ordered unsatisfied direction, then the final -Z hop; `dir` kDirections is
// the PE. `tag` is the one the packet leaves with (the hop it took recorded).
struct Hop {
  uint32_t dir, tag;
};
// next_hop_todo: the same, given the directions it still has to travel, `todo`
// (unsatisfied(tag, here)).
LS_HD inline Hop next_hop_todo(uint32_t tag, uint32_t todo, bool from_pe) {
  if (from_pe && Tag::initial(tag) != kNoHop) return {Tag::initial(tag), Tag::without_initial(tag)};
  if (Tag::final_taken(tag) || (todo == 0 && !Tag::final_hop(tag))) return {kDirections, tag};
  if (todo == 0) return {kMinusZ, Tag::with_final_taken(tag)};
  return {lowest_dir(todo), tag};
}
LS_HD inline Hop next_hop(uint32_t tag, uint32_t here, bool from_pe) {
  return next_hop_todo(tag, unsatisfied(tag, here), from_pe);
}

// The VC set (0: VC0, 1: VC1 of the dateline pair) a packet takes leaving in a direction whose
// R_VCSEL is `sel` (SELECT<7:0>, DATELINE bit 32): going on in the direction it travels on set
// `set` keeps it, switching 0 to 1 at the dateline node; entering the direction takes the
// SELECT bit of its destination ordinate `adr`. -1: a VC1 packet at the dateline, which the
// hardware stops (a configuration error).
LS_HD inline int vc_set(bool continuing, uint32_t set, uint64_t sel, uint32_t adr) {
  if (!continuing) return static_cast<int>(sel >> (adr & 7u) & 1u);
  if (!(sel & kDatelineBit)) return static_cast<int>(set);
  return set == 1 ? -1 : 1;
}

// The default routing tag from physical node `src` to `dst` of a kx x ky x kz torus: minimal in
// each dimension, a tie at half the ring going + from even source ordinates and - from odd ones
// (the reading of Table 1's whole-ring traffic) or, with `ties_plus`, always + (the manual's
// Table 13), no initial or final hop. A Y dimension of 2 is a line (manual, Y = 2: one link),
// so there the tie goes by parity whatever the rule: + from Y = 0, - from Y = 1. The host builds
// the R_NET_LUT tables from it, and with lut_mode "computed" the PE interface calls it directly.
LS_HD inline uint32_t default_tag(uint32_t src, uint32_t dst, const uint32_t radix[3], bool adapt,
                                  bool ties_plus) {
  uint32_t adr[3], sgn[3];
  for (uint32_t d = 0; d < 3; ++d) {
    const uint32_t k = radix[d], s = pwho_coord(src, d), t = pwho_coord(dst, d);
    const uint32_t plus = (t + k - s) % k;  // hops going +
    adr[d] = t;
    const bool tie_plus = (ties_plus && !(d == 1 && k == 2)) || s % 2 == 0;
    sgn[d] = (2 * plus < k || (2 * plus == k && tie_plus)) ? 0u : 1u;
  }
  return Tag::make(adr, sgn, kNoHop, false, adapt);
}

}  // namespace ls::t3e

namespace ls::t3e {

// The tag the PE interface reads for destination logical PE `lpe` (manual, "R_NET_LUT Format"
// and Table 11): mode 0 entry lpe; modes 1 and 2 entry lpe / 4, whose X and Y addresses leave
// bit 0 to the low two bits of the logical PE number (the "x" bits of Tables 14 and 15: mode 1
// takes X0 from lpe bit 0 and Y0 from bit 1, mode 2 the other way round; the manual's Table 16
// that would say so is not in our copy); mode 3 the R_LUT_OVERRIDE register's tag.
LS_HD inline uint32_t lut_tag(uint32_t mode, const uint32_t* lut, uint32_t lut_override,
                              uint32_t lpe) {
  switch (mode) {
    case 0:
      return lut[lpe];
    case 1:
    case 2: {
      const uint32_t lo = lpe & 3u, x0 = mode == 1 ? lo & 1u : lo >> 1,
                     y0 = mode == 1 ? lo >> 1 : lo & 1u;
      return lut[lpe >> 2] | x0 | (y0 << 6);
    }
    default:
      return lut_override;
  }
}

}  // namespace ls::t3e
