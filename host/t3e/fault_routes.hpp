// Routing around failed links and nodes (paper sections 2 and 9), as system software does it:
// the failed parts are cut off with R_CHAN (IGNORE_NORMAL and NO_ADAPT at both ends of every
// failed link, IGNORE_NORMAL on a failed node's PE channel) and every R_NET_LUT entry whose
// path crosses them is replaced by another direction-order route: the other sign in some
// dimensions (up to 8 paths), an initial +X/+Y/+Z hop, a final -Z hop, the shortest that
// avoids every fault and never puts VC1 across a dateline. Pairs whose minimal paths cross a
// fault lose their ADAPT bit; pairs with no route are marked NO_ROUTE, and their count is the
// report.
#pragma once
#include <cstdint>

#include "../config/config.hpp"
#include "../topology/topology.hpp"
#include "t3e_registers.hpp"

namespace ls::t3e {

struct FaultReport {
  uint64_t unreachable_pairs = 0;  // ordered pairs of live PEs with no route between them
  uint64_t rerouted_pairs = 0;     // ordered pairs whose default route crosses a fault
};

// Applies the configuration's t3e.failed_links and t3e.failed_nodes to registers g (R_NET_LUT
// mode 0, which validate() has made sure of).
FaultReport route_around(const Config& c, const Topology& t, Registers& g);

// The R_NET_LUT entries (mode 0) of a machine with a partial plane (partial_plane.hpp), once
// its R_VCSEL and R_CHAN are loaded.
void route_partial_plane(const Config& c, const Topology& t, Registers& g);

}  // namespace ls::t3e
