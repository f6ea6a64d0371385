// A single crossbar router with N terminals: port i is terminal i (for switch-level checks
// such as the head-of-line blocking limit of an input-queued switch).
#include "topology.hpp"

namespace ls {

Topology build_crossbar(const TopologyConfig& c) {
  Topology t;
  t.shape = make_shape(c.radix);
  t.routers = 1;
  t.nodes = t.ports = t.shape.nodes;
  t.peer.assign(t.ports, -1);
  t.link_delay.assign(t.ports, static_cast<uint8_t>(c.terminal_delay));
  t.port_node.resize(t.ports);
  t.node_router.assign(t.nodes, 0);
  t.node_port.resize(t.nodes);
  for (uint32_t i = 0; i < t.nodes; ++i) {
    t.port_node[i] = static_cast<int32_t>(i);
    t.node_port[i] = static_cast<int32_t>(i);
  }
  return t;
}

}  // namespace ls
