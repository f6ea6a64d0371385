#include "alltoall_peak.hpp"

#include <algorithm>

namespace ls {

double alltoall_peak_cycles(const Config& c, double link_cycles) {
  if (c.topology.kind != "torus" || link_cycles <= 0) return 0;
  double nodes = 1;
  for (int64_t k : c.topology.radix) nodes *= static_cast<double>(k);
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
  if (f.packet_sizes.empty()) return static_cast<double>(f.packet_size);
  double sum = 0, wsum = 0;
  for (size_t i = 0; i < f.packet_sizes.size(); ++i) {
    sum += f.packet_size_weights[i] * static_cast<double>(f.packet_sizes[i]);
    wsum += f.packet_size_weights[i];
  }
  return sum / wsum;
}

}  // namespace ls
