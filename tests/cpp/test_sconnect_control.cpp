// S-Connect's in-band control messages (section 3.4, kernels/sconnect/control.hpp): source-routed
// requests a controller stages in its host's queue, performed by the router at the end of the
// route and answered back along it: their timing on an idle ring, their work under load with
// every invariant checked, and the same state on any schedule (and, with a GPU, on it).
#include <gtest/gtest.h>

#include <cstring>

#include "helpers.hpp"
#include "kernels/sconnect/control.hpp"

namespace ls {
namespace {

using sconnect::Control;

Config ring(int64_t delay, double offered) {
  Config c = test::network("torus", {8}, offered);
  c.router.family = "sconnect";
  c.topology.link_delay = delay;
  return c;
}

struct Request {
  uint32_t op;
  std::vector<uint32_t> route;
  uint32_t arg = 0, value = 0;
};

// Stages `requests` in node n's controller queue of instance i (as ls.sconnect.Controller does).
void stage(Engine& e, uint32_t i, uint32_t n, const std::vector<Request>& requests) {
  HostArray out = e.state("control_requests"), count = e.state("control_request_count");
  const uint64_t nodes = out.shape[1], K = sconnect::kControlQueue, W = sconnect::kRequestWords;
  auto* words = reinterpret_cast<uint32_t*>(out.bytes.data()) + ((i * nodes + n) * K) * W;
  uint32_t tag = 0;
  for (const Request& q : requests) {
    uint32_t lo = 0, hi = 0;
    for (size_t k = 0; k < q.route.size(); ++k) (k < 8 ? lo : hi) |= q.route[k] << (4 * (k % 8));
    const uint32_t w[] = {Control::make(q.op, static_cast<uint32_t>(q.route.size()), q.arg),
                          q.value, lo, hi, tag++};
    std::memcpy(words, w, sizeof w);
    words += W;
  }
  reinterpret_cast<uint32_t*>(count.bytes.data())[i * nodes + n] =
      static_cast<uint32_t>(requests.size());
  e.set_state("control_requests", out);
  e.set_state("control_request_count", count);
}

// Node n's replies in instance i, kReplyWords each.
std::vector<uint32_t> replies(Engine& e, uint32_t i, uint32_t n) {
  const auto count = test::values<uint32_t>(e.state("control_reply_count"));
  const auto all = test::values<uint32_t>(e.state("control_replies"));
  const uint64_t nodes = e.state("control_reply_count").shape[1];
  const uint64_t first = (i * nodes + n) * sconnect::kControlQueue * sconnect::kReplyWords;
  return {all.begin() + static_cast<int64_t>(first),
          all.begin() + static_cast<int64_t>(first + count[i * nodes + n] * sconnect::kReplyWords)};
}

}  // namespace

// On an idle ring a request staged before cycle 0 leaves router 0 in cycle 0 and the reply is
// in the inbox 2 x hops x delay cycles later (each router passes it on in the cycle it arrives,
// the target answers in the cycle it arrives); the target names itself, the channel the
// request came in on is in the route the reply brings back, and the time stamps differ by the
// one-way time.
TEST(SconnectControl, AnsweredInTwiceTheRouteOnAnIdleRing) {
  for (int64_t delay : {1, 3})
    for (uint32_t hops : {0u, 1u, 3u}) {
      auto e = make_engine({ring(delay, 0.0)}, test::options("cpu", 1, true));
      stage(*e, 0, 0, {{sconnect::kIdentify, std::vector<uint32_t>(hops, 1u)}});
      e->step(2 * hops * static_cast<uint64_t>(delay));
      ASSERT_TRUE(replies(*e, 0, 0).empty()) << delay << " " << hops;
      e->step(1);
      const std::vector<uint32_t> w = replies(*e, 0, 0);
      ASSERT_EQ(w.size(), sconnect::kReplyWords) << delay << " " << hops;
      EXPECT_EQ(Control::status(w[0]), sconnect::kControlOk);
      EXPECT_EQ(w[1] & 0xFFFFFu, hops);  // router `hops` along the ring's + channels
      EXPECT_EQ(w[6] - w[5], 2 * hops * static_cast<uint32_t>(delay));
      // Time stamps: the timers tick together, so the target's reads the one-way time more.
      EXPECT_EQ((w[7] >> 16) - (w[7] & 0xFFFFu), hops * static_cast<uint32_t>(delay));
      if (hops > 0) EXPECT_EQ(w[2] >> (4 * (hops - 1)) & 15u, 2u);  // came in on the - channel
    }
}

// A 4x4 torus at 0.5 messages per node per cycle with corrupted slots, under debug mode (pools,
// queues and messages conserved every cycle, control messages included): requests from two
// controllers, reads and writes of tables and registers, an unusable channel and a bad request,
// all answered; a table rewritten with its own entry routes as before.
TEST(SconnectControl, AnsweredUnderLoadWithEveryInvariant) {
  Config c = test::network("torus", {4, 4}, 0.5);
  c.router.family = "sconnect";
  c.sconnect.bit_error_rate = 0.002;
  auto e = make_engine({c}, test::options("cpu", 1, true));
  e->step(200);
  const auto ports = test::values<uint32_t>(e->state("route_ports"));
  const auto vcs = test::values<uint8_t>(e->state("route_vc"));
  const uint32_t router5 = 5, to9 = router5 * 16 + 9;  // router 5's entry for node 9
  const std::vector<Request> asks = {
      {sconnect::kIdentify, {1, 3}},
      {sconnect::kReadTable, {1}, 9},
      {sconnect::kWriteTable, {1, 3}, 9, ports[to9] | uint32_t{vcs[to9]} << 31},
      {sconnect::kReadRegister, {3, 3}, sconnect::kRegTimer},
      {sconnect::kWriteRegister, {2}, sconnect::kRegPerfSelect, 11},
      {sconnect::kReadRegister, {1, 1, 1, 1}, sconnect::kRegErrors + 2},
      {sconnect::kReadRegister, {1}, 99},
  };
  stage(*e, 0, 0, asks);
  stage(*e, 0, 10, asks);
  e->step(400);
  for (uint32_t n : {0u, 10u}) {
    const std::vector<uint32_t> w = replies(*e, 0, n);
    ASSERT_EQ(w.size(), asks.size() * sconnect::kReplyWords) << n;
    for (size_t k = 0; k < asks.size(); ++k) {
      const uint32_t* r = &w[k * sconnect::kReplyWords];
      const uint32_t tag = r[4];
      EXPECT_EQ(Control::status(r[0]), tag == 6 ? sconnect::kBadRequest : sconnect::kControlOk)
          << n << " " << tag;
    }
  }
  const auto select = test::values<uint8_t>(e->state("perf_select"));
  EXPECT_EQ(select[3], 11u);  // node 0's -x neighbour (channel 2)
  EXPECT_EQ(select[9], 11u);  // node 10's
  EXPECT_EQ(test::values<uint32_t>(e->state("route_ports"))[to9], ports[to9]);
  const auto injected = test::values<uint64_t>(e->state("control_injected")),
             delivered = test::values<uint64_t>(e->state("control_delivered"));
  EXPECT_EQ(injected[0], asks.size());
  EXPECT_EQ(delivered[0], asks.size());
}

namespace {
// With `tiles`, each router's cycle over a tile of lanes (run.lanes = "tile") under the block
// schedule, its lanes run shuffled on the CPU.
std::vector<std::vector<uint8_t>> controlled_state(const char* assignment, const EngineOptions& o,
                                                   bool tiles = false) {
  std::vector<Config> cs;
  for (double off : {0.2, 0.6}) {
    Config c = test::network("torus", {4, 4}, off);
    c.router.family = "sconnect";
    c.sconnect.assignment = assignment;
    c.sconnect.bit_error_rate = 0.001;
    if (tiles) {
      c.run.schedule = "block";
      c.run.block_order = "shuffled";
      c.run.lanes = "tile";
    }
    cs.push_back(c);
  }
  auto e = make_engine(cs, o);
  // Each router's counter on an event of its own: the stages count them in different places.
  HostArray select = e->state("perf_select");
  for (size_t k = 0; k < select.bytes.size(); ++k)
    select.bytes[k] = static_cast<uint8_t>(k % 2 ? k / 2 % 12 : 16 + k / 2 % 5);
  e->set_state("perf_select", select);
  e->step(100);
  for (uint32_t i = 0; i < 2; ++i)
    stage(*e, i, 3,
          {{sconnect::kIdentify, {1, 1, 3}},
           {sconnect::kWriteRegister, {2, 4}, sconnect::kRegTimer, 1000},
           {sconnect::kWriteRegister, {3}, sconnect::kRegChannels, 0b11010}});
  e->step(1400);
  std::vector<std::vector<uint8_t>> s;
  for (const std::string& n : e->state_names()) s.push_back(e->state(n).bytes);
  return s;
}
}  // namespace

// With control messages among the traffic (a channel disabled among them) and every router's
// counter counting: the same state on any number of threads, in debug mode's schedule, with each
// router's cycle over a tile of lanes, and on a GPU where there is one.
TEST(SconnectControl, SameStateOnAnyScheduleAndBackend) {
  for (const char* a : {"tic", "near_optimal", "optimal"}) {
    const auto one = controlled_state(a, test::options("cpu", 1, false));
    EXPECT_EQ(one, controlled_state(a, test::options("cpu", 2, false))) << a;
    EXPECT_EQ(one, controlled_state(a, test::options("cpu", 2, true))) << a;
    EXPECT_EQ(one, controlled_state(a, test::options("cpu", 1, false), true)) << a;
    if (cuda_available()) {
      EXPECT_EQ(one, controlled_state(a, test::options("cuda", 0, false))) << a;
      EXPECT_EQ(one, controlled_state(a, test::options("cuda", 0, false), true)) << a;
    }
  }
  if (!cuda_available())
    GTEST_SKIP() << "no CUDA device on this machine: control messages' CPU/GPU equality not "
                    "checked";
}

}  // namespace ls
