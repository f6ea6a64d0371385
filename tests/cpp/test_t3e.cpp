// The T3E family (kernels/t3e): zero-load latency worked out from Table 2's fall-through
// times, request/response round trips, the dateline configuration error, conservation checked
// every clock in debug mode with the watchdog quiet under saturation (deterministic and
// adaptive), the adaptive VC used only with ADAPT, and determinism across threads and batches.
#include <cstring>
#include <utility>
#include <vector>

#include "helpers.hpp"
#include "host/config/schema.hpp"

using namespace ls;

namespace {

Config t3e(std::vector<int64_t> radix, double offered, const std::string& pattern = "uniform") {
  Config c = test::network("torus", std::move(radix), offered);
  c.router.family = "t3e";
  c.traffic.pattern = pattern;
  return c;
}

// Every PE sends one request in clock 0 (a packet every clock, at most one); the run measures
// from clock 0 until every response has been created.
Config one_request_each(std::vector<int64_t> radix, const std::string& pattern) {
  Config c = t3e(std::move(radix), 4.0, pattern);  // 2 + 2 flits a clock: a request a clock
  c.traffic.max_packets = 1;
  c.run.warmup = 0;
  c.run.measure = 200;
  return c;
}

}  // namespace

// Created in clock c, a packet's head enters the source router end_point - turn clocks after
// it is sent in c + 1, crosses the crossbar (turn), each router in between (straight 3, turn
// 6: Table 2) and the destination router to its PE (end_point); the tail follows size - 1
// clocks later: 1 + end_point + sum + end_point + (size - 1). A response is created when its
// request's tail arrives and sent from the next clock, so the round trip is twice that.
TEST(T3e, ZeroLoadLatencyFollowsTable2) {
  struct Case {
    std::vector<int64_t> radix;
    const char* pattern;
    bool no_fast;
    double between;  // fall-through of the routers in between
  };
  const Case cases[] = {{{8, 1, 1}, "neighbor", false, 0},   // one hop
                        {{8, 1, 1}, "tornado", false, 6},    // three hops, straight: 3 + 3
                        {{8, 1, 1}, "tornado", true, 12},    // NO_FAST: through the crossbar
                        {{4, 4, 1}, "neighbor", false, 6}};  // +X then +Y: one turn
  for (const Case& k : cases) {
    Config c = one_request_each(k.radix, k.pattern);
    c.t3e.no_fast = k.no_fast;
    const InstanceResult r = test::run_one(c);
    const double one_way = 1 + 10 + k.between + 10 + 1;  // single-word Get: 2 flits each way
    EXPECT_EQ(r.packets, 2u * c.topology.radix[0] * c.topology.radix[1]) << k.pattern;
    EXPECT_DOUBLE_EQ(r.latency_mean, one_way) << k.pattern << " no_fast " << k.no_fast;
    EXPECT_DOUBLE_EQ(r.latency_max, one_way);
    EXPECT_DOUBLE_EQ(test::extra(r, "round_trip_mean"), 2 * one_way) << k.pattern;
  }
}

// Table 3's lengths: a vector Get's response is 10 flits, so its round trip is 9 clocks longer.
TEST(T3e, VectorGetResponseIsTenFlits) {
  Config c = one_request_each({8, 1, 1}, "neighbor");
  c.traffic.offered = 12.0;  // 2 + 10 flits: a request a clock
  c.t3e.packet_type = "vector_get";
  const InstanceResult r = test::run_one(c);
  EXPECT_DOUBLE_EQ(r.latency_mean, ((1 + 20 + 1) + (1 + 20 + 9)) / 2.0);
}

// Section 7: a head that wins both its outputs flows on the adaptive one unless both are the
// same physical output. Every PE of a 4x4x1 torus sends one request to (x+1, y+1): its first
// hop may go +X deterministically or +Y adaptively, both free, so it takes +Y on the adaptive VC;
// then +X is both its deterministic and its adaptive choice, so it takes the deterministic VC.
// The responses do the same in -X/-Y: exactly half of all link flits are adaptive. NO_ADAPT on
// every channel (R_CHAN) or ADAPT clear in the tables leaves the adaptive VC unused.
TEST(T3e, BothOutputsWonTakesTheAdaptiveOneUnlessTheSamePort) {
  Config c = one_request_each({4, 4, 1}, "neighbor");
  const InstanceResult r = test::run_one(c);
  EXPECT_DOUBLE_EQ(test::extra(r, "adaptive_fraction"), 0.5);
  EXPECT_DOUBLE_EQ(r.latency_mean, 1 + 10 + 6 + 10 + 1);  // still one turn

  auto e = make_engine({c}, test::options());
  HostArray chan = e->state("r_chan");
  for (size_t k = 0; k < chan.bytes.size(); ++k)
    if (k % 8 < 6) chan.bytes[k] |= 4;  // NO_ADAPT
  e->set_state("r_chan", chan);
  EXPECT_DOUBLE_EQ(test::extra(e->run().at(0), "adaptive_fraction"), 0.0);

  c.t3e.adaptive = false;
  EXPECT_DOUBLE_EQ(test::extra(test::run_one(c), "adaptive_fraction"), 0.0);
}

// A SELECT bit that starts a packet on VC1 across the dateline (manual, R_VCSEL): the hardware
// stops the packet; the run ends with the configuration error. The router's ports on lanes of
// their own (run.lanes = "tile") report the same error, cycle, port and VC.
TEST(T3e, Vc1PacketAtTheDatelineIsAConfigurationError) {
  std::string first;
  for (bool tile : {false, true}) {
    Config c = one_request_each({8, 1, 1}, "tornado");  // 6 -> 7 -> 0 -> 1 passes node 0
    c.t3e.adaptive = false;
    if (tile) {
      c.run.schedule = "block";
      c.run.block_order = "reversed";
      c.run.lanes = "tile";
    }
    auto e = make_engine({c}, test::options());
    test::edit_state<uint64_t>(*e, "r_vcsel", [](std::vector<uint64_t>& v) {
      for (size_t r = 0; r < 8; ++r) v[r * 6 + 0] |= 0xFF;  // +X: every destination on VC1
    });
    const std::string m = test::simulation_error([&] { e->step(100); });
    EXPECT_NE(m.find("dateline of +X"), std::string::npos) << m;
    if (first.empty()) first = m;
    EXPECT_EQ(m, first) << tile;
  }
}

// Saturated, every flit conserved clock by clock (debug mode), every packet whole and at the
// right PE, and the watchdog quiet: the dateline and request/response VCs are deadlock free,
// with and without the adaptive VC. With ADAPT the adaptive VC carries traffic; without, none.
TEST(T3e, SaturationIsDeadlockFreeAndConservesFlits) {
  for (bool adaptive : {false, true})
    for (const char* pattern : {"uniform", "transpose"}) {
      Config c = t3e({4, 4, 4}, 1.0, pattern);
      c.t3e.adaptive = adaptive;
      c.run.warmup = 300;
      c.run.measure = 1000;
      c.run.drain = 3000;
      c.run.watchdog = 500;
      const InstanceResult r = test::run_one(c);
      EXPECT_GT(r.accepted, 0.2) << pattern << " adaptive " << adaptive;
      const double share = test::extra(r, "adaptive_fraction");
      if (adaptive)
        EXPECT_GT(share, 0.05) << pattern;
      else
        EXPECT_EQ(share, 0.0) << pattern;
    }
}

// The 512-PE machine past saturation, with the watchdog on (not debug mode: 512 routers): an
// input VC whose output VC has no credit must give up its input's right to request, or it holds
// up the input's other VCs and the classes and dateline VCs wait on each other (it did).
TEST(T3e, Saturated512PeMachineKeepsMoving) {
  for (bool adaptive : {false, true}) {
    Config c = t3e({8, 8, 8}, 1.0);
    c.t3e.adaptive = adaptive;
    c.run.warmup = 1000;
    c.run.measure = 1500;
    c.run.drain = 0;
    c.run.watchdog = 500;
    const InstanceResult r = test::run_one(c, test::options("cpu", 2, false));
    EXPECT_GT(r.accepted, 0.25) << "adaptive " << adaptive;
  }
}

// The same numbers on 1 or 2 threads, alone or in a batch of two.
TEST(T3e, DeterministicAcrossThreadsAndBatches) {
  Config a = t3e({4, 4, 2}, 0.6), b = a;
  b.run.seed = 7;
  const InstanceResult one = test::run_one(a, test::options("cpu", 1, false));
  const InstanceResult two = test::run_one(a, test::options("cpu", 2, false));
  const std::vector<InstanceResult> batch =
      make_engine({b, a}, test::options("cpu", 2, false))->run();
  for (const InstanceResult* r : {&two, &batch[1]}) {
    EXPECT_EQ(r->packets, one.packets);
    EXPECT_EQ(r->latency_mean, one.latency_mean);
    EXPECT_EQ(r->accepted, one.accepted);
  }
}

// A batch of three loads of vector Puts, deterministic or adaptive: every state array the same
// on 1 and 2 threads, and on the GPU (skipped without one).
std::vector<Config> mixed_batch(bool adaptive, const char* admission = "packet") {
  std::vector<Config> cs;
  for (double o : {0.1, 0.5, 1.0}) {
    Config c = t3e({4, 4, 4}, o);
    c.t3e.adaptive = adaptive;
    c.t3e.adaptive_admission = admission;
    c.t3e.packet_type = "vector_put";
    c.run.seed = static_cast<int64_t>(o * 10);
    cs.push_back(c);
  }
  return cs;
}

// Also debug mode (a parallel step over all routers, invariants checked every clock) against
// the production schedule (instance by instance).
// Deterministic routing, then adaptive under each t3e.adaptive_admission rule.
const std::vector<std::pair<bool, const char*>> kRoutings = {
    {false, "packet"}, {true, "packet"}, {true, "empty"}, {true, "flit"}};

TEST(T3e, StateIsBitIdenticalAcrossThreadsAndSchedules) {
  for (const auto& [a, rule] : kRoutings) {
    const auto batch = mixed_batch(a, rule);
    const auto one = test::state_after(batch, test::options("cpu", 1, false), 1500);
    EXPECT_EQ(one, test::state_after(batch, test::options("cpu", 2, false), 1500)) << a << rule;
    EXPECT_EQ(one, test::state_after(batch, test::options("cpu", 2, true), 1500)) << a << rule;
  }
}

TEST(T3e, CpuAndCudaGiveBitIdenticalState) {
  if (!cuda_available())
    GTEST_SKIP() << "no CUDA device on this machine: T3E CPU/GPU equality not checked";
  for (const auto& [a, rule] : kRoutings)
    EXPECT_EQ(test::state_after(mixed_batch(a, rule), test::options("cpu", 2, false), 3000),
              test::state_after(mixed_batch(a, rule), test::options("cuda", 0, false), 3000))
        << a << rule;
}

// Bad keys name the key, the value and what is allowed.
TEST(T3e, ConfigurationErrorsNameTheKey) {
  Config c = t3e({4, 4}, 0.1);
  try {
    validate(c);
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("a torus of 3 dimensions"), std::string::npos);
  }
  c = t3e({8, 8, 16}, 0.1);
  c.t3e.lut_mode = "mode0";
  try {
    validate(c);
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("t3e.lut_mode = \"mode0\": allowed for at most 544"),
              std::string::npos)
        << e.what();
  }
}

// t3e.packet_mix draws each request's type: weight on one type alone is that type (the same
// numbers as t3e.packet_type), and an even mix of the four delivers packets of 4.25 flits on
// average ((2 + 2 + 4 + 10) / 4 request flits and (2 + 10 + 2 + 2) / 4 response flits).
TEST(T3e, PacketMixDrawsTypesByWeight) {
  Config typed = one_request_each({8, 1, 1}, "neighbor");
  typed.traffic.offered = 12.0;
  typed.t3e.packet_type = "vector_get";
  Config mixed = typed;
  mixed.t3e.packet_type = "single_word_put";
  mixed.t3e.packet_mix = {0, 1, 0, 0};
  const InstanceResult a = test::run_one(typed), b = test::run_one(mixed);
  EXPECT_EQ(a.latency_mean, b.latency_mean);
  EXPECT_EQ(test::extra(a, "round_trip_mean"), test::extra(b, "round_trip_mean"));

  Config even = t3e({4, 4, 1}, 0.2);
  even.t3e.packet_mix = {1, 1, 1, 1};
  even.run.measure = 20000;
  const InstanceResult r = test::run_one(even, test::options("cpu", 1, false));
  const double flits = r.accepted * 16 * 20000;
  EXPECT_NEAR(flits / static_cast<double>(r.packets), 4.25, 0.1);
  EXPECT_NEAR(r.offered, 0.2, 0.01);
}

// Ordered requests (t3e.ordered_fraction) leave with ADAPT clear: under transpose traffic the
// adaptive VC carries less, and only responses use it when every request is ordered.
TEST(T3e, OrderedRequestsDoNotAdapt) {
  double share[3];
  const double fractions[3] = {0.0, 0.5, 1.0};
  for (int i = 0; i < 3; ++i) {
    Config c = t3e({4, 4, 1}, 0.5, "transpose");
    c.t3e.ordered_fraction = fractions[i];
    share[i] = test::extra(test::run_one(c, test::options("cpu", 1, false)), "adaptive_fraction");
  }
  EXPECT_GT(share[0], share[1] + 0.02);
  EXPECT_GT(share[1], share[2] + 0.02);
  EXPECT_GT(share[2], 0.02);  // the responses'
}

// Software loads the registers (set_state), but a router or PE number outside the machine would
// make the routers read outside their tables (found by fuzz/t3e_registers.cpp): refused.
TEST(T3e, RegisterWritesNamingNoRouterOrPeAreRefused) {
  Config c;
  c.router.family = "t3e";
  c.topology.kind = "torus";
  c.topology.radix = {4, 2, 2};
  std::unique_ptr<Engine> e = make_engine({c}, test::options());
  const auto write = [&](const char* name, size_t at, uint32_t value) {
    HostArray a = e->state(name);
    std::memcpy(a.bytes.data() + 4 * at, &value, 4);
    try {
      e->set_state(name, a);
    } catch (const ConfigError& x) {
      return std::string(x.what());
    }
    return std::string();
  };
  EXPECT_NE(write("pe_router", 3, 16)
                .find("state \"pe_router\": allowed numbers of routers with "
                      "a PE (16 routers, 16 PEs), here 16 at flat index 3"),
            std::string::npos);
  EXPECT_NE(write("r_lwho", 0, 0xFFFFFFFFu).find("allowed logical PE numbers below 16"),
            std::string::npos);
  EXPECT_NE(write("virtual_limit", 0, 16).find("base_lpe + virtual_limit below 16"),
            std::string::npos);
  EXPECT_EQ(write("pe_router", 3, 3), "");  // within the machine: the program's to get right
  e->step(10);
}
