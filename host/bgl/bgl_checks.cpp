// Blue Gene/L's rules that involve several keys: its torus, packets of whole chunks, broadcasts,
// dead nodes and links, the escape VCs and the link-level protocol.
#include <algorithm>

#include "../traffic/completion_peak.hpp"
#include "bgl_family.hpp"

namespace ls::bgl {

// A torus of one to three dimensions, packets of whole 32-byte chunks.
void validate(const Config& c, const TopologySize& size) {
  const auto& t = c.topology;
  const auto& f = c.traffic;
  const auto& g = c.bgl;
  if (t.kind != "torus" || t.radix.size() > 3)
    throw ConfigError("topology.kind = \"" + t.kind + "\", topology.radix = " + to_string(t.radix) +
                      ": allowed for router.family = \"bgl\" only a torus of 1 to 3 dimensions");
  check_packet_sizes(
      f, [](int64_t b) { return b % 32 == 0 && b >= 32 && b <= 256; },
      "for router.family = \"bgl\" bytes in 1 to 8 chunks of 32 (32, 64, ..., 256)");
  for (auto [key, v] : {std::pair{"bgl.vc_bytes", g.vc_bytes},
                        {"bgl.escape_bytes", g.escape_bytes},
                        {"bgl.injection_fifo_bytes", g.injection_fifo_bytes}})
    if (v % 32 != 0)
      throw ConfigError(std::string(key) + " = " + std::to_string(v) +
                        ": allowed a multiple of 32 (whole chunks)");
  if (f.request_reply)
    throw ConfigError(
        "traffic.request_reply = true: allowed only false for router.family = "
        "\"bgl\"");
  const bool line = f.pattern == "linefill", plane = f.pattern == "planefill";
  const auto broadcast_dimension = [&](const char* key, int64_t dim) {
    const size_t d = static_cast<size_t>(dim);
    if (d < t.radix.size() && t.radix[d] >= 2) return;
    throw ConfigError("traffic." + std::string(key) + " = " + std::to_string(dim) +
                      ", topology.radix = " + to_string(t.radix) +
                      ": allowed with traffic.pattern = \"" + f.pattern +
                      "\" a dimension of the torus of at least 2 nodes (a broadcast line)");
  };
  if (line || plane) broadcast_dimension("line_dimension", f.line_dimension);
  if (plane) broadcast_dimension("turn_dimension", f.turn_dimension);
  if (plane && f.turn_dimension == f.line_dimension)
    throw ConfigError("traffic.turn_dimension = " + std::to_string(f.turn_dimension) +
                      ": allowed with traffic.pattern = \"planefill\" a dimension other than "
                      "traffic.line_dimension (" +
                      std::to_string(f.line_dimension) + ")");
  const auto nodes = static_cast<int64_t>(size.nodes);
  for (size_t i = 0; i < g.dead_nodes.size(); ++i)
    if (g.dead_nodes[i] >= nodes ||
        std::find(g.dead_nodes.begin(), g.dead_nodes.begin() + static_cast<std::ptrdiff_t>(i),
                  g.dead_nodes[i]) != g.dead_nodes.begin() + static_cast<std::ptrdiff_t>(i))
      throw ConfigError("bgl.dead_nodes = " + to_string(g.dead_nodes) +
                        ": allowed distinct node numbers below " + std::to_string(nodes) +
                        " (the torus's nodes)");
  check_pairs(
      "bgl.dead_links", g.dead_links, "(node, dimension)",
      [&](int64_t node, int64_t dim) {
        return node < nodes && dim < static_cast<int64_t>(t.radix.size()) &&
               t.radix[static_cast<size_t>(dim)] >= 2;
      },
      "a node below " + std::to_string(nodes) + " and a dimension of more than one node below " +
          std::to_string(t.radix.size()));
  for (size_t i = 0; i < g.dead_links.size(); i += 2) {
    for (size_t j = 0; j < i; j += 2)
      if (g.dead_links[j] == g.dead_links[i] && g.dead_links[j + 1] == g.dead_links[i + 1])
        throw ConfigError("bgl.dead_links = " + to_string(g.dead_links) +
                          ": allowed distinct links; pair " + std::to_string(i / 2) +
                          " repeats pair " + std::to_string(j / 2));
  }
  for (const auto* dead : {&g.dead_nodes, &g.dead_links})
    if (!dead->empty() && (line || plane || finite_workload(c)))
      throw ConfigError(std::string(dead == &g.dead_nodes ? "bgl.dead_nodes" : "bgl.dead_links") +
                        " = " + to_string(*dead) + " with traffic.pattern = \"" + f.pattern +
                        "\": allowed only with point-to-point patterns that run for a window "
                        "(broadcasts would cross them; alltoall and gather wait for every pair)");
  if (g.escape_vcs == "dateline_pair" && g.dynamic_vcs > 3)
    throw ConfigError("bgl.dynamic_vcs = " + std::to_string(g.dynamic_vcs) +
                      " with bgl.escape_vcs = \"dateline_pair\": allowed 1 to 3 (six VCs a link: "
                      "the dynamic ones, the pair and the high-priority VC)");
  if (g.pair_entry != "one" && g.escape_vcs != "dateline_pair")
    throw ConfigError("bgl.pair_entry = \"" + g.pair_entry + "\" with bgl.escape_vcs = \"" +
                      g.escape_vcs +
                      "\": allowed only with bgl.escape_vcs = \"dateline_pair\" "
                      "(the bubble's entry rule is its own)");
  if (g.deterministic && g.deterministic_fraction > 0)
    throw ConfigError("bgl.deterministic_fraction = " + std::to_string(g.deterministic_fraction) +
                      " with bgl.deterministic = true: allowed only 0 there (every packet is "
                      "deterministic already; a fraction is for a mix with dynamic packets)");
  if (g.link_error_rate > 0 && g.retransmission_packets == 0)
    throw ConfigError("bgl.link_error_rate = " + std::to_string(g.link_error_rate) +
                      " with bgl.retransmission_packets = 0: allowed only with the link-level "
                      "protocol modelled (bgl.retransmission_packets in [1, 128])");
}

}  // namespace ls::bgl
