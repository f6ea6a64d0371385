// Set-up of a vc batch on the host, once: parameter blocks and per-port tables the kernels
// read. Nothing here runs per cycle.
#pragma once
#include <vector>

#include "../../kernels/vc/vc_state.hpp"
#include "../config/config.hpp"
#include "../topology/belt_ends.hpp"
#include "../topology/topology.hpp"
#include "../traffic/traffic_params.hpp"

namespace ls {

VcParams make_vc_params(const Config& c, const Topology& t);
// [R, P] cycles from a switch grant at a port to the flit's buffer write downstream.
std::vector<uint8_t> out_delays(const Config& c, const Topology& t);
// [R, P] cycles from a credit leaving input port (r, p) to its arrival upstream.
std::vector<uint8_t> credit_delays(const Config& c, const Topology& t);
// [slots, R, P] where a flit (or credit) sent on each port in a cycle of each belt slot lands,
// `delay` later, in an instance's belts (VcTopology::flit_slot, credit_slot), from the ports'
// far ends (far_ends).
std::vector<uint32_t> far_slots(const Topology& t, uint32_t slots, const std::vector<uint32_t>& far,
                                const std::vector<uint8_t>& delay);
// [N] coordinates of each node (and its router), 16 bits per dimension (routing.hpp coord_of).
std::vector<uint64_t> packed_coords(const Topology& t);

}  // namespace ls
