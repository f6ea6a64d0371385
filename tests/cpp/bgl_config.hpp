// The Blue Gene/L tests' network: a torus of 256-byte packets on links of four byte times, with
// a measurement window and a watchdog sized for byte-time cycles.
#pragma once
#include "helpers.hpp"

namespace ls::test {

inline Config bgl(std::vector<int64_t> radix, double offered, int64_t bytes = 256) {
  Config c = network("torus", std::move(radix), offered);
  c.router.family = "bgl";
  c.topology.link_delay = 4;
  c.traffic.packet_size = bytes;
  c.run.warmup = 2000;
  c.run.measure = 6000;
  c.run.drain = 40000;
  c.run.watchdog = 20000;
  c.run.latency_threshold = 1e9;
  return c;
}

}  // namespace ls::test
