#include "vc_setup.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>

#include "../../kernels/common/belt.hpp"
#include "../../kernels/common/rng.hpp"
#include "../config/pick.hpp"

namespace ls {
VcParams make_vc_params(const Config& c, const Topology& t) {
  VcParams p{};
  p.topo = pick<TopologyKind>(c.topology.kind, {{"mesh", TopologyKind::kMesh},
                                                {"torus", TopologyKind::kTorus},
                                                {"crossbar", TopologyKind::kCrossbar}});
  p.pol.routing = pick<Routing>(c.vc.routing,
                                {{"dor", Routing::kDor}, {"min_adaptive", Routing::kMinAdaptive}});
  p.pol.flow = pick<FlowControl>(
      c.vc.flow_control, {{"wormhole", FlowControl::kWormhole}, {"vct", FlowControl::kVct}});
  auto alloc = [](const std::string& s) {
    return pick<Allocator>(s, {{"islip", Allocator::kIslip},
                               {"separable_input_first", Allocator::kSeparableInputFirst}});
  };
  p.pol.vc_alloc = alloc(c.vc.vc_allocator);
  p.pol.sw_alloc = alloc(c.vc.sw_allocator);
  p.pol.alloc_iters = static_cast<uint32_t>(c.vc.alloc_iters);
  p.pol.dateline = c.vc.dateline;
  p.routers = t.routers;
  p.ports = t.ports;
  p.nodes = t.nodes;
  // The kernels find a router's terminals by number: router r has nodes [r * T, r * T + T).
  p.terminals = t.nodes / t.routers;
  for (uint32_t n = 0; n < t.nodes; ++n)
    if (static_cast<uint32_t>(t.node_router[n]) != n / p.terminals)
      throw std::logic_error("topology: node " + std::to_string(n) + " is not at router " +
                             std::to_string(n / p.terminals));
  p.vcs = static_cast<uint32_t>(c.vc.vcs);
  p.depth = static_cast<uint32_t>(c.vc.vc_depth);
  p.routing_delay = static_cast<uint32_t>(c.vc.routing_delay);
  p.vc_alloc_delay = static_cast<uint32_t>(c.vc.vc_alloc_delay);
  p.track_ready = !c.run.fuse_phases || p.routing_delay > 1 || p.vc_alloc_delay > 1;
  p.terminal_delay = static_cast<uint32_t>(c.topology.terminal_delay);
  p.source_queue = static_cast<uint32_t>(c.traffic.source_queue);
  p.pol.classes = c.traffic.request_reply ? 2 : 1;
  p.pol.class_vcs = p.vcs / p.pol.classes;
  p.reply_queue = static_cast<uint32_t>(c.traffic.reply_queue);
  p.shape = t.shape;
  uint32_t max_delay = p.terminal_delay;
  for (uint8_t d : out_delays(c, t)) max_delay = std::max<uint32_t>(max_delay, d);
  for (uint8_t d : credit_delays(c, t)) max_delay = std::max<uint32_t>(max_delay, d);
  p.slots = max_delay + 1;
  return p;
}

std::vector<uint8_t> out_delays(const Config& c, const Topology& t) {
  std::vector<uint8_t> d(t.link_delay.size());
  for (size_t i = 0; i < d.size(); ++i)
    d[i] = static_cast<uint8_t>(c.vc.sw_alloc_delay - 1 + c.vc.st_delay + t.link_delay[i]);
  return d;
}

std::vector<uint8_t> credit_delays(const Config& c, const Topology& t) {
  std::vector<uint8_t> d(t.link_delay.size());
  for (size_t i = 0; i < d.size(); ++i)
    d[i] = static_cast<uint8_t>(c.vc.credit_delay + t.link_delay[i]);
  return d;
}

std::vector<uint32_t> far_slots(const Topology& t, uint32_t slots, const std::vector<uint32_t>& far,
                                const std::vector<uint8_t>& delay) {
  const uint32_t width = belt_width(t);
  std::vector<uint32_t> f(slots * far.size());
  for (uint32_t now = 0; now < slots; ++now)
    for (size_t rp = 0; rp < far.size(); ++rp)
      f[now * far.size() + rp] = far[rp] + belt_arrival_slot(now, delay[rp], slots) * width;
  return f;
}

std::vector<uint64_t> packed_coords(const Topology& t) {
  std::vector<uint64_t> c(t.nodes, 0);
  for (uint32_t n = 0; n < t.nodes; ++n)
    for (uint32_t d = 0; d < t.shape.ndims; ++d)
      c[n] |= static_cast<uint64_t>(t.shape.coord(n, static_cast<int>(d))) << (16 * d);
  return c;
}

}  // namespace ls
