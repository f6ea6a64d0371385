// The Cray T3E's rules that involve several keys: its torus, the PE's timings and queues,
// R_NET_LUT's modes, faults, partitions, partial planes and the packet mix.
#include <cmath>

#include "packet_types.hpp"
#include "partial_plane.hpp"
#include "t3e_family.hpp"
#include "t3e_registers.hpp"

namespace ls::t3e {
namespace {

// Failed links and nodes name existing ones, and tables of one entry per PE route around them.
void check_faults(const Config& c, int64_t nodes) {
  const auto& e = c.t3e;
  const auto& k = c.topology.radix;
  auto check = [&](const char* key, const std::vector<int64_t>& xs, size_t group) {
    const std::string name = std::string("t3e.") + key;
    if (xs.size() % group)
      throw ConfigError(name + " = " + to_string(xs) + ": allowed groups of " +
                        std::to_string(group) + " integers (x, y, z" +
                        (group == 4 ? ", dimension)" : ")"));
    for (size_t i = 0; i < xs.size(); i += group)
      for (size_t d = 0; d < group; ++d) {
        const int64_t bound = d < 3 ? k[d] : 3;
        if (xs[i + d] >= bound || (d == 3 && k[static_cast<size_t>(xs[i + d])] == 1))
          throw ConfigError(
              name + " = " + to_string(xs) + ": group " + std::to_string(i / group) +
              (d < 3 ? " has " + std::string(1, "xyz"[d]) + " = " + std::to_string(xs[i + d]) +
                           ", allowed below topology.radix[" + std::to_string(d) +
                           "] = " + std::to_string(k[d])
                     : " names dimension " + std::to_string(xs[i + d]) +
                           ", allowed a dimension of more than one node (0 X, 1 Y, 2 Z)"));
      }
  };
  check("failed_links", e.failed_links, 4);
  check("failed_nodes", e.failed_nodes, 3);
  if (e.failed_links.empty() && e.failed_nodes.empty()) return;
  if (lut_mode(e.lut_mode, static_cast<uint32_t>(nodes)) != kMode0)
    throw ConfigError("t3e.lut_mode = \"" + e.lut_mode +
                      "\": allowed with t3e.failed_links or t3e.failed_nodes only mode0 (or "
                      "auto up to 544 PEs): rerouting needs an R_NET_LUT entry per PE; here " +
                      std::to_string(nodes) + " PEs");
}

// Partitions lie inside the logical PEs that are no hot spares and do not overlap; the traffic
// pattern runs over each one's virtual PEs.
void check_partitions(const Config& c, int64_t pes) {
  const auto& e = c.t3e;
  const std::string parts = "t3e.partitions = " + to_string(e.partitions);
  if (e.hot_spares >= pes)
    throw ConfigError("t3e.hot_spares = " + std::to_string(e.hot_spares) +
                      ": allowed fewer than the PEs, here " + std::to_string(pes));
  const int64_t usable = pes - e.hot_spares;
  if (e.partitions.size() % 2)
    throw ConfigError(parts + ": allowed pairs of integers (base logical PE, virtual PE limit)");
  std::vector<std::pair<int64_t, int64_t>> spans;  // [first, last] logical PEs
  for (size_t i = 0; i < e.partitions.size(); i += 2)
    spans.push_back({e.partitions[i], e.partitions[i] + e.partitions[i + 1]});
  if (spans.empty()) spans.push_back({0, usable - 1});
  for (size_t i = 0; i < spans.size(); ++i) {
    const std::string which = "partition " + std::to_string(i);
    if (spans[i].second >= usable)
      throw ConfigError(parts + ": " + which + " reaches logical PE " +
                        std::to_string(spans[i].second) + ", allowed up to " +
                        std::to_string(usable - 1) + " (" + std::to_string(pes) + " PEs less " +
                        std::to_string(e.hot_spares) + " hot spares)");
    for (size_t j = 0; j < i; ++j)
      if (spans[i].first <= spans[j].second && spans[j].first <= spans[i].second)
        throw ConfigError(parts + ": " + which + " overlaps partition " + std::to_string(j) +
                          ", allowed partitions with no logical PE in common");
    const int64_t size = spans[i].second - spans[i].first + 1;
    const bool whole = size == c.topology.radix[0] * c.topology.radix[1] * c.topology.radix[2];
    if (c.traffic.pattern == "randperm" && !whole)
      throw ConfigError(
          "traffic.pattern = \"randperm\": allowed on the T3E only with one "
          "partition of every PE of a full torus, here " +
          which + " has " + std::to_string(size) + " PEs");
    check_pattern(c.traffic, size, "PEs of " + which);
  }
}

// A partial plane fits in the last Z plane and leaves it partial; its tables are one entry
// per PE, and failed nodes are installed ones.
void check_partial_plane(const Config& c) {
  const auto& pp = c.t3e.partial_plane;
  const auto& k = c.topology.radix;
  if (pp.empty()) return;
  const std::string key = "t3e.partial_plane = " + to_string(pp);
  if (pp.size() != 2)
    throw ConfigError(key + ": allowed [nx, ny], the partial plane's nodes in X and in Y");
  if (k[2] < 2)
    throw ConfigError(
        key + ": allowed only with at least 2 Z planes, here topology.radix = " + to_string(k));
  for (size_t d = 0; d < 2; ++d)
    if (pp[d] > k[d])
      throw ConfigError(key + ": allowed " + std::string(1, "xy"[d]) + " up to topology.radix[" +
                        std::to_string(d) + "] = " + std::to_string(k[d]));
  if (pp[0] * pp[1] == k[0] * k[1])
    throw ConfigError(key + ": allowed fewer nodes than a full plane (" +
                      std::to_string(k[0] * k[1]) + "); a full last plane is topology.radix");
  const uint32_t pes = machine_pes(c);
  if (lut_mode(c.t3e.lut_mode, pes) != kMode0)
    throw ConfigError("t3e.lut_mode = \"" + c.t3e.lut_mode +
                      "\": allowed with t3e.partial_plane only mode0 (or auto up to 544 PEs): "
                      "its routes need an R_NET_LUT entry per PE; here " +
                      std::to_string(pes) + " PEs");
  const auto& fn = c.t3e.failed_nodes;
  for (size_t i = 0; i + 2 < fn.size(); i += 3)
    if (fn[i + 2] == k[2] - 1 && (fn[i] >= pp[0] || fn[i + 1] >= pp[1]))
      throw ConfigError("t3e.failed_nodes = " + to_string(fn) + ": group " + std::to_string(i / 3) +
                        " names an empty slot of " + key + ", allowed installed nodes");
}

}  // namespace

// A 3-D torus of one PE per router, rings of at most 32 nodes (5-bit addresses).
void validate(const Config& c, const TopologySize&) {
  const auto& t = c.topology;
  const auto& f = c.traffic;
  const auto& e = c.t3e;
  if (t.kind != "torus" || t.radix.size() != 3)
    throw ConfigError("topology.kind = \"" + t.kind + "\", topology.radix = " + to_string(t.radix) +
                      ": allowed for router.family = \"t3e\" a torus of 3 dimensions");
  for (int64_t k : t.radix)
    if (k > 32)
      throw ConfigError("topology.radix = " + to_string(t.radix) +
                        ": allowed at most 32 nodes per ring for router.family = \"t3e\"");
  if (f.request_reply || f.packet_size != 1 || !f.packet_sizes.empty())
    throw ConfigError(
        "traffic.request_reply, traffic.packet_size, traffic.packet_sizes: allowed only their "
        "defaults for router.family = \"t3e\" (every packet is a request of "
        "t3e.packet_type, answered by its response)");
  if (e.fall_through_turn < e.fall_through_straight)
    throw ConfigError("t3e.fall_through_turn = " + std::to_string(e.fall_through_turn) +
                      ": allowed at least t3e.fall_through_straight = " +
                      std::to_string(e.fall_through_straight));
  if (e.end_point <= e.fall_through_turn)
    throw ConfigError(
        "t3e.end_point = " + std::to_string(e.end_point) +
        ": allowed above t3e.fall_through_turn = " + std::to_string(e.fall_through_turn) +
        " (the PE's lookup and formatting take the difference)");
  if (e.response_queue < e.pe_buffer_depth)
    throw ConfigError(
        "t3e.response_queue = " + std::to_string(e.response_queue) +
        ": allowed at least t3e.pe_buffer_depth = " + std::to_string(e.pe_buffer_depth) +
        " (a slot for every request flit the router may send the PE)");
  check_partial_plane(c);
  const int64_t nodes = machine_pes(c);
  const int64_t limit = e.lut_mode == "mode0"                            ? 544
                        : e.lut_mode == "mode1" || e.lut_mode == "mode2" ? 2176
                                                                         : 0;
  if (limit && nodes > limit)
    throw ConfigError("t3e.lut_mode = \"" + e.lut_mode + "\": allowed for at most " +
                      std::to_string(limit) + " PEs, here " + std::to_string(nodes));
  // Mode 3 gives every packet a PE creates R_LUT_OVERRIDE's one tag (manual, "R_LUT_OVERRIDE
  // Register"): a PE can then talk to one PE only, its requests and its responses alike. So it
  // runs traffic in which PEs exchange in pairs (a pattern that is its own inverse), each PE's
  // register holding its partner's tag (t3e_registers.cpp), over one partition of every PE.
  if (e.lut_mode == "mode3") {
    const std::string why =
        "t3e.lut_mode = \"mode3\": R_LUT_OVERRIDE's one routing tag carries every packet a PE "
        "creates, requests and responses, so ";
    if (f.pattern != "bitcomp" && f.pattern != "transpose" && f.pattern != "bitrev")
      throw ConfigError(why + "traffic.pattern = \"" + f.pattern +
                        "\" is not allowed: allowed bitcomp, transpose or bitrev, in which each "
                        "PE exchanges with one partner");
    if (!e.partitions.empty() || e.hot_spares || !e.failed_nodes.empty() ||
        !e.failed_links.empty() || !e.partial_plane.empty())
      throw ConfigError(why +
                        "t3e.partitions, t3e.hot_spares, t3e.failed_nodes, "
                        "t3e.failed_links and t3e.partial_plane are allowed only their "
                        "defaults (the pattern pairs the machine's logical PEs)");
  }
  check_faults(c, nodes);
  check_partitions(c, nodes);
  // Modes 1 and 2 index R_NET_LUT by logical PEs in 2x2 blocks: the registers refuse a
  // numbering that is not (t3e_registers.cpp).
  if (e.lut_mode == "mode1" || e.lut_mode == "mode2") make_registers(c, machine_topology(c));
  if (!e.packet_mix.empty()) {
    double sum = 0;
    for (double w : e.packet_mix) sum += w < 0 ? -1e300 : w;
    if (e.packet_mix.size() != kTypes || !(sum > 0 && std::isfinite(sum)))
      throw ConfigError(
          "t3e.packet_mix = " + to_string(e.packet_mix) +
          ": allowed four weights >= 0, not all 0, with a finite sum (single-word Gets, vector "
          "Gets, single-word Puts, vector Puts), or none");
  }
}

}  // namespace ls::t3e
