#include "t3e_setup.hpp"

#include <algorithm>
#include <cmath>

namespace ls::t3e {

T3eParams make_params(const Config& c, const Topology& t, const Registers& regs) {
  const T3eConfig& k = c.t3e;
  T3eParams p{};
  p.routers = t.routers;
  p.pes = static_cast<uint32_t>(regs.pe_router.size());
  for (uint32_t d = 0; d < 3; ++d) p.radix[d] = t.shape.radix[d];
  p.depth = static_cast<uint32_t>(k.buffer_depth);
  p.adaptive_depth = static_cast<uint32_t>(k.adaptive_depth);
  p.pe_depth = static_cast<uint32_t>(k.pe_buffer_depth);
  const std::vector<MixEntry> mix = packet_mix(k.packet_type, k.packet_mix);
  p.n_types = static_cast<uint32_t>(mix.size());
  for (uint32_t i = 0; i < p.n_types; ++i) {
    p.request_len[i] = mix[i].len.request;
    p.response_len[i] = mix[i].len.response;
  }
  p.ordered = draw_threshold(k.ordered_fraction);
  p.response_queue = static_cast<uint32_t>(k.response_queue);
  p.outstanding = static_cast<uint32_t>(k.outstanding);
  p.straight = static_cast<uint32_t>(k.fall_through_straight);
  p.turn = static_cast<uint32_t>(k.fall_through_turn);
  p.end_point = static_cast<uint32_t>(k.end_point);
  p.credit_delay = static_cast<uint32_t>(k.credit_delay);
  p.inject_delay = p.end_point - p.turn;  // validate() keeps end_point above the turn
  p.barrier = k.barrier == "barrier"  ? kBarrierRounds
              : k.barrier == "eureka" ? kEurekaRounds
                                      : kNoBarrier;
  p.barrier_period = static_cast<uint32_t>(k.barrier_period);
  p.barrier_bsus = static_cast<uint32_t>(k.barrier_bsus);
  p.barrier_hop = static_cast<uint32_t>(k.barrier_hop);
  p.slots = std::max({p.end_point, p.turn, p.credit_delay, p.barrier_hop}) + 1;
  p.lut_mode = regs.lut_mode;
  p.lut_entries = regs.lut_entries;
  p.adapt = k.adaptive;
  p.adaptive_hops = k.adaptive_hops == "taken";
  p.admission = k.adaptive_admission == "empty"  ? kAdmitEmpty
                : k.adaptive_admission == "flit" ? kAdmitFlit
                                                 : kAdmitPacket;
  p.ties_plus = ties_plus(c);
  p.source_queue = static_cast<uint32_t>(c.traffic.source_queue);
  p.shape = t.shape;
  return p;
}

std::vector<TrafficParams> request_traffic(const std::vector<Config>& cs, uint32_t nodes) {
  std::vector<TrafficParams> out = traffic_params(cs, nodes);
  for (size_t i = 0; i < cs.size(); ++i) {  // packet_size is 1: rate is offered flits
    const std::vector<MixEntry> mix = packet_mix(cs[i].t3e.packet_type, cs[i].t3e.packet_mix);
    TrafficParams& tp = out[i];
    set_rate(tp, tp.rate / mean_flits(mix));
    // One size entry per type, its request's flits (offered when the request is created); the
    // PE interface draws the entry and so the type.
    std::vector<uint32_t> sizes;
    std::vector<double> weights;
    for (const MixEntry& m : mix) {
      sizes.push_back(m.len.request);
      weights.push_back(m.weight);
    }
    set_sizes(tp, sizes, weights);
  }
  return out;
}

}  // namespace ls::t3e
