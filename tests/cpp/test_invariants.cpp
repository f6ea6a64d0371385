// Debug mode checks flits, credits and packets after every cycle; the watchdog checks progress.
// Deadlock-free configurations driven far past saturation must stay quiet.
#include "helpers.hpp"

using namespace ls;

namespace {

struct Case {
  const char* name;
  Config cfg;
};

std::vector<Case> heavy_cases() {
  auto c = [](const char* kind, std::vector<int64_t> radix, int64_t vcs, const char* routing,
              const char* flow, int64_t size) {
    Config x = test::network(kind, std::move(radix), 0.9, vcs);
    x.vc.routing = routing;
    x.vc.flow_control = flow;
    x.traffic.packet_size = size;
    x.traffic.offered = std::min(0.9, 0.9 * static_cast<double>(size));
    x.run.warmup = 300;
    x.run.measure = 1500;
    x.run.drain = 0;
    x.run.watchdog = 500;
    return x;
  };
  return {
      {"mesh_dor_wormhole", c("mesh", {4, 4}, 2, "dor", "wormhole", 4)},
      {"torus_dor_wormhole", c("torus", {4, 4}, 2, "dor", "wormhole", 4)},
      {"torus_dor_vct", c("torus", {5, 3}, 4, "dor", "vct", 4)},
      {"ring_dor_long_packets", c("torus", {8}, 2, "dor", "wormhole", 12)},
      {"torus3d_dor", c("torus", {3, 3, 3}, 2, "dor", "wormhole", 2)},
      {"mesh_adaptive", c("mesh", {4, 4}, 2, "min_adaptive", "wormhole", 4)},
      {"mesh8_adaptive_1flit", c("mesh", {8, 8}, 2, "min_adaptive", "wormhole", 1)},
      {"torus8_adaptive_1flit", c("torus", {8, 8}, 3, "min_adaptive", "wormhole", 1)},
      {"torus_adaptive", c("torus", {4, 4}, 3, "min_adaptive", "wormhole", 4)},
      {"torus_adaptive_vct", c("torus", {4, 4}, 4, "min_adaptive", "vct", 3)},
      {"crossbar", c("crossbar", {8}, 1, "dor", "wormhole", 3)},
  };
}

}  // namespace

class Heavy : public ::testing::TestWithParam<size_t> {};

TEST_P(Heavy, InvariantsHoldAndNothingDeadlocks) {
  const Case c = heavy_cases()[GetParam()];
  for (const std::string& b : test::backends())
    for (const char* pattern : {"uniform", "tornado"}) {
      Config cfg = c.cfg;
      cfg.traffic.pattern = pattern;
      InstanceResult r;
      ASSERT_NO_THROW(r = test::run_one(cfg, test::options(b)))
          << c.name << " " << pattern << " " << b;
      EXPECT_GT(r.accepted, 0.01) << c.name << " " << pattern << " " << b;  // the watchdog is on
    }
}

INSTANTIATE_TEST_SUITE_P(Configs, Heavy, ::testing::Range<size_t>(0, heavy_cases().size()),
                         [](const auto& info) {
                           return std::string(heavy_cases()[info.param].name);
                         });

TEST(Invariants, EveryTrafficPatternDeliversEveryPacket) {
  for (const char* p : {"uniform", "transpose", "bitcomp", "bitrev", "shuffle", "tornado",
                        "neighbor", "hotspot", "randperm", "hotregion", "fft"}) {
    Config c = test::network("torus", {4, 4}, 0.1);
    c.traffic.pattern = p;
    c.traffic.hotspot_nodes = {0, 5};
    InstanceResult r = test::run_one(c);
    EXPECT_FALSE(r.saturated) << p << ": " << r.saturation_reason;
    EXPECT_NEAR(r.accepted, r.offered, 0.02) << p;
  }
}

TEST(Invariants, CorruptedCreditIsReportedWithItsLocation) {
  Config c = test::network("mesh", {3, 3}, 0.2);
  auto e = make_engine({c}, test::options());
  e->step(50);
  HostArray credits = e->state("credits");  // [inst, router, port, vc]
  credits.bytes[(4 * 5 + 1) * 2 + 1] += 1;  // router 4, port 1, vc 1 gains a credit
  e->set_state("credits", credits);
  const std::string m = test::simulation_error([&] { e->step(1); });
  EXPECT_NE(m.find("router 5, port 2, vc 1 (the channel from router 4, port 1)"), std::string::npos)
      << m;
  EXPECT_NE(m.find("credits + occupancy"), std::string::npos) << m;
}

TEST(Invariants, WatchdogReportsWhereAStarvedNetworkIsStuck) {
  // Take every credit of router 0's +x output: its packets can never leave.
  Config c = test::network("mesh", {4}, 0.5);
  c.run.watchdog = 200;
  auto e = make_engine({c}, test::options("cpu", 1, false));
  HostArray credits = e->state("credits");
  for (uint32_t r = 0; r < 4; ++r)
    for (uint32_t p = 1; p < 3; ++p)
      for (uint32_t v = 0; v < 2; ++v) credits.bytes[(r * 3 + p) * 2 + v] = 0;
  e->set_state("credits", credits);
  const std::string m = test::simulation_error([&] { e->run(); });
  EXPECT_NE(m.find("deadlock in instance 0"), std::string::npos) << m;
  EXPECT_NE(m.find("router"), std::string::npos) << m;
}
