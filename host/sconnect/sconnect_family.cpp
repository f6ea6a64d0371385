// Sun's S-Connect (seed 004): what the shared code asks of it (host/config/family.hpp).
#include "sconnect_family.hpp"

#include <algorithm>

#include "../../kernels/sconnect/sconnect_state.hpp"
#include "../config/family.hpp"
#include "../engine/engine.hpp"
#include "sconnect_setup.hpp"

namespace ls {

std::unique_ptr<Engine> make_sconnect_engine_cpu(const std::vector<Config>&, const EngineOptions&);
std::unique_ptr<Engine> make_sconnect_engine_cuda(const std::vector<Config>&, const EngineOptions&);

namespace sconnect {
namespace {

// The buffer pool, belts of messages, a routing table row per node, and its share of the
// hosts' control requests and replies (control.hpp).
double router_state_bytes(const Config& c, const TopologySize& size) {
  const double P = static_cast<double>(size.ports), nodes = static_cast<double>(size.nodes);
  const double slots = 6.0 + static_cast<double>(c.topology.link_delay);
  const double control = 4.0 * kControlQueue * (kRequestWords + kReplyWords);
  const double buffers = pool_buffers(static_cast<uint32_t>(c.sconnect.buffers),
                                      c.sconnect.unacknowledged == "channel", size.ports - 1,
                                      static_cast<uint32_t>(c.topology.link_delay),
                                      static_cast<uint32_t>(sconnect_reserve(c.sconnect)),
                                      static_cast<uint32_t>(c.sconnect.priorities));
  return 48 * buffers + P * slots * 40 + 5 * nodes + P * 64 + 512 +
         control * nodes / static_cast<double>(size.routers);
}

}  // namespace

const Family& family() {
  static const Family f = [] {
    Family f;
    f.name = "sconnect";
    f.doc = "Sun's S-Connect (shared buffer pool, fixed-length messages; [sconnect])";
    f.section = "sconnect";
    f.keys = section_keys();
    f.notes = {{"traffic.packet_size", "messages, 1 or 4 for a quad-message"},
               {"traffic.priority_weights", "priority 3 is the highest"}};
    f.priorities = true;
    f.validate = validate;
    f.router_state_bytes = router_state_bytes;
    f.auto_cuda_routers = 150;  // 21-23 us a cycle on an H100 (tiles) against 4.7-6.7 M
    f.cpu = make_sconnect_engine_cpu;
#ifdef LOCKSTEP_HAVE_CUDA
    f.cuda = make_sconnect_engine_cuda;
#endif
    return f;
  }();
  return f;
}

}  // namespace sconnect
}  // namespace ls
