// Set-up of a METRO batch on the host, once: the parameter block and the wiring of routers and
// endpoints as the kernels read it (every element's belt columns and their far ends).
#pragma once
#include <vector>

#include "../../kernels/metro/metro_state.hpp"
#include "../config/config.hpp"
#include "../topology/topology.hpp"

namespace ls::metro {

MetroParams make_params(const Config& c, const Topology& t);

// Element x's column p leads to peer[x * P + p] (element * P + column, -1 none), over a wire of
// delay[x * P + p] clocks: a router's dp + vtd, an endpoint's 1.
struct Wiring {
  std::vector<int32_t> peer;
  std::vector<uint8_t> delay;
};
Wiring make_wiring(const MetroParams& p, const Topology& t, const Config& c);

// metro.swallow: the swallow bit of every router port of `instances` instances (forward ports
// of the layers named); refuses a layer that would find a data word leading its stream.
std::vector<uint8_t> swallow_ports(const MetroParams& p, const Config& c, const Topology& t,
                                   uint64_t instances);

// Instance c's routers after metro.failed_routers and metro.failed_ports die (`failed`) or
// before: which routers are dead ([R]), which ports' wires are broken ([R, P]) and which ports
// are in service ([R, P]: none of a dead router's, nor a failed port, and with
// metro.mask_failed none wired to either). Throws ConfigError for a failed port that is not one.
struct Faults {
  std::vector<uint8_t> dead, enabled, port_dead;
};
Faults router_faults(const Config& c, const Topology& t, bool failed);

// metro.noisy_ports: [R, P] 1 at both router ends of each wire the error rates apply to (every
// wire where it names none).
std::vector<uint8_t> noisy_ports(const Config& c, const Topology& t);

// The set-up's checks of the [metro] keys that name parts of the network `t` (its size, the
// swallow layers, port_vtd, failed_ports, noisy_ports): validate() runs them, so that Config,
// network_size and sweeps refuse what the engine would, with the same messages.
void check_network_keys(const Config& c, const Topology& t);

}  // namespace ls::metro
