#include "t3e_setup.hpp"

#include <algorithm>

namespace ls::t3e {

T3eParams make_params(const Config& c, const Topology& t, const Registers& regs) {
  const T3eConfig& k = c.t3e;
  T3eParams p{};
  p.routers = t.routers;
  for (uint32_t d = 0; d < 3; ++d) p.radix[d] = t.shape.radix[d];
  p.depth = static_cast<uint32_t>(k.buffer_depth);
  p.adaptive_depth = static_cast<uint32_t>(k.adaptive_depth);
  p.pe_depth = static_cast<uint32_t>(k.pe_buffer_depth);
  const PacketLengths len = packet_lengths(k.packet_type);
  p.request_size = len.request;
  p.response_size = len.response;
  p.response_queue = static_cast<uint32_t>(k.response_queue);
  p.outstanding = static_cast<uint32_t>(k.outstanding);
  p.straight = static_cast<uint32_t>(k.fall_through_straight);
  p.turn = static_cast<uint32_t>(k.fall_through_turn);
  p.end_point = static_cast<uint32_t>(k.end_point);
  p.credit_delay = static_cast<uint32_t>(k.credit_delay);
  p.inject_delay = p.end_point - p.turn;  // validate() keeps end_point above the turn
  p.slots = std::max({p.end_point, p.turn, p.credit_delay}) + 1;
  p.lut_mode = regs.lut_mode;
  p.lut_entries = regs.lut_entries;
  p.adapt = k.adaptive;
  p.source_queue = static_cast<uint32_t>(c.traffic.source_queue);
  p.shape = t.shape;
  return p;
}

std::vector<TrafficParams> request_traffic(const std::vector<Config>& cs) {
  std::vector<TrafficParams> out = traffic_params(cs);
  for (size_t i = 0; i < cs.size(); ++i) {  // packet_size is 1: rate is offered flits
    const PacketLengths len = packet_lengths(cs[i].t3e.packet_type);
    set_rate(out[i], out[i].rate / (len.request + len.response));
    out[i].sizes[0] = len.request;  // a request's flits count as offered when it is created
  }
  return out;
}

}  // namespace ls::t3e
