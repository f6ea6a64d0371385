#include "sconnect_setup.hpp"

#include <algorithm>
#include <cmath>

#include "../config/pick.hpp"
#include "../config/schema.hpp"
#include "../routing/routing_table.hpp"

namespace ls::sconnect {

SconnectParams make_params(const Config& c, const Topology& t) {
  SconnectParams p{};
  p.routers = t.routers;
  p.ports = t.ports;
  p.nodes = t.nodes;
  uint32_t longest = 1;
  for (size_t k = 0; k < t.peer.size(); ++k)
    if (t.peer[k] >= 0) longest = std::max<uint32_t>(longest, t.link_delay[k]);
  p.slots = longest + 1;
  p.buffers = static_cast<uint32_t>(c.sconnect.buffers);
  p.reserve = static_cast<uint32_t>(sconnect_reserve(c.sconnect));
  p.priorities = static_cast<uint32_t>(c.sconnect.priorities);
  p.host_ports = static_cast<uint32_t>(c.sconnect.host_ports);
  p.bypass = c.sconnect.bypass;
  p.sink_min_priority = static_cast<uint32_t>(c.sconnect.sink_min_priority);
  p.source_queue = static_cast<uint32_t>(c.traffic.source_queue);
  p.assignment =
      pick<Assignment>(c.sconnect.assignment, {{"tic", Assignment::kTic},
                                               {"near_optimal", Assignment::kNearOptimal},
                                               {"optimal", Assignment::kOptimal}});
  p.sent_apart = c.sconnect.unacknowledged == "channel";
  p.shape = t.shape;
  if (p.sent_apart && pool_buffers(p) > kMaxBuffers)
    throw ConfigError(
        "sconnect.unacknowledged = \"channel\": allowed where sconnect.buffers (" +
        std::to_string(p.buffers) + ") + 2 x channels (" + std::to_string(p.ports - 1) +
        ") x the longest channel delay (" + std::to_string(p.slots - 1) + ") + the reserves (" +
        std::to_string(p.reserve * kKinds * p.priorities) + ") <= " + std::to_string(kMaxBuffers) +
        " (here " + std::to_string(pool_buffers(p)) + ")");
  return p;
}

uint32_t pool_buffers(uint32_t buffers, bool sent_apart, uint32_t channels, uint32_t longest_delay,
                      uint32_t reserve, uint32_t priorities) {
  return sent_apart ? buffers + 2 * channels * longest_delay + reserve * kKinds * priorities
                    : buffers;
}

std::vector<uint32_t> channel_error_thresholds(const std::vector<Config>& cs, const Topology& t) {
  std::vector<uint32_t> out;
  for (const Config& c : cs) {
    // A slot survives when all its bits do; plain IEEE doubles, the same on every machine.
    const auto slot = [&](double bit_rate) {
      const double hit =
          1.0 - std::pow(1.0 - bit_rate, static_cast<double>(c.sconnect.message_bits));
      return static_cast<uint32_t>(std::min<uint64_t>(draw_threshold(hit), 0xFFFFFFFFu));
    };
    std::vector<uint32_t> th(t.peer.size(), 0);
    for (size_t k = 0; k < t.peer.size(); ++k)
      if (t.peer[k] >= 0 && k % t.ports != 0) th[k] = slot(c.sconnect.bit_error_rate);
    const std::vector<int64_t>& noisy = c.sconnect.noisy_channels;
    check_noisy_channels(c, t);
    for (size_t i = 0; i < noisy.size(); i += 2) {
      const size_t k = static_cast<size_t>(noisy[i] * t.ports + noisy[i + 1]);
      th[k] = th[static_cast<size_t>(t.peer[k])] = slot(c.sconnect.noisy_bit_error_rate);
    }
    out.insert(out.end(), th.begin(), th.end());
  }
  return out;
}

void check_noisy_channels(const Config& c, const Topology& t) {
  check_pairs(
      "sconnect.noisy_channels", c.sconnect.noisy_channels, "(router, port)",
      [&](int64_t r, int64_t p) {
        return r < t.routers && p >= 1 && p < t.ports && t.peer[size_t(r * t.ports + p)] >= 0;
      },
      "a router below " + std::to_string(t.routers) + " and one of its channel ports 1.." +
          std::to_string(t.ports - 1) + " that is wired");
}

std::vector<TrafficParams> priority_traffic(const std::vector<Config>& cs, uint32_t nodes) {
  std::vector<TrafficParams> out;
  for (const Config& c : cs) {
    const TrafficParams base = traffic_params({c}, nodes).at(0);
    std::vector<double> w = c.traffic.priority_weights;
    if (w.empty()) w = {1.0};
    double sum = 0;
    for (double x : w) sum += x;
    for (uint32_t prio = 0; prio < kPriorities; ++prio) {
      TrafficParams p = base;
      p.seed = base.seed + prio * 0x9E3779B97F4A7C15ull;  // independent draws per priority
      set_rate(p, prio < w.size() ? base.rate * w[prio] / sum : 0.0);
      out.push_back(p);
    }
  }
  return out;
}

// The host served by each router, and the engine's deadlock-free routing table
// (host/routing/routing_table.hpp: resource ordering over the (router, VC) buffer classes).
Tables make_tables(const Config&, const Topology& t) {
  Tables tb;
  tb.router_node.assign(t.routers, -1);
  for (uint32_t n = 0; n < t.nodes; ++n) tb.router_node[t.node_router[n]] = static_cast<int32_t>(n);
  RoutingTable rt = build_routing_table(t);
  tb.port_mask = std::move(rt.port_mask);
  tb.vc = std::move(rt.vc);
  // Figure 4's excess may leave r for neighbour n off the table when n delivers it, or the hop is
  // one the resource order allows (VC 0 to VC 0 upwards, VC 1 to VC 1 downwards, VC 0 to VC 1
  // anywhere): no cycle of buffer classes can form.
  const uint64_t N = t.nodes, P = t.ports;
  tb.excess.assign(uint64_t{t.routers} * N, 0);
  for (uint64_t r = 0; r < t.routers; ++r)
    for (uint64_t p = 1; p < P; ++p) {
      if (t.peer[r * P + p] < 0) continue;
      const uint64_t n = static_cast<uint64_t>(t.peer[r * P + p]) / P;
      for (uint64_t dest = 0; dest < N; ++dest) {
        const uint32_t c = tb.vc[r * N + dest], cn = tb.vc[n * N + dest];
        const bool ok =
            tb.router_node[n] == static_cast<int32_t>(dest) ||
            (c == 0 ? cn == 1 || rt.rank[n] > rt.rank[r] : cn == 1 && rt.rank[n] < rt.rank[r]);
        tb.excess[r * N + dest] |= static_cast<uint32_t>(ok) << p;
      }
    }
  return tb;
}

}  // namespace ls::sconnect
