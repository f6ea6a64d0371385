#include "traffic_params.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>

#include "../../kernels/common/rng.hpp"
#include "../config/pick.hpp"

namespace ls {

void set_rate(TrafficParams& p, double rate) {
  p.rate = rate;
  // The first creation of a window of Bernoulli trials: P(first <= j) = 1 - (1 - rate)^(j + 1).
  static_assert(kGenWindow == std::size(TrafficParams{}.first_create), "one entry per cycle");
  // Plain IEEE double products, so every machine builds the same table.
  const double q = 1.0 - std::min(1.0, p.rate);
  double none = 1.0;
  for (uint32_t j = 0; j < kGenWindow; ++j) {
    none *= q;
    p.first_create[j] = draw_threshold(1.0 - none);
  }
}

double set_sizes(TrafficParams& p, const std::vector<uint32_t>& sizes,
                 const std::vector<double>& weights) {
  double wsum = 0, mean = 0, cum = 0;
  for (size_t i = 0; i < sizes.size(); ++i) wsum += weights[i];
  p.n_sizes = static_cast<uint32_t>(sizes.size());
  for (size_t i = 0; i < sizes.size(); ++i) {
    p.sizes[i] = sizes[i];
    cum += weights[i] / wsum;
    p.size_cum[i] = static_cast<uint32_t>(std::min(4294967295.0, cum * 4294967296.0));
    mean += weights[i] / wsum * sizes[i];
  }
  p.size_cum[p.n_sizes - 1] = 0xFFFFFFFFu;
  return mean;
}

namespace {

// The hot region's box: traffic.hot_region, or the lower half of every dimension.
void set_hot_region(TrafficParams& p, const Config& c) {
  const std::vector<int64_t>& h = c.traffic.hot_region;
  const std::vector<int64_t>& k = c.topology.radix;
  p.hot_fraction = c.traffic.hot_region_fraction;
  p.region_nodes = 1;
  for (int d = 0; d < kMaxDims; ++d) p.region_radix[d] = 1, p.region_n[d] = 1;
  for (size_t d = 0; d < k.size(); ++d) {
    p.region_radix[d] = static_cast<uint32_t>(k[d]);
    p.region_lo[d] = h.empty() ? 0 : static_cast<uint32_t>(h[d]);
    p.region_n[d] = static_cast<uint32_t>(hot_region_extent(c, d));
    p.region_nodes *= p.region_n[d];
  }
}

}  // namespace

int64_t hot_region_extent(const Config& c, size_t d) {
  const std::vector<int64_t>& h = c.traffic.hot_region;
  const std::vector<int64_t>& k = c.topology.radix;
  return h.empty() ? std::max<int64_t>(1, k[d] / 2) : h[k.size() + d];
}

uint64_t hot_region_nodes(const Config& c) {
  uint64_t n = 1;
  for (size_t d = 0; d < c.topology.radix.size(); ++d)
    n *= static_cast<uint64_t>(hot_region_extent(c, d));
  return n;
}

std::vector<TrafficParams> traffic_params(const std::vector<Config>& cs, uint32_t nodes) {
  std::vector<TrafficParams> out;
  for (const Config& c : cs) {
    const TrafficConfig& f = c.traffic;
    TrafficParams p{};
    p.seed = static_cast<uint64_t>(c.run.seed);
    p.pattern = pick<Pattern>(f.pattern, {{"uniform", Pattern::kUniform},
                                          {"transpose", Pattern::kTranspose},
                                          {"bitcomp", Pattern::kBitcomp},
                                          {"bitrev", Pattern::kBitrev},
                                          {"shuffle", Pattern::kShuffle},
                                          {"tornado", Pattern::kTornado},
                                          {"neighbor", Pattern::kNeighbor},
                                          {"hotspot", Pattern::kHotspot},
                                          {"randperm", Pattern::kRandperm},
                                          {"alltoall", Pattern::kAlltoall},
                                          {"hotregion", Pattern::kHotRegion},
                                          {"linefill", Pattern::kLineFill},
                                          {"gather", Pattern::kGather},
                                          {"planefill", Pattern::kPlaneFill},
                                          {"fft", Pattern::kFft}});
    p.injection = pick<Injection>(
        f.injection, {{"bernoulli", Injection::kBernoulli}, {"onoff", Injection::kOnOff}});
    const double mean =
        f.packet_sizes.empty()
            ? set_sizes(p, {static_cast<uint32_t>(f.packet_size)}, {1.0})
            : set_sizes(p, std::vector<uint32_t>(f.packet_sizes.begin(), f.packet_sizes.end()),
                        f.packet_size_weights);
    // Offered load counts every flit: with request-reply, each request brings its reply.
    p.rate = f.offered / (mean + (f.request_reply ? static_cast<double>(f.reply_size) : 0.0));
    p.alpha = f.burst_alpha;
    p.beta = f.burst_beta;
    if (p.injection == Injection::kOnOff) p.rate *= (f.burst_alpha + f.burst_beta) / f.burst_alpha;
    set_rate(p, p.rate);
    p.n_hot = static_cast<uint32_t>(f.hotspot_nodes.size());
    for (size_t i = 0; i < f.hotspot_nodes.size(); ++i)
      p.hot[i] = static_cast<uint32_t>(f.hotspot_nodes[i]);
    p.hot_fraction = f.hotspot_fraction;
    p.max_packets = static_cast<uint32_t>(f.max_packets);
    p.sender_every = static_cast<uint32_t>(f.sender_every);
    p.reply_size = static_cast<uint32_t>(f.reply_size);
    p.line_dim = static_cast<uint32_t>(f.line_dimension);
    p.turn_dim = static_cast<uint32_t>(f.turn_dimension);
    if (p.pattern == Pattern::kHotRegion || p.pattern == Pattern::kGather) set_hot_region(p, c);
    // A packet a cycle until each pair has its share.
    if (p.pattern == Pattern::kAlltoall || p.pattern == Pattern::kGather) {
      p.alltoall_packets = static_cast<uint32_t>(f.alltoall_packets);
      p.max_packets =
          p.alltoall_packets * (p.pattern == Pattern::kAlltoall ? nodes - 1 : p.region_nodes);
      set_rate(p, 1.0);
    }
    out.push_back(p);
  }
  return out;
}

std::vector<uint32_t> random_permutations(const std::vector<Config>& cs, uint32_t nodes) {
  std::vector<uint32_t> out;
  for (uint32_t i = 0; i < cs.size(); ++i) {
    std::vector<uint32_t> perm(nodes);
    for (uint32_t n = 0; n < nodes; ++n) perm[n] = n;
    for (uint32_t n = nodes; n > 1; --n) {  // Fisher-Yates on counter-based draws
      uint32_t j = below(philox_draw(static_cast<uint64_t>(cs[i].run.seed), 0, n, 0xFFFF).w[0], n);
      std::swap(perm[n - 1], perm[j]);
    }
    out.insert(out.end(), perm.begin(), perm.end());
  }
  return out;
}

}  // namespace ls
