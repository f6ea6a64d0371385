// What every kind shares: its size without building it, and the builder for a kind.
#include <algorithm>

#include "graph.hpp"

namespace ls {

bool is_graph_kind(const std::string& kind) {
  return kind == "hypercube" || kind == "random_regular" || kind == "graph";
}

TopologySize topology_size(const TopologyConfig& c) {
  if (c.kind == "crossbar") {
    const uint64_t n = static_cast<uint64_t>(c.radix.at(0));
    return {1, n, n};
  }
  if (is_multistage_kind(c.kind)) {
    uint64_t routers = 0, ports = 0, nodes = 1;
    for (const Stage& s : multistage_stages(c)) {
      routers += s.routers;
      ports = std::max<uint64_t>(ports, 2 * s.ports());
    }
    for (int64_t k : c.radix) nodes *= static_cast<uint64_t>(k);
    return {routers, nodes, ports};
  }
  if (!is_graph_kind(c.kind)) {
    uint64_t n = 1;
    for (int64_t k : c.radix) n *= static_cast<uint64_t>(k);
    return {n, n, 1 + 2 * c.radix.size()};
  }
  const uint64_t nodes = c.kind == "hypercube"        ? uint64_t{1} << c.dimension
                         : c.kind == "random_regular" ? static_cast<uint64_t>(c.nodes)
                                                      : listed_links(c).nodes;
  const uint64_t twins = c.dual_tic ? 2 : 1;
  return {nodes * twins, nodes, 1 + static_cast<uint64_t>(c.max_ports) + (twins - 1)};
}

Topology build_topology(const TopologyConfig& c) {
  if (c.kind == "crossbar") return build_crossbar(c);
  if (is_multistage_kind(c.kind)) return build_multistage(c);
  return is_graph_kind(c.kind) ? build_graph(c) : build_cube(c);
}

}  // namespace ls
