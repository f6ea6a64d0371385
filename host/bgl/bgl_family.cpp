// IBM's Blue Gene/L torus router (seed 001): what the shared code asks of it
// (host/config/family.hpp).
#include "bgl_family.hpp"

#include <algorithm>

#include "../config/family.hpp"
#include "../engine/engine.hpp"
#include "../traffic/completion_peak.hpp"

namespace ls {

std::unique_ptr<Engine> make_bgl_engine_cpu(const std::vector<Config>&, const EngineOptions&);
std::unique_ptr<Engine> make_bgl_engine_cuda(const std::vector<Config>&, const EngineOptions&);

namespace bgl {
namespace {

// VC FIFOs of packet records, injection FIFOs, belts of ack bytes.
double router_state_bytes(const Config& c, const TopologySize& size) {
  const auto& g = c.bgl;
  const double dirs = static_cast<double>(size.ports) - 1,
               vcs = static_cast<double>(g.dynamic_vcs + 2),
               ring = static_cast<double>(std::max(g.vc_bytes, g.escape_bytes)) / 32,
               slots = static_cast<double>(c.topology.link_delay + g.ack_bytes);
  return dirs * vcs * (32.0 * ring + 16) + dirs * slots * (50 + 2 * vcs) +
         static_cast<double>((g.injection_fifos + 2) * g.injection_fifo_bytes) + 400;
}

}  // namespace

const Family& family() {
  static const Family f = [] {
    Family f;
    f.name = "bgl";
    f.doc =
        "IBM's Blue Gene/L torus router (virtual cut-through with tokens in 32-byte chunks, "
        "hint bits, dynamic VCs with a bubble escape, JSQ/SLQ arbitration; one cycle is one "
        "byte time; [bgl])";
    f.section = "bgl";
    f.keys = section_keys();
    f.notes = {{"traffic.pattern",
                "gather is the paper's hot-spot and hot-region measurement, linefill and "
                "planefill its row and plane broadcasts (the deposit bit)"}};
    f.broadcasts = true;
    f.hot_regions = true;
    f.finite_workloads = true;
    f.validate = validate;
    f.router_state_bytes = router_state_bytes;
    // The paper's count: a packet's bytes, its trailer and gap, and one token-ack or ack (270
    // for 256 bytes).
    f.packet_link_cycles = [](const Config& c) {
      return mean_packet_size(c.traffic) +
             static_cast<double>(c.bgl.trailer_bytes + c.bgl.gap_bytes + c.bgl.ack_bytes);
    };
    f.auto_cuda_routers = 300;  // 28.5 us a cycle on an H100 (tiles) against 10.7 M
    f.cpu = make_bgl_engine_cpu;
#ifdef LOCKSTEP_HAVE_CUDA
    f.cuda = make_bgl_engine_cuda;
#endif
    return f;
  }();
  return f;
}

}  // namespace bgl
}  // namespace ls
