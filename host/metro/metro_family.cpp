// MIT's METRO (seed 003): what the shared code asks of it (host/config/family.hpp).
#include "metro_family.hpp"

#include <algorithm>

#include "../config/family.hpp"
#include "../engine/engine.hpp"

namespace ls {

std::unique_ptr<Engine> make_metro_engine_cpu(const std::vector<Config>&, const EngineOptions&);
std::unique_ptr<Engine> make_metro_engine_cuda(const std::vector<Config>&, const EngineOptions&);

namespace metro {
namespace {

// Belts of words and a port's state.
double router_state_bytes(const Config& c, const TopologySize& size) {
  const double P = static_cast<double>(size.ports);
  const double slots = 6.0 + static_cast<double>(c.topology.link_delay);
  return P * slots * 16 + P * 40 + 64;
}

}  // namespace

const Family& family() {
  static const Family f = [] {
    Family f;
    f.name = "metro";
    f.doc =
        "MIT's METRO (pipelined circuit-switched dilated crossbars in a multibutterfly or fat "
        "tree, random path choice, source retry; [metro])";
    f.section = "metro";
    f.keys = section_keys();
    f.notes = {
        {"traffic.request_reply",
         "reads, the reply on the request's own connection, turned back (metro.reply_delay)"},
        {"traffic.reply_size", "words, the checksum included"}};
    f.multistage = true;
    f.validate = validate;
    f.router_state_bytes = router_state_bytes;
    f.auto_cuda_routers = 100;  // 10.6 us a cycle on an H100 (tiles) against 9.6 M
    f.cpu = make_metro_engine_cpu;
#ifdef LOCKSTEP_HAVE_CUDA
    f.cuda = make_metro_engine_cuda;
#endif
    return f;
  }();
  return f;
}

}  // namespace metro
}  // namespace ls
