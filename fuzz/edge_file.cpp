// Fuzz target: a graph's edge file (topology.edge_file: "a b [delay]" lines, # comments), read
// and built as the graph kind does (validate_topology: host/topology/edge_list.cpp, graph.cpp).
// A graph it accepts, of at most 128 nodes, then gets the routing table S-Connect would use
// (build_routing_table), which the table check (check_routing_table) must find complete and
// deadlock-free: a table the builder makes and the checker rejects is a finding.
#include <unistd.h>

#include <fstream>

#include "fuzz_target.hpp"
#include "host/config/schema.hpp"
#include "host/routing/routing_table.hpp"
#include "host/topology/topology.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ls;
  if (size > 8192) return 0;
  // One file per process (libFuzzer's workers are processes), rewritten for each input.
  static const std::string path = "/tmp/lockstep_fuzz_edges_" + std::to_string(getpid()) + ".txt";
  std::ofstream(path, std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  TopologyConfig t;
  t.kind = "graph";
  t.edge_file = path;
  TopologySize n{};
  if (!fuzz::accepted([&] { n = validate_topology(t); }) || n.nodes > 128) return 0;
  const Topology topo = build_topology(t);
  hop_distances(topo);
  const std::vector<std::string> wrong = check_routing_table(topo, build_routing_table(topo));
  if (!wrong.empty()) fuzz::finding("the built routing table fails its check: " + wrong[0]);
  return 0;
}
