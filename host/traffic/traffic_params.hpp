// The traffic of each instance as the kernels' sources read it (kernels/common/traffic.hpp),
// built once on the host for every router family.
#pragma once
#include <cstdint>
#include <vector>

#include "../../kernels/common/traffic.hpp"
#include "../config/config.hpp"

namespace ls {

// The instances' traffic on networks of `nodes` terminals (the alltoall's share per source).
std::vector<TrafficParams> traffic_params(const std::vector<Config>& cs, uint32_t nodes);
// Sets the distribution packets draw their size entry from (sizes[i] with weight[i]); returns
// the mean size.
double set_sizes(TrafficParams& p, const std::vector<uint32_t>& sizes,
                 const std::vector<double>& weights);
// Sets a source's packets per cycle (while on) and the Bernoulli table it is drawn from.
void set_rate(TrafficParams& p, double rate);
// The hot region's extent in dimension d (traffic.hot_region, or the lower half of the ring),
// and its nodes (hotregion and gather patterns).
int64_t hot_region_extent(const Config& c, size_t d);
uint64_t hot_region_nodes(const Config& c);
// [inst, node]: a random permutation per instance (used by the randperm pattern).
std::vector<uint32_t> random_permutations(const std::vector<Config>& cs, uint32_t nodes);

}  // namespace ls
