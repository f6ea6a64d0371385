// The T3E's virtual barrier/eureka networks (paper section 6): BSU registers in the routers,
// the shell's S_BAR/S_ARM/S_EUR state machines, barrier packets on their own VC that never
// wait for data. With barrier_hop h clocks a hop and every PE arming at a round's start, a PE
// at torus distance d from the root hears the completion h (D + d + 2) clocks later, D the
// deepest member's distance: up from the PE to its router, up the tree, and down again.
#include <numeric>

#include "helpers.hpp"
#include "kernels/t3e/bsu_register.hpp"
#include "kernels/t3e/routing_tag.hpp"

using namespace ls;
using namespace ls::t3e;

namespace {

Config machine(std::vector<int64_t> radix, double offered, const std::string& program) {
  Config c = test::network("torus", std::move(radix), offered);
  c.router.family = "t3e";
  c.t3e.barrier = program;
  c.t3e.barrier_period = 100;
  c.run.warmup = 500;
  c.run.measure = 1000;
  return c;
}

// Torus distance of every router from router 0 (R_ORIENT 0: physical = cube coordinates).
std::vector<uint32_t> depths(const Config& c) {
  const auto& k = c.topology.radix;
  std::vector<uint32_t> d;
  for (int64_t z = 0; z < k[2]; ++z)
    for (int64_t y = 0; y < k[1]; ++y)
      for (int64_t x = 0; x < k[0]; ++x)
        d.push_back(static_cast<uint32_t>(std::min(x, k[0] - x) + std::min(y, k[1] - y) +
                                          std::min(z, k[2] - z)));
  return d;
}

uint32_t deepest(const std::vector<uint32_t>& d) {
  return *std::max_element(d.begin(), d.end());
}

}  // namespace

// Rounds of barriers on an idle network: every PE completes every round, the last after
// 2 h (D + 1) clocks, the mean h (D + 2 + mean distance).
TEST(T3eBarrier, LatencyFollowsTheTreeDepth) {
  for (const auto& [radix, hop] : std::vector<std::pair<std::vector<int64_t>, int64_t>>{
           {{4, 4, 4}, 3}, {{5, 3, 2}, 2}, {{1, 1, 1}, 3}}) {
    Config c = machine(radix, 0.0, "barrier");
    c.t3e.barrier_hop = hop;
    const std::vector<uint32_t> d = depths(c);
    const double n = static_cast<double>(d.size()), h = static_cast<double>(hop);
    const double D = deepest(d);
    const double mean_d = std::accumulate(d.begin(), d.end(), 0.0) / n;
    const InstanceResult r = test::run_one(c);
    SCOPED_TRACE(::testing::PrintToString(radix));
    EXPECT_DOUBLE_EQ(test::extra(r, "barrier_completions"), 10 * n);  // rounds 500, ..., 1400
    EXPECT_DOUBLE_EQ(test::extra(r, "barrier_latency_max"), 2 * h * (D + 1));
    EXPECT_DOUBLE_EQ(test::extra(r, "barrier_latency_mean"), h * (D + 2 + mean_d));
    EXPECT_DOUBLE_EQ(test::extra(r, "barrier_overruns"), 0.0);
  }
}

// Barrier packets take a link before any data flit and need no buffer, so a network
// saturated with data (watchdog and invariants on) synchronises as fast as an idle one.
TEST(T3eBarrier, DataNeverDelaysABarrier) {
  const InstanceResult idle = test::run_one(machine({4, 4, 4}, 0.0, "barrier"));
  const InstanceResult busy = test::run_one(machine({4, 4, 4}, 0.9, "barrier"));
  EXPECT_GT(busy.accepted, 0.3);
  for (const char* k : {"barrier_latency_max", "barrier_latency_mean", "barrier_completions"})
    EXPECT_DOUBLE_EQ(test::extra(busy, k), test::extra(idle, k)) << k;
  EXPECT_DOUBLE_EQ(test::extra(busy, "barrier_latency_max"), 42.0);  // 2 x 3 x (6 + 1)
}

// One eureka round (t = 1000, round 1: router 1, at distance 1, performs OP_EUR_B). The
// eureka climbs to the root and comes down to every other PE after h (d_1 + d + 2) clocks;
// each joins the barrier the clock after it sees S_EUR, so the deepest joins last and hears
// the completion after h (d_1 + 3 D + 4) + 1 clocks.
TEST(T3eBarrier, EurekaReachesEveryOtherPeThenTheBarrierCompletes) {
  Config c = machine({4, 4, 4}, 0.0, "eureka");
  c.t3e.barrier_period = 1000;
  c.run.warmup = 1000;
  c.run.measure = 500;
  const std::vector<uint32_t> d = depths(c);
  const double D = deepest(d), d1 = d[1], h = 3;
  const double others = std::accumulate(d.begin(), d.end(), 0.0) - d1;
  const InstanceResult r = test::run_one(c);
  EXPECT_DOUBLE_EQ(test::extra(r, "eureka_latency_max"), h * (d1 + D + 2));
  EXPECT_DOUBLE_EQ(test::extra(r, "eureka_latency_mean"), h * (d1 + 2) + h * others / 63);
  EXPECT_DOUBLE_EQ(test::extra(r, "barrier_latency_max"), h * (d1 + 3 * D + 4) + 1);
  EXPECT_DOUBLE_EQ(test::extra(r, "barrier_completions"), 64.0);
}

// Two PEs on a ring of two, clock by clock (h = 3; router 0 the root; router 1's parent is +X,
// the tie's way, so its packets reach the root on its -X link).
// A barrier round at t = 50: both arm; PE 0's barrier is in the root's register at 53
// (ARRIVED = the PE), router 1's at 56 completes it; PE 0 hears at 59, PE 1 at 62. A eureka
// round at t = 50 (round 1: PE 1 performs OP_EUR_B): the eureka reaches the root at 56 and
// PE 0 at 59 (S_EUR), which joins at 60; the root completes at 63, PE 0 hears at 66, PE 1 at 69.
TEST(T3eBarrier, StatesClockByClockOnARingOfTwo) {
  auto states_after = [](const char* program, uint64_t clocks) {
    Config c = machine({2, 1, 1}, 0.0, program);
    c.t3e.barrier_period = 50;
    auto e = make_engine({c}, test::options());
    e->step(clocks);
    const std::vector<uint8_t> s = test::values<uint8_t>(e->state("bsu_state"));
    const std::vector<uint32_t> reg = test::values<uint32_t>(e->state("r_bsu"));
    return std::vector<uint32_t>{s[0 * kBsus], s[1 * kBsus], BsuReg::arrived(reg[0])};
  };
  using V = std::vector<uint32_t>;
  const uint32_t kFromMinusX = 1u << BsuReg::link_of_dir(kMinusX);
  EXPECT_EQ(states_after("barrier", 50), (V{kSBar, kSBar, 0}));
  EXPECT_EQ(states_after("barrier", 51), (V{kSArm, kSArm, 0}));
  EXPECT_EQ(states_after("barrier", 54), (V{kSArm, kSArm, 1u << kBsuPe}));
  EXPECT_EQ(states_after("barrier", 57), (V{kSArm, kSArm, 0}));  // complete: cleared
  EXPECT_EQ(states_after("barrier", 59), (V{kSArm, kSArm, 0}));
  EXPECT_EQ(states_after("barrier", 60), (V{kSBar, kSArm, 0}));
  EXPECT_EQ(states_after("barrier", 62), (V{kSBar, kSArm, 0}));
  EXPECT_EQ(states_after("barrier", 63), (V{kSBar, kSBar, 0}));

  EXPECT_EQ(states_after("eureka", 51), (V{kSBar, kSArm, 0}));
  EXPECT_EQ(states_after("eureka", 59), (V{kSBar, kSArm, kFromMinusX}));  // 1's barrier is in
  EXPECT_EQ(states_after("eureka", 60), (V{kSEur, kSArm, kFromMinusX}));
  EXPECT_EQ(states_after("eureka", 61), (V{kSArm, kSArm, kFromMinusX}));
  EXPECT_EQ(states_after("eureka", 66), (V{kSArm, kSArm, 0}));
  EXPECT_EQ(states_after("eureka", 67), (V{kSBar, kSArm, 0}));
  EXPECT_EQ(states_after("eureka", 69), (V{kSBar, kSArm, 0}));
  EXPECT_EQ(states_after("eureka", 70), (V{kSBar, kSBar, 0}));
}

// 32 BSUs on one tree: each link carries one barrier packet a clock, so BSU b's packets run
// b clocks behind BSU 0's all the way: the last PE hears the last BSU 31 clocks after the first.
TEST(T3eBarrier, ThirtyTwoBsusShareTheLinks) {
  Config c = machine({4, 4, 4}, 0.0, "barrier");
  c.t3e.barrier_bsus = 32;
  const InstanceResult r = test::run_one(c);
  EXPECT_DOUBLE_EQ(test::extra(r, "barrier_completions"), 10 * 64 * 32);
  EXPECT_DOUBLE_EQ(test::extra(r, "barrier_latency_max"), 42.0 + 31);
  EXPECT_DOUBLE_EQ(test::extra(r, "barrier_overruns"), 0.0);
}

// A round too short for the tree: PEs still waiting when the next round begins sit it out.
TEST(T3eBarrier, RoundsShorterThanTheLatencyOverrun) {
  Config c = machine({4, 4, 4}, 0.0, "barrier");
  c.t3e.barrier_period = 30;  // < 42
  const InstanceResult r = test::run_one(c);
  EXPECT_GT(test::extra(r, "barrier_overruns"), 0.0);
  EXPECT_GT(test::extra(r, "barrier_completions"), 0.0);
}

// Barrier packets go before any data flit: rounds every clock over 9 BSUs, one clock a hop, keep
// a 2x2x2 machine's tree links busy and no data flit moves. The watchdog cannot tell this from a
// deadlock, so its report names the barrier packets on the links.
TEST(T3eBarrier, BusyRoundsStarveTheDataAndTheWatchdogSaysSo) {
  Config c = machine({2, 2, 2}, 1.0, "barrier");
  c.t3e.buffer_depth = 2;
  c.t3e.adaptive = false;
  c.t3e.barrier_period = 1;
  c.t3e.barrier_bsus = 9;
  c.t3e.barrier_hop = 1;
  c.run.watchdog = 1000;
  const std::string m = test::simulation_error([&] { test::run_one(c); });
  EXPECT_NE(m.find("no flit has moved"), std::string::npos) << m;
  EXPECT_NE(m.find("the barrier network has"), std::string::npos) << m;
  EXPECT_NE(m.find("t3e.barrier_period = 1 clocks over t3e.barrier_bsus = 9"), std::string::npos)
      << m;
  c.t3e.barrier_period = 20;  // rounds that leave the links free now and then: data moves
  EXPECT_GT(test::run_one(c).accepted, 0.1);
}

// A register that names the wrong parent: the packet arrives where no register expects it, and
// the run ends with a configuration error naming the BSU, as a dateline error does.
TEST(T3eBarrier, AMisconfiguredTreeIsAConfigurationError) {
  Config c = machine({4, 1, 1}, 0.0, "barrier");
  auto e = make_engine({c}, test::options());
  test::edit_state<uint32_t>(*e, "r_bsu", [](std::vector<uint32_t>& w) {
    w[1 * kBsus] = BsuReg::make(BsuReg::children(w[1 * kBsus]), kPlusX);  // 1's parent is 0 (-X)
  });
  const std::string m = test::simulation_error([&] { e->step(200); });
  EXPECT_NE(m.find("BSU 0's tree"), std::string::npos) << m;
}

// The state after a run with barriers and data is the same on 1 and 2 CPU threads.
TEST(T3eBarrier, SameStateOnAnyThreadCount) {
  Config c = machine({4, 4, 2}, 0.4, "eureka");
  c.t3e.barrier_bsus = 3;
  c.t3e.barrier_period = 60;
  EXPECT_EQ(test::state_after({c}, test::options("cpu", 1, false), 1500),
            test::state_after({c}, test::options("cpu", 2, false), 1500));
}

// The CUDA backend runs the same barrier/eureka stages to the same state, under data load.
TEST(T3eBarrier, CpuAndCudaGiveBitIdenticalState) {
  if (!cuda_available())
    GTEST_SKIP() << "no CUDA device on this machine: T3E barrier CPU/GPU equality not checked";
  for (const char* program : {"barrier", "eureka"}) {
    Config c = machine({4, 4, 2}, 0.5, program);
    c.t3e.barrier_bsus = 5;
    c.t3e.barrier_period = 45;
    Config d = c;
    d.run.seed = 9;
    EXPECT_EQ(test::state_after({c, d}, test::options("cpu", 2, false), 3000),
              test::state_after({c, d}, test::options("cuda", 0, false), 3000))
        << program;
  }
}
