// The configuration of a benchmark network, shared by lockstep_bench and lockstep_step so that
// counts taken with one describe the networks timed by the other.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "host/config/config.hpp"

namespace ls {

// Defaults everywhere but the network and load; torus links of 2 cycles, as BookSim's reference
// runs (tests/data/booksim).
inline Config bench_network(const std::string& kind, const std::vector<int64_t>& radix,
                            double offered) {
  Config c;
  c.topology.kind = kind;
  c.topology.radix = radix;
  c.topology.link_delay = kind == "torus" ? 2 : 1;
  c.traffic.offered = offered;
  return c;
}

}  // namespace ls
