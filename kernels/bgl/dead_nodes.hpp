// Dead nodes and links and the hint bits software sets around them (paper, "Torus network": "The
// hardware does not have the capability to route around 'dead' nodes or links. However, software
// can set the hint bits appropriately so that such nodes are avoided"). Software chooses, per
// packet, which way round each ring to go (the hint bits) and whether the packet may route
// dynamically: a dynamic packet may take any path inside the box its hint bits span, and fall back
// to the escape VC's path, so its box must hold no dead node and no dead link along a dimension it
// moves in; a deterministic one follows the escape VC's order (dimension or direction;
// high-priority packets always dimension order), so only that path must avoid them. Of the up to
// eight choices of ways round, software takes the one of fewest hops, dynamic where it can. A pair
// with none goes in two legs through an intermediate node, whose software re-injects it (the
// paper's full connectivity around three noncolinear dead nodes needs them:
// scripts/bgl_dead_node_reach.py); a pair with neither is unreachable. Pure functions of the pair
// and the dead nodes, as software's table would be.
#pragma once
#include "escape_vc.hpp"

namespace ls::bgl {

// Whether node x lies in the box a packet from src to dest with hint bits h may cross.
LS_HD inline bool in_box(const Shape& s, uint32_t h, uint32_t src, uint32_t dest, uint32_t x) {
  for (uint32_t k = 0; k < s.ndims; ++k) {
    const int kk = static_cast<int>(k);
    const uint32_t n = s.radix[k], a = s.coord(src, kk), b = s.coord(dest, kk), c = s.coord(x, kk);
    const bool up = (h >> (2 * k)) & 1u;
    // Hops from a to c, and from a to b, going the packet's way round.
    const uint32_t to_c = up ? (c + n - a) % n : (a + n - c) % n;
    const uint32_t to_b = up ? (b + n - a) % n : (a + n - b) % n;
    if (to_c > to_b) return false;
  }
  return true;
}

// Whether the link leaving node `at` in direction d is down.
LS_HD inline bool link_down(const Shape& s, const DeadNodes& dead, uint32_t at, uint32_t d) {
  const uint32_t from = plus(d) ? at : neighbour(s, at, d), k = dim_of(d);  // its + end
  for (uint32_t i = 0; i < dead.links; ++i)
    if (dead.link_node[i] == from && dead.link_dim[i] == k) return true;
  return false;
}

// Whether the box a packet from src to dest with hint bits h may cross holds a dead node, or a
// dead link along a dimension the packet moves in (both its ends in the box).
LS_HD inline bool box_blocked(const Shape& s, const DeadNodes& dead, uint32_t h, uint32_t src,
                              uint32_t dest) {
  for (uint32_t i = 0; i < dead.count; ++i)
    if (in_box(s, h, src, dest, dead.node[i])) return true;
  for (uint32_t i = 0; i < dead.links; ++i) {
    const uint32_t a = dead.link_node[i], k = dead.link_dim[i];
    if (((h >> (2 * k)) & 3u) && in_box(s, h, src, dest, a) &&
        in_box(s, h, src, dest, neighbour(s, a, 2 * k)))
      return true;
  }
  return false;
}

// Whether the escape-ordered path from src with hint bits h reaches its destination without
// entering a dead node or crossing a dead link.
LS_HD inline bool path_clear(const Shape& s, const DeadNodes& dead, uint32_t h, uint32_t src,
                             uint32_t dest, bool direction_order) {
  uint32_t at = src;
  while (h != 0) {
    const uint32_t d = escape_direction(h, direction_order);
    if (link_down(s, dead, at, d)) return false;
    h = hints_after(s, h, at, dest, d);
    at = neighbour(s, at, d);
    if (dead.contains(at)) return false;
  }
  return true;
}

// Software's choice for a packet from src to dest: `dynamic` whether the packet may route
// dynamically at all (not high priority, nor deterministic), `direction_order` whether its
// deterministic path is in direction order.
struct SoftwareRoute {
  uint32_t hints;
  bool deterministic;
  bool reachable;
  uint32_t hops;
};

LS_HD inline SoftwareRoute software_route(const Shape& s, const DeadNodes& dead, uint32_t src,
                                          uint32_t dest, HalfWay half, bool dynamic,
                                          bool direction_order) {
  const uint32_t minimal = initial_hints(s, src, dest, half);
  SoftwareRoute best{minimal, false, false, 0};
  if (dead.contains(dest)) return best;
  uint32_t best_cost = 0xFFFFFFFFu;
  // Each dimension to cross goes + or - (bit k of `flip`: the other way from the minimal one).
  uint32_t moving = 0;
  for (uint32_t k = 0; k < s.ndims; ++k)
    if ((minimal >> (2 * k)) & 3u) moving |= 1u << k;
  for (uint32_t flip = 0; flip < (1u << s.ndims); ++flip) {
    if (flip & ~moving) continue;
    uint32_t h = minimal, hops = 0;
    for (uint32_t k = 0; k < s.ndims; ++k) {
      if (!((moving >> k) & 1u)) continue;
      if ((flip >> k) & 1u) h ^= 3u << (2 * k);
      const uint32_t n = s.radix[k], a = s.coord(src, static_cast<int>(k)),
                     b = s.coord(dest, static_cast<int>(k));
      hops += (h >> (2 * k)) & 1u ? (b + n - a) % n : (a + n - b) % n;
    }
    const bool box = dynamic && !box_blocked(s, dead, h, src, dest);
    // Fewest hops first, then dynamic over deterministic, then the earlier (the minimal first).
    const uint32_t cost = 2 * hops + (box ? 0u : 1u);
    if (cost >= best_cost) continue;
    if (!box && !path_clear(s, dead, h, src, dest, direction_order)) continue;
    best = {h, !box, true, hops};
    best_cost = cost;
  }
  return best;
}

// A first leg carries its final destination in software's header (the packet record's seq word;
// the payload's first bytes in the hardware), marked by this bit.
constexpr uint32_t kFirstLeg = 1u << 31;
constexpr uint32_t kRelayRadius = 2;  // intermediates: up to this many hops from either end

// Software's route for a packet from src to dest: one route if there is one; otherwise two legs
// through `via`, the intermediate within kRelayRadius hops of src or dest (nearest src first,
// dimension 0 varying fastest) of fewest hops in all, then fewest deterministic legs.
struct PlannedRoute {
  SoftwareRoute first;  // to dest, or to via
  uint32_t via;
  bool relayed;
};

LS_HD inline PlannedRoute plan_route(const Shape& s, const DeadNodes& dead, uint32_t src,
                                     uint32_t dest, HalfWay half, bool dynamic,
                                     bool direction_order) {
  PlannedRoute best{software_route(s, dead, src, dest, half, dynamic, direction_order), dest,
                    false};
  if (best.first.reachable || dead.contains(dest)) return best;
  uint32_t offsets = 1;  // each dimension's offset in [-radius, radius]
  for (uint32_t k = 0; k < s.ndims; ++k) offsets *= 2 * kRelayRadius + 1;
  uint32_t best_cost = 0xFFFFFFFFu;
  for (uint32_t end = 0; end < 2; ++end)
    for (uint32_t i = 0; i < offsets; ++i) {
      uint32_t via = end == 0 ? src : dest, rest = i, dist = 0;
      for (uint32_t k = 0; k < s.ndims; ++k) {
        const uint32_t o = rest % (2 * kRelayRadius + 1), n = s.radix[k];
        rest /= 2 * kRelayRadius + 1;
        const uint32_t c = s.coord(via, static_cast<int>(k));
        const uint32_t moved = (c + n + o - kRelayRadius % n) % n;  // c + o - radius round the ring
        via = via - c * s.stride[k] + moved * s.stride[k];
        dist += o > kRelayRadius ? o - kRelayRadius : kRelayRadius - o;
      }
      if (dist == 0 || dist > kRelayRadius || via == src || via == dest || dead.contains(via))
        continue;
      const SoftwareRoute a = software_route(s, dead, src, via, half, dynamic, direction_order);
      if (!a.reachable) continue;
      const SoftwareRoute b = software_route(s, dead, via, dest, half, dynamic, direction_order);
      if (!b.reachable) continue;
      const uint32_t cost = 4 * (a.hops + b.hops) + a.deterministic + b.deterministic;
      if (cost >= best_cost) continue;
      best = {a, via, true};
      best_cost = cost;
    }
  return best;
}

}  // namespace ls::bgl
