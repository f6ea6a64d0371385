// Router-cycles per second of the standard networks at about half their saturation load, on
// the CPU backend with 1 and 2 threads (and CUDA when present), with the ratio to BookSim's
// speed on one core where tests/data/booksim/speed.csv has the same network and load. Prints a
// table; asserts nothing. Each figure is the median of `reps` timed stretches of `cycles` cycles
// after a warm-up (wall-clock time on a shared machine drifts by 10-30%), with their spread.
//   build/lockstep_bench [cycles] [reps]
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "bench_network.hpp"
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

// Router-cycles per second of `reps` consecutive stretches of `cycles` cycles, after 1000.
std::vector<double> bench(const Case& c, const std::string& backend, int threads, uint64_t cycles,
                          int reps, uint64_t* routers) {
  std::vector<Config> cs(c.batch, bench_network(c.kind, c.radix, c.offered));
  for (int i = 0; i < c.batch; ++i) cs[i].run.seed = i + 1;
  EngineOptions o;
  o.backend = backend;
  o.threads = threads;
  auto e = make_engine(cs, o);
  *routers = 1;
  for (int64_t k : c.radix) *routers *= k;
  *routers *= c.batch;
  e->step(1000);
  std::vector<double> rates;
  for (int r = 0; r < reps; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    e->step(cycles);
    const auto t1 = std::chrono::steady_clock::now();
    rates.push_back(static_cast<double>(*routers) * cycles /
                    std::chrono::duration<double>(t1 - t0).count());
  }
  std::sort(rates.begin(), rates.end());
  return rates;
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
  const int reps = argc > 2 ? std::max(1, std::atoi(argv[2])) : 3;
  // The vc rows of `lockstep bench` (bindings/lockstep/vc/bench.py): about half of saturation, the
  // 8x8 mesh and the 8x8x8 torus being BookSim's reference configurations C1 and C6.
  const std::vector<Case> cases = {{"8x8 mesh", "mesh", {8, 8}, 0.15, 1},
                                   {"16x16 torus", "torus", {16, 16}, 0.0625, 1},
                                   {"8x8x8 torus", "torus", {8, 8, 8}, 0.125, 1},
                                   {"32x32x32 torus", "torus", {32, 32, 32}, 0.03125, 1},
                                   {"32 x 8x8 mesh", "mesh", {8, 8}, 0.15, 32}};
  std::vector<std::pair<std::string, int>> runs = {{"cpu", 1}, {"cpu", 2}};
  if (cuda_available()) runs.push_back({"cuda", 0});
  std::printf("%-16s %-8s %8s %10s %18s %8s %12s\n", "network", "backend", "threads", "routers",
              "router-cycles/s", "spread", "x BookSim");
  for (const Case& c : cases)
    for (auto& [backend, threads] : runs) {
      uint64_t routers;
      const uint64_t n = c.radix.size() == 3 && c.radix[0] == 32 ? cycles / 20 + 1 : cycles;
      const std::vector<double> rates = bench(c, backend, threads, n, reps, &routers);
      const double rate = rates[rates.size() / 2];  // the median (upper one of an even count)
      const double ref = c.batch == 1 ? booksim_rate(c.name, c.offered) : 0;
      char ratio[32] = "-";  // per core: BookSim's figures are one core's
      if (ref > 0 && backend == "cpu" && threads == 1)
        std::snprintf(ratio, sizeof ratio, "%.1f", rate / ref);
      char spread[32];  // (max - min) / median of the stretches
      std::snprintf(spread, sizeof spread, "%.0f%%", 100 * (rates.back() - rates.front()) / rate);
      std::printf("%-16s %-8s %8d %10llu %18.3e %8s %12s\n", c.name, backend.c_str(), threads,
                  static_cast<unsigned long long>(routers), rate, spread, ratio);
      std::fflush(stdout);
    }
  std::printf("medians of %d stretches of %llu cycles (32x32x32: %llu) after 1000\n", reps,
              static_cast<unsigned long long>(cycles),
              static_cast<unsigned long long>(cycles / 20 + 1));
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  std::printf("peak RSS of the whole benchmark: %.1f MiB\n", ru.ru_maxrss / 1024.0);
}
