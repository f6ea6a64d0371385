// Where each port's channels end in an instance's belts (kernels/common/belt.hpp), for the
// families whose belt row holds a router's ports, then its terminals: the far end of a network
// port is the peer router's column of that port, and of a terminal port the router's own
// column of that terminal. A sender finds the slot it writes by adding the slot's row.
#pragma once
#include <cstdint>
#include <vector>

#include "topology.hpp"

namespace ls {

// Belt columns of a router: its ports, then its terminals.
uint32_t belt_width(const Topology& t);
// [R, P] each port's far end, as router * slots * belt_width + column (0 for an unconnected
// port).
std::vector<uint32_t> far_ends(const Topology& t, uint32_t slots);

}  // namespace ls
