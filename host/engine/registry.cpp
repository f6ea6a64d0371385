// Router families and backends: the one table that maps a family name to its engine on each
// backend. A new family adds a line here and its own engine files; nothing else changes.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <map>
#include <thread>

#include "../../kernels/common/histogram.hpp"
#include "../config/schema.hpp"
#include "../topology/topology.hpp"
#include "engine.hpp"

namespace ls {

using Factory =
    std::function<std::unique_ptr<Engine>(const std::vector<Config>&, const EngineOptions&)>;

std::unique_ptr<Engine> make_vc_engine_cpu(const std::vector<Config>&, const EngineOptions&);
std::unique_ptr<Engine> make_sconnect_engine_cpu(const std::vector<Config>&, const EngineOptions&);
std::unique_ptr<Engine> make_t3e_engine_cpu(const std::vector<Config>&, const EngineOptions&);
std::unique_ptr<Engine> make_metro_engine_cpu(const std::vector<Config>&, const EngineOptions&);
std::unique_ptr<Engine> make_bgl_engine_cpu(const std::vector<Config>&, const EngineOptions&);
#ifdef LOCKSTEP_HAVE_CUDA
std::unique_ptr<Engine> make_vc_engine_cuda(const std::vector<Config>&, const EngineOptions&);
std::unique_ptr<Engine> make_sconnect_engine_cuda(const std::vector<Config>&, const EngineOptions&);
std::unique_ptr<Engine> make_t3e_engine_cuda(const std::vector<Config>&, const EngineOptions&);
std::unique_ptr<Engine> make_metro_engine_cuda(const std::vector<Config>&, const EngineOptions&);
std::unique_ptr<Engine> make_bgl_engine_cuda(const std::vector<Config>&, const EngineOptions&);
#endif

namespace {

struct Family {
  Factory cpu, cuda;
};

const std::map<std::string, Family>& families() {
  static const std::map<std::string, Family> f = {
#ifdef LOCKSTEP_HAVE_CUDA
      {"vc", {make_vc_engine_cpu, make_vc_engine_cuda}},
      {"sconnect", {make_sconnect_engine_cpu, make_sconnect_engine_cuda}},
      {"t3e", {make_t3e_engine_cpu, make_t3e_engine_cuda}},
      {"metro", {make_metro_engine_cpu, make_metro_engine_cuda}},
      {"bgl", {make_bgl_engine_cpu, make_bgl_engine_cuda}},
#else
      {"vc", {make_vc_engine_cpu, nullptr}},   {"sconnect", {make_sconnect_engine_cpu, nullptr}},
      {"t3e", {make_t3e_engine_cpu, nullptr}}, {"metro", {make_metro_engine_cpu, nullptr}},
      {"bgl", {make_bgl_engine_cpu, nullptr}},
#endif
  };
  return f;
}

// Routers of one instance.
uint64_t routers_of(const Config& c) {
  return topology_size(c.topology).routers;
}

// A network too large for this machine is bad input, not a crash: estimate the state's size
// (flit buffers and belts dominate; 32 bytes a flit) before allocating any of it.
void check_fits_in_memory(const std::vector<Config>& cs) {
  const Config& c = cs[0];
  const TopologySize size = topology_size(c.topology);
  const double nodes = static_cast<double>(size.nodes), routers = static_cast<double>(size.routers),
               P = static_cast<double>(size.ports);
  const double inst = static_cast<double>(cs.size()), V = static_cast<double>(c.router.vcs);
  const double slots = 4.0 + static_cast<double>(c.topology.link_delay + c.router.st_delay +
                                                 c.router.sw_alloc_delay);
  // Blue Gene/L: VC FIFOs of 32-byte packet records, injection FIFOs, belts of ack bytes.
  const double bgl_dirs = P - 1, bgl_vcs = static_cast<double>(c.bgl.dynamic_vcs + 2),
               bgl_ring = static_cast<double>(std::max(c.bgl.vc_bytes, c.bgl.escape_bytes)) / 32,
               bgl_slots = static_cast<double>(c.topology.link_delay + c.bgl.ack_bytes);
  const double router_bytes =
      c.router.family == "bgl"
          ? bgl_dirs * bgl_vcs * (32.0 * bgl_ring + 16) +
                bgl_dirs * bgl_slots * (50 + 2 * bgl_vcs) +
                static_cast<double>((c.bgl.injection_fifos + 2) * c.bgl.injection_fifo_bytes) + 400
          : P * V * (32.0 * c.router.vc_depth + 32) + P * slots * 34 + 64;
  const double bytes =
      inst * (routers * router_bytes + nodes * (4.0 * kHistBins + 208 + 34 * slots + 12 * V +
                                                4.0 * static_cast<double>(c.traffic.source_queue)));
  const double phys =
      static_cast<double>(sysconf(_SC_PHYS_PAGES)) * static_cast<double>(sysconf(_SC_PAGESIZE));
  if (bytes > 0.8 * phys) {
    char msg[300];
    std::snprintf(
        msg, sizeof msg,
        "%.1f GB of state for %zu instance(s) of %.0f routers, and this machine has %.1f GB",
        bytes / 1e9, cs.size(), routers, phys / 1e9);
    throw ConfigError(
        "topology.radix = " + to_string(c.topology.radix) +
        ": allowed only networks (times instances) whose state fits in memory; here " + msg);
  }
}

}  // namespace

bool auto_takes_cuda(uint64_t routers, uint64_t cpu_threads, int64_t routers_per_thread) {
  return routers >= static_cast<uint64_t>(routers_per_thread) * std::max<uint64_t>(1, cpu_threads);
}

std::unique_ptr<Engine> make_engine(const std::vector<Config>& configs, const EngineOptions& opts) {
  if (configs.empty()) throw ConfigError("a batch needs at least one configuration");
  for (const Config& c : configs) validate(c);
  check_same_batch(configs);
  check_fits_in_memory(configs);
  const Family& fam = families().at(configs[0].router.family);
  // A GPU cycle costs about the same for any batch up to ~16,000 routers, so small batches run
  // faster on the CPU: auto takes the GPU only from the measured crossover (docs/performance.md).
  const Config& c = configs[0];
  const uint64_t threads =
      opts.threads > 0 ? static_cast<uint64_t>(opts.threads) : std::thread::hardware_concurrency();
  const bool want_cuda =
      opts.backend == "cuda" ||
      (opts.backend == "auto" && cuda_available() &&
       auto_takes_cuda(routers_of(c) * configs.size(), threads, c.run.auto_cuda_routers));
  if (opts.backend == "cuda" && !cuda_available())
    throw ConfigError(
        "run.backend = \"cuda\": allowed only where a CUDA device is present (none "
        "found" +
        std::string(fam.cuda ? "" : "; this build has no CUDA backend") + "); use auto or cpu");
  if (opts.backend != "auto" && opts.backend != "cpu" && opts.backend != "cuda")
    throw ConfigError("run.backend = \"" + opts.backend + "\": allowed auto, cpu, cuda");
  return want_cuda ? fam.cuda(configs, opts) : fam.cpu(configs, opts);
}

}  // namespace ls
