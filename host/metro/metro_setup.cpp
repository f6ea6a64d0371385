#include "metro_setup.hpp"

#include <algorithm>

#include "../../kernels/common/traffic.hpp"
#include "../config/pick.hpp"
#include "../config/schema.hpp"

namespace ls::metro {

MetroParams make_params(const Config& c, const Topology& t) {
  const std::vector<Stage> stages = multistage_stages(c.topology);
  const MetroConfig& m = c.metro;
  MetroParams p{};
  if (t.routers > kMaxStatusRouters)
    throw ConfigError("topology: " + std::to_string(t.routers) +
                      " routers; a METRO network is allowed at most " +
                      std::to_string(kMaxStatusRouters) + " (a STATUS word names its router)");
  p.routers = t.routers;
  p.endpoints = t.nodes;
  p.elems = t.routers + t.nodes;
  p.rports = t.ports;
  p.eports = t.node_ports;
  p.ports = std::max(t.ports, 2 * t.node_ports);
  int64_t vtd = m.vtd;  // the longest wire
  for (size_t i = 2; i < m.port_vtd.size(); i += 3) vtd = std::max(vtd, m.port_vtd[i]);
  p.slots = static_cast<uint32_t>(m.dp + vtd) + 1;
  p.layers = static_cast<uint32_t>(stages.size());
  p.stages = static_cast<uint32_t>(c.topology.radix.size());
  for (uint32_t l = 0; l < p.layers; ++l) {
    const Stage& st = stages[l];
    p.radix[l] = st.radix;
    p.dilation[l] = st.dilation;
    p.divisor[l] = static_cast<uint32_t>(st.divisor);
    p.first[l] = st.first;
    p.group_routers[l] = st.group_routers();
    p.up[l] = st.up;
  }
  p.hw = static_cast<uint32_t>(m.hw);
  p.width = static_cast<uint32_t>(m.width);
  // A data word is the logical router's: c x w bits (at most 27 kept).
  const uint32_t data_bits = p.width * static_cast<uint32_t>(m.cascade);
  p.value_mask = data_bits >= 27 ? (1u << 27) - 1 : (1u << data_bits) - 1;
  p.checksum_weight = m.checksum == "weighted" ? 3 : 1;
  p.fast_reclaim = m.reclaim == "fast";
  p.first_free = m.selection == "first";
  p.retry_delay = static_cast<uint32_t>(m.retry_delay);
  p.backoff = pick<Backoff>(m.backoff, {{"fixed", Backoff::kFixed},
                                        {"exponential", Backoff::kExponential},
                                        {"random", Backoff::kRandom}});
  p.backoff_limit = static_cast<uint32_t>(m.backoff_limit);
  p.timeout = static_cast<uint32_t>(m.timeout);
  p.reads = c.traffic.request_reply;
  p.reply_delay = static_cast<uint32_t>(m.reply_delay);
  p.exchanges = static_cast<uint32_t>(m.exchanges);
  p.error_threshold = draw_threshold(m.word_error_rate);
  p.header_threshold = draw_threshold(m.header_error_rate);
  p.route_bits = 0;
  for (uint32_t n = t.nodes; n > 1; n >>= 1) p.route_bits += 1;
  p.cascade = static_cast<uint32_t>(m.cascade);
  p.source_queue = static_cast<uint32_t>(c.traffic.source_queue);
  p.shape = t.shape;
  return p;
}

Wiring make_wiring(const MetroParams& p, const Topology& t, const Config& c) {
  const uint32_t P = p.ports, TP = t.ports, k = p.eports;
  Wiring out;
  out.peer.assign(uint64_t{p.elems} * P, -1);
  out.delay.assign(out.peer.size(), 1);
  const uint8_t stage_delay = static_cast<uint8_t>(c.metro.dp + c.metro.vtd);
  for (uint32_t r = 0; r < t.routers; ++r)
    for (uint32_t q = 0; q < TP; ++q) {
      out.delay[uint64_t{r} * P + q] = stage_delay;
      const int32_t far = t.peer[uint64_t{r} * TP + q];
      if (far >= 0)
        out.peer[uint64_t{r} * P + q] = far / static_cast<int32_t>(TP) * static_cast<int32_t>(P) +
                                        far % static_cast<int32_t>(TP);
    }
  // metro.port_vtd: a wire of its own length, both ways between routers.
  const std::vector<int64_t>& own = c.metro.port_vtd;
  check_tuples(
      "metro.port_vtd", own, 3, "(router, port, vtd)",
      [&](const int64_t* x) {
        return x[0] < t.routers && x[1] < TP && x[2] <= 15 &&
               (t.peer[size_t(x[0] * TP + x[1])] >= 0 ||
                t.port_node[size_t(x[0] * TP + x[1])] >= 0);
      },
      "a router below " + std::to_string(t.routers) + ", one of its wired ports and vtd 0 to 15");
  for (size_t i = 0; i < own.size(); i += 3) {
    const uint32_t r = static_cast<uint32_t>(own[i]), q = static_cast<uint32_t>(own[i + 1]);
    const uint8_t delay = static_cast<uint8_t>(c.metro.dp + own[i + 2]);
    out.delay[uint64_t{r} * P + q] = delay;
    const int32_t far = t.peer[uint64_t{r} * TP + q];
    if (far >= 0)
      out.delay[uint64_t(far / static_cast<int32_t>(TP)) * P + far % static_cast<int32_t>(TP)] =
          delay;
  }
  // Endpoint n is element routers + n: columns 0 .. k-1 its entering wires, k .. 2k-1 its
  // leaving ones.
  auto join = [&](int32_t router_port, uint32_t n, uint32_t col) {
    const int64_t a = int64_t{router_port / static_cast<int32_t>(TP)} * P + router_port % TP,
                  b = int64_t{p.routers + n} * P + col;
    out.peer[static_cast<size_t>(a)] = static_cast<int32_t>(b);
    out.peer[static_cast<size_t>(b)] = static_cast<int32_t>(a);
  };
  for (uint32_t n = 0; n < t.nodes; ++n)
    for (uint32_t j = 0; j < k; ++j) {
      join(t.node_entry[uint64_t{n} * k + j], n, j);
      join(t.node_exit[uint64_t{n} * k + j], n, k + j);
    }
  return out;
}

std::vector<uint8_t> swallow_ports(const MetroParams& p, const Config& c, const Topology& t,
                                   uint64_t instances) {
  const std::vector<int64_t>& sw = c.metro.swallow;
  const std::string key = "metro.swallow = " + to_string(sw);
  std::vector<uint8_t> on(p.layers, 0);
  for (int64_t l : sw) {
    if (p.hw != 0)
      throw ConfigError(key +
                        ": allowed only with metro.hw = 0 (Table 2: \"Swallow is only "
                        "relevant on components where hw = 0\"), here metro.hw = " +
                        std::to_string(p.hw));
    if (l >= p.layers)
      throw ConfigError(key + ": allowed layers below " + std::to_string(p.layers));
    on[static_cast<size_t>(l)] = 1;
  }
  // Every kind of path: one pair turning at each level of a fat tree (a multibutterfly has one
  // kind). Its routers in order must each find a header word leading the stream.
  const uint32_t down = p.layers - p.stages;
  for (uint32_t s = 0; s < (down != 0 ? p.stages : 1); ++s) {
    const uint32_t dest = p.divisor[down + s];  // leaves of a level-(s + 1) subtree
    std::vector<uint32_t> path;
    for (uint32_t u = p.stages - 1; down != 0 && u >= std::max(s, 1u); --u)
      path.push_back(p.stages - 1 - u);
    for (uint32_t d = s; d < p.stages; ++d) path.push_back(down + d);
    uint32_t words = route_of(p, 0, dest).header_words;
    for (uint32_t l : path) {
      if (words == 0)
        throw ConfigError(key +
                          ": allowed only while a header word leads every router's "
                          "stream; from endpoint 0 to " +
                          std::to_string(dest) + " (" +
                          std::to_string(route_of(p, 0, dest).header_words) +
                          " header words, metro.width = " + std::to_string(p.width) + ") layer " +
                          std::to_string(l) + " would route on a data word");
      words -= on[l];
    }
  }
  std::vector<uint8_t> out(instances * t.routers * t.ports, 0);
  for (uint64_t i = 0; i < instances; ++i)
    for (uint32_t r = 0; r < t.routers; ++r) {
      const uint32_t l = t.stage[r];
      for (uint32_t f = 0; on[l] && f < p.radix[l] * p.dilation[l]; ++f)
        out[(i * t.routers + r) * t.ports + f] = 1;
    }
  return out;
}

// A list of wires named by a router end, (router, port) pairs.
static void check_wires(const char* key, const std::vector<int64_t>& pairs, const Topology& t) {
  const uint32_t P = t.ports;
  check_pairs(
      key, pairs, "(router, port)",
      [&](int64_t r, int64_t q) {
        return r < t.routers && q < P &&
               (t.peer[size_t(r * P + q)] >= 0 || t.port_node[size_t(r * P + q)] >= 0);
      },
      "a router below " + std::to_string(t.routers) + " and one of its wired ports");
}

std::vector<uint8_t> noisy_ports(const Config& c, const Topology& t) {
  const std::vector<int64_t>& pairs = c.metro.noisy_ports;
  check_wires("metro.noisy_ports", pairs, t);
  std::vector<uint8_t> on(uint64_t{t.routers} * t.ports, pairs.empty() ? 1 : 0);
  for (size_t i = 0; i < pairs.size(); i += 2) {
    const uint64_t k = static_cast<uint64_t>(pairs[i] * t.ports + pairs[i + 1]);
    on[k] = 1;
    if (t.peer[k] >= 0) on[static_cast<size_t>(t.peer[k])] = 1;
  }
  return on;
}

Faults router_faults(const Config& c, const Topology& t, bool failed) {
  const uint32_t P = t.ports;
  Faults f{std::vector<uint8_t>(t.routers, 0), std::vector<uint8_t>(uint64_t{t.routers} * P, 1),
           std::vector<uint8_t>(uint64_t{t.routers} * P, 0)};
  const std::vector<int64_t>& ports = c.metro.failed_ports;
  check_wires("metro.failed_ports", ports, t);
  if (!failed) return f;
  // Masking: port q of router r and the port wired to it out of service.
  const auto disable = [&](uint32_t r, uint32_t q) {
    f.enabled[uint64_t{r} * P + q] = 0;
    const int32_t far = t.peer[uint64_t{r} * P + q];
    if (far >= 0) f.enabled[static_cast<size_t>(far)] = 0;
  };
  for (int64_t x : c.metro.failed_routers) {
    const uint32_t r = static_cast<uint32_t>(x);
    f.dead[r] = 1;
    if (!c.metro.mask_failed) continue;
    for (uint32_t q = 0; q < P; ++q) disable(r, q);
  }
  for (size_t i = 0; i < ports.size(); i += 2) {
    const uint32_t r = static_cast<uint32_t>(ports[i]), q = static_cast<uint32_t>(ports[i + 1]);
    f.port_dead[uint64_t{r} * P + q] = 1;
    if (c.metro.mask_failed) disable(r, q);
  }
  return f;
}

void check_network_keys(const Config& c, const Topology& t) {
  const MetroParams p = make_params(c, t);
  make_wiring(p, t, c);
  swallow_ports(p, c, t, 0);
  noisy_ports(c, t);
  router_faults(c, t, false);
  // A source that gives up while the destination's acknowledgement and drop are still on their
  // way sends its own drop against them: the two drops cross, a router freed by one can give
  // the wire to a new connection before the other arrives and closes it, and the half of a path
  // left open downstream carries a later stream to the wrong endpoint. The answer takes at most
  // the longest path there and back after the TURN: each way the endpoint's wire and `layers`
  // routers of dp + vtd clocks (the longest wire's) each.
  const uint64_t stage = p.slots - 1, answer = 2 * (1 + uint64_t{p.layers} * stage);
  if (static_cast<uint64_t>(c.metro.timeout) < answer)
    throw ConfigError("metro.timeout = " + std::to_string(c.metro.timeout) + ": allowed at least " +
                      std::to_string(answer) +
                      " here, the clocks a connection's acknowledgement and drop can take to "
                      "come back after the source's TURN (2 x (1 + " +
                      std::to_string(p.layers) + " routers on the longest path x " +
                      std::to_string(stage) +
                      " clocks of metro.dp + metro.vtd each)); a source timing out sooner drops "
                      "connections whose answer is still on its way");
}

}  // namespace ls::metro
