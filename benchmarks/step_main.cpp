// Steps one network on one CPU thread and prints nothing: a program for `perf stat`, callgrind
// or `time` to count. scripts/router_cycle_counts.sh turns two runs of it into counts per
// router-cycle.
//   build/lockstep_step KIND RADIX LOAD CYCLES [FAMILY]
//   e.g. build/lockstep_step mesh 8x8 0.15 20000, build/lockstep_step torus 8x8x8 0.35 1500 t3e
// The networks are configured as lockstep_bench's (bench_network.hpp); FAMILY is router.family
// (vc when left out), the rest of that family's configuration its defaults (Blue Gene/L's
// packets, sized in bytes, full-sized: 256).
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "bench_network.hpp"
#include "host/engine/engine.hpp"

using namespace ls;

int main(int argc, char** argv) {
  if (argc != 5 && argc != 6) {
    std::fprintf(stderr, "usage: %s KIND RADIX LOAD CYCLES [FAMILY] (e.g. mesh 8x8 0.15 20000)\n",
                 argv[0]);
    return 2;
  }
  std::vector<int64_t> radix;
  std::stringstream dims(argv[2]);
  for (std::string k; std::getline(dims, k, 'x');) radix.push_back(std::atoll(k.c_str()));
  Config c = bench_network(argv[1], radix, std::atof(argv[3]));
  if (argc == 6) c.router.family = argv[5];
  if (c.router.family == "bgl") c.traffic.packet_size = 256;
  EngineOptions o;
  o.backend = "cpu";
  o.threads = 1;
  try {
    make_engine({c}, o)->step(std::strtoull(argv[4], nullptr, 10));
  } catch (const std::exception& e) {  // bad input: the configuration's own message
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
}
