// What the multistage kinds (multibutterfly.cpp, fat_tree.cpp) share: the reading of radix and
// dilation, and the wiring of their layers. Each layer's groups of routers take the wires
// Stage names for them (from endpoints, and from the backward ports of earlier layers), and
// which of a group's forward ports takes which wire is random (topology.graph_seed), as
// multibutterflies are: the targets are dealt port by port, each port's routers in a random
// order, so a router's d wires of one direction reach d different routers (whenever d divides
// the group's routers), and the many paths between two endpoints differ.
// Port numbering: forward ports 0 .. r*d - 1, then backward ports, direction j at
// r*d + j*d .. r*d + j*d + d - 1.
#include <algorithm>

#include "../../kernels/common/rng.hpp"
#include "../config/schema.hpp"
#include "topology.hpp"

namespace ls {
namespace {

bool pow2(int64_t n) {
  return n > 0 && (n & (n - 1)) == 0;
}

// The forward ports of `routers` routers from `first`, each with `ports` of them, in the order
// wires are dealt to them: port by port, the routers shuffled for each port.
std::vector<int32_t> deal_targets(uint32_t first, uint32_t routers, uint32_t ports, uint32_t P,
                                  uint64_t seed, uint32_t layer, uint32_t group) {
  std::vector<int32_t> out;
  std::vector<uint32_t> order(routers);
  for (uint32_t q = 0; q < ports; ++q) {
    for (uint32_t m = 0; m < routers; ++m) order[m] = m;
    for (uint32_t m = routers; m > 1; --m) {  // Fisher-Yates, counter-based draws
      const uint32_t k = below(philox_draw(seed, (uint64_t{layer} << 32) | q, group, m).w[0], m);
      std::swap(order[m - 1], order[k]);
    }
    for (uint32_t m : order) out.push_back(static_cast<int32_t>((first + m) * P + q));
  }
  return out;
}

}  // namespace

bool is_multistage_kind(const std::string& kind) {
  return kind == "multibutterfly" || kind == "fat_tree";
}

std::vector<Stage> multistage_stages(const TopologyConfig& c) {
  const auto& r = c.radix;
  const auto& d = c.dilation;
  const std::string radix = "topology.radix = " + to_string(r);
  if (!d.empty() && d.size() != r.size())
    throw ConfigError("topology.dilation = " + to_string(d) +
                      ": allowed one dilation per stage of " + radix + ", or none (all 1)");
  uint64_t nodes = 1;
  for (int64_t x : r) {
    if (x < 2 || !pow2(x))
      throw ConfigError(radix + ": allowed for a " + c.kind +
                        " powers of two from 2, one per stage");
    nodes *= static_cast<uint64_t>(x);
  }
  for (int64_t x : d)
    if (!pow2(x))
      throw ConfigError("topology.dilation = " + to_string(d) + ": allowed powers of two");
  if (nodes > 65536)
    throw ConfigError(radix + ": allowed at most 65536 endpoints (the product), here " +
                      std::to_string(nodes));
  std::vector<Stage> out = c.kind == "fat_tree" ? fat_tree_stages(c) : multibutterfly_stages(c);
  for (const Stage& st : out)
    if (2 * st.ports() > 64)
      throw ConfigError("topology.dilation = " + to_string(d) + ": " + c.kind + " layer " +
                        std::to_string(&st - out.data()) + " has routers of " +
                        std::to_string(st.radix) + " x " + std::to_string(st.dilation) +
                        " backward ports, allowed at most 32");
  return out;
}

Topology build_multistage(const TopologyConfig& c) {
  const std::vector<Stage> layers = multistage_stages(c);
  const TopologySize size = topology_size(c);
  Topology t;
  t.routers = static_cast<uint32_t>(size.routers);
  t.nodes = static_cast<uint32_t>(size.nodes);
  t.ports = static_cast<uint32_t>(size.ports);
  t.shape = make_shape({static_cast<int64_t>(t.nodes)});
  t.node_ports = static_cast<uint32_t>(c.endpoint_ports);
  const uint32_t P = t.ports, p = t.node_ports;
  t.peer.assign(uint64_t{t.routers} * P, -1);
  t.port_node.assign(t.peer.size(), -1);
  t.link_delay.assign(t.peer.size(), 1);
  t.stage.assign(t.routers, 0);
  t.node_entry.assign(uint64_t{t.nodes} * p, -1);
  t.node_exit.assign(uint64_t{t.nodes} * p, -1);
  // The wires each (layer, group) takes, in order: endpoint n's wires n*p .. n*p + p - 1 into
  // the first layer (endpoints as -1 - wire), then the layers' backward ports.
  std::vector<std::vector<std::vector<int32_t>>> into(layers.size());
  for (size_t l = 0; l < layers.size(); ++l) into[l].resize(layers[l].groups);
  const uint32_t per_group0 = t.nodes / layers[0].groups;
  for (uint32_t w = 0; w < t.nodes * p; ++w)
    into[0][w / p / per_group0].push_back(-1 - static_cast<int32_t>(w));
  for (uint32_t l = 0; l < layers.size(); ++l) {
    const Stage& st = layers[l];
    const uint32_t in = st.group_routers(), i = st.ports();
    for (uint32_t m = 0; m < st.routers; ++m) t.stage[st.first + m] = static_cast<uint8_t>(l);
    for (uint32_t g = 0; g < st.groups; ++g)
      for (uint32_t j = 0; j < st.radix; ++j)
        for (uint32_t m = 0; m < in; ++m)
          for (uint32_t k = 0; k < st.dilation; ++k) {
            const int32_t from =
                static_cast<int32_t>((st.first + g * in + m) * P + i + j * st.dilation + k);
            if (st.up) {
              const bool turn = j == 0;
              const uint32_t to = turn ? st.turn : l + 1;
              into[to][turn ? g : g / (st.groups / layers[to].groups)].push_back(from);
            } else if (l + 1 < layers.size()) {
              into[l + 1][g * st.radix + j].push_back(from);
            } else {  // endpoint g*r + j takes them, p wires
              const uint32_t n = g * st.radix + j, k_th = m * st.dilation + k;
              t.node_exit[uint64_t{n} * p + k_th] = from;
              t.port_node[static_cast<size_t>(from)] = static_cast<int32_t>(n);
            }
          }
  }
  const uint64_t seed = static_cast<uint64_t>(c.graph_seed);
  for (uint32_t l = 0; l < layers.size(); ++l) {
    const Stage& st = layers[l];
    const uint32_t in = st.group_routers();
    for (uint32_t g = 0; g < st.groups; ++g) {
      const std::vector<int32_t>& from = into[l][g];
      const std::vector<int32_t> to =
          deal_targets(st.first + g * in, in, st.ports(), P, seed, l, g);
      if (from.size() != to.size())
        throw ConfigError("topology.kind = " + c.kind + ": layer " + std::to_string(l) + " group " +
                          std::to_string(g) + " has " + std::to_string(to.size()) +
                          " forward ports for " + std::to_string(from.size()) + " wires");
      for (size_t k = 0; k < from.size(); ++k) {
        if (from[k] < 0) {
          const uint32_t w = static_cast<uint32_t>(-1 - from[k]);
          t.node_entry[w] = to[k];
          t.port_node[static_cast<size_t>(to[k])] = static_cast<int32_t>(w / p);
          continue;
        }
        t.peer[static_cast<size_t>(from[k])] = to[k];
        t.peer[static_cast<size_t>(to[k])] = from[k];
      }
    }
  }
  t.node_router.resize(t.nodes);
  t.node_port.resize(t.nodes);
  for (uint32_t n = 0; n < t.nodes; ++n) {
    t.node_router[n] = t.node_entry[uint64_t{n} * p] / static_cast<int32_t>(P);
    t.node_port[n] = t.node_entry[uint64_t{n} * p] % static_cast<int32_t>(P);
  }
  return t;
}

}  // namespace ls
