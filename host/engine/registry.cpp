// Router families and backends: the one table that maps a family name to its engine on each
// backend. A new family adds a line here and its own engine files; nothing else changes.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <map>
#include <thread>

#include "../../kernels/common/histogram.hpp"
#include "../../kernels/sconnect/sconnect_state.hpp"
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
#define LS_CUDA_FACTORY(f) f
#else
#define LS_CUDA_FACTORY(f) nullptr  // this build has no CUDA backend
#endif

namespace {

// auto_cuda_routers: the routers per CPU thread from which its batches run faster on the GPU,
// measured (docs/performance.md, "Every family on the H100"): an H100's cycle time against one
// core of the 2-core VM, e.g. the T3E's 79 us against 2.8 M router-cycles/s, ~220 (its GPU
// cycle measured before the CPU kernel's 2026-11-25 rework, which the GPU runs too).
struct Family {
  Factory cpu, cuda;
  int64_t auto_cuda_routers;
};

const std::map<std::string, Family>& families() {
  static const std::map<std::string, Family> f = {
      {"vc", {make_vc_engine_cpu, LS_CUDA_FACTORY(make_vc_engine_cuda), 400}},
      {"sconnect", {make_sconnect_engine_cpu, LS_CUDA_FACTORY(make_sconnect_engine_cuda), 200}},
      {"t3e", {make_t3e_engine_cpu, LS_CUDA_FACTORY(make_t3e_engine_cuda), 200}},
      {"metro", {make_metro_engine_cpu, LS_CUDA_FACTORY(make_metro_engine_cuda), 250}},
      {"bgl", {make_bgl_engine_cpu, LS_CUDA_FACTORY(make_bgl_engine_cuda), 500}},
  };
  return f;
}

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

// Bytes per router of each family's state, from what its engine allocates: buffers of 32-byte
// records and belts dominate, and S-Connect's routing tables grow with the nodes. Checked
// against the engines' allocations (test_config.cpp: StateSizeEstimateCoversWhatEachFamily...).
namespace {

double router_state_bytes(const Config& c, const TopologySize& size) {
  const double P = static_cast<double>(size.ports), nodes = static_cast<double>(size.nodes);
  const std::string& f = c.router.family;
  if (f == "bgl") {  // VC FIFOs of packet records, injection FIFOs, belts of ack bytes
    const double dirs = P - 1, vcs = static_cast<double>(c.bgl.dynamic_vcs + 2),
                 ring = static_cast<double>(std::max(c.bgl.vc_bytes, c.bgl.escape_bytes)) / 32,
                 slots = static_cast<double>(c.topology.link_delay + c.bgl.ack_bytes);
    return dirs * vcs * (32.0 * ring + 16) + dirs * slots * (50 + 2 * vcs) +
           static_cast<double>((c.bgl.injection_fifos + 2) * c.bgl.injection_fifo_bytes) + 400;
  }
  if (f == "t3e") {  // 7 ports of 4 + 1 VC buffers; belts of flits, credits, barrier and special
    const double depth = static_cast<double>(4 * c.t3e.buffer_depth + c.t3e.adaptive_depth),
                 slots = static_cast<double>(std::max({c.t3e.end_point, c.t3e.fall_through_turn,
                                                       c.t3e.credit_delay, c.t3e.barrier_hop}) +
                                             1);
    return 7 * depth * 32 + slots * 8 * 52 + 4 * std::min(nodes, 544.0) +
           24 * static_cast<double>(c.t3e.response_queue) + 2048;
  }
  const double slots = 4.0 + static_cast<double>(c.topology.link_delay + c.router.st_delay +
                                                 c.router.sw_alloc_delay);
  if (f == "sconnect") {  // the buffer pool, belts of messages, a routing table row per node,
    // and its share of the hosts' control requests and replies (control.hpp)
    const double control =
        4.0 * sconnect::kControlQueue * (sconnect::kRequestWords + sconnect::kReplyWords);
    return 48 * static_cast<double>(c.sconnect.buffers) + P * slots * 40 + 5 * nodes + P * 64 +
           512 + control * nodes / static_cast<double>(size.routers);
  }
  if (f == "metro") return P * slots * 16 + P * 40 + 64;  // belts of words, a port's state
  const double V = static_cast<double>(c.router.vcs);
  return P * V * (32.0 * c.router.vc_depth + 32) + P * slots * 34 + 64;
}

}  // namespace

uint64_t estimated_state_bytes(const std::vector<Config>& cs) {
  const Config& c = cs[0];
  const TopologySize size = topology_size(c.topology);
  const double nodes = static_cast<double>(size.nodes), routers = static_cast<double>(size.routers);
  const double inst = static_cast<double>(cs.size()), V = static_cast<double>(c.router.vcs);
  const double slots = 4.0 + static_cast<double>(c.topology.link_delay + c.router.st_delay +
                                                 c.router.sw_alloc_delay);
  return static_cast<uint64_t>(inst *
                               (routers * router_state_bytes(c, size) +
                                nodes * (4.0 * kHistBins + 208 + 34 * slots + 12 * V +
                                         4.0 * static_cast<double>(c.traffic.source_queue))));
}

int64_t auto_cuda_routers(const Config& c) {
  return c.run.auto_cuda_routers >= 0 ? c.run.auto_cuda_routers
                                      : families().at(c.router.family).auto_cuda_routers;
}

bool auto_takes_cuda(uint64_t routers, uint64_t cpu_threads, int64_t routers_per_thread) {
  return routers >= static_cast<uint64_t>(routers_per_thread) * std::max<uint64_t>(1, cpu_threads);
}

std::unique_ptr<Engine> make_engine(const std::vector<Config>& configs, const EngineOptions& opts) {
  if (configs.empty()) throw ConfigError("a batch needs at least one configuration");
  for (const Config& c : configs) validate(c);
  check_same_batch(configs);
  const Family& fam = families().at(configs[0].router.family);
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
