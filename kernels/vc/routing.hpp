// Routing functions of the vc family. Ports of a k-ary n-cube router: 0 is the terminal,
// 1+2d sends towards +d, 2+2d towards -d. A crossbar router's port i is terminal i.
//
// Torus dimension order uses two dateline VC classes: the class is chosen when a packet enters
// a dimension and kept until it leaves it; class 1 if its path in that dimension crosses the
// wraparound link between coordinates k-1 and 0, class 0 otherwise (neither class then holds a
// cyclic channel dependency). A tie at distance k/2 is broken at random on entry. With the
// datelines off (VcPolicy::dateline, for teaching) a packet may take any VC of its window, as on
// a mesh, and the ring's channel dependencies close into a cycle: it can deadlock.
// Minimal adaptive routing (Duato) adds any productive direction on the adaptive VCs, with
// dimension order on the escape VCs (mesh: VC 0; torus: VCs 0 and 1, one per dateline class).
#pragma once
#include <cstdint>

#include "../common/rng.hpp"
#include "../common/round_robin.hpp"
#include "vc_state.hpp"

namespace ls {

struct RouteResult {
  uint8_t port, lo, hi;  // dimension-order (escape) output port and VC range
  uint16_t adapt_ports;  // adaptive candidate ports (mask)
  uint8_t adapt_lo, adapt_hi;
};

LS_HD inline uint32_t plus_port(uint32_t d) {
  return 1 + 2 * d;
}
LS_HD inline uint32_t minus_port(uint32_t d) {
  return 2 + 2 * d;
}

// Output port that continues the direction of travel of a flit that came in on `in_port`
// (it arrived on the -d side iff it travels +d).
LS_HD inline uint32_t straight_port(uint32_t in_port) {
  uint32_t d = (in_port - 1) / 2;
  return (in_port - 1) % 2 ? plus_port(d) : minus_port(d);
}

// Coordinate d of a node from its packed coordinates (VcTopology::coords): a table lookup
// instead of a division and a modulo per dimension and node.
LS_HD inline uint32_t coord_of(uint64_t packed, uint32_t d) {
  return static_cast<uint32_t>(packed >> (16 * d)) & 0xFFFFu;
}

// Hops from coordinate c forward (+) to coordinate x on a ring of k (c, x < k): (x - c) mod k
// without a division, which costs tens of cycles.
LS_HD inline uint32_t forward_hops(uint32_t c, uint32_t x, uint32_t k) {
  return x >= c ? x - c : x + k - c;
}

// Dimension-order step at the router with packed coordinates `cur` towards `dst` in a network
// of kind `topo` (p.topo, or the same as a constant where a caller is compiled for one). For the
// torus, `cls` returns the dateline class (0/1); `in_cls()` is the class of the VC the flit
// arrived on (worked out only where needed: a flit going straight on in a torus dimension).
template <class InClass>
LS_HD LS_FORCEINLINE uint32_t dor_port(const VcParams& p, TopologyKind topo, uint64_t cur,
                                       uint64_t dst, uint32_t in_port, const InClass& in_cls,
                                       uint64_t seed, uint64_t t, uint32_t elem, uint32_t* cls) {
  const uint64_t differ = cur ^ dst;  // the first dimension left is the lowest differing field
  if (differ == 0) {
    *cls = 0;
    return 0;  // arrived: terminal port
  }
  const uint32_t d = lowest_bit64(differ) / 16;
  const uint32_t c = coord_of(cur, d), x = coord_of(dst, d), k = p.shape.radix[d];
  if (topo == TopologyKind::kMesh) {
    *cls = 0;
    return x > c ? plus_port(d) : minus_port(d);
  }
  if (in_port != 0 && (in_port - 1) / 2 == d) {  // already travelling in this dimension
    *cls = in_cls();
    return straight_port(in_port);
  }
  int dist2 = static_cast<int>(k) - 2 * static_cast<int>(forward_hops(c, x, k));
  bool plus = dist2 > 0 || (dist2 == 0 && (philox_draw(seed, t, elem, kStreamRoute).w[0] & 1u));
  *cls = plus ? (c > x) : (c < x);  // does the path cross the k-1 <-> 0 wraparound link?
  return plus ? plus_port(d) : minus_port(d);
}

// Route of a head at the router with packed coordinates `here` that arrived on (in_port, in_vc),
// for node dest_node at packed coordinates `there`, under policies `pol` (RouterShape::policy), in
// a network of kind `topo` (as dor_port).
LS_HD LS_FORCEINLINE RouteResult route(const VcParams& p, TopologyKind topo, const VcPolicy& pol,
                                       uint64_t here, uint32_t in_port, uint32_t in_vc,
                                       uint32_t dest_node, uint64_t there, uint32_t msg_class,
                                       uint64_t seed, uint64_t t, uint32_t elem) {
  // The message class owns a window of the VCs; everything below is relative to it.
  const uint32_t width = pol.class_vcs, base = msg_class * width;
  RouteResult r{0, static_cast<uint8_t>(base), static_cast<uint8_t>(base + width - 1), 0, 0, 0};
  if (topo == TopologyKind::kCrossbar) {
    r.port = static_cast<uint8_t>(dest_node);
    return r;
  }
  const bool torus = topo == TopologyKind::kTorus;
  const bool adaptive = pol.routing == Routing::kMinAdaptive;
  // Escape VCs: [0, esc) of the window with adaptive routing, the whole window otherwise.
  const uint32_t esc = adaptive ? (torus ? 2 : 1) : width;
  const uint32_t half = esc / 2, lv = in_vc - base;
  const auto in_cls = [&] { return lv < esc && lv >= half ? 1u : 0u; };
  // A flit arriving on an adaptive VC has no dateline class yet: it enters the escape
  // network as if entering the dimension at this router.
  uint32_t eff_in_port = (adaptive && lv >= esc) ? 0 : in_port;
  uint32_t cls = 0;
  r.port = static_cast<uint8_t>(
      dor_port(p, topo, here, there, eff_in_port, in_cls, seed, t, elem, &cls));
  if (r.port == 0) return r;  // ejection may use every VC of the class
  if (torus && pol.dateline) {
    r.lo = static_cast<uint8_t>(base + (cls ? half : 0));
    r.hi = static_cast<uint8_t>(base + (cls ? esc - 1 : half - 1));
  } else {
    r.lo = static_cast<uint8_t>(base);
    r.hi = static_cast<uint8_t>(base + esc - 1);
  }
  if (adaptive) {
    const Shape& s = p.shape;
    for (uint32_t d = 0; d < s.ndims; ++d) {
      uint32_t c = coord_of(here, d), x = coord_of(there, d), k = s.radix[d];
      if (c == x) continue;
      bool plus;
      if (torus) {
        uint32_t fwd = forward_hops(c, x, k);
        if (2 * fwd == k) {
          r.adapt_ports |= static_cast<uint16_t>(1u << plus_port(d) | 1u << minus_port(d));
          continue;
        }
        plus = 2 * fwd < k;
      } else {
        plus = x > c;
      }
      r.adapt_ports |= static_cast<uint16_t>(1u << (plus ? plus_port(d) : minus_port(d)));
    }
    r.adapt_lo = static_cast<uint8_t>(base + esc);
    r.adapt_hi = static_cast<uint8_t>(base + width - 1);
  }
  return r;
}

}  // namespace ls
