// A batch of independent network instances advanced together on one backend. The engine of a
// router family implements this interface; the host drives it (step, run, read state) without
// knowing which family or backend is underneath.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "../config/config.hpp"

namespace ls {

// An invariant broken in debug mode, or a deadlock reported by the watchdog.
struct SimulationError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// run() stopped because EngineOptions::interrupted said so (Ctrl-C in Python).
struct Interrupted : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct InstanceResult {
  double offered = 0, accepted = 0, accepted_min = 0;
  double latency_mean = 0, latency_p50 = 0, latency_p99 = 0, latency_max = 0;
  double network_latency_mean = 0, hops_mean = 0;
  uint64_t packets = 0;
  uint64_t refused = 0;  // packets bounded source queues could not take in the window
  uint64_t lost = 0;     // packets created in the window that the network dropped
  bool saturated = false;
  std::string saturation_reason;
  uint64_t cycles = 0;
  uint64_t warmup_cycles = 0;
  bool warmup_converged = true;  // false when warmup_auto gave up after 20 periods
  double wall_s = 0;
  std::string backend;
  std::string schedule;  // Engine::schedule()
  double link_util_mean = 0, link_util_max = 0;
  std::vector<double> link_utilization;  // [router, port]: flits per cycle
  std::vector<double> vc_utilization;    // [router, port, vc]: flits per cycle
  // A family's results beyond these (name, value): extra columns of a sweep's table.
  std::vector<std::pair<std::string, double>> extra;
};

// A state array copied to the host, for inspection and teaching.
struct HostArray {
  char dtype;  // numpy kind: 'u' unsigned, 'i' signed
  uint32_t itemsize;
  std::vector<uint64_t> shape;
  std::vector<uint8_t> bytes;
};

struct EngineOptions {
  std::string backend = "auto";  // auto | cpu | cuda
  int threads = 0;               // CPU threads, 0: all cores
  bool debug = false;
  double memory_limit = 0;  // bytes of state allowed; 0: 80% of this machine's physical memory
  // Asked between run()'s chunks of at most 1,024 cycles: true stops the run (Interrupted).
  std::function<bool()> interrupted;
};

class Engine {
 public:
  virtual ~Engine() = default;
  virtual void step(uint64_t cycles) = 0;
  // The deadlock watchdog (run.watchdog cycles, 0 off): throws SimulationError naming where
  // packets are stuck if flits are in flight and none has moved for that long. run() checks it
  // as it goes; a caller that steps checks it when it likes (the Python Simulator after steps).
  virtual void check_deadlock() = 0;
  // Warm-up, measurement window and drain from the current cycle; one result per instance.
  virtual std::vector<InstanceResult> run() = 0;
  virtual uint64_t cycle() const = 0;
  // Bytes of every state array the engine allocated on its backend (what
  // estimated_state_bytes predicts before allocating).
  virtual uint64_t state_bytes() const = 0;
  virtual uint32_t instances() const = 0;
  virtual const char* backend() const = 0;
  // How the backend runs the cycles (run.schedule's and run.lanes' choice, `auto` resolved):
  // "stages" (the CPU's own), "launch", "block" or "grid", with ", tile" where an element runs on
  // a tile of lanes; "debug" (a step a cycle, its checks after each) and "phases" (vc: a step a
  // phase).
  virtual std::string schedule() const = 0;
  virtual std::vector<std::string> state_names() const = 0;
  virtual HostArray state(const std::string& name) const = 0;
  // Overwrites a state array (same shape and type as state(name) returns): for teaching
  // ("what if this buffer were full?") and for tests that must see the invariant checks fire.
  virtual void set_state(const std::string& name, const HostArray& a) = 0;
};

// Validates the configs (one per instance), checks they can share a batch, and builds the
// engine of their router family on the backend chosen by opts.backend.
std::unique_ptr<Engine> make_engine(const std::vector<Config>& configs, const EngineOptions& opts);
bool cuda_available();
size_t cuda_memory_bytes();  // the device's memory, 0 where there is none
// Bytes of state a batch of these configurations will allocate (estimated before allocating).
uint64_t estimated_state_bytes(const std::vector<Config>& configs);
// The bytes of state opts allow (EngineOptions::memory_limit, or 80% of the memory the backend
// allocates from: the machine's, or on CUDA the GPU's), and the error for a batch whose state
// (`bytes`, estimated or allocated so far) would pass it.
double state_memory_limit(const EngineOptions& opts, bool cuda);
ConfigError state_too_large(const std::vector<Config>& configs, double bytes, double limit,
                            bool cuda);
// run.backend = "auto" with a GPU present: whether the GPU is the faster backend for a batch of
// `routers` routers in all, against `cpu_threads` CPU threads (run.auto_cuda_routers per thread).
bool auto_takes_cuda(uint64_t routers, uint64_t cpu_threads, int64_t routers_per_thread);
// run.auto_cuda_routers, or where it is -1 (the default) the family's measured crossover.
int64_t auto_cuda_routers(const Config& c);

}  // namespace ls
