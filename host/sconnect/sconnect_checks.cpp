// S-Connect's rules that involve several keys: its networks, messages and priorities, and the
// buffer pool's reserves.
#include <cmath>

#include "../routing/routing_table.hpp"
#include "sconnect_family.hpp"
#include "sconnect_setup.hpp"

namespace ls::sconnect {

// S-Connect moves fixed-length messages: a packet is one message, one slot of a channel, or a
// quad-message of 4 (kernels/sconnect/quad.hpp).
void validate(const Config& c, const TopologySize& size) {
  const auto& f = c.traffic;
  const auto& s = c.sconnect;
  if (c.topology.kind == "crossbar")
    throw ConfigError(
        "topology.kind = \"crossbar\": allowed for router.family = \"sconnect\" "
        "mesh, torus and the graph kinds");
  check_table_size(size.routers, size.nodes);  // S-Connect routes by table (section 2.4)
  bool quads = false;
  check_packet_sizes(
      f,
      [&quads](int64_t b) {
        quads |= b == 4;
        return b == 1 || b == 4;
      },
      "only 1 (a message: one slot) or 4 (a quad-message) for router.family = \"sconnect\"");
  if (f.request_reply)
    throw ConfigError(
        "traffic.request_reply = true: allowed only false for router.family = "
        "\"sconnect\" (use traffic.priority_weights for message classes)");
  if (static_cast<int64_t>(f.priority_weights.size()) > s.priorities)
    throw ConfigError("traffic.priority_weights = " + to_string(f.priority_weights) +
                      ": allowed at most sconnect.priorities = " + std::to_string(s.priorities) +
                      " entries");
  double wsum = 0;
  for (double w : f.priority_weights) wsum += w;
  if (!f.priority_weights.empty() && !(wsum > 0 && std::isfinite(wsum)))
    throw ConfigError("traffic.priority_weights = " + to_string(f.priority_weights) +
                      ": allowed weights with a positive, finite sum");
  const int64_t reserve = sconnect_reserve(s), reserved = reserve * s.priorities * 3;
  const std::string reserve_is = "sconnect.reserve = " + std::to_string(s.reserve) +
                                 (s.reserve < 0 ? " (here " + std::to_string(reserve) + ")" : "");
  if (reserved >= s.buffers)
    throw ConfigError(reserve_is + ": allowed reserve x priorities x 3 classes (here " +
                      std::to_string(reserved) +
                      ") below sconnect.buffers = " + std::to_string(s.buffers));
  // A train takes 4 buffers at once: a class whose reserve holds less than a whole one can be
  // shut out for good by the others' messages, which wait on it in turn (a deadlock).
  if (quads && reserve < 4)
    throw ConfigError(reserve_is +
                      ": allowed at least 4 with quad-messages (traffic.packet_size 4): each "
                      "class's reserve must hold a whole quad, or quads can deadlock");
  if (quads && s.unacknowledged == "channel")
    throw ConfigError(
        "sconnect.unacknowledged = \"channel\": allowed only with messages of one slot "
        "(traffic.packet_size 1); a quad-message's train keeps its buffers in the pool");
  // The wiring's rules: noisy channels that exist, and with sent messages in the channels'
  // stores a pool that still fits (make_params, as the engine takes it).
  if (!s.noisy_channels.empty() || s.unacknowledged == "channel") {
    const Topology t = build_topology(c.topology);
    if (!s.noisy_channels.empty()) check_noisy_channels(c, t);
    if (s.unacknowledged == "channel") make_params(c, t);
  }
}

}  // namespace ls::sconnect
