// The graph kinds as lists of links: each kind makes its list (hypercube.cpp,
// random_regular.cpp, edge_list.cpp) and graph.cpp checks it and lays it out as port tables.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "topology.hpp"

namespace ls {

struct Link {
  uint32_t a, b, delay;
  uint32_t line;  // where the user wrote it: edge-file line or edges triple + 1; 0 generated
};

struct LinkList {
  uint32_t nodes = 0;
  std::vector<Link> links;  // a node's channels are its links in this order
  std::string source;       // the key that gave the list, for messages
  bool from_file = false;

  // The key and what the user wrote there, for messages.
  std::string where(int64_t a, int64_t b, int64_t delay, uint32_t line) const;
  std::string where(const Link& l) const { return where(l.a, l.b, l.delay, l.line); }
};

LinkList hypercube_links(const TopologyConfig& c);
LinkList random_regular_links(const TopologyConfig& c);
LinkList listed_links(const TopologyConfig& c);  // topology.edges or topology.edge_file
LinkList graph_links(const TopologyConfig& c);   // whichever the kind takes

// Nodes not reachable from node 0 over the links.
std::vector<uint32_t> unreachable(uint32_t nodes, const std::vector<Link>& links);

}  // namespace ls
