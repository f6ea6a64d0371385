#include "completion_peak.hpp"

#include <algorithm>

#include "../config/family.hpp"
#include "traffic_params.hpp"

namespace ls {

namespace {

double nodes_of(const Config& c) {
  double nodes = 1;
  for (int64_t k : c.topology.radix) nodes *= static_cast<double>(k);
  return nodes;
}

}  // namespace

bool finite_workload(const Config& c) {
  return c.traffic.pattern == "alltoall" || c.traffic.pattern == "gather";
}

uint64_t workload_packets(const Config& c, uint32_t nodes) {
  const uint64_t p = static_cast<uint64_t>(c.traffic.alltoall_packets);
  if (c.traffic.pattern == "alltoall") return uint64_t{nodes} * (nodes - 1) * p;
  const uint64_t region = hot_region_nodes(c);
  return (nodes - region) * region * p;
}

double gather_peak_cycles(const Config& c, double link_cycles) {
  if (c.topology.kind != "torus" || link_cycles <= 0) return 0;
  const std::vector<int64_t>& k = c.topology.radix;
  const double region = static_cast<double>(hot_region_nodes(c));
  double entering = 0;
  for (size_t d = 0; d < k.size(); ++d)
    if (hot_region_extent(c, d) < k[d])
      entering += 2 * region / static_cast<double>(hot_region_extent(c, d));
  const double packets =
      static_cast<double>(workload_packets(c, static_cast<uint32_t>(nodes_of(c))));
  return entering > 0 ? packets * link_cycles / entering : 0;
}

double completion_peak_cycles(const Config& c) {
  const Family& f = family(c.router.family);
  if (!f.packet_link_cycles) return 0;
  const double link_cycles = f.packet_link_cycles(c);
  return c.traffic.pattern == "gather" ? gather_peak_cycles(c, link_cycles)
                                       : alltoall_peak_cycles(c, link_cycles);
}

double alltoall_peak_cycles(const Config& c, double link_cycles) {
  if (c.topology.kind != "torus" || link_cycles <= 0) return 0;
  const double nodes = nodes_of(c);
  // Dimension d: every source reaches each ring offset o (nodes / k times), min(o, k - o) hops
  // in d; those hops spread over the 2 x nodes links of the dimension.
  double busiest = 0;
  for (int64_t k : c.topology.radix) {
    int64_t hops = 0;
    for (int64_t o = 0; o < k; ++o) hops += std::min(o, k - o);
    busiest = std::max(busiest, nodes / static_cast<double>(k) * static_cast<double>(hops) / 2);
  }
  return static_cast<double>(c.traffic.alltoall_packets) * busiest * link_cycles;
}

double mean_packet_size(const TrafficConfig& f) {
  double wsum = 0, mean = 0;
  for (double w : f.packet_size_weights) wsum += w;
  // Each weight's share first: weights near the largest double would overflow their products.
  for (size_t i = 0; i < f.packet_sizes.size(); ++i)
    mean += f.packet_size_weights[i] / wsum * static_cast<double>(f.packet_sizes[i]);
  return f.packet_sizes.empty() ? static_cast<double>(f.packet_size) : mean;
}

}  // namespace ls
