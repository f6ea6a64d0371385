// k-ary n-cube mesh and torus: router i sits at coordinates (i mod k0, i / k0 mod k1, ...),
// one terminal on port 0, port 1+2d towards +d and 2+2d towards -d (torus ends wrap around; a
// ring of one node has no link).
#include "topology.hpp"

namespace ls {

Shape make_shape(const std::vector<int64_t>& radix) {
  Shape s{};
  s.ndims = static_cast<uint32_t>(radix.size());
  uint32_t stride = 1;
  for (uint32_t d = 0; d < s.ndims; ++d) {
    s.radix[d] = static_cast<uint32_t>(radix[d]);
    s.stride[d] = stride;
    stride *= s.radix[d];
  }
  s.nodes = stride;
  s.bits = exact_log2(stride);
  return s;
}

Topology build_cube(const TopologyConfig& c) {
  Topology t;
  t.shape = make_shape(c.radix);
  t.routers = t.nodes = t.shape.nodes;
  t.ports = 1 + 2 * t.shape.ndims;
  const bool torus = c.kind == "torus";
  t.peer.assign(static_cast<size_t>(t.routers) * t.ports, -1);
  t.port_node.assign(t.peer.size(), -1);
  t.link_delay.assign(t.peer.size(), static_cast<uint8_t>(c.link_delay));
  t.node_router.resize(t.nodes);
  t.node_port.assign(t.nodes, 0);
  for (uint32_t r = 0; r < t.routers; ++r) {
    t.port_node[r * t.ports] = static_cast<int32_t>(r);
    t.link_delay[r * t.ports] = static_cast<uint8_t>(c.terminal_delay);
    t.node_router[r] = static_cast<int32_t>(r);
    for (uint32_t d = 0; d < t.shape.ndims; ++d) {
      const uint32_t k = t.shape.radix[d], x = t.shape.coord(r, d), st = t.shape.stride[d];
      if ((torus && k > 1) || x + 1 < k) {  // + link: our port 1+2d to the neighbour's port 2+2d
        uint32_t nb = r - x * st + ((x + 1) % k) * st;
        t.peer[r * t.ports + 1 + 2 * d] = static_cast<int32_t>(nb * t.ports + 2 + 2 * d);
        t.peer[nb * t.ports + 2 + 2 * d] = static_cast<int32_t>(r * t.ports + 1 + 2 * d);
        if (!c.dim_link_delay.empty()) {
          const uint8_t delay = static_cast<uint8_t>(c.dim_link_delay[d]);
          t.link_delay[r * t.ports + 1 + 2 * d] = t.link_delay[nb * t.ports + 2 + 2 * d] = delay;
        }
      }
    }
  }
  return t;
}

}  // namespace ls
