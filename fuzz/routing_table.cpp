// Fuzz target: a routing table as a user loads it for a graph topology (Python's
// ls.routing.check: check_routing_table over [routers, nodes] port masks and VCs, any 32-bit mask
// and any byte of VC). The first bytes pick a small topology (a hypercube, a random regular graph
// or a dual-TIC one); the rest are XORed onto the table build_routing_table makes for it, so that
// most inputs are near a good table and reach the loop and deadlock checks. The check must
// answer (a list of what is wrong) for every table.
#include "host/routing/routing_table.hpp"

#include "fuzz_target.hpp"
#include "host/topology/topology.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ls;
  if (size < 2 || size > 16384) return 0;
  TopologyConfig c;
  const uint8_t pick = data[0], shape = data[1];
  c.kind = pick % 2 ? "random_regular" : "hypercube";
  c.dimension = 1 + shape % 4;      // 2 to 16 nodes
  c.nodes = 4 + 2 * (shape % 6);    // 4 to 14 nodes
  c.degree = 2 + (shape >> 4) % 2;  // 2 or 3
  c.graph_seed = shape >> 5;
  c.dual_tic = pick & 2;
  c.max_ports = 4;
  Topology t;
  if (!fuzz::accepted([&] { t = build_topology(c); })) return 0;
  RoutingTable rt = build_routing_table(t);
  const size_t entries = rt.port_mask.size();
  for (size_t i = 2; i < size; ++i) {
    const size_t k = (i - 2) / 5, byte = (i - 2) % 5;
    if (k >= entries) break;
    if (byte < 4)
      rt.port_mask[k] ^= uint32_t{data[i]} << (8 * byte);
    else
      rt.vc[k] ^= data[i];
  }
  check_routing_table(t, rt);
  return 0;
}
