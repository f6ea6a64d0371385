// Shared by the graph-topology and routing-table tests: configurations of the graph kinds and
// the message of the ConfigError a call throws.
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "helpers.hpp"
#include "host/config/config.hpp"

namespace ls::test {

inline TopologyConfig hypercube(int64_t dimension, int64_t max_ports = 4, bool dual = false) {
  TopologyConfig c;
  c.kind = "hypercube";
  c.dimension = dimension;
  c.max_ports = max_ports;
  c.dual_tic = dual;
  return c;
}

inline TopologyConfig random_regular(int64_t nodes, int64_t degree, int64_t seed) {
  TopologyConfig c;
  c.kind = "random_regular";
  c.nodes = nodes;
  c.degree = degree;
  c.graph_seed = seed;
  c.max_ports = std::max<int64_t>(degree, 1);
  return c;
}

inline TopologyConfig edge_list(std::vector<int64_t> edges) {
  TopologyConfig c;
  c.kind = "graph";
  c.edges = std::move(edges);
  return c;
}

// A ring of n nodes, links i - i+1 of delay 1.
inline TopologyConfig ring(int64_t n) {
  std::vector<int64_t> e;
  for (int64_t i = 0; i < n; ++i) e.insert(e.end(), {i, (i + 1) % n, 1});
  return edge_list(e);
}

inline TopologyConfig cube(const std::string& kind, std::vector<int64_t> radix) {
  TopologyConfig c;
  c.kind = kind;
  c.radix = std::move(radix);
  return c;
}

}  // namespace ls::test
