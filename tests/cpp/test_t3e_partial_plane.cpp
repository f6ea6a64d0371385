// Partial planes on the T3E (manual, "Partial planes"; paper section 2.3): the machine's wiring
// (short Z rings, the partial plane's X ring and Y line), the logical numbers of the installed
// nodes, tables whose every route arrives (initial +Z hops out of the partial plane where no
// direction-order route exists), adaptive routing that never circles a short ring, and
// deadlock-free saturation with every flit accounted for.
#include "helpers.hpp"
#include "host/config/schema.hpp"
#include "host/t3e/partial_plane.hpp"
#include "host/t3e/t3e_registers.hpp"

using namespace ls;
using namespace ls::t3e;

namespace {

// The manual's 20-PE AC machine (Figure 17): 2 x 4 x 2 full planes and a Z = 2 plane of 2 x 2.
Config twenty_pes(double offered = 0.1) {
  Config c = test::network("torus", {2, 4, 3}, offered);
  c.router.family = "t3e";
  c.t3e.partial_plane = {2, 2};
  return c;
}

struct Machine {
  Topology t;
  Registers g;
  std::vector<int32_t> next;
  explicit Machine(const Config& c)
      : t(machine_topology(c)), g(make_registers(c, t)), next(neighbours(t, g)) {}
  uint32_t router(uint32_t x, uint32_t y, uint32_t z) const {
    for (uint32_t r = 0; r < g.pwho.size(); ++r)
      if (g.pwho[r] == make_pwho(x, y, z)) return r;
    return UINT32_MAX;
  }
  int32_t step(uint32_t r, uint32_t dir) const { return next[r * kDirections + dir]; }
  // Hops of the route the R_NET_LUT entry for logical PE lpe takes from router src, -1 if it
  // does not reach the PE (direction-order routing as route.hpp does it).
  int hops(uint32_t src, uint32_t lpe) const {
    uint32_t tag = g.net_lut[size_t{src} * g.lut_entries + lpe], here = src;
    for (int n = 0; n < 40; ++n) {
      const Hop h = next_hop(tag, g.pwho[here], n == 0);
      if (h.dir == kDirections) return here == g.pe_router[lpe] ? n : -1;
      if (step(here, h.dir) < 0) return -1;
      here = static_cast<uint32_t>(step(here, h.dir));
      tag = h.tag;
    }
    return -1;
  }
};

}  // namespace

TEST(T3ePartialPlane, WiringOfTheManualsTwentyPeMachine) {
  const Machine m(twenty_pes());
  EXPECT_EQ(machine_pes(twenty_pes()), 20u);
  EXPECT_EQ(m.g.pe_router.size(), 20u);
  // Columns with no partial-plane node close their Z ring over two nodes: Z = 1 -> Z = 0.
  EXPECT_EQ(m.step(m.router(1, 3, 1), kPlusZ), static_cast<int32_t>(m.router(1, 3, 0)));
  EXPECT_EQ(m.step(m.router(1, 3, 0), kMinusZ), static_cast<int32_t>(m.router(1, 3, 1)));
  // Columns with one keep the full ring of three.
  EXPECT_EQ(m.step(m.router(0, 1, 1), kPlusZ), static_cast<int32_t>(m.router(0, 1, 2)));
  EXPECT_EQ(m.step(m.router(0, 1, 2), kPlusZ), static_cast<int32_t>(m.router(0, 1, 0)));
  // The partial plane: X closes (a ring of 2), Y is a line of 2.
  EXPECT_EQ(m.step(m.router(1, 0, 2), kPlusX), static_cast<int32_t>(m.router(0, 0, 2)));
  EXPECT_EQ(m.step(m.router(0, 0, 2), kPlusY), static_cast<int32_t>(m.router(0, 1, 2)));
  EXPECT_EQ(m.step(m.router(0, 1, 2), kPlusY), -1);
  EXPECT_EQ(m.step(m.router(0, 0, 2), kMinusY), -1);
  // Empty slots: no number, no link.
  const uint32_t empty = m.router(0, 2, 2);
  EXPECT_EQ(m.g.lwho[empty], kNoPe);
  for (uint32_t dir = 0; dir < kDirections; ++dir) EXPECT_EQ(m.step(empty, dir), -1);
  // Logical numbers: the full planes' linear numbers, then the partial plane's.
  EXPECT_EQ(m.g.lwho[m.router(1, 3, 1)], 15u);
  EXPECT_EQ(m.g.lwho[m.router(0, 0, 2)], 16u);
  EXPECT_EQ(m.g.lwho[m.router(1, 1, 2)], 19u);
  // No channel without a link adapts; the +Z dateline sits at Z = 1, so the initial +Z hop out
  // of the partial plane (Z = 2 -> 0) enters no dateline.
  EXPECT_TRUE(m.g.chan[m.router(0, 1, 2) * 8 + kPlusY] & kNoAdapt);
  EXPECT_TRUE(m.g.vcsel[m.router(0, 1, 1) * kDirections + kPlusZ] & kDatelineBit);
  EXPECT_FALSE(m.g.vcsel[m.router(0, 1, 0) * kDirections + kPlusZ] & kDatelineBit);
}

// Every pair's route arrives, at most two hops beyond the shortest path; from (0, 1, 2) to
// (0, 2, 1) no direction-order route exists (+Y leaves the partial plane's line, -Y has no
// wrap), so the table takes the paper's initial +Z hop to (0, 1, 0) and goes on from there.
TEST(T3ePartialPlane, EveryRouteArrivesWithInitialHopsWhereNeeded) {
  for (const Config& c : {twenty_pes(), [] {
                            Config c4 = twenty_pes();
                            c4.topology.radix = {4, 4, 4};
                            c4.t3e.partial_plane = {3, 2};
                            return c4;
                          }()}) {
    const Machine m(c);
    uint32_t initial = 0, final_hops = 0;
    for (uint32_t lpe_src = 0; lpe_src < m.g.pe_router.size(); ++lpe_src)
      for (uint32_t lpe = 0; lpe < m.g.pe_router.size(); ++lpe) {
        const uint32_t src = m.g.pe_router[lpe_src];
        const uint32_t tag = m.g.net_lut[size_t{src} * m.g.lut_entries + lpe];
        ASSERT_GE(m.hops(src, lpe), 0) << "logical PE " << lpe_src << " to " << lpe;
        initial += Tag::initial(tag) != kNoHop;
        final_hops += Tag::final_hop(tag);
        if (Tag::initial(tag) != kNoHop || Tag::final_hop(tag))
          EXPECT_FALSE(Tag::adapt(tag)) << "an initial or final hop pends: no adaptive request";
      }
    EXPECT_GT(initial, 0u);
    if (c.topology.radix[0] == 4) EXPECT_GT(final_hops, 0u);
  }
  const Machine m(twenty_pes());
  const uint32_t src = m.router(0, 1, 2), dst = m.g.lwho[m.router(0, 2, 1)];
  const uint32_t tag = m.g.net_lut[size_t{src} * m.g.lut_entries + dst];
  EXPECT_EQ(Tag::initial(tag), kPlusZ);
  EXPECT_EQ(m.hops(src, dst), 3);
}

// The routers compare addresses, so an adaptive packet bound for the partial plane would circle
// a short Z ring; the tables keep ADAPT only where every adaptive hop is a step nearer, so
// adaptive routing costs no hops over deterministic at light load.
TEST(T3ePartialPlane, AdaptiveRoutingNeverCircles) {
  Config c = twenty_pes(0.05);
  const InstanceResult adaptive = test::run_one(c, test::options("cpu", 1, false));
  c.t3e.adaptive = false;
  const InstanceResult fixed = test::run_one(c, test::options("cpu", 1, false));
  EXPECT_GT(test::extra(adaptive, "adaptive_fraction"), 0.2);
  EXPECT_LT(adaptive.hops_mean, fixed.hops_mean * 1.02);
  EXPECT_NEAR(adaptive.offered, 0.05, 0.01);  // per installed PE
}

// Saturated, with the invariants checked every clock and the watchdog on: no deadlock, nothing
// lost, every flit accounted for; barrier rounds on the installed PEs complete alongside.
TEST(T3ePartialPlane, SaturationIsDeadlockFree) {
  for (auto [radix, plane] : std::vector<std::pair<std::vector<int64_t>, std::vector<int64_t>>>{
           {{2, 4, 3}, {2, 2}}, {{4, 4, 4}, {3, 2}}, {{4, 2, 3}, {4, 1}}}) {
    Config c = twenty_pes(0.9);
    c.topology.radix = radix;
    c.t3e.partial_plane = plane;
    c.t3e.barrier = "barrier";
    c.t3e.barrier_period = 300;
    c.run.measure = 1500;
    c.run.drain = 20000;
    const InstanceResult r = test::run_one(c);
    EXPECT_EQ(r.lost, 0u);
    EXPECT_GT(r.accepted, 0.5);
    EXPECT_GT(test::extra(r, "barrier_completions"), 0);
  }
}

// A Y = 2 machine is one PCB high, its external Y links unconnected (manual, "Y=2
// Communication Link Connections"): one link joins Y = 0 and Y = 1, no wrap link, no Y
// dateline; every route arrives in one Y hop whatever the tie rule (with "plus", Y = 1 still
// goes -), under R_ORIENT too, and the machine saturates without loss.
TEST(T3ePartialPlane, AYOfTwoIsALineOfOneLink) {
  for (const char* tie : {"parity", "plus"})
    for (int64_t orient : {0, 2}) {
      Config c = test::network("torus", {4, 2, 2}, 0.9);
      c.router.family = "t3e";
      c.t3e.half_ring_tie = tie;
      c.t3e.r_orient = orient;
      const Machine m(c);
      for (uint32_t x = 0; x < 4; ++x)
        for (uint32_t z = 0; z < 2; ++z) {
          const uint32_t low = m.router(x, 0, z), high = m.router(x, 1, z);
          EXPECT_EQ(m.step(low, kPlusY), static_cast<int32_t>(high));
          EXPECT_EQ(m.step(high, kMinusY), static_cast<int32_t>(low));
          EXPECT_LT(m.step(high, kPlusY), 0) << "no wrap link";
          EXPECT_LT(m.step(low, kMinusY), 0);
          for (uint32_t dir : {kPlusY, kMinusY}) {
            EXPECT_FALSE(m.g.vcsel[low * kDirections + dir] & kDatelineBit);
            EXPECT_FALSE(m.g.vcsel[high * kDirections + dir] & kDatelineBit);
          }
        }
      for (uint32_t src = 0; src < 16; ++src)
        for (uint32_t lpe = 0; lpe < 16; ++lpe) EXPECT_GE(m.hops(src, lpe), 0) << tie;
      c.run.measure = 1500;
      c.run.drain = 20000;
      const InstanceResult r = test::run_one(c);
      EXPECT_EQ(r.lost, 0u) << tie;
      EXPECT_GT(r.accepted, 0.5) << tie;
    }
}

TEST(T3ePartialPlane, ConfigurationErrorsNameTheKey) {
  auto error_of = [](const Config& c) { return test::config_error_of([&] { validate(c); }); };
  Config c = twenty_pes();
  c.t3e.partial_plane = {2};
  EXPECT_NE(error_of(c).find("t3e.partial_plane = [2]: allowed [nx, ny]"), std::string::npos);
  c.t3e.partial_plane = {2, 5};
  EXPECT_NE(error_of(c).find("allowed y up to topology.radix[1] = 4"), std::string::npos)
      << error_of(c);
  c.t3e.partial_plane = {2, 4};
  EXPECT_NE(error_of(c).find("allowed fewer nodes than a full plane (8)"), std::string::npos);
  c.t3e.partial_plane = {2, 2};
  c.t3e.lut_mode = "mode1";
  EXPECT_NE(error_of(c).find("t3e.lut_mode = \"mode1\": allowed with t3e.partial_plane only "
                             "mode0"),
            std::string::npos)
      << error_of(c);
  c.t3e.lut_mode = "auto";
  c.t3e.failed_nodes = {0, 3, 2};
  EXPECT_NE(error_of(c).find("group 0 names an empty slot"), std::string::npos) << error_of(c);
  c = twenty_pes();
  c.topology.radix = {2, 4, 1};
  EXPECT_NE(error_of(c).find("allowed only with at least 2 Z planes"), std::string::npos);
  c = twenty_pes();
  c.t3e.partitions = {0, 20};
  EXPECT_NE(error_of(c).find("partition 0 reaches logical PE 20, allowed up to 19"),
            std::string::npos)
      << error_of(c);
}
