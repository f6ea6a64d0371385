// Golden traces on rings, worked out by hand. Default pipeline: a flit written into an input
// buffer in cycle a (buffer write) is routed in a+1, gets its VC in a+2, wins the switch in a+3
// and is written into the next buffer in a+3+st_delay+link_delay, or read by the sink in
// a+3+st_delay+terminal_delay. A packet created in cycle c is injected from cycle c+1.
#include "helpers.hpp"

using namespace ls;

namespace {

// Every node sends exactly one packet, created in cycle 0, to its +1 neighbour.
Config one_packet_each(int64_t k, int64_t size, int64_t link_delay) {
  Config c = test::network("torus", {k}, static_cast<double>(size));  // one packet per cycle...
  c.traffic.max_packets = 1;                                          // ...but only the first
  c.traffic.pattern = "neighbor";
  c.traffic.packet_size = size;
  c.topology.link_delay = link_delay;
  return c;
}

// Cycle in which each flit is written into router 1's network input buffers and read by node
// 1's sink, from the state after every cycle: a buffer write shows as occupancy that grew, plus
// any flit that left the buffer in the same cycle (the switch granted its input port).
struct Trace {
  std::vector<uint64_t> at_router1, at_sink1;
};

Trace trace(const Config& c, uint64_t cycles, const std::string& backend) {
  auto e = make_engine({c}, test::options(backend));
  const uint32_t P = 3, V = 2;
  Trace t;
  uint64_t prev_ejected = 0, prev_held = 0;
  for (uint64_t cyc = 0; cyc < cycles; ++cyc) {
    e->step(1);
    HostArray ej = e->state("ejected_flits");
    const uint64_t ejected = reinterpret_cast<const uint64_t*>(ej.bytes.data())[1];
    for (uint64_t k = prev_ejected; k < ejected; ++k) t.at_sink1.push_back(cyc);
    prev_ejected = ejected;
    HostArray occ = e->state("occupancy"), grant = e->state("sa_grant");
    uint64_t held = 0, left = 0;
    for (uint32_t p = 1; p < P; ++p)
      for (uint32_t v = 0; v < V; ++v) held += occ.bytes[(1 * P + p) * V + v];
    for (uint32_t op = 0; op < P; ++op) left += static_cast<int8_t>(grant.bytes[1 * P + op]) >= 1;
    for (uint64_t k = prev_held; k < held + left; ++k) t.at_router1.push_back(cyc);
    prev_held = held;
  }
  return t;
}

}  // namespace

TEST(Golden, FourNodeRingThreeFlitPacket) {
  // Created 0; injected 1,2,3; router 0 buffer 2,3,4; head RC 3, VA 4, SA 5, body 6, tail 7;
  // router 1 buffer 7,8,9 (1 switch + 1 link); SA 10,11,12; sink 12,13,14 (1 switch + 1 eject).
  Config c = one_packet_each(4, 3, 1);
  for (const std::string& b : test::backends()) {
    Trace t = trace(c, 30, b);
    EXPECT_EQ(t.at_router1, (std::vector<uint64_t>{7, 8, 9})) << b;
    EXPECT_EQ(t.at_sink1, (std::vector<uint64_t>{12, 13, 14})) << b;
  }
}

TEST(Golden, TwoNodeRingWithTwoCycleLinks) {
  // k = 2: both directions are one hop (a random tie). Created 0, injected 1, router 0 buffer 2,
  // RC 3, VA 4, SA 5, router 1 buffer 5+1+2 = 8, RC 9, VA 10, SA 11, sink 11+2 = 13; the body
  // flit follows one cycle behind.
  Config c = one_packet_each(2, 2, 2);
  for (const std::string& b : test::backends()) {
    Trace t = trace(c, 30, b);
    EXPECT_EQ(t.at_router1, (std::vector<uint64_t>{8, 9})) << b;
    EXPECT_EQ(t.at_sink1, (std::vector<uint64_t>{13, 14})) << b;
  }
}

TEST(Golden, PacketLatencyIsTheHandWorkedFigure) {
  // 3 + 4 R + L (R - 1) + (P - 1) with R = 2 routers, L = 1, P = 3 flits: 3 + 8 + 1 + 2 = 14.
  Config c = one_packet_each(4, 3, 1);
  c.run.warmup = 0;
  c.run.measure = 1;  // the packets of cycle 0
  InstanceResult r = test::run_one(c);
  EXPECT_EQ(r.packets, 4u);
  EXPECT_DOUBLE_EQ(r.latency_mean, 14.0);
  EXPECT_DOUBLE_EQ(r.latency_max, 14.0);
  EXPECT_DOUBLE_EQ(r.hops_mean, 2.0);
  EXPECT_DOUBLE_EQ(r.network_latency_mean, 13.0);  // from head injection in cycle 1
}
