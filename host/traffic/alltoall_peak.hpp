// The least time an alltoall can take on a torus: the load of its busiest links. The paper
// (Blue Gene/L, "Alltoall") states alltoall results as a percentage of this peak.
#pragma once
#include <cstdint>

#include "../config/config.hpp"

namespace ls {

// Cycles the busiest links of instance `c`'s torus need to carry its alltoall, where each packet
// holds a link for `link_cycles` cycles (its flits, or Blue Gene/L's bytes with every overhead)
// and minimal routes split evenly between the two ways round (half-way ties half and half);
// 0 where there is no such bound here (a topology other than a torus, or link_cycles 0).
double alltoall_peak_cycles(const Config& c, double link_cycles);

// The mean of a configuration's packet size distribution (traffic.packet_size or
// traffic.packet_sizes with their weights).
double mean_packet_size(const TrafficConfig& f);

}  // namespace ls
