// The binary hypercube: 2^d nodes, node i linked to i xor 2^k in dimension k. Links are listed
// dimension by dimension, so every node's channel k (port 1 + k) is dimension k.
#include "graph.hpp"

namespace ls {

LinkList hypercube_links(const TopologyConfig& c) {
  LinkList g;
  g.nodes = 1u << c.dimension;
  g.source = "topology.kind = \"hypercube\"";
  for (uint32_t k = 0; k < static_cast<uint32_t>(c.dimension); ++k)
    for (uint32_t i = 0; i < g.nodes; ++i)
      if (!(i >> k & 1u))
        g.links.push_back({i, i | 1u << k, static_cast<uint32_t>(c.link_delay), 0});
  return g;
}

}  // namespace ls
