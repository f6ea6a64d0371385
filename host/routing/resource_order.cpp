// Deadlock freedom by resource ordering (seed 004, section 2.4). A message at router n for
// destination d holds a buffer of class (n, vc(n, d)), the VC it leaves n on; it waits for one of
// class (n', vc(n', d)) at the next router n' unless n' delivers it. Routers are ranked in a
// total order and a hop for d from n to n' is legal when
//   n' is d's router (delivery waits for nothing), or
//   vc(n) = 0 and vc(n') = 1 (the switch 0 -> 1 may go either way), or
//   vc(n) = vc(n') = 0 and n' ranks above n, or vc(n) = vc(n') = 1 and n' ranks below n.
// Ordering the classes (all VC 0 by rising rank, then all VC 1 by falling rank), every
// dependency goes forward, so no cycle of waiting buffers can form, for all destinations at once.
// A route is legal when its routers but the last rise in rank and then fall (one peak, as in
// up*/down* routing, whose "up" is towards the root), so the order decides which shortest paths
// survive. It is built from a root like Sancho and Robles' improved up*/down* orders: next comes
// the router with the most neighbours already ordered, then the one nearest the root, then the
// most central; the root ranks highest and every other router has an earlier neighbour (its
// parent). Of the most central roots, the order that keeps the most shortest paths is kept (a
// breadth-first order keeps 56% of the pairs of a random 4-regular graph of 256 nodes minimal,
// this one 70%; both keep every pair of a hypercube or mesh minimal). An order grown from a root
// sends much traffic through the root's neighbourhood (a route rises to its peak), so the
// routers' own numbering, where every router but the last has a neighbour numbered above it
// (meshes, tori, hypercubes: coordinates rise towards the last router, so a route first raises
// the coordinates it must, then lowers the others, the positive-first turn model), is a candidate
// too; for networks of up to 1,024 routers, of the candidates within 2% of the most minimal
// pairs, the table with the least loaded busiest channel under uniform traffic is kept.
//
// Per destination the table is built outwards from its router, one hop count at a time, as a
// breadth-first search that commits each router to one class when first reached: VC 1 when it
// has a legal next hop on VC 1 (more routers can continue on it: VC 0 is entered only upwards
// from VC 0), else VC 0. This keeps every pair minimal that any assignment could for the order.
// Should a router stay unreached, the destination is built again with its ancestors (the parent
// chain from the destination up to the root) kept on VC 1: each then continues down the chain,
// the root is reached, and from the root every router through its parent. The mask holds every
// legal next hop one hop closer (in the table's own distances), so all permitted routes of a pair
// have the same length. A local search then moves routers to the other class where that adds
// options (for the router and the routers before it) without leaving any router without one.
#include <algorithm>
#include <bitset>
#include <numeric>
#include <set>
#include <stdexcept>
#include <tuple>

#include "routing_table.hpp"

namespace ls {
namespace {

constexpr uint32_t kFar = 0xFFFFFFFF;

struct Neighbour {
  uint32_t port, router;
};

// The network links, and the hop distances between routers.
struct Graph {
  uint32_t R;
  std::vector<std::vector<Neighbour>> out;  // network ports with a link, by router
  std::vector<uint16_t> dist;               // [router, router]
  std::vector<uint64_t> total;              // sum of a router's distances: smaller is central
  uint16_t d(uint32_t a, uint32_t b) const { return dist[size_t{a} * R + b]; }
};

Graph graph_of(const Topology& t) {
  Graph g{t.routers, std::vector<std::vector<Neighbour>>(t.routers), hop_distances(t),
          std::vector<uint64_t>(t.routers, 0)};
  for (uint32_t r = 0; r < t.routers; ++r) {
    for (uint32_t p = 1; p < t.ports; ++p)
      if (t.peer[r * t.ports + p] >= 0)
        g.out[r].push_back({p, static_cast<uint32_t>(t.peer[r * t.ports + p]) / t.ports});
    for (uint32_t s = 0; s < t.routers; ++s) g.total[r] += g.d(r, s);
  }
  return g;
}

struct Order {
  std::vector<uint32_t> rank;    // the root highest
  std::vector<uint32_t> parent;  // the first neighbour ordered before a router; the root: itself
};

// The routers' numbering as the order (rank = number), if every router but the last has a
// neighbour numbered above it (its parent: the highest such); else an empty order.
Order natural_order(const Graph& g) {
  Order o{std::vector<uint32_t>(g.R), std::vector<uint32_t>(g.R, kFar)};
  std::iota(o.rank.begin(), o.rank.end(), 0u);
  o.parent[g.R - 1] = g.R - 1;
  for (uint32_t n = 0; n + 1 < g.R; ++n) {
    for (const Neighbour& nb : g.out[n])
      if (nb.router > n && (o.parent[n] == kFar || nb.router > o.parent[n]))
        o.parent[n] = nb.router;
    if (o.parent[n] == kFar) return {};
  }
  return o;
}

// Next: the most neighbours already ordered (unless by_level), then the nearest the root, the
// most central, the lowest number. By level it is a breadth-first order.
Order order_from(const Graph& g, uint32_t root, bool by_level) {
  Order o{std::vector<uint32_t>(g.R, kFar), std::vector<uint32_t>(g.R, kFar)};
  std::vector<uint32_t> placed_nbrs(g.R, 0);
  using Key = std::tuple<uint32_t, uint16_t, uint64_t, uint32_t>;  // all smaller is better
  auto key = [&](uint32_t n) {
    return Key{by_level ? 0 : kFar - placed_nbrs[n], g.d(root, n), g.total[n], n};
  };
  std::set<Key> frontier = {key(root)};
  o.parent[root] = root;
  for (uint32_t i = 0; !frontier.empty(); ++i) {
    const uint32_t n = std::get<3>(*frontier.begin());
    frontier.erase(frontier.begin());
    o.rank[n] = g.R - 1 - i;
    for (const Neighbour& nb : g.out[n]) {
      const uint32_t m = nb.router;
      if (o.rank[m] != kFar) continue;
      if (placed_nbrs[m]) frontier.erase(key(m));
      if (o.parent[m] == kFar) o.parent[m] = n;
      ++placed_nbrs[m];
      frontier.insert(key(m));
    }
  }
  return o;
}

// Pairs (router, destination) with a legal shortest path under the order: the routers that go
// only down on a shortest path (VC 1 all the way), then those that go up to one of the routers
// that can go on legally (what the table's construction achieves, counted fast).
uint64_t minimal_pairs(const Graph& g, const std::vector<uint32_t>& nodes_at,
                       const std::vector<uint32_t>& rank) {
  uint64_t count = 0;
  std::vector<char> down(g.R), legal(g.R);
  std::vector<uint32_t> by_hops(g.R), start;
  for (uint32_t t = 0; t < g.R; ++t) {
    if (!nodes_at[t]) continue;
    // Routers by distance from t (a counting sort).
    start.assign(g.R + 2, 0);
    for (uint32_t n = 0; n < g.R; ++n) ++start[g.d(n, t) + 1];
    for (size_t k = 1; k < start.size(); ++k) start[k] += start[k - 1];
    for (uint32_t n = 0; n < g.R; ++n) by_hops[start[g.d(n, t)]++] = n;
    for (uint32_t n : by_hops) {
      const uint16_t k = g.d(n, t);
      if (k <= 1) {
        down[n] = legal[n] = 1;
        count += k * nodes_at[t];
        continue;
      }
      bool dn = false, ok = false;
      for (const Neighbour& nb : g.out[n]) {
        const uint32_t m = nb.router;
        if (g.d(m, t) + 1 != k) continue;
        dn |= rank[m] < rank[n] && down[m];
        ok |= rank[m] > rank[n] && legal[m];
      }
      down[n] = dn;
      legal[n] = dn || ok;
      count += legal[n] * nodes_at[t];
    }
  }
  return count;
}

// The routes of every router to one destination router t.
class Destination {
 public:
  Destination(const Graph& g, const Order& order)
      : g_(g),
        rank_(order.rank),
        parent_(order.parent),
        hops_(g.R),
        vc_(g.R),
        mask_(g.R),
        stamp_(g.R),
        keep_down_(g.R) {}

  void build(uint32_t t) {
    t_ = t;
    std::fill(keep_down_.begin(), keep_down_.end(), 0);
    if (!place_outwards()) {
      for (uint32_t a = parent_[t]; keep_down_[a] == 0 && a != t; a = parent_[a]) keep_down_[a] = 1;
      if (!place_outwards()) throw std::logic_error("routing table: a router was not reached");
    }
    improve();
  }
  uint32_t hops(uint32_t n) const { return hops_[n]; }
  uint32_t mask(uint32_t n) const { return mask_[n]; }
  uint8_t vc(uint32_t n) const { return vc_[n]; }

 private:
  // May a message leave n on VC c for neighbour m?
  bool legal(uint32_t n, uint8_t c, uint32_t m) const {
    if (m == t_) return true;
    if (c == 0) return vc_[m] == 1 || rank_[m] > rank_[n];
    return vc_[m] == 1 && rank_[m] < rank_[n];
  }
  // The legal next hops of n on VC c among the routers at `closer` hops.
  uint32_t options(uint32_t n, uint8_t c, uint32_t closer) const {
    uint32_t m = 0;
    for (const Neighbour& nb : g_.out[n])
      if (hops_[nb.router] == closer && legal(n, c, nb.router)) m |= 1u << nb.port;
    return m;
  }

  // Whether every router was reached.
  bool place_outwards() {
    std::fill(hops_.begin(), hops_.end(), kFar);
    std::fill(mask_.begin(), mask_.end(), 0u);
    std::fill(stamp_.begin(), stamp_.end(), kFar);
    hops_[t_] = 0;
    vc_[t_] = 0;
    std::vector<uint32_t> frontier = {t_}, next;
    uint32_t reached = 1;
    for (uint32_t k = 1; !frontier.empty(); ++k) {
      next.clear();
      for (uint32_t f : frontier)
        for (const Neighbour& nb : g_.out[f]) {
          const uint32_t n = nb.router;
          if (hops_[n] != kFar || stamp_[n] == k) continue;
          stamp_[n] = k;  // tried in this round
          for (uint8_t c : {uint8_t{1}, uint8_t{0}}) {
            if (c == 0 && keep_down_[n]) break;
            const uint32_t m = options(n, c, k - 1);
            if (!m) continue;
            vc_[n] = c;
            mask_[n] = m;
            next.push_back(n);
            break;
          }
        }
      for (uint32_t n : next) hops_[n] = k;  // after the round: its routers use round k - 1 only
      reached += static_cast<uint32_t>(next.size());
      std::swap(frontier, next);
    }
    return reached == g_.R;
  }

  // Moves a router to the other class where the options it and the routers before it gain
  // outnumber those they lose, and none is left without one.
  void improve() {
    std::vector<uint32_t> before;
    for (int sweep = 0; sweep < 8; ++sweep) {
      bool changed = false;
      for (uint32_t n = 0; n < g_.R; ++n) {
        if (n == t_) continue;
        const uint8_t c = vc_[n];
        const uint32_t own = options(n, static_cast<uint8_t>(1 - c), hops_[n] - 1);
        int gain = count(own) - count(mask_[n]);
        // VC 0 takes fewer routers before it than VC 1: moving there they can only lose.
        if (!own || (c == 1 && gain <= 0)) continue;
        vc_[n] = static_cast<uint8_t>(1 - c);
        bool keeps = true;
        before.clear();
        for (const Neighbour& nb : g_.out[n]) {
          const uint32_t q = nb.router;
          if (q == t_ || hops_[q] != hops_[n] + 1 ||
              std::find(before.begin(), before.end(), q) != before.end())
            continue;
          before.push_back(q);
          const uint32_t m = options(q, vc_[q], hops_[n]);
          keeps &= m != 0;
          gain += count(m) - count(mask_[q]);
        }
        if (!keeps || gain <= 0) {
          vc_[n] = c;
          continue;
        }
        mask_[n] = own;
        for (uint32_t q : before) mask_[q] = options(q, vc_[q], hops_[n]);
        changed = true;
      }
      if (!changed) break;
    }
  }
  static int count(uint32_t mask) { return static_cast<int>(std::bitset<32>(mask).count()); }

  const Graph& g_;
  const std::vector<uint32_t>& rank_;
  const std::vector<uint32_t>& parent_;
  uint32_t t_ = 0;
  std::vector<uint32_t> hops_;
  std::vector<uint8_t> vc_;
  std::vector<uint32_t> mask_;
  std::vector<uint32_t> stamp_;
  std::vector<uint8_t> keep_down_;  // on VC 1 only: the destination's ancestors, when needed
};

RoutingTable build_with(const Topology& t, const Graph& g, const Order& order,
                        RoutingStats& stats) {
  RoutingTable rt;
  rt.routers = t.routers;
  rt.ports = t.ports;
  rt.nodes = t.nodes;
  rt.port_mask.assign(size_t{t.routers} * t.nodes, 0);
  rt.vc.assign(rt.port_mask.size(), 0);
  Destination dest(g, order);
  std::vector<std::vector<uint32_t>> nodes_at(t.routers);
  for (uint32_t d = 0; d < t.nodes; ++d) nodes_at[t.node_router[d]].push_back(d);
  double pairs = 0, minimal = 0, stretch = 0, options = 0, minimal_options = 0;
  std::vector<double> load(size_t{t.routers} * t.ports, 0), flow(t.routers);
  std::vector<uint32_t> by_hops(t.routers);
  for (uint32_t tr = 0; tr < t.routers; ++tr) {
    if (nodes_at[tr].empty()) continue;
    dest.build(tr);
    const double w = static_cast<double>(nodes_at[tr].size());
    // Uniform traffic to tr's nodes, farthest routers first, split evenly over permitted ports.
    std::iota(by_hops.begin(), by_hops.end(), 0u);
    std::sort(by_hops.begin(), by_hops.end(),
              [&](uint32_t a, uint32_t b) { return dest.hops(a) > dest.hops(b); });
    for (uint32_t n = 0; n < t.routers; ++n) flow[n] = w * static_cast<double>(nodes_at[n].size());
    for (uint32_t n : by_hops) {
      if (n == tr) continue;
      const double share = flow[n] / static_cast<double>(std::bitset<32>(dest.mask(n)).count());
      for (const Neighbour& nb : g.out[n])
        if (dest.mask(n) >> nb.port & 1u) {
          load[size_t{n} * t.ports + nb.port] += share;
          flow[nb.router] += share;
        }
    }
    for (uint32_t n = 0; n < t.routers; ++n) {
      for (uint32_t d : nodes_at[tr]) {
        rt.port_mask[rt.at(n, d)] = dest.mask(n);
        rt.vc[rt.at(n, d)] = dest.vc(n);
      }
      if (n == tr) continue;
      const uint32_t shortest = g.d(n, tr);
      uint32_t on_shortest = 0;
      for (const Neighbour& nb : g.out[n]) on_shortest += g.d(nb.router, tr) + 1u == shortest;
      pairs += w;
      minimal += w * (dest.hops(n) == shortest);
      stretch += w * dest.hops(n) / shortest;
      options += w * static_cast<double>(std::bitset<32>(dest.mask(n)).count());
      minimal_options += w * on_shortest;
    }
  }
  stats.minimal = pairs > 0 ? minimal / pairs : 1;
  stats.stretch = pairs > 0 ? stretch / pairs : 1;
  stats.options = pairs > 0 ? options / pairs : 0;
  stats.minimal_options = pairs > 0 ? minimal_options / pairs : 0;
  stats.max_channel_load =
      *std::max_element(load.begin(), load.end()) / static_cast<double>(t.nodes);
  return rt;
}

}  // namespace

void check_table_size(uint64_t routers, uint64_t nodes) {
  if (nodes > 0 && routers > (uint64_t{1} << 26) / nodes)
    throw ConfigError("topology: " + std::to_string(routers) + " routers x " +
                      std::to_string(nodes) +
                      " destinations: allowed a routing table of at most 2^26 entries");
}

RoutingTable build_routing_table(const Topology& t, RoutingStats* stats, uint32_t roots) {
  check_table_size(t.routers, t.nodes);
  const Graph g = graph_of(t);
  // Candidate roots, the most central first: smallest eccentricity, then total distance. Each
  // costs a count over all pairs: fewer for large networks.
  std::vector<uint64_t> ecc(t.routers, 0);
  uint64_t links = 0;
  for (uint32_t r = 0; r < t.routers; ++r) {
    links += g.out[r].size();
    for (uint32_t s = 0; s < t.routers; ++s) ecc[r] = std::max<uint64_t>(ecc[r], g.d(r, s));
  }
  std::vector<uint32_t> central(t.routers);
  std::iota(central.begin(), central.end(), 0u);
  std::stable_sort(central.begin(), central.end(), [&](uint32_t a, uint32_t b) {
    return ecc[a] != ecc[b] ? ecc[a] < ecc[b] : g.total[a] < g.total[b];
  });
  const uint64_t affordable = (uint64_t{1} << 25) / std::max<uint64_t>(1, t.routers * (links + 1));
  const uint32_t tries = static_cast<uint32_t>(
      std::max<uint64_t>(1, std::min<uint64_t>({roots, t.routers, affordable})));
  std::vector<uint32_t> nodes_at(t.routers, 0);
  for (uint32_t d = 0; d < t.nodes; ++d) ++nodes_at[t.node_router[d]];
  Order best;
  uint64_t best_pairs = 0;
  RoutingStats s;
  for (uint32_t i = 0; i < tries; ++i)
    for (bool by_level : {false, true}) {
      Order o = order_from(g, central[i], by_level);
      const uint64_t pairs = minimal_pairs(g, nodes_at, o.rank);
      if (best.rank.empty() || pairs > best_pairs) {
        best = std::move(o);
        best_pairs = pairs;
        s.root = central[i];
      }
    }
  RoutingTable rt = build_with(t, g, best, s);
  rt.rank = best.rank;
  Order natural = natural_order(g);
  if (t.routers <= 1024 && !natural.rank.empty()) {
    RoutingStats ns;
    ns.root = t.routers - 1;
    ns.natural_order = true;
    RoutingTable nt = build_with(t, g, natural, ns);
    if (ns.minimal >= s.minimal - 0.02 && ns.max_channel_load < s.max_channel_load) {
      rt = std::move(nt);
      rt.rank = std::move(natural.rank);
      s = ns;
    }
  }
  if (stats) *stats = s;
  return rt;
}

}  // namespace ls
