// The T3E router core's arbitration rules (paper section 7, kernels/t3e/arbiter.hpp) on
// scenarios built so that each rule alone decides a count: round-robin among the packets that
// ask for an output VC, seen as the parking-lot shares of a ring whose every PE sends to one
// node; and the adaptive VC's admission, which takes a packet only if the downstream adaptive
// buffer has room for the whole of it (section 5).
#include "helpers.hpp"

using namespace ls;

namespace {

Config t3e(std::vector<int64_t> radix, double offered, const std::string& pattern) {
  Config c = test::network("torus", std::move(radix), offered);
  c.router.family = "t3e";
  c.traffic.pattern = pattern;
  return c;
}

}  // namespace

// Every PE of an 8-node ring sends requests to PE 0 as fast as it can, on the deterministic VCs
// (direction order: PEs 1-3 go -X, PEs 4-7 +X, the tie at 4 going + from even sources). Where a
// PE's packets merge with those passing through, the output VC's round-robin gives each side
// every other packet, so each merge halves what comes from further away: over the same clocks
// PE 1 starts twice the packets of PE 2 and of PE 3 (the end of its chain); PE 7 twice PE 6's,
// four times PE 5's and PE 4's.
TEST(T3eArbitration, OutputVcRoundRobinHalvesTheShareAtEveryMerge) {
  Config c = t3e({8, 1, 1}, 1.0, "hotspot");
  c.traffic.hotspot_nodes = {0};
  c.traffic.hotspot_fraction = 1.0;
  c.t3e.adaptive = false;
  auto e = make_engine({c}, test::options("cpu", 1, false));
  e->step(3000);  // past the start, when every queue has filled
  const std::vector<uint32_t> a = test::values<uint32_t>(e->state("packets_started"));
  e->step(8000);
  const std::vector<uint32_t> b = test::values<uint32_t>(e->state("packets_started"));
  std::vector<double> n(8);
  for (size_t k = 0; k < 8; ++k) n[k] = b[k] - a[k];
  ASSERT_GT(n[5], 50.0);
  const double unit = n[5];  // PE 5's share: 1/8 of the +X link
  const std::vector<double> share = {0, 4, 2, 2, 1, 1, 2, 4};
  for (size_t k = 1; k < 8; ++k) EXPECT_NEAR(n[k], share[k] * unit, 0.03 * share[k] * unit) << k;
}

// Section 5: a packet may take the adaptive VC only if the downstream adaptive buffer has room
// for all of it. Every PE of a 4x4x1 torus sends one vector Get to (x+1, y+1): each request (2
// flits) and each response (10 flits) crosses two links, the first on the adaptive VC when it
// may (BothOutputsWonTakesTheAdaptiveOneUnlessTheSamePort), so half of all link flits are
// adaptive. With every adaptive output VC's credits cut to 9 before the start, the requests
// still fit and adapt; the responses never do: 2 adaptive flits of every 24.
TEST(T3eArbitration, AdaptiveVcTakesOnlyAPacketThatFitsWhole) {
  Config c = t3e({4, 4, 1}, 12.0, "neighbor");  // 2 + 10 flits a clock: a request a clock
  c.t3e.packet_type = "vector_get";
  c.traffic.max_packets = 1;
  c.run.warmup = 0;
  c.run.measure = 300;
  for (uint8_t room : {22, 10, 9, 1}) {
    auto e = make_engine({c}, test::options("cpu", 1, false));
    test::edit_state<uint8_t>(*e, "credits", [room](std::vector<uint8_t>& credits) {
      for (size_t k = 4; k < credits.size(); k += 5) credits[k] = room;  // [.., port, vc 4]
    });
    const InstanceResult r = e->run().at(0);
    const double expected = room >= 10 ? 0.5 : room >= 2 ? 2.0 / 24 : 0.0;
    EXPECT_DOUBLE_EQ(test::extra(r, "adaptive_fraction"), expected) << int{room};
    EXPECT_EQ(r.packets, 32u) << int{room};  // every request and response delivered
  }
}
