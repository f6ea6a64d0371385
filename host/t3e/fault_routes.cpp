#include "fault_routes.hpp"

#include <climits>

namespace ls::t3e {
namespace {

// The machine as software sees it after the faults: which channels and nodes are gone.
struct Machine {
  const Registers& g;
  std::vector<int32_t> links;  // [R, 6] neighbours()
  std::vector<uint8_t> bad;    // [R, 6] the channel leaving the router in direction dir is cut
  std::vector<uint8_t> dead;   // [R]
  std::vector<uint32_t> cut;   // router * 6 + dir of every cut channel
  std::vector<uint32_t> dead_list;

  Machine(const Topology& t, const Registers& regs)
      : g(regs),
        links(neighbours(t, regs)),
        bad(size_t{t.routers} * kDirections, 0),
        dead(t.routers, 0) {}

  // The router a channel leads to, -1 none (a ring of one node, a partial plane's edge).
  int64_t next(uint32_t r, uint32_t dir) const { return links[size_t{r} * kDirections + dir]; }
  void cut_channel(uint32_t r, uint32_t dir) {
    if (bad[r * kDirections + dir]) return;
    bad[r * kDirections + dir] = 1;
    cut.push_back(r * kDirections + dir);
  }

  // Hops of the deterministic route `tag` from router src, or -1 where it does not reach dst:
  // it crosses a cut channel or a dead node, would put VC1 across a dateline (R_VCSEL), or takes
  // its initial hop into a dateline node (section 3.1: that hop must not close a cycle).
  int walk(uint32_t src, uint32_t dst, uint32_t tag) const {
    uint32_t here = src, prev = kDirections, set = 0;
    for (int hops = 0; hops <= 3 * 32 + 2; ++hops) {
      const Hop h = next_hop(tag, g.pwho[here], hops == 0);
      if (h.dir == kDirections) return here == dst ? hops : -1;
      const int64_t there = next(here, h.dir);
      if (there < 0 || bad[here * kDirections + h.dir]) return -1;
      const int s =
          vc_set(h.dir == prev, set, g.vcsel[here * kDirections + h.dir], Tag::adr(tag, h.dir % 3));
      if (s < 0) return -1;
      const uint32_t n = static_cast<uint32_t>(there);
      if (dead[n]) return -1;
      if (hops == 0 && Tag::initial(tag) != kNoHop &&
          (g.vcsel[n * kDirections + h.dir] & kDatelineBit))
        return -1;
      set = static_cast<uint32_t>(s);
      prev = h.dir;
      tag = h.tag;
      here = n;
    }
    return -1;
  }

  // Whether every minimal path the tag allows an adaptive packet (any order of its unsatisfied
  // directions) avoids the faults.
  bool adaptive_paths_clear(uint32_t src, uint32_t tag, const uint32_t k[3]) const {
    const uint32_t ps = g.pwho[src];
    auto dist = [&](uint32_t d, uint32_t a, uint32_t b) {  // hops from a to b going the tag's way
      return Tag::sgn(tag, d) ? (a + k[d] - b) % k[d] : (b + k[d] - a) % k[d];
    };
    auto in_box = [&](uint32_t node) {
      for (uint32_t d = 0; d < 3; ++d)
        if (dist(d, pwho_coord(ps, d), pwho_coord(g.pwho[node], d)) >
            dist(d, pwho_coord(ps, d), Tag::adr(tag, d)))
          return false;
      return true;
    };
    for (uint32_t n : dead_list)
      if (in_box(n)) return false;
    for (uint32_t c : cut) {
      const uint32_t n = c / kDirections, dir = c % kDirections, d = dir % 3;
      if (dir / 3 == Tag::sgn(tag, d) && pwho_coord(g.pwho[n], d) != Tag::adr(tag, d) && in_box(n))
        return false;
    }
    return true;
  }

  // Hops between every two routers over the live links ([R, R], 255: none), for
  // adaptive_safe; computed on first use.
  mutable std::vector<uint8_t> hops;
  uint8_t distance(uint32_t a, uint32_t b) const {
    const size_t R = dead.size();
    if (hops.empty()) {
      hops.assign(R * R, 255);
      for (uint32_t s = 0; s < R; ++s) {
        std::vector<uint32_t> queue{s};
        hops[s * R + s] = 0;
        for (size_t i = 0; i < queue.size(); ++i)
          for (uint32_t dir = 0; dir < kDirections; ++dir) {
            const uint32_t u = queue[i];
            const int64_t n = next(u, dir);
            if (n < 0 || bad[u * kDirections + dir] || dead[static_cast<uint32_t>(n)] ||
                hops[s * R + static_cast<size_t>(n)] != 255)
              continue;
            hops[s * R + static_cast<size_t>(n)] = static_cast<uint8_t>(hops[s * R + u] + 1);
            queue.push_back(static_cast<uint32_t>(n));
          }
      }
    }
    return hops[a * R + b];
  }

  // Whether an adaptive packet of `tag` from src to dst follows only minimal paths and is
  // never stranded: following the routers' requests (the adaptive VC of the highest-ordered
  // unsatisfied direction where its channel allows it, the deterministic VC of the lowest),
  // every adaptive hop brings it a hop nearer, and every deterministic hop it may be offered
  // exists and keeps VC1 off the datelines. Needed where rings differ in length (a partial
  // plane: the routers compare addresses, so in a short Z ring an adaptive packet would circle),
  // which the box of adaptive_paths_clear does not see.
  bool adaptive_safe(uint32_t src, uint32_t dst, uint32_t tag) const {
    struct At {
      uint32_t node, prev, vc;  // vc: 0, 1 the deterministic set, 2 the adaptive VC
    };
    std::vector<uint8_t> seen(links.size() / kDirections * (kDirections + 1) * 3, 0);
    std::vector<At> todo{{src, kDirections, 0}};
    while (!todo.empty()) {
      const At a = todo.back();
      todo.pop_back();
      uint8_t& s = seen[(size_t{a.node} * (kDirections + 1) + a.prev) * 3 + a.vc];
      if (s) continue;
      s = 1;
      const uint32_t left = unsatisfied(tag, g.pwho[a.node]);
      if (left == 0) continue;
      const uint32_t det = lowest_dir(left), ad = highest_dir(left);
      const int64_t n = next(a.node, det);
      if (n < 0 || bad[a.node * kDirections + det] || dead[static_cast<uint32_t>(n)]) return false;
      const int set = vc_set(a.vc != 2 && a.prev == det, a.vc & 1u,
                             g.vcsel[a.node * kDirections + det], Tag::adr(tag, det % 3));
      if (set < 0) return false;
      todo.push_back({static_cast<uint32_t>(n), det, static_cast<uint32_t>(set)});
      const int64_t m = next(a.node, ad);
      if (m < 0 || (g.chan[a.node * 8 + ad] & kNoAdapt) || dead[static_cast<uint32_t>(m)]) continue;
      if (distance(static_cast<uint32_t>(m), dst) + 1 != distance(a.node, dst)) return false;
      todo.push_back({static_cast<uint32_t>(m), ad, 2});
    }
    return true;
  }

  // The shortest route around the faults: each dimension's sign either way, with or without an
  // initial hop and a final -Z hop (ADAPT clear); the first found of the fewest hops, the
  // default signs first. kNoRoute if none.
  uint32_t detour(uint32_t src, uint32_t dst, uint32_t tag0) const {
    uint32_t best = Tag::kNoRoute;
    int fewest = INT_MAX;
    const int64_t above = next(dst, kPlusZ);  // where a final -Z hop starts
    for (uint32_t fin = 0; fin < (above >= 0 ? 2u : 1u); ++fin)
      for (uint32_t flip = 0; flip < 8; ++flip)
        for (uint32_t init : {kNoHop, uint32_t{kPlusX}, uint32_t{kPlusY}, uint32_t{kPlusZ}}) {
          uint32_t adr[3], sgn[3];
          for (uint32_t d = 0; d < 3; ++d) {
            adr[d] = pwho_coord(g.pwho[dst], d);
            sgn[d] = Tag::sgn(tag0, d) ^ (flip >> d & 1u);
          }
          if (fin) adr[2] = pwho_coord(g.pwho[static_cast<uint32_t>(above)], 2);
          const uint32_t tag = Tag::make(adr, sgn, init, fin != 0, false);
          const int hops = walk(src, dst, tag);
          if (hops >= 0 && hops < fewest) {
            fewest = hops;
            best = tag;
          }
        }
    return best;
  }
};

}  // namespace

FaultReport route_around(const Config& c, const Topology& t, Registers& g) {
  const uint32_t R = t.routers, k[3] = {t.shape.radix[0], t.shape.radix[1], t.shape.radix[2]};
  Machine m(t, g);
  const RouterAt at(g.pwho);
  auto router = [&](const int64_t* xyz) {
    return at(make_pwho(static_cast<uint32_t>(xyz[0]), static_cast<uint32_t>(xyz[1]),
                        static_cast<uint32_t>(xyz[2])));
  };
  // Cut a channel at both ends: the routers ignore what arrives on it and adapt not into it,
  // and the dead wire loses what was on it (kLinkDown).
  auto cut_link = [&](uint32_t r, uint32_t dir) {
    const int64_t n = m.next(r, dir);
    if (n < 0) return;
    const uint32_t back = opposite(dir), o = static_cast<uint32_t>(n);
    m.cut_channel(r, dir);
    m.cut_channel(o, back);
    g.chan[r * 8 + dir] |= kIgnoreNormal | kNoAdapt | kLinkDown;
    g.chan[o * 8 + back] |= kIgnoreNormal | kNoAdapt | kLinkDown;
  };
  const auto& fl = c.t3e.failed_links;
  for (size_t i = 0; i < fl.size(); i += 4)
    cut_link(router(&fl[i]), static_cast<uint32_t>(fl[i + 3]));
  const auto& fn = c.t3e.failed_nodes;
  for (size_t i = 0; i < fn.size(); i += 3) {
    const uint32_t r = router(&fn[i]);
    if (!m.dead[r]) m.dead_list.push_back(r);
    m.dead[r] = 1;
    g.chan[r * 8 + kPeChan] |= kIgnoreNormal;
    for (uint32_t dir = 0; dir < kDirections; ++dir) cut_link(r, dir);
  }

  // Hot spares: a failed PE in a partition hands its logical PE number to the next live spare.
  const uint32_t N = static_cast<uint32_t>(g.pe_router.size());
  uint32_t spare = N - static_cast<uint32_t>(c.t3e.hot_spares);
  for (uint32_t r : m.dead_list) {
    if (g.virtual_limit[r] == kNoPartition) continue;
    while (spare < N && m.dead[g.pe_router[spare]]) ++spare;
    if (spare == N) break;
    g.rename(g.pe_router[spare++], g.lwho[r]);
  }

  // Every entry that no longer leads to its PE: the default route if it does now, else a detour.
  FaultReport rep;
  const bool partial = !c.t3e.partial_plane.empty();
  auto adaptive = [&](uint32_t r, uint32_t dst, uint32_t entry) {
    const bool keep =
        m.adaptive_paths_clear(r, entry, k) && (!partial || m.adaptive_safe(r, dst, entry));
    return Tag::adapt(entry) && !keep ? Tag::with_adapt(entry, false) : entry;
  };
  for (uint32_t r = 0; r < R; ++r) {
    if (g.lwho[r] == kNoPe) continue;  // an empty slot sends nothing
    for (uint32_t lpe = 0; lpe < N; ++lpe) {
      uint32_t& entry = g.net_lut[size_t{r} * g.lut_entries + lpe];
      const uint32_t dst = g.pe_router[lpe];
      if (m.dead[r] || m.dead[dst]) {
        entry |= Tag::kNoRoute;
        continue;
      }
      if (m.walk(r, dst, entry) >= 0) {
        entry = adaptive(r, dst, entry);
        continue;
      }
      const uint32_t plain = default_tag(g.pwho[r], g.pwho[dst], k, c.t3e.adaptive, ties_plus(c));
      entry = m.walk(r, dst, plain) >= 0 ? adaptive(r, dst, plain) : m.detour(r, dst, entry);
      rep.rerouted_pairs += 1;
      rep.unreachable_pairs += Tag::no_route(entry);
    }
  }
  return rep;
}

// A partial plane's tables: for every pair the shortest direction-order route that exists
// (initial +Z and final -Z hops where none does without), ADAPT kept where an adaptive packet
// cannot be stranded.
void route_partial_plane(const Config& c, const Topology& t, Registers& g) {
  const Machine m(t, g);
  const uint32_t R = t.routers, N = static_cast<uint32_t>(g.pe_router.size());
  const uint32_t k[3] = {t.shape.radix[0], t.shape.radix[1], t.shape.radix[2]};
  for (uint32_t r = 0; r < R; ++r) {
    if (g.lwho[r] == kNoPe) continue;
    for (uint32_t lpe = 0; lpe < N; ++lpe) {
      uint32_t& entry = g.net_lut[size_t{r} * g.lut_entries + lpe];
      const uint32_t dst = g.pe_router[lpe];
      entry = m.detour(r, dst, default_tag(g.pwho[r], g.pwho[dst], k, false, ties_plus(c)));
      if (c.t3e.adaptive && !Tag::no_route(entry) && Tag::initial(entry) == kNoHop &&
          !Tag::final_hop(entry) && m.adaptive_safe(r, dst, Tag::with_adapt(entry, true)))
        entry = Tag::with_adapt(entry, true);
    }
  }
}

}  // namespace ls::t3e
