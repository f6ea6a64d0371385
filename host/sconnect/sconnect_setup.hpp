// Set-up of an S-Connect batch on the host, once: the parameter block and the tables the
// routers read (which host each router serves; the routing table's permissible channels and
// virtual channel per destination).
#pragma once
#include <vector>

#include "../../kernels/sconnect/sconnect_state.hpp"
#include "../config/config.hpp"
#include "../topology/topology.hpp"
#include "../traffic/traffic_params.hpp"

namespace ls::sconnect {

SconnectParams make_params(const Config& c, const Topology& t);
// The layout's buffers a router: the pool's, and with sent_apart its channels' stores (a channel of
// delay D has up to 2D messages on their way or waiting for their acknowledgements) and one
// reserve a class. The engine's layout and the memory estimate (sconnect_family.cpp) both count so.
uint32_t pool_buffers(uint32_t buffers, bool sent_apart, uint32_t channels, uint32_t longest_delay,
                      uint32_t reserve, uint32_t priorities);
inline uint32_t pool_buffers(const SconnectParams& p) {
  return pool_buffers(p.buffers, p.sent_apart, p.ports - 1, p.slots - 1, p.reserve, p.priorities);
}

struct Tables {
  std::vector<int32_t> router_node;  // [R] the host a router serves, -1 none
  std::vector<uint32_t> port_mask;   // [R, N] permissible outbound channels (bit = port)
  std::vector<uint8_t> vc;           // [R, N] the virtual channel to leave on
  std::vector<uint32_t> excess;      // [R, N] SconnectTopology::excess_ports
};
Tables make_tables(const Config& c, const Topology& t);

// [inst, priority]: a source per priority, each taking its share of the offered load
// (traffic.priority_weights; empty: all priority 0). Splitting a Bernoulli process by independent
// draws gives independent Bernoulli processes, so these are the one source's messages with
// their priorities drawn, each priority queued apart. Priority 0 keeps the instance's seed.
std::vector<TrafficParams> priority_traffic(const std::vector<Config>& cs, uint32_t nodes);

// Each instance's chance that a slot sent on a channel is corrupted, * 2^32, [inst, router,
// port]: sconnect.bit_error_rate on every channel, sconnect.noisy_bit_error_rate on both ends of
// sconnect.noisy_channels; 0 on the host port and unwired ports. Throws ConfigError for a noisy
// channel that is not one.
std::vector<uint32_t> channel_error_thresholds(const std::vector<Config>& cs, const Topology& t);
// Throws ConfigError unless each of sconnect.noisy_channels is a wired channel of `t`
// (validate() checks it too, so a Config holds none the engine would refuse).
void check_noisy_channels(const Config& c, const Topology& t);

}  // namespace ls::sconnect
