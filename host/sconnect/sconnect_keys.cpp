// S-Connect's configuration keys ([sconnect]): ranges and documentation.
#include "../config/key_builders.hpp"
#include "sconnect_family.hpp"

namespace ls::sconnect {

std::vector<KeyInfo> section_keys() {
  using namespace keys;
  using S = SconnectConfig;
  const auto part = &Config::sconnect;
  return {
      int_key("sconnect", "buffers", part, &S::buffers, 2, 64,
              "messages the shared buffer pool of a router holds (the TIC: 64)"),
      int_key(
          "sconnect", "reserve", part, &S::reserve, -1, 21,
          "buffers reserved for each priority in use and each of its classes (VC 0, VC 1, "
          "delivery to the host), so no class can block another; -1 (the default): "
          "buffers / (4 x priorities), at least 1 and at most 4; 0 reserves none, and full pools "
          "can then deadlock"),
      int_key("sconnect", "priorities", part, &S::priorities, 1, 4,
              "priorities in use (reservations are made for these; traffic.priority_weights "
              "has at most this many entries)"),
      int_key("sconnect", "host_ports", part, &S::host_ports, 1, 2,
              "messages the host can inject, and take, per routing cycle (the TIC's two "
              "parallel ports)"),
      bool_key("sconnect", "bypass", part, &S::bypass,
               "a message for an idle channel leaves in the cycle it arrives, without waiting "
               "in the pool (section 3.1)"),
      enum_key("sconnect", "assignment", part, &S::assignment, {"tic", "near_optimal", "optimal"},
               "transmitter work assignment: the TIC's fixed order (a message joins the queue of "
               "its permissible channel with the fewest pending messages), Figure 4's "
               "near-optimal one (each cycle, transmitters with the fewest pending messages "
               "first take the highest-priority, oldest, least flexible message; a nearly full "
               "pool sends its excess to random neighbours), or the optimal one Figure 4 was "
               "measured against (the most messages sent each cycle, a maximum bipartite "
               "matching of messages to transmitters that extends Figure 4's choice; the excess "
               "as Figure 4's)"),
      enum_key("sconnect", "unacknowledged", part, &S::unacknowledged, {"pool", "channel"},
               "where a sent message waits for its acknowledgement: in its pool buffer, which "
               "it keeps locked (the TIC's channel module, section 3.2), or in its channel's own "
               "store, outside the pool's sconnect.buffers (Figure 4's step 3: the pool saves "
               "the unsent messages; a refused message comes back into it); 'channel' needs "
               "sconnect.buffers + 2 x channels x the longest channel delay + the reserves "
               "(reserve x 3 x priorities) <= 64, and messages of one slot"),
      float_key("sconnect", "bit_error_rate", part, &S::bit_error_rate, 0.0, 0.01,
                "transmission errors: the probability that a bit of a slot (message, or "
                "acknowledgement) is corrupted; the channel protocol (section 3.2) retransmits",
                true),
      int_list_key("sconnect", "noisy_channels", part, &S::noisy_channels, 0, 32, 0, (1 << 20) - 1,
                   "channels, as (router, port) pairs (ports 1.., as topology.kind numbers them), "
                   "whose bits are corrupted at sconnect.noisy_bit_error_rate both ways instead of "
                   "sconnect.bit_error_rate; the state array channel_error_threshold holds every "
                   "channel's rate and may be written from Python",
                   true),
      float_key("sconnect", "noisy_bit_error_rate", part, &S::noisy_bit_error_rate, 0.0, 0.01,
                "the bit error rate of sconnect.noisy_channels", true),
      int_key("sconnect", "message_bits", part, &S::message_bits, 16, 65536,
              "bits a slot carries, for bit_error_rate (the paper's example: a 100-bit message)",
              true),
      int_key("sconnect", "sink_min_priority", part, &S::sink_min_priority, 0, 3,
              "hosts take only messages of at least this priority; the others stay in the "
              "network (section 2.3's case of a network saturated with messages nobody removes)")};
}

}  // namespace ls::sconnect
