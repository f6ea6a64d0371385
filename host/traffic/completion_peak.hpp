// The workloads that end (an alltoall, a gather into a hot region): how many packets they send
// and the least time they can take on a torus, the load of their busiest links. The Blue Gene/L
// paper ("Alltoall"; "Hot region") states their results as a percentage of this peak.
#pragma once
#include <cstdint>

#include "../config/config.hpp"

namespace ls {

// Whether instance `c`'s traffic is a workload that ends (traffic.pattern alltoall or gather):
// its packets are created from cycle 0 and the run ends at the last delivery.
bool finite_workload(const Config& c);

// The packets such a workload sends on a network of `nodes`.
uint64_t workload_packets(const Config& c, uint32_t nodes);

// Cycles the busiest links of instance `c`'s torus need to carry its alltoall, where each packet
// holds a link for `link_cycles` cycles (its flits, or Blue Gene/L's bytes with every overhead)
// and minimal routes split evenly between the two ways round (half-way ties half and half);
// 0 where there is no such bound here (a topology other than a torus, or link_cycles 0).
double alltoall_peak_cycles(const Config& c, double link_cycles);

// Cycles the links entering the hot region need to carry a gather into it: every packet crosses
// one of them, so its packets' link cycles spread evenly over them (a box of extent r < k in a
// dimension has two faces of region / r links each there); 0 off a torus or with link_cycles 0.
double gather_peak_cycles(const Config& c, double link_cycles);

// The peak of whichever workload `c` is, a packet holding a link as long as its family says
// (Family::packet_link_cycles); 0 where there is none.
double completion_peak_cycles(const Config& c);

// The mean of a configuration's packet size distribution (traffic.packet_size or
// traffic.packet_sizes with their weights, one a size, with a positive finite sum: validate()).
double mean_packet_size(const TrafficConfig& f);

}  // namespace ls
