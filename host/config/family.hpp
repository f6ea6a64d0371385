// What the shared code asks of a router family, in one record. Each family fills one in its own
// folder (host/<family>/<family>_family.cpp); host/families.hpp lists them.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "schema.hpp"

namespace ls {

class Engine;          // host/engine/engine.hpp
struct EngineOptions;  // host/engine/engine.hpp
struct TopologySize;   // host/topology/topology.hpp

using EngineFactory =
    std::function<std::unique_ptr<Engine>(const std::vector<Config>&, const EngineOptions&)>;

struct Family {
  std::string name;           // router.family's value
  std::string doc;            // what router.family's documentation says of it
  std::string section;        // its configuration section ("router" for vc: all of it but family)
  std::vector<KeyInfo> keys;  // its section's keys, in the order they are documented
  // (shared key, note): what this family adds to a shared key's documentation.
  std::vector<std::pair<std::string, std::string>> notes;

  // What it runs on and what of the shared traffic it takes; other families' errors name the
  // families that have a feature.
  int64_t min_radix = 2;          // topology.radix: nodes per dimension at least
  bool multistage = false;        // multibutterfly and fat_tree (nothing else)
  bool priorities = false;        // traffic.priority_weights
  bool broadcasts = false;        // traffic.pattern linefill, planefill
  bool hot_regions = false;       // traffic.pattern hotregion, gather
  bool finite_workloads = false;  // traffic.pattern alltoall, gather
  bool own_patterns = false;      // its validate checks traffic.pattern (over its own groups)
  bool roles = false;             // run.roles: its cycle has a role form (tile.hpp)

  // Its rules that involve several keys (validate(): after the topology's, before the shared
  // traffic rules); empty: none.
  std::function<void(const Config&, const TopologySize&)> validate;
  // Flits a packet brings, its answer included, when not the traffic section's sizes (the
  // T3E's requests and responses): traffic.offered's bound (offered_limit).
  std::function<double(const Config&)> packet_flits;
  // Cycles a packet holds a link, what follows it included: the finite workloads' bound
  // (completion_peak_cycles); empty where it has none.
  std::function<double(const Config&)> packet_link_cycles;

  // Bytes of state per router (host/engine/registry.cpp: estimated_state_bytes), from what its
  // engine allocates.
  std::function<double(const Config&, const TopologySize&)> router_state_bytes;
  // The routers per CPU thread from which its batches run faster on the GPU (run.backend =
  // auto), measured (docs/performance.md).
  int64_t auto_cuda_routers = 0;
  EngineFactory cpu, cuda;  // cuda: null in a build without the CUDA backend
};

// Every family, in router.family's order (host/families.hpp).
const std::vector<const Family*>& families();
// The family named `name`: validate() has refused any other (a logic_error).
const Family& family(const std::string& name);
// The names of the families `has` picks, as "a, b or c".
std::string family_names(const std::function<bool(const Family&)>& has);

}  // namespace ls
