// The generic virtual-channel router, comparable with BookSim 2: what the shared code asks of
// it (host/config/family.hpp).
#include "vc_family.hpp"

#include "../config/family.hpp"
#include "../engine/engine.hpp"
#include "../traffic/completion_peak.hpp"

namespace ls {

std::unique_ptr<Engine> make_vc_engine_cpu(const std::vector<Config>&, const EngineOptions&);
std::unique_ptr<Engine> make_vc_engine_cuda(const std::vector<Config>&, const EngineOptions&);

namespace vc {
namespace {

// Input VC buffers of 32-byte flit records, the belts of flits and credits on its ports, and
// its terminals' share: their belts and per-VC credit counts.
double router_state_bytes(const Config& c, const TopologySize& size) {
  const double P = static_cast<double>(size.ports), V = static_cast<double>(c.vc.vcs);
  const double slots =
      4.0 + static_cast<double>(c.topology.link_delay + c.vc.st_delay + c.vc.sw_alloc_delay);
  const double nodes_per_router =
      static_cast<double>(size.nodes) / static_cast<double>(size.routers);
  return P * V * (32.0 * static_cast<double>(c.vc.vc_depth) + 32) + P * slots * 34 + 64 +
         nodes_per_router * (34 * slots + 12 * V);
}

}  // namespace

const Family& family() {
  static const Family f = [] {
    Family f;
    f.name = "vc";
    f.doc = "the generic virtual-channel router";
    f.section = "router";
    f.keys = section_keys();
    f.hot_regions = true;
    f.finite_workloads = true;
    f.roles = true;
    f.validate = validate;
    f.router_state_bytes = router_state_bytes;
    f.packet_link_cycles = [](const Config& c) {  // a flit a cycle
      return mean_packet_size(c.traffic);
    };
    // 16-19 us a cycle on an H100 (2026-11-27: a tile a router under `launch`, or `block`)
    // against 11-15 M router-cycles/s a core of the 2-core VM.
    f.auto_cuda_routers = 250;
    f.cpu = make_vc_engine_cpu;
#ifdef LOCKSTEP_HAVE_CUDA
    f.cuda = make_vc_engine_cuda;
#endif
    return f;
  }();
  return f;
}

}  // namespace vc
}  // namespace ls
