// Router-cycles per second of the standard networks at about half their saturation load, on
// the CPU backend with 1 and 2 threads (and CUDA when present). Prints a table; asserts nothing.
//   build/lockstep_bench [cycles]
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
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
  std::printf("%-16s %-8s %8s %10s %18s\n", "network", "backend", "threads", "routers",
              "router-cycles/s");
  for (const Case& c : cases)
    for (auto& [backend, threads] : runs) {
      uint64_t routers;
      const uint64_t n = c.radix.size() == 3 && c.radix[0] == 32 ? cycles / 20 + 1 : cycles;
      double rate = bench(c, backend, threads, n, &routers);
      std::printf("%-16s %-8s %8d %10llu %18.3e\n", c.name, backend.c_str(), threads,
                  static_cast<unsigned long long>(routers), rate);
      std::fflush(stdout);
    }
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  std::printf("peak RSS of the whole benchmark: %.1f MiB\n", ru.ru_maxrss / 1024.0);
}
