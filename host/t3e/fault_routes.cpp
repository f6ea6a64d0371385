#include "fault_routes.hpp"

#include <climits>

namespace ls::t3e {
namespace {

// The machine as software sees it after the faults: which channels and nodes are gone.
struct Machine {
  const Topology& t;
  const Registers& g;
  std::vector<uint8_t> bad;   // [R, 6] the channel leaving the router in direction dir is cut
  std::vector<uint8_t> dead;  // [R]
  std::vector<uint32_t> cut;  // router * 6 + dir of every cut channel
  std::vector<uint32_t> dead_list;

  // The router a channel leads to, -1 none (a ring of one node).
  int64_t next(uint32_t r, uint32_t dir) const {
    const int32_t p = t.peer[size_t{r} * t.ports + g.dir_port[size_t{r} * kDirections + dir]];
    return p < 0 ? -1 : p / static_cast<int32_t>(t.ports);
  }
  void cut_channel(uint32_t r, uint32_t dir) {
    if (bad[r * kDirections + dir]) return;
    bad[r * kDirections + dir] = 1;
    cut.push_back(r * kDirections + dir);
  }

  // Hops of the deterministic route `tag` from router src, or -1 where it does not reach dst:
  // it crosses a cut channel or a dead node, would put VC1 across a dateline (R_VCSEL), or takes
  // its initial hop into a dateline node (section 3.2: that hop must not close a cycle).
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

  // The shortest route around the faults: each dimension's sign either way, with or without an
  // initial hop and a final -Z hop (ADAPT clear); the first found of the fewest hops, the
  // default signs first. kNoRoute if none.
  uint32_t detour(uint32_t src, uint32_t dst, const uint32_t k[3], uint32_t tag0) const {
    uint32_t best = Tag::kNoRoute;
    int fewest = INT_MAX;
    for (uint32_t fin = 0; fin < (k[2] > 1 ? 2u : 1u); ++fin)
      for (uint32_t flip = 0; flip < 8; ++flip)
        for (uint32_t init : {kNoHop, uint32_t{kPlusX}, uint32_t{kPlusY}, uint32_t{kPlusZ}}) {
          uint32_t adr[3], sgn[3];
          for (uint32_t d = 0; d < 3; ++d) {
            adr[d] = pwho_coord(g.pwho[dst], d);
            sgn[d] = Tag::sgn(tag0, d) ^ (flip >> d & 1u);
          }
          if (fin) adr[2] = (adr[2] + 1) % k[2];
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
  Machine m{t,  g, std::vector<uint8_t>(size_t{R} * kDirections, 0), std::vector<uint8_t>(R, 0),
            {}, {}};
  std::vector<int64_t> at(32 * 32 * 32, -1);  // router at physical coordinates
  for (uint32_t r = 0; r < R; ++r)
    at[pwho_coord(g.pwho[r], 0) + 32 * (pwho_coord(g.pwho[r], 1) + 32 * pwho_coord(g.pwho[r], 2))] =
        r;
  auto router = [&](const int64_t* xyz) {
    return static_cast<uint32_t>(at[static_cast<size_t>(xyz[0] + 32 * (xyz[1] + 32 * xyz[2]))]);
  };
  // Cut a channel at both ends: the routers ignore what arrives on it and adapt not into it.
  auto cut_link = [&](uint32_t r, uint32_t dir) {
    const int64_t n = m.next(r, dir);
    if (n < 0) return;
    const uint32_t back = (dir + 3) % kDirections, o = static_cast<uint32_t>(n);
    m.cut_channel(r, dir);
    m.cut_channel(o, back);
    g.chan[r * 8 + dir] |= kIgnoreNormal | kNoAdapt;
    g.chan[o * 8 + back] |= kIgnoreNormal | kNoAdapt;
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
  auto adaptive = [&](uint32_t r, uint32_t entry) {
    return Tag::adapt(entry) && !m.adaptive_paths_clear(r, entry, k) ? Tag::with_adapt(entry, false)
                                                                     : entry;
  };
  for (uint32_t r = 0; r < R; ++r)
    for (uint32_t lpe = 0; lpe < N; ++lpe) {
      uint32_t& entry = g.net_lut[size_t{r} * g.lut_entries + lpe];
      const uint32_t dst = g.pe_router[lpe];
      if (m.dead[r] || m.dead[dst]) {
        entry |= Tag::kNoRoute;
        continue;
      }
      if (m.walk(r, dst, entry) >= 0) {
        entry = adaptive(r, entry);
        continue;
      }
      const uint32_t plain = default_tag(g.pwho[r], g.pwho[dst], k, c.t3e.adaptive);
      entry = m.walk(r, dst, plain) >= 0 ? adaptive(r, plain) : m.detour(r, dst, k, entry);
      rep.rerouted_pairs += 1;
      rep.unreachable_pairs += Tag::no_route(entry);
    }
  return rep;
}

}  // namespace ls::t3e
