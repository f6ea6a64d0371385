// Port tables for the graph kinds. A node's channels are its links in list order; without
// dual_tic node i is router i and channel j its port 1 + j. With dual_tic (paper Figure 9: two
// TICs joined by their parallel ports make a node of 8 channels) node i is routers 2i and
// 2i + 1, joined on their last port by a link of delay 1, the host on router 2i; channel j is on
// router 2i + j % 2, port 1 + j / 2, so the channels alternate between the two. Router 2i + 1
// has no terminal (port_node -1). What the parallel link's bandwidth or a second host port
// would change is not modelled: it is one more channel.
#include "graph.hpp"

#include <algorithm>
#include <unordered_map>

namespace ls {

std::string LinkList::where(int64_t a, int64_t b, int64_t delay, uint32_t line) const {
  const std::string ab = std::to_string(a) + " " + std::to_string(b) + " " + std::to_string(delay);
  if (line == 0) return source + " link " + std::to_string(a) + "-" + std::to_string(b);
  if (from_file) return source + " line " + std::to_string(line) + " = \"" + ab + "\"";
  const uint32_t i = 3 * (line - 1);
  return "topology.edges[" + std::to_string(i) + ".." + std::to_string(i + 2) + "] = [" +
         std::to_string(a) + ", " + std::to_string(b) + ", " + std::to_string(delay) + "]";
}

LinkList graph_links(const TopologyConfig& c) {
  if (c.kind == "hypercube") return hypercube_links(c);
  if (c.kind == "random_regular") return random_regular_links(c);
  return listed_links(c);
}

std::vector<uint32_t> unreachable(uint32_t nodes, const std::vector<Link>& links) {
  std::vector<std::vector<uint32_t>> adj(nodes);
  for (const Link& l : links) {
    adj[l.a].push_back(l.b);
    adj[l.b].push_back(l.a);
  }
  std::vector<char> seen(nodes, 0);
  std::vector<uint32_t> stack = {0};
  seen[0] = 1;
  while (!stack.empty()) {
    const uint32_t n = stack.back();
    stack.pop_back();
    for (uint32_t m : adj[n])
      if (!seen[m]) seen[m] = 1, stack.push_back(m);
  }
  std::vector<uint32_t> out;
  for (uint32_t n = 0; n < nodes; ++n)
    if (!seen[n]) out.push_back(n);
  return out;
}

namespace {

// A simple, connected graph whose nodes have at most `channels` links each.
void check_graph(const LinkList& g, const TopologyConfig& c, uint32_t channels) {
  std::unordered_map<uint64_t, const Link*> seen;
  std::vector<uint32_t> degree(g.nodes, 0);
  for (const Link& l : g.links) {
    if (l.a == l.b)
      throw ConfigError(g.where(l) +
                        ": allowed only links between two different nodes (no "
                        "self-loops)");
    const uint64_t key = uint64_t{std::min(l.a, l.b)} << 32 | std::max(l.a, l.b);
    const auto [first, fresh] = seen.emplace(key, &l);
    if (!fresh)
      throw ConfigError(g.where(l) + ": allowed each link once (no parallel links); " +
                        g.where(*first->second) + " links the same nodes");
    ++degree[l.a];
    ++degree[l.b];
  }
  for (uint32_t n = 0; n < g.nodes; ++n)
    if (degree[n] > channels)
      throw ConfigError(
          "topology.max_ports = " + std::to_string(c.max_ports) +
          ": allowed only graphs whose routers have at most that many channels" +
          (c.dual_tic ? " (" + std::to_string(channels) + " per dual-TIC node); node " +
                            std::to_string(n) + " (routers " + std::to_string(2 * n) + " and " +
                            std::to_string(2 * n + 1) + ")"
                      : "; router " + std::to_string(n)) +
          " has degree " + std::to_string(degree[n]) + " (max_ports goes up to 15" +
          (c.dual_tic ? "" : "; topology.dual_tic = true gives a node two routers") + ")");
  const std::vector<uint32_t> lost = unreachable(g.nodes, g.links);
  if (!lost.empty()) {
    std::string list;
    for (size_t i = 0; i < lost.size() && i < 10; ++i)
      list += (i ? ", " : "") + std::to_string(lost[i]);
    if (lost.size() > 10) list += " and " + std::to_string(lost.size() - 10) + " more";
    throw ConfigError(g.source + " (" + std::to_string(g.links.size()) + " links, nodes 0 to " +
                      std::to_string(g.nodes - 1) + "): allowed only a connected graph; node(s) " +
                      list + " cannot be reached from node 0");
  }
}

}  // namespace

Topology build_graph(const TopologyConfig& c) {
  const LinkList g = graph_links(c);
  const uint32_t twins = c.dual_tic ? 2 : 1, max_ports = static_cast<uint32_t>(c.max_ports);
  check_graph(g, c, max_ports * twins);
  Topology t;
  t.shape = make_shape({static_cast<int64_t>(g.nodes)});
  t.nodes = g.nodes;
  t.routers = g.nodes * twins;
  t.ports = 1 + max_ports + (twins - 1);
  const uint32_t P = t.ports;
  t.peer.assign(static_cast<size_t>(t.routers) * P, -1);
  t.port_node.assign(t.peer.size(), -1);
  t.link_delay.assign(t.peer.size(), static_cast<uint8_t>(c.link_delay));
  t.node_router.resize(t.nodes);
  t.node_port.assign(t.nodes, 0);
  auto connect = [&](uint32_t r, uint32_t p, uint32_t s, uint32_t q, uint32_t delay) {
    t.peer[r * P + p] = static_cast<int32_t>(s * P + q);
    t.peer[s * P + q] = static_cast<int32_t>(r * P + p);
    t.link_delay[r * P + p] = t.link_delay[s * P + q] = static_cast<uint8_t>(delay);
  };
  for (uint32_t n = 0; n < t.nodes; ++n) {
    const uint32_t r = n * twins;
    t.node_router[n] = static_cast<int32_t>(r);
    t.port_node[r * P] = static_cast<int32_t>(n);
    for (uint32_t k = 0; k < twins; ++k)
      t.link_delay[(r + k) * P] = static_cast<uint8_t>(c.terminal_delay);
    if (c.dual_tic) connect(r, P - 1, r + 1, P - 1, 1);
  }
  std::vector<uint32_t> used(t.nodes, 0);  // channels of each node so far
  auto channel = [&](uint32_t n, uint32_t& r, uint32_t& p) {
    const uint32_t j = used[n]++;
    r = n * twins + j % twins;
    p = 1 + j / twins;
  };
  for (const Link& l : g.links) {
    uint32_t ra, pa, rb, pb;
    channel(l.a, ra, pa);
    channel(l.b, rb, pb);
    connect(ra, pa, rb, pb, l.delay);
  }
  return t;
}

}  // namespace ls
