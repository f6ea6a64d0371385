// Topologies are data: builders emit flat port tables that the kernels index; no kernel ever
// sees a topology class. One table entry per (router, port); see kernels/vc/routing.hpp for the
// port numbering of each kind. Graph kinds (hypercube, random_regular, graph): port 0 is the
// terminal, ports 1..max_ports the node's channels in the order of its links, the last port
// (dual_tic) the link to the node's other router; a router with fewer channels leaves ports
// unconnected (peer -1).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "../../kernels/common/traffic.hpp"
#include "../config/config.hpp"

namespace ls {

struct Topology {
  uint32_t routers = 0, ports = 0, nodes = 0;
  Shape shape{};
  std::vector<int32_t> peer;         // [R, P] router*P+port at the other end, -1 none
  std::vector<int32_t> port_node;    // [R, P] terminal node, -1 for network ports
  std::vector<int32_t> node_router;  // [N]
  std::vector<int32_t> node_port;    // [N]
  std::vector<uint8_t> link_delay;   // [R, P] delay of the link (or terminal channel) at the port
  // Multistage kinds (multistage.cpp), whose endpoints sit outside the routers: each router's
  // layer, and each endpoint's `node_ports` wires entering the network (at a first-layer
  // forward port) and leaving it (at a last-layer backward port), as router*P+port.
  std::vector<uint8_t> stage;  // [R] the router's layer
  uint32_t node_ports = 1;
  std::vector<int32_t> node_entry;  // [N, node_ports]
  std::vector<int32_t> node_exit;   // [N, node_ports]
};

constexpr int64_t kMaxGraphNodes = 1 << 16;  // node ids of the graph kinds

// Routers, nodes and ports per router, without building the network (the graph kind reads its
// edge list): the one formula for validate() and the engines' memory estimate.
struct TopologySize {
  uint64_t routers, nodes, ports;
};
TopologySize topology_size(const TopologyConfig& c);
bool is_graph_kind(const std::string& kind);  // hypercube, random_regular, graph

Shape make_shape(const std::vector<int64_t>& radix);
Topology build_cube(const TopologyConfig& c);        // mesh and torus
Topology build_crossbar(const TopologyConfig& c);    // one router, radix[0] terminals
Topology build_graph(const TopologyConfig& c);       // the graph kinds (graph.cpp)
Topology build_multistage(const TopologyConfig& c);  // multibutterfly, fat_tree
bool is_multistage_kind(const std::string& kind);

// One layer of a multistage network's routers (dilated crossbars), in the order a connection
// crosses them. Its routers form `groups` groups of routers / groups each. A down layer splits
// a group's destinations `radix` ways by the digit destination / divisor % radix: direction j
// of group g leads to group g * radix + j of the next layer, or, from the last layer, to
// endpoint g * radix + j. A fat tree's up layer has two directions: 0 turns down into group g
// of layer `turn` (the down layer of its level), taken when the destination is in the group's
// subtree (destination / divisor == g); 1 goes up to the next layer.
struct Stage {
  uint32_t radix, dilation, routers, first;  // first: its first router
  uint32_t groups = 1;
  uint64_t divisor = 1;
  bool up = false;
  uint32_t turn = 0;
  uint32_t ports() const { return radix * dilation; }  // forward ports = backward ports
  uint32_t group_routers() const { return routers / groups; }
};
// A multistage network's layers, without wiring it: the one reading of radix, dilation and
// endpoint_ports for the builder, validate() and the router family.
std::vector<Stage> multistage_stages(const TopologyConfig& c);
std::vector<Stage> multibutterfly_stages(const TopologyConfig& c);  // multibutterfly.cpp
std::vector<Stage> fat_tree_stages(const TopologyConfig& c);        // fat_tree.cpp
Topology build_topology(const TopologyConfig& c);                   // any kind; throws ConfigError

}  // namespace ls
