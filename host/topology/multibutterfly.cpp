// Multibutterfly networks of dilated crossbars (METRO paper, section 2 and Figure 1). Stage s
// has routers of r x d backward ports, d to each of r logical directions, and as many forward
// ports; each stage splits the destinations r ways, the first stage by the leading digit. A
// router belongs to a group (the digits resolved before its stage) and its d ports of
// direction j lead to forward ports of routers in group g * r + j of the next stage; the last
// stage's direction j of group g is endpoint g * r + j. Which forward ports is random
// (topology.graph_seed), as multibutterflies are: the targets are taken port by port, each
// port's routers in a random order, so a router's d wires of one direction reach d different
// routers (whenever d divides the group's routers), and the many paths between two endpoints
// differ. Endpoints enter the first stage the same way.
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
                                  uint64_t seed, uint32_t stage, uint32_t group) {
  std::vector<int32_t> out;
  std::vector<uint32_t> order(routers);
  for (uint32_t q = 0; q < ports; ++q) {
    for (uint32_t m = 0; m < routers; ++m) order[m] = m;
    for (uint32_t m = routers; m > 1; --m) {  // Fisher-Yates, counter-based draws
      const uint32_t k = below(philox_draw(seed, (uint64_t{stage} << 32) | q, group, m).w[0], m);
      std::swap(order[m - 1], order[k]);
    }
    for (uint32_t m : order) out.push_back(static_cast<int32_t>((first + m) * P + q));
  }
  return out;
}

}  // namespace

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
      throw ConfigError(radix +
                        ": allowed for a multibutterfly powers of two from 2, one per "
                        "stage");
    nodes *= static_cast<uint64_t>(x);
  }
  for (int64_t x : d)
    if (!pow2(x))
      throw ConfigError("topology.dilation = " + to_string(d) + ": allowed powers of two");
  if (nodes > 65536)
    throw ConfigError(radix + ": allowed at most 65536 endpoints (the product), here " +
                      std::to_string(nodes));
  const uint64_t wires = nodes * static_cast<uint64_t>(c.endpoint_ports);
  std::vector<Stage> out;
  uint64_t groups = 1, first = 0;
  for (size_t s = 0; s < r.size(); ++s) {
    Stage st{static_cast<uint32_t>(r[s]), static_cast<uint32_t>(d.empty() ? 1 : d[s]), 0,
             static_cast<uint32_t>(first)};
    if (2 * st.ports() > 64)
      throw ConfigError("topology.dilation = " + to_string(d) + ": stage " + std::to_string(s) +
                        " has routers of " + std::to_string(st.radix) + " x " +
                        std::to_string(st.dilation) + " backward ports, allowed at most 32");
    // Each of the stage's groups takes wires / groups wires on r x d forward ports a router.
    if (wires % (groups * st.ports()) != 0)
      throw ConfigError("topology.endpoint_ports = " + std::to_string(c.endpoint_ports) +
                        ": allowed only when each group of stage " + std::to_string(s) + " (" +
                        std::to_string(groups) + " groups) fills whole routers of " +
                        std::to_string(st.ports()) + " forward ports from its " +
                        std::to_string(wires / groups) + " wires; here " + radix +
                        ", topology.dilation = " + to_string(d));
    st.routers = static_cast<uint32_t>(wires / st.ports());
    out.push_back(st);
    first += st.routers;
    groups *= st.radix;
  }
  return out;
}

Topology build_multibutterfly(const TopologyConfig& c) {
  const std::vector<Stage> stages = multistage_stages(c);
  const TopologySize size = topology_size(c);
  Topology t;
  t.routers = static_cast<uint32_t>(size.routers);
  t.nodes = static_cast<uint32_t>(size.nodes);
  t.ports = static_cast<uint32_t>(size.ports);
  t.shape = make_shape({static_cast<int64_t>(t.nodes)});
  t.node_ports = static_cast<uint32_t>(c.endpoint_ports);
  const uint32_t P = t.ports, p = t.node_ports;
  const uint64_t seed = static_cast<uint64_t>(c.graph_seed);
  t.peer.assign(uint64_t{t.routers} * P, -1);
  t.port_node.assign(t.peer.size(), -1);
  t.link_delay.assign(t.peer.size(), 1);
  t.stage.assign(t.routers, 0);
  t.node_entry.assign(uint64_t{t.nodes} * p, -1);
  t.node_exit.assign(uint64_t{t.nodes} * p, -1);
  // Endpoints into the first stage: endpoint n's wires n*p .. n*p + p - 1.
  const Stage& s0 = stages[0];
  const std::vector<int32_t> entry = deal_targets(0, s0.routers, s0.ports(), P, seed, 0, 0);
  for (uint32_t w = 0; w < t.nodes * p; ++w) {
    t.node_entry[w] = entry[w];
    t.port_node[static_cast<size_t>(entry[w])] = static_cast<int32_t>(w / p);
  }
  uint32_t groups = 1;
  for (uint32_t s = 0; s < stages.size(); ++s) {
    const Stage& st = stages[s];
    const uint32_t in = st.routers / groups, i = st.ports();
    for (uint32_t m = 0; m < st.routers; ++m) t.stage[st.first + m] = static_cast<uint8_t>(s);
    for (uint32_t g = 0; g < groups; ++g)
      for (uint32_t j = 0; j < st.radix; ++j) {
        // The group's wires of direction j, router by router.
        std::vector<int32_t> from;
        for (uint32_t m = 0; m < in; ++m)
          for (uint32_t k = 0; k < st.dilation; ++k)
            from.push_back(
                static_cast<int32_t>((st.first + g * in + m) * P + i + j * st.dilation + k));
        const uint32_t next = g * st.radix + j;
        if (s + 1 == stages.size()) {  // endpoint `next` takes them, p wires
          for (uint32_t k = 0; k < p; ++k) {
            t.node_exit[uint64_t{next} * p + k] = from[k];
            t.port_node[static_cast<size_t>(from[k])] = static_cast<int32_t>(next);
          }
          continue;
        }
        const Stage& nx = stages[s + 1];
        const uint32_t nin = nx.routers / (groups * st.radix);
        const std::vector<int32_t> to =
            deal_targets(nx.first + next * nin, nin, nx.ports(), P, seed, s + 1, next);
        for (size_t k = 0; k < from.size(); ++k) {
          t.peer[static_cast<size_t>(from[k])] = to[k];
          t.peer[static_cast<size_t>(to[k])] = from[k];
        }
      }
    groups *= st.radix;
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
