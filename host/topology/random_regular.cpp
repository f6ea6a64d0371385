// A random d-regular graph, the same on every machine for a seed: our own generator
// (splitmix64, and multiply-shift for ranges) rather than std distributions, whose output
// differs between library versions. Links are drawn by Steger and Wormald's pairing: join two
// random free link ends whose nodes are different and not yet linked; a draw that gets stuck or
// is not connected is drawn again. Degree 2 is a random ring (the only connected 2-regular
// graphs), which pairing would rarely draw for many nodes.
#include <algorithm>

#include "graph.hpp"

namespace ls {
namespace {

struct SplitMix64 {
  uint64_t s;
  uint64_t next() {
    uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  uint32_t below(uint64_t n) {  // uniform in [0, n)
    return static_cast<uint32_t>((static_cast<unsigned __int128>(next()) * n) >> 64);
  }
};

std::vector<Link> random_ring(uint32_t n, uint32_t delay, SplitMix64& rng) {
  std::vector<uint32_t> order(n);
  for (uint32_t i = 0; i < n; ++i) order[i] = i;
  for (uint32_t i = n - 1; i > 0; --i) std::swap(order[i], order[rng.below(i + 1)]);
  std::vector<Link> links;
  for (uint32_t i = 0; i < n; ++i) links.push_back({order[i], order[(i + 1) % n], delay, 0});
  return links;
}

// One pairing draw; empty when it got stuck.
std::vector<Link> pairing(uint32_t n, uint32_t d, uint32_t delay, SplitMix64& rng) {
  std::vector<uint32_t> ends;  // free link ends, by node
  for (uint32_t i = 0; i < n; ++i) ends.insert(ends.end(), d, i);
  std::vector<std::vector<uint32_t>> adj(n);
  auto linked = [&](uint32_t u, uint32_t v) {
    return std::find(adj[u].begin(), adj[u].end(), v) != adj[u].end();
  };
  auto fits = [&](size_t i, size_t j) { return ends[i] != ends[j] && !linked(ends[i], ends[j]); };
  // Random tries fail mostly near the end, where few ends are left to look through.
  auto find_pair = [&](size_t& i, size_t& j) {
    for (int tries = 0; tries < 64; ++tries) {
      i = rng.below(ends.size());
      j = rng.below(ends.size());
      if (fits(i, j)) return true;
    }
    for (i = 0; i < ends.size(); ++i)
      for (j = i + 1; j < ends.size(); ++j)
        if (fits(i, j)) return true;
    return false;
  };
  std::vector<Link> links;
  while (!ends.empty()) {
    size_t i, j;
    if (!find_pair(i, j)) return {};
    const uint32_t u = ends[i], v = ends[j];
    adj[u].push_back(v);
    adj[v].push_back(u);
    links.push_back({std::min(u, v), std::max(u, v), delay, 0});
    for (size_t k : {std::max(i, j), std::min(i, j)}) {
      ends[k] = ends.back();
      ends.pop_back();
    }
  }
  return links;
}

}  // namespace

LinkList random_regular_links(const TopologyConfig& c) {
  const int64_t n = c.nodes, d = c.degree;
  const std::string deg = "topology.degree = " + std::to_string(d) + ": allowed ";
  if (d >= n)
    throw ConfigError(deg + "below topology.nodes = " + std::to_string(n) +
                      " (no self-loops or parallel links)");
  if (n * d % 2)
    throw ConfigError(deg + "with topology.nodes = " + std::to_string(n) +
                      " only so that nodes x degree is even (every link has two ends)");
  if (d == 1 && n > 2)
    throw ConfigError(deg + "at least 2 for more than 2 nodes (a 1-regular graph on " +
                      std::to_string(n) + " nodes is never connected)");
  LinkList g;
  g.nodes = static_cast<uint32_t>(n);
  g.source = "topology.kind = \"random_regular\"";
  SplitMix64 rng{static_cast<uint64_t>(c.graph_seed)};
  const uint32_t delay = static_cast<uint32_t>(c.link_delay);
  constexpr int kDraws = 1000;
  for (int draw = 0; draw < kDraws; ++draw) {
    g.links = d == 2 ? random_ring(g.nodes, delay, rng)
                     : pairing(g.nodes, static_cast<uint32_t>(d), delay, rng);
    if (g.links.empty() || !unreachable(g.nodes, g.links).empty()) continue;
    std::sort(g.links.begin(), g.links.end(),
              [](const Link& x, const Link& y) { return x.a != y.a ? x.a < y.a : x.b < y.b; });
    return g;
  }
  throw ConfigError("topology.graph_seed = " + std::to_string(c.graph_seed) + ": no connected " +
                    std::to_string(d) + "-regular graph on " + std::to_string(n) + " nodes in " +
                    std::to_string(kDraws) +
                    " draws; allowed a seed, nodes and degree that give one");
}

}  // namespace ls
