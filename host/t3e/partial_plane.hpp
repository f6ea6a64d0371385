// Partial planes (manual, "Node Shapes" and "Partial planes"; paper section 2.3): a machine whose
// largest-numbered Z plane holds fewer nodes than a full plane, nx x ny of them (physical
// X < nx, Y < ny). The machine is built as the full torus with the missing node slots left empty
// and the links rewired as the cabinets wire them:
//  - a Z ring of a column with no partial-plane node closes over kz - 1 nodes (kz - 2 -> 0);
//  - the partial plane's X links close a ring of its nx nodes ("the external X-dimension
//    communication links of this PCB connect to each other");
//  - its Y links do not close (the manual's AC note: "the Y-dimension communication links do not
//    connect together"): a line of ny nodes, unless ny is the full ky.
// Routing tables come from the routes that exist (fault_routes.hpp), using initial +Z and final
// -Z hops where a direction-order route does not.
#pragma once
#include <cstdint>

#include "../config/config.hpp"
#include "../topology/topology.hpp"

namespace ls::t3e {

// Whether the machine has a node at physical coordinates `pwho` (routing_tag.hpp's packing).
bool installed(const Config& c, uint32_t pwho);

// PEs of the machine: the torus's, less a partial plane's empty slots.
uint32_t machine_pes(const Config& c);

// The T3E machine's network: the torus of topology.radix, with t3e.partial_plane's slots
// emptied (their links gone) and the rings around them closed.
Topology machine_topology(const Config& c);

}  // namespace ls::t3e
