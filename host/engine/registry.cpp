// Engines on each backend: a family's engine (its record's factories, host/config/family.hpp)
// on the CPU or the GPU, the automatic choice between them, and the check that a batch's state
// fits in memory before anything is allocated.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <thread>

#include "../../kernels/common/histogram.hpp"
#include "../config/family.hpp"
#include "../config/schema.hpp"
#include "../topology/topology.hpp"
#include "engine.hpp"

namespace ls {
namespace {

// Routers of one instance.
uint64_t routers_of(const Config& c) {
  return topology_size(c.topology).routers;
}

}  // namespace

double state_memory_limit(const EngineOptions& opts, bool cuda) {
  if (opts.memory_limit > 0) return opts.memory_limit;
  const double device = cuda ? static_cast<double>(cuda_memory_bytes()) : 0.0;
  return 0.8 * (device > 0 ? device
                           : static_cast<double>(sysconf(_SC_PHYS_PAGES)) *
                                 static_cast<double>(sysconf(_SC_PAGESIZE)));
}

// A network too large for this machine is bad input, not a crash: make_engine checks the
// estimate before building anything, and BatchEngine each array before allocating it.
ConfigError state_too_large(const std::vector<Config>& cs, double bytes, double limit, bool cuda) {
  const Config& c = cs[0];
  // The limit is 80% of the backend's memory unless the engine's options set another.
  const bool share = limit == state_memory_limit(EngineOptions{}, cuda);
  char msg[300];
  std::snprintf(msg, sizeof msg,
                "%.2f GB of state for %zu instance(s) of %llu routers, over the %.2f GB allowed "
                "(%s%s)",
                bytes / 1e9, cs.size(), static_cast<unsigned long long>(routers_of(c)), limit / 1e9,
                share ? "80% of " : "the engine's memory_limit",
                share ? (cuda ? "the GPU's memory" : "this machine's memory") : "");
  return ConfigError("topology.radix = " + to_string(c.topology.radix) +
                     ": allowed only networks (times instances) whose state fits in memory; "
                     "here " +
                     msg);
}

// Each family's routers (Family::router_state_bytes, checked against the engines' allocations:
// test_config.cpp, StateSizeEstimateCoversWhatEachFamilyAllocates) and every family's terminals:
// latency histograms, counters, source queues.
uint64_t estimated_state_bytes(const std::vector<Config>& cs) {
  const Config& c = cs[0];
  const TopologySize size = topology_size(c.topology);
  const double nodes = static_cast<double>(size.nodes), routers = static_cast<double>(size.routers);
  const double inst = static_cast<double>(cs.size());
  return static_cast<uint64_t>(
      inst * (routers * family(c.router.family).router_state_bytes(c, size) +
              nodes * (4.0 * kHistBins + 208 + 4.0 * static_cast<double>(c.traffic.source_queue))));
}

int64_t auto_cuda_routers(const Config& c) {
  return c.run.auto_cuda_routers >= 0 ? c.run.auto_cuda_routers
                                      : family(c.router.family).auto_cuda_routers;
}

bool auto_takes_cuda(uint64_t routers, uint64_t cpu_threads, int64_t routers_per_thread) {
  return routers >= static_cast<uint64_t>(routers_per_thread) * std::max<uint64_t>(1, cpu_threads);
}

std::unique_ptr<Engine> make_engine(const std::vector<Config>& configs, const EngineOptions& opts) {
  if (configs.empty()) throw ConfigError("a batch needs at least one configuration");
  for (const Config& c : configs) validate(c);
  check_same_batch(configs);
  const Family& fam = family(configs[0].router.family);
  // A GPU cycle costs about the same for any batch up to ~16,000 routers, so small batches run
  // faster on the CPU: auto takes the GPU only from the measured crossover (docs/performance.md).
  const Config& c = configs[0];
  const uint64_t threads =
      opts.threads > 0 ? static_cast<uint64_t>(opts.threads) : std::thread::hardware_concurrency();
  const bool want_cuda = opts.backend == "cuda" || (opts.backend == "auto" && cuda_available() &&
                                                    auto_takes_cuda(routers_of(c) * configs.size(),
                                                                    threads, auto_cuda_routers(c)));
  if (opts.backend == "cuda" && !cuda_available())
    throw ConfigError(
        "run.backend = \"cuda\": allowed only where a CUDA device is present (none "
        "found" +
        std::string(fam.cuda ? "" : "; this build has no CUDA backend") + "); use auto or cpu");
  if (opts.backend != "auto" && opts.backend != "cpu" && opts.backend != "cuda")
    throw ConfigError("run.backend = \"" + opts.backend + "\": allowed auto, cpu, cuda");
  const double limit = state_memory_limit(opts, want_cuda),
               bytes = static_cast<double>(estimated_state_bytes(configs));
  if (bytes > limit) throw state_too_large(configs, bytes, limit, want_cuda);
  return want_cuda ? fam.cuda(configs, opts) : fam.cpu(configs, opts);
}

}  // namespace ls
