// Router-cycles per second of the standard networks at about half their saturation load, on
// the CPU backend with 1 and 2 threads (and CUDA when present), with the ratio to BookSim's
// speed on one core where tests/data/booksim/speed.csv has the same network and load. Prints a
// table; asserts nothing.
//   build/lockstep_bench [cycles]
#include <sys/resource.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "host/engine/engine.hpp"

using namespace ls;

namespace {

struct Case {
  const char* name;
  std::string kind;
  std::vector<int64_t> radix;
  double offered;
  int batch;
};

double bench(const Case& c, const std::string& backend, int threads, uint64_t cycles,
             uint64_t* routers) {
  Config cfg;
  cfg.topology.kind = c.kind;
  cfg.topology.radix = c.radix;
  cfg.topology.link_delay = c.kind == "torus" ? 2 : 1;  // as BookSim's reference runs
  cfg.traffic.offered = c.offered;
  std::vector<Config> cs(c.batch, cfg);
  for (int i = 0; i < c.batch; ++i) cs[i].run.seed = i + 1;
  EngineOptions o;
  o.backend = backend;
  o.threads = threads;
  auto e = make_engine(cs, o);
  e->step(1000);
  const auto t0 = std::chrono::steady_clock::now();
  e->step(cycles);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  *routers = 1;
  for (int64_t k : c.radix) *routers *= k;
  *routers *= c.batch;
  return static_cast<double>(*routers) * cycles / wall;
}

// BookSim 2's router-cycles per second on one core for a network ("8x8 mesh") with 1-flit
// packets at this offered load, from the reference data; 0 when there is none.
double booksim_rate(const std::string& network, double offered) {
  std::ifstream in(std::string(LOCKSTEP_SOURCE_DIR) + "/tests/data/booksim/speed.csv");
  std::string line, cell;
  std::getline(in, line);
  std::vector<std::string> header;
  for (std::stringstream h(line); std::getline(h, cell, ',');) header.push_back(cell);
  const auto column = [&](const char* name) {
    for (size_t i = 0; i < header.size(); ++i)
      if (header[i] == name) return i;
    return header.size();
  };
  const size_t topo = column("topology"), size = column("packet_size"),
               rate = column("injection_rate"), speed = column("router_cycles_per_s");
  while (std::getline(in, line)) {
    std::vector<std::string> row;
    for (std::stringstream r(line); std::getline(r, cell, ',');) row.push_back(cell);
    if (row.size() < header.size()) continue;
    if (row[topo] == network && row[size] == "1" &&
        std::fabs(std::atof(row[rate].c_str()) - offered) < 1e-9)
      return std::atof(row[speed].c_str());
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const uint64_t cycles = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 5000;
  // The table of `lockstep bench` (bindings/lockstep/cli.py): about half of saturation, the
  // 8x8 mesh and the 8x8x8 torus being BookSim's reference configurations C1 and C6.
  const std::vector<Case> cases = {{"8x8 mesh", "mesh", {8, 8}, 0.15, 1},
                                   {"16x16 torus", "torus", {16, 16}, 0.0625, 1},
                                   {"8x8x8 torus", "torus", {8, 8, 8}, 0.125, 1},
                                   {"32x32x32 torus", "torus", {32, 32, 32}, 0.03125, 1},
                                   {"32 x 8x8 mesh", "mesh", {8, 8}, 0.15, 32}};
  std::vector<std::pair<std::string, int>> runs = {{"cpu", 1}, {"cpu", 2}};
  if (cuda_available()) runs.push_back({"cuda", 0});
  std::printf("%-16s %-8s %8s %10s %18s %12s\n", "network", "backend", "threads", "routers",
              "router-cycles/s", "x BookSim");
  for (const Case& c : cases)
    for (auto& [backend, threads] : runs) {
      uint64_t routers;
      const uint64_t n = c.radix.size() == 3 && c.radix[0] == 32 ? cycles / 20 + 1 : cycles;
      double rate = bench(c, backend, threads, n, &routers);
      const double ref = c.batch == 1 ? booksim_rate(c.name, c.offered) : 0;
      char ratio[32] = "-";  // per core: BookSim's figures are one core's
      if (ref > 0 && backend == "cpu" && threads == 1)
        std::snprintf(ratio, sizeof ratio, "%.1f", rate / ref);
      std::printf("%-16s %-8s %8d %10llu %18.3e %12s\n", c.name, backend.c_str(), threads,
                  static_cast<unsigned long long>(routers), rate, ratio);
      std::fflush(stdout);
    }
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  std::printf("peak RSS of the whole benchmark: %.1f MiB\n", ru.ru_maxrss / 1024.0);
}
