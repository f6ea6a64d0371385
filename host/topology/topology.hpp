// Topologies are data: builders emit flat port tables that the kernels index; no kernel ever
// sees a topology class. One table entry per (router, port); see kernels/vc/routing.hpp for the
// port numbering of each kind.
#pragma once
#include <cstdint>
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
};

Shape make_shape(const std::vector<int64_t>& radix);
Topology build_cube(const TopologyConfig& c);      // mesh and torus
Topology build_crossbar(const TopologyConfig& c);  // one router, radix[0] terminals
Topology build_topology(const TopologyConfig& c);

}  // namespace ls
