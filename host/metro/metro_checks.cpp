// METRO's rules that involve several keys: its multistage networks and the [metro] keys that
// name their parts.
#include "metro_family.hpp"
#include "metro_setup.hpp"

namespace ls::metro {

void validate(const Config& c, const TopologySize& size) {
  const auto& t = c.topology;
  if (!is_multistage_kind(t.kind))
    throw ConfigError("topology.kind = \"" + t.kind +
                      "\": allowed only multibutterfly or fat_tree for router.family = metro, "
                      "here router.family = metro");
  for (int64_t x : c.metro.failed_routers)
    if (x >= static_cast<int64_t>(size.routers))
      throw ConfigError("metro.failed_routers = " + to_string(c.metro.failed_routers) +
                        ": allowed router numbers below " + std::to_string(size.routers) +
                        " (the network's routers)");
  // Exchanges after the first are request/reply exchanges: a write turns its connection once.
  if (c.metro.exchanges > 1 && !c.traffic.request_reply)
    throw ConfigError("metro.exchanges = " + std::to_string(c.metro.exchanges) +
                      ": allowed only 1 without traffic.request_reply (the exchanges are a "
                      "read's requests and replies on its one connection; a write's connection "
                      "is turned once), here traffic.request_reply = false");
  check_network_keys(c, build_topology(t));
}

}  // namespace ls::metro
