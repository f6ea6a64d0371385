// The Cray T3E's torus router (seeds 000 and 002): what the shared code asks of it
// (host/config/family.hpp).
#include "t3e_family.hpp"

#include <algorithm>

#include "../config/family.hpp"
#include "../engine/engine.hpp"
#include "packet_types.hpp"

namespace ls {

std::unique_ptr<Engine> make_t3e_engine_cpu(const std::vector<Config>&, const EngineOptions&);
std::unique_ptr<Engine> make_t3e_engine_cuda(const std::vector<Config>&, const EngineOptions&);

namespace t3e {
namespace {

// 7 ports of 4 + 1 VC buffers; belts of flits, credits, barrier and special packets.
double router_state_bytes(const Config& c, const TopologySize& size) {
  const auto& e = c.t3e;
  const double depth = static_cast<double>(4 * e.buffer_depth + e.adaptive_depth),
               slots = static_cast<double>(
                   std::max({e.end_point, e.fall_through_turn, e.credit_delay, e.barrier_hop}) + 1);
  return 7 * depth * 32 + slots * 8 * 52 + 4 * std::min(static_cast<double>(size.nodes), 544.0) +
         24 * static_cast<double>(e.response_queue) + 2048;
}

// Every request brings its response: the mix's mean flits of both.
double packet_flits(const Config& c) {
  return mean_flits(packet_mix(c.t3e.packet_type, c.t3e.packet_mix));
}

}  // namespace

const Family& family() {
  static const Family f = [] {
    Family f;
    f.name = "t3e";
    f.doc =
        "the Cray T3E's 3-D torus router (direction-order and adaptive routing, datelines, "
        "requests and responses; [t3e])";
    f.section = "t3e";
    f.keys = section_keys();
    f.min_radix = 1;        // a machine may be one node thick
    f.own_patterns = true;  // over each partition's PEs
    f.roles = true;         // the PE (router_cycle.hpp)
    f.packet_flits = packet_flits;
    f.validate = validate;
    f.router_state_bytes = router_state_bytes;
    // 22.6 us a cycle on an H100 (2026-11-27, a tile a PE under `launch`) against 2.5-2.8 M
    // router-cycles/s a core of the 2-core VM.
    f.auto_cuda_routers = 60;
    f.cpu = make_t3e_engine_cpu;
#ifdef LOCKSTEP_HAVE_CUDA
    f.cuda = make_t3e_engine_cuda;
#endif
    return f;
  }();
  return f;
}

}  // namespace t3e
}  // namespace ls
