// S-Connect quad-messages (kernels/sconnect/quad.hpp): trains of 4 messages that cross every
// channel in adjacent slots and are taken by a router all or nothing. A cycle-by-cycle trace of
// one train, the zero-load latency worked out from it, and, under refusals and heavy
// transmission errors, every quad delivered whole and once (debug mode checks conservation, that
// no train's parts were answered differently, and that each quad reaches its host as its own 4
// parts in order).
#include <algorithm>
#include <numeric>

#include "helpers.hpp"

using namespace ls;

namespace {

Config quads(const std::string& kind, std::vector<int64_t> radix, double offered) {
  Config c = test::network(kind, std::move(radix), offered);
  c.router.family = "sconnect";
  c.traffic.packet_size = 4;
  c.sconnect.reserve = 4;  // a whole quad per class
  return c;
}

// Messages injected and delivered, summed over a batch's hosts and priorities.
std::pair<uint64_t, uint64_t> moved(Engine& e) {
  const std::vector<uint64_t> inj = test::values<uint64_t>(e.state("injected_messages")),
                              got = test::values<uint64_t>(e.state("delivered_messages"));
  uint64_t i = 0, g = 0;
  for (size_t k = 0; k < inj.size(); ++k) {
    i += inj[k];
    g += got[k];
  }
  return {i, g};
}

}  // namespace

// Two routers joined by one channel of delay 2, one quad each way. Router 0 sends its 4 parts
// in 4 adjacent slots (its counter of messages sent on the channel goes up by one a cycle);
// router 1 holds 4 buffers from the head's arrival, reserved until each part comes in
// (quad_rx_parts gains a bit a cycle), and routes the quad to its host when the last is in.
TEST(SconnectQuad, ATrainCrossesAChannelInAdjacentSlots) {
  Config c = quads("mesh", {2}, 4.0);  // a quad every cycle: each node starts one at once
  c.traffic.pattern = "bitcomp";       // to the other node
  c.topology.link_delay = 2;
  c.traffic.max_packets = 1;
  c.sconnect.priorities = 1;
  auto e = make_engine({c}, test::options("cpu", 1, true));
  HostArray select = e->state("perf_select");
  select.bytes[0] = 16 + 1;  // router 0: messages sent on channel 1
  e->set_state("perf_select", select);
  std::vector<uint32_t> sent;
  std::vector<uint8_t> parts;
  std::vector<int> reserved;
  for (int t = 0; t < 12; ++t) {
    e->step(1);
    sent.push_back(test::values<uint32_t>(e->state("perf_count"))[0]);
    const std::vector<uint8_t> in = test::values<uint8_t>(e->state("quad_rx_parts"));
    parts.push_back(*std::max_element(in.begin() + in.size() / 2, in.end()));  // router 1's
    const std::vector<uint8_t> st = test::values<uint8_t>(e->state("buf_state"));
    reserved.push_back(static_cast<int>(std::count(st.begin() + st.size() / 2, st.end(), 5)));
  }
  // Created in cycle 0, injected and started in 1, parts in 1..4, arriving at router 1 in 3..6.
  EXPECT_EQ(sent, (std::vector<uint32_t>{0, 1, 2, 3, 4, 4, 4, 4, 4, 4, 4, 4}));
  EXPECT_EQ(parts, (std::vector<uint8_t>{0, 0, 0, 1, 3, 7, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(reserved, (std::vector<int>{0, 0, 0, 3, 2, 1, 0, 0, 0, 0, 0, 0}));
  const auto [injected, delivered] = moved(*e);
  EXPECT_EQ(injected, 8u);
  EXPECT_EQ(delivered, 8u);
}

// With nothing in its way a quad created in cycle c starts in c + 1 and crosses each channel of
// delay D as a train: its last part arrives D + 3 cycles after the head left, and the router
// sends the quad on in that cycle (bypass) or the next. Latency 1 + hops x (D + 3), or
// 1 + hops x (D + 4) without bypass.
TEST(SconnectQuad, ZeroLoadLatencyIsOnePlusHopsTimesDelayPlusTheTrain) {
  for (int64_t delay : {1, 3})
    for (bool bypass : {true, false}) {
      Config c = quads("torus", {8}, 0.008);
      c.topology.link_delay = delay;
      c.sconnect.bypass = bypass;
      c.run.measure = 40000;
      const InstanceResult r = test::run_one(c, test::options("cpu", 1, false));
      ASSERT_GT(r.packets, 100u);
      const double per_hop = static_cast<double>(delay) + 3.0 + (bypass ? 0.0 : 1.0);
      EXPECT_NEAR(r.latency_mean, 1.0 + per_hop * r.hops_mean, 0.01 * r.latency_mean)
          << "delay " << delay << " bypass " << bypass;
      EXPECT_NEAR(r.accepted, r.offered, 0.1 * r.offered);
    }
}

// Quads and single messages mixed, with small pools that refuse many heads and a quarter of
// all slots corrupted, on both assignments and on channels shorter than a train (delay 1: two
// slot windows) and longer: debug mode checks every cycle that nothing is lost, duplicated or
// split, and once the sources stop every message has been delivered.
TEST(SconnectQuad, QuadsArriveWholeAndOnceUnderRefusalsAndErrors) {
  for (const char* assignment : {"tic", "near_optimal"})
    for (int64_t delay : {1, 3}) {
      Config c = quads("torus", {4, 4}, 0.6);
      c.traffic.packet_sizes = {1, 4};
      c.traffic.packet_size_weights = {1, 1};
      c.topology.link_delay = delay;
      c.sconnect.assignment = assignment;
      c.sconnect.priorities = 1;
      c.sconnect.buffers = 14;            // 12 reserved, 2 shared
      c.sconnect.bit_error_rate = 0.003;  // 100-bit slots: 26% corrupted
      c.traffic.max_packets = 150;
      c.run.watchdog = 3000;
      auto e = make_engine({c}, test::options("cpu", 1, true));
      HostArray select = e->state("perf_select");
      std::fill(select.bytes.begin(), select.bytes.end(), 6);  // messages refused downstream
      e->set_state("perf_select", select);
      e->step(12000);
      e->check_deadlock();
      const std::vector<uint32_t> queued = test::values<uint32_t>(e->state("source_queue"));
      for (size_t n = 0; n < queued.size(); ++n) ASSERT_EQ(queued[n], 0u) << n;
      const auto [injected, delivered] = moved(*e);
      EXPECT_GT(injected, 16u * 150u * 2) << assignment << " delay " << delay;
      EXPECT_EQ(delivered, injected) << assignment << " delay " << delay;
      const std::vector<uint32_t> rejects = test::values<uint32_t>(e->state("perf_count"));
      EXPECT_GT(std::accumulate(rejects.begin(), rejects.end(), 0u), 100u) << assignment;
    }
}

// Under saturation a train needs 4 buffers where a message needs 1, so quads lose out to single
// messages for the buffers, but the network stays live (watchdog) and the quads that arrive are
// whole (debug mode).
TEST(SconnectQuad, SaturatedQuadsStayLive) {
  for (const char* assignment : {"tic", "near_optimal"}) {
    Config c = quads("torus", {4, 4}, 1.0);
    c.traffic.packet_sizes = {1, 4};
    c.traffic.packet_size_weights = {1, 1};
    c.sconnect.assignment = assignment;
    c.sconnect.buffers = 16;
    c.sconnect.priorities = 1;
    c.run.warmup = 500;
    c.run.measure = 2000;
    c.run.drain = 0;
    c.run.watchdog = 1000;
    InstanceResult r;
    ASSERT_NO_THROW(r = test::run_one(c, test::options("cpu", 1, true))) << assignment;
    EXPECT_GT(r.accepted, 0.2) << assignment;
  }
}

// The same state on 1 and 2 CPU threads, trains and errors included.
TEST(SconnectQuad, ThreadCountDoesNotChangeState) {
  Config c = quads("torus", {8, 8}, 0.7);
  c.traffic.packet_sizes = {1, 4};
  c.traffic.packet_size_weights = {1, 1};
  c.topology.link_delay = 2;
  c.sconnect.buffers = 20;
  c.sconnect.priorities = 1;
  c.sconnect.bit_error_rate = 0.002;
  EXPECT_EQ(test::state_after({c}, test::options("cpu", 1, false), 1500),
            test::state_after({c}, test::options("cpu", 2, false), 1500));
}
