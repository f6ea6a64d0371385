#include "bgl_setup.hpp"

#include <algorithm>
#include <cmath>

#include "../../kernels/bgl/dead_nodes.hpp"
#include "../config/pick.hpp"

namespace ls::bgl {

BglParams make_params(const Config& c, const Topology& t) {
  const BglConfig& g = c.bgl;
  BglParams p{};
  p.routers = t.routers;
  p.dirs = t.ports - 1;
  p.dynamic = static_cast<uint32_t>(g.dynamic_vcs);
  p.dateline = g.escape_vcs == "dateline_pair";
  p.no_escape = g.escape_vcs == "none";
  p.direction_order = g.escape_order == "direction";
  p.uncrossed_higher = g.dateline_uncrossed == "higher";
  p.pair_entry_two = g.pair_entry == "two";
  p.vcs = p.dynamic + (p.dateline ? 2 : 1) + 1;  // dynamic, escape, high priority
  p.vc_chunks = static_cast<uint32_t>(g.vc_bytes / kChunkBytes);
  p.escape_chunks = static_cast<uint32_t>(g.escape_bytes / kChunkBytes);
  p.ring = std::max(p.vc_chunks, p.escape_chunks);
  p.normal_fifos = static_cast<uint32_t>(g.injection_fifos);
  p.fifos = p.normal_fifos + kPriorityFifos;
  p.priority_threshold = draw_threshold(g.priority_fraction);
  p.fifo_chunks = static_cast<uint32_t>(g.injection_fifo_bytes / kChunkBytes);
  p.infinite_fifos = g.infinite_injection_fifos;
  p.injection_gap = static_cast<uint32_t>(g.injection_gap);
  p.dead.count = static_cast<uint32_t>(g.dead_nodes.size());
  for (size_t i = 0; i < g.dead_nodes.size(); ++i)
    p.dead.node[i] = static_cast<uint32_t>(g.dead_nodes[i]);
  p.dead.links = static_cast<uint32_t>(g.dead_links.size() / 2);
  for (uint32_t i = 0; i < p.dead.links; ++i) {
    p.dead.link_node[i] = static_cast<uint32_t>(g.dead_links[2 * i]);
    p.dead.link_dim[i] = static_cast<uint32_t>(g.dead_links[2 * i + 1]);
  }
  p.fifo_ring = p.infinite_fifos ? 255 : std::min<uint32_t>(p.fifo_chunks, 255);
  p.paths = static_cast<uint32_t>(g.paths);
  p.pipeline = static_cast<uint32_t>(g.pipeline_delay);
  p.trailer = static_cast<uint32_t>(g.trailer_bytes);
  p.gap = static_cast<uint32_t>(g.gap_bytes);
  p.ack_bytes = static_cast<uint32_t>(g.ack_bytes);
  p.overhead = static_cast<uint32_t>(g.packet_overhead);
  uint32_t longest = 1;
  for (uint8_t d : t.link_delay) longest = std::max<uint32_t>(longest, d);
  p.slots = longest + p.ack_bytes;
  p.rtx = static_cast<uint32_t>(g.retransmission_packets);
  p.rtx_timeout = static_cast<uint32_t>(g.retransmit_timeout);
  p.error_threshold = draw_threshold(g.link_error_rate);
  p.bubble_rule =
      pick<BubbleRule>(g.bubble_rule, {{"fixed", kBubbleFixed}, {"original", kBubbleOriginal}});
  p.jsq = g.jsq;
  p.jsq_exact = g.jsq_tokens == "exact";
  p.slq_threshold = draw_threshold(g.slq_fraction);
  p.network_threshold = draw_threshold(g.in_network_fraction);
  p.deterministic_threshold = draw_threshold(g.deterministic ? 1.0 : g.deterministic_fraction);
  p.bypass = g.bypass;
  p.arbitration_gap = g.arbitration_gap;
  p.half_way = pick<HalfWay>(
      g.half_way,
      {{"coordinate", kHalfWayCoordinate}, {"node", kHalfWayNode}, {"plus", kHalfWayPlus}});
  p.source_queue = static_cast<uint32_t>(c.traffic.source_queue);
  p.shape = t.shape;
  return p;
}

Reach dead_node_reach(const BglParams& p) {
  Reach r;
  if (p.shape.nodes > kMaxReachNodes) return {-1, -1, -1};
  const bool dynamic = p.deterministic_threshold < draw_threshold(1.0);  // some packets are
  for (uint32_t a = 0; a < p.shape.nodes; ++a)
    for (uint32_t b = 0; b < p.shape.nodes; ++b) {
      if (a == b || p.dead.contains(a) || p.dead.contains(b)) continue;
      const PlannedRoute s =
          plan_route(p.shape, p.dead, a, b, p.half_way, dynamic, p.direction_order);
      r.unreachable += !s.first.reachable;
      r.relayed += s.relayed;
      r.deterministic += s.first.reachable && !s.relayed && s.first.deterministic;
    }
  return r;
}

Wiring make_wiring(const BglParams& p, const Topology& t) {
  Wiring w;
  w.far.assign(uint64_t{p.routers} * p.dirs, -1);
  w.delay.assign(w.far.size(), 1);
  for (uint32_t r = 0; r < p.routers; ++r)
    for (uint32_t d = 0; d < p.dirs; ++d) {
      const uint64_t k = uint64_t{r} * t.ports + d + 1;
      const int32_t far = t.peer[k];
      if (far < 0) continue;
      const int32_t fr = far / static_cast<int32_t>(t.ports),
                    fp = far % static_cast<int32_t>(t.ports);
      w.far[uint64_t{r} * p.dirs + d] = fr * static_cast<int32_t>(p.dirs) + fp - 1;
      w.delay[uint64_t{r} * p.dirs + d] = t.link_delay[k];
    }
  return w;
}

}  // namespace ls::bgl
