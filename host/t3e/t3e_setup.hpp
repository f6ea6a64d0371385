// Set-up of a T3E batch on the host, once: the parameter block and each instance's traffic
// (requests of t3e.packet_type; traffic.offered counts their flits and their responses', as
// request-reply traffic does in the vc family).
#pragma once
#include <vector>

#include "../../kernels/t3e/t3e_state.hpp"
#include "../config/config.hpp"
#include "../topology/topology.hpp"
#include "../traffic/traffic_params.hpp"
#include "packet_types.hpp"
#include "t3e_registers.hpp"

namespace ls::t3e {

T3eParams make_params(const Config& c, const Topology& t, const Registers& regs);
std::vector<TrafficParams> request_traffic(const std::vector<Config>& cs, uint32_t nodes);

}  // namespace ls::t3e
