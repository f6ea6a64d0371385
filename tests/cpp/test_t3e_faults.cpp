// Faults on the T3E (paper section 9; manual R_CHAN): failed links and nodes cut off with
// IGNORE_NORMAL, tables rerouted around them (the other sign, initial and final hops), ADAPT
// cleared where a minimal path crosses a fault, unreachable pairs reported, and packets caught
// on a link when it fails lost and counted, with every flit accounted for clock by clock.
#include "helpers.hpp"
#include "host/config/schema.hpp"
#include "host/t3e/fault_routes.hpp"
#include "kernels/t3e/t3e_state.hpp"

using namespace ls;
using namespace ls::t3e;

namespace {

Config machine(std::vector<int64_t> radix, double offered) {
  Config c = test::network("torus", std::move(radix), offered);
  c.router.family = "t3e";
  return c;
}

// The router at physical (x, y, z) of a kx x ky torus (R_ORIENT 0: physical = cube order).
uint32_t at(const Config& c, uint32_t x, uint32_t y, uint32_t z = 0) {
  const auto& k = c.topology.radix;
  return x + static_cast<uint32_t>(k[0]) * (y + static_cast<uint32_t>(k[1]) * z);
}

// The registers with c's faults applied, and the report.
struct Faulted {
  Registers g;
  FaultReport report;
};
Faulted faulted(const Config& c) {
  const Topology t = build_cube(c.topology);
  Faulted f{make_registers(c, t), {}};
  f.report = route_around(c, t, f.g);
  return f;
}
uint32_t entry(const Faulted& f, uint32_t src, uint32_t dst) {
  return f.g.net_lut[size_t{src} * f.g.lut_entries + f.g.lwho[dst]];
}

// Flits per cycle leaving router r by the port of direction dir (R_ORIENT 0: +d is 1 + 2d).
double link_use(const InstanceResult& r, const Config& c, uint32_t router, uint32_t dir) {
  return r.link_utilization[router * 7 + (dir < 3 ? 1 + 2 * dir : 2 + 2 * (dir - 3))];
}

}  // namespace

// On a ring of 4 with the link 1 -> 2 failed, 1 reaches 2 the other way round (3 hops) and so
// do the pairs whose short way crossed it; under load nothing crosses the link, nothing is
// lost, and the mean hop count rises accordingly.
TEST(T3eFaults, RingRoutesTheOtherWayRound) {
  Config c = machine({4, 1, 1}, 0.3);
  c.t3e.failed_links = {1, 0, 0, 0};
  const Faulted f = faulted(c);
  EXPECT_EQ(f.report.unreachable_pairs, 0u);
  EXPECT_EQ(Tag::sgn(entry(f, 1, 2), 0), 1u);  // -X
  EXPECT_EQ(Tag::sgn(entry(f, 2, 1), 0), 0u);  // +X
  EXPECT_EQ(Tag::sgn(entry(f, 0, 2), 0), 1u);  // the tie at distance 2 goes - now
  EXPECT_EQ(Tag::sgn(entry(f, 2, 0), 0), 0u);  // and this one + (from even 2 it went +: kept)
  EXPECT_FALSE(Tag::adapt(entry(f, 1, 2)));
  EXPECT_EQ(f.g.chan[1 * 8 + kPlusX] & (kIgnoreNormal | kNoAdapt), kIgnoreNormal | kNoAdapt);
  EXPECT_EQ(f.g.chan[2 * 8 + kMinusX] & (kIgnoreNormal | kNoAdapt), kIgnoreNormal | kNoAdapt);

  const InstanceResult healthy = test::run_one(machine({4, 1, 1}, 0.3));
  const InstanceResult r = test::run_one(c);
  EXPECT_FALSE(r.saturated) << r.saturation_reason;
  EXPECT_EQ(r.lost, 0u);
  EXPECT_EQ(link_use(r, c, 1, kPlusX), 0.0);
  EXPECT_EQ(link_use(r, c, 2, kMinusX), 0.0);
  EXPECT_GT(link_use(healthy, c, 1, kPlusX), 0.0);
  EXPECT_GT(r.hops_mean, healthy.hops_mean + 0.2);
}

// Direction order turns on the same corner for both sign choices here, so the detour uses an
// initial hop (section 2.2): with node (1,0) down, (0,0) -> (1,1) goes +Y first, then +X: two
// hops, the shortest route around it.
TEST(T3eFaults, InitialHopTurnsAnotherCorner) {
  Config c = machine({4, 4, 1}, 0.3);
  c.t3e.failed_nodes = {1, 0, 0};
  const Faulted f = faulted(c);
  const uint32_t tag = entry(f, at(c, 0, 0), at(c, 1, 1));
  EXPECT_EQ(Tag::initial(tag), uint32_t{kPlusY});
  EXPECT_EQ(Tag::sgn(tag, 0), 0u);
  EXPECT_FALSE(Tag::adapt(tag));
  EXPECT_EQ(f.report.unreachable_pairs, 0u);  // a 2-D torus stays connected without one node
  EXPECT_GT(f.report.rerouted_pairs, 0u);
  // The failed node is cut off: its PE channel and every channel into it ignore what arrives.
  EXPECT_TRUE(f.g.chan[at(c, 1, 0) * 8 + kPeChan] & kIgnoreNormal);
  EXPECT_TRUE(f.g.chan[at(c, 0, 0) * 8 + kPlusX] & kIgnoreNormal);
  EXPECT_TRUE(f.g.chan[at(c, 1, 1) * 8 + kMinusY] & kIgnoreNormal);
  EXPECT_TRUE(Tag::no_route(entry(f, at(c, 0, 0), at(c, 1, 0))));
  EXPECT_TRUE(Tag::no_route(entry(f, at(c, 1, 0), at(c, 0, 0))));
}

// ADAPT stays only where no minimal path crosses the fault (section 2: "used to disable
// adaptivity in the event of a faulty link in one of the minimal paths").
TEST(T3eFaults, AdaptClearedWhereAMinimalPathCrossesTheFault) {
  Config c = machine({4, 4, 1}, 0.3);
  c.t3e.failed_links = {1, 0, 0, 0};  // (1,0) -> (2,0)
  const Faulted f = faulted(c);
  EXPECT_FALSE(Tag::adapt(entry(f, at(c, 0, 0), at(c, 2, 1))));  // its box holds the link
  EXPECT_TRUE(Tag::adapt(entry(f, at(c, 0, 1), at(c, 2, 2))));   // its box does not
  EXPECT_TRUE(Tag::adapt(entry(f, at(c, 2, 2), at(c, 1, 3))));   // -X on other rows
  // The link fails both ways: a -X pair whose box holds it loses ADAPT too, though its
  // deterministic route (+Y first) avoids the link.
  EXPECT_FALSE(Tag::adapt(entry(f, at(c, 2, 0), at(c, 1, 1))));
  EXPECT_EQ(Tag::sgn(entry(f, at(c, 2, 0), at(c, 1, 1)), 0), 1u);
}

// Two failed links split a ring of 4 into {1, 2} and {3, 0}: 8 ordered pairs cannot be
// connected; packets between them are not sent and are counted lost (and unroutable), the rest
// are delivered, and the run drains.
TEST(T3eFaults, DisconnectedPairsAreReportedAndTheirPacketsLost) {
  Config c = machine({4, 1, 1}, 0.3);
  c.t3e.failed_links = {0, 0, 0, 0, 2, 0, 0, 0};
  const Faulted f = faulted(c);
  EXPECT_EQ(f.report.unreachable_pairs, 8u);
  EXPECT_TRUE(Tag::no_route(entry(f, 1, 3)));
  EXPECT_FALSE(Tag::no_route(entry(f, 1, 2)));
  const InstanceResult r = test::run_one(c);
  EXPECT_EQ(test::extra(r, "unreachable_pairs"), 8.0);
  EXPECT_GT(r.lost, 0u);
  EXPECT_EQ(static_cast<double>(r.lost), test::extra(r, "unroutable_packets"));
  EXPECT_FALSE(r.saturated) << r.saturation_reason;
  // About half the requests find no route; the other half and their responses get through.
  EXPECT_NEAR(static_cast<double>(r.lost) / static_cast<double>(r.lost + r.packets / 2), 0.5, 0.1);
}

// A node down before the run: nothing moves on its links, packets to and from it are lost at
// their source, and every packet between live nodes is delivered.
TEST(T3eFaults, FailedNodeIsCutOff) {
  Config c = machine({4, 4, 1}, 0.4);
  c.t3e.failed_nodes = {1, 0, 0};
  const InstanceResult r = test::run_one(c);
  EXPECT_FALSE(r.saturated) << r.saturation_reason;
  EXPECT_EQ(test::extra(r, "unreachable_pairs"), 0.0);
  EXPECT_EQ(static_cast<double>(r.lost), test::extra(r, "unroutable_packets"));
  EXPECT_GT(r.lost, 0u);
  const uint32_t dead = at(c, 1, 0);
  for (uint32_t dir = 0; dir < kDirections; ++dir) EXPECT_EQ(link_use(r, c, dead, dir), 0.0);
  EXPECT_EQ(link_use(r, c, at(c, 0, 0), kPlusX), 0.0);
  EXPECT_EQ(link_use(r, c, at(c, 2, 0), kMinusX), 0.0);
  EXPECT_EQ(link_use(r, c, at(c, 1, 1), kMinusY), 0.0);
  EXPECT_EQ(link_use(r, c, at(c, 1, 3), kPlusY), 0.0);
}

// IGNORE_NORMAL set by hand on one channel, the tables left as they are: packets routed across
// it are discarded where they arrive (their credits returned, so nothing blocks) and counted
// lost; the others are delivered; every flit is accounted for clock by clock (debug mode).
TEST(T3eFaults, IgnoreNormalDiscardsWhatArrives) {
  Config c = machine({4, 1, 1}, 0.3);
  c.t3e.adaptive = false;
  auto e = make_engine({c}, test::options());
  HostArray chan = e->state("r_chan");
  chan.bytes[2 * 8 + kMinusX] |= kIgnoreNormal;  // router 2 ignores what comes from router 1
  e->set_state("r_chan", chan);
  const InstanceResult r = e->run().at(0);
  EXPECT_GT(r.lost, 0u);
  EXPECT_EQ(test::extra(r, "unroutable_packets"), 0.0);
  EXPECT_FALSE(r.saturated) << r.saturation_reason;
  const std::vector<uint64_t> dropped = test::values<uint64_t>(e->state("dropped_flits"));
  EXPECT_GT(dropped[2], 0u);
  EXPECT_EQ(dropped[0] + dropped[1] + dropped[3], 0u);
}

// IGNORE_NORMAL concerns "packets on this channel that use the direction order routing
// buffers" (manual Table 10): on an adaptive 4x4 torus with the bit set on one input channel,
// packets arriving there on the deterministic VCs are dropped, never buffered, while the
// adaptive VC's are taken in as usual.
TEST(T3eFaults, IgnoreNormalLeavesTheAdaptiveVcAlone) {
  Config c = machine({4, 4, 1}, 0.6);
  auto e = make_engine({c}, test::options());
  const uint32_t r = 5, p = 2;  // router 5's -X port (R_ORIENT 0): what comes from router 4
  HostArray chan = e->state("r_chan");
  chan.bytes[r * 8 + kMinusX] |= kIgnoreNormal;
  e->set_state("r_chan", chan);
  uint32_t deterministic = 0, adaptive = 0;
  for (int t = 0; t < 2000; ++t) {
    e->step(1);
    const std::vector<uint8_t> occ = test::values<uint8_t>(e->state("occupancy"));
    for (uint32_t vc = 0; vc < kVcs; ++vc)
      (vc == kAdaptiveVc ? adaptive : deterministic) += occ[(r * kPorts + p) * kVcs + vc];
  }
  EXPECT_EQ(deterministic, 0u);
  EXPECT_GT(adaptive, 0u);
  EXPECT_GT(test::values<uint64_t>(e->state("dropped_flits"))[r], 0u);
}

// A link failing mid-run (t3e.fail_cycle) under load: packets already in the network with a
// tag across it are lost where they arrive over it; later ones go round; the watchdog stays
// quiet.
TEST(T3eFaults, LinkFailingMidRunLosesOnlyWhatIsOnIt) {
  Config c = machine({8, 1, 1}, 0.5);
  c.t3e.adaptive = false;
  c.t3e.failed_links = {3, 0, 0, 0};
  c.t3e.fail_cycle = 700;  // inside the window [500, 2500)
  c.run.watchdog = 500;
  auto e = make_engine({c}, test::options());
  const InstanceResult r = e->run().at(0);
  const std::vector<uint64_t> dropped = test::values<uint64_t>(e->state("dropped_flits"));
  EXPECT_GT(dropped[4], 0u);  // router 4 ignored what was on its way from router 3
  EXPECT_GT(r.lost, 0u);
  EXPECT_LT(r.lost, 100u);  // those injected with the old tags, not a stream
  EXPECT_EQ(test::extra(r, "unroutable_packets"), 0.0);
  EXPECT_EQ(test::extra(r, "unreachable_pairs"), 0.0);
  const std::vector<uint8_t> chan = test::values<uint8_t>(e->state("r_chan"));
  EXPECT_TRUE(chan[4 * 8 + kMinusX] & kIgnoreNormal);
}

// Every single link of a 4x4x2 torus failing in turn, saturated, adaptive: the rerouted tables
// never put VC1 across a dateline (that would stop the run), never deadlock, lose nothing.
TEST(T3eFaults, EverySingleLinkFailureIsDeadlockFree) {
  Config c = machine({4, 4, 2}, 1.0);
  c.run.warmup = 200;
  c.run.measure = 500;
  c.run.drain = 3000;
  c.run.watchdog = 400;
  std::vector<Config> batch;
  for (int64_t z = 0; z < 2; ++z)
    for (int64_t y = 0; y < 4; ++y)
      for (int64_t x = 0; x < 4; ++x)
        for (int64_t d = 0; d < 3; ++d) {
          Config f = c;
          f.t3e.failed_links = {x, y, z, d};
          batch.push_back(f);
        }
  const std::vector<InstanceResult> rs = make_engine(batch, test::options("cpu", 2, false))->run();
  for (size_t i = 0; i < rs.size(); ++i) {
    EXPECT_EQ(rs[i].lost, 0u) << i;
    EXPECT_EQ(test::extra(rs[i], "unreachable_pairs"), 0.0) << i;
    EXPECT_GT(rs[i].accepted, 0.2) << i;
  }
}

TEST(T3eFaults, BadFaultsAreRefusedByName) {
  struct Case {
    std::vector<int64_t> links, nodes;
    std::string lut_mode;
    const char* message;
  };
  const Case cases[] = {
      {{1, 0, 0}, {}, "auto", "t3e.failed_links = [1, 0, 0]: allowed groups of 4"},
      {{4, 0, 0, 0}, {}, "auto", "group 0 has x = 4, allowed below topology.radix[0] = 4"},
      {{0, 0, 0, 2}, {}, "auto", "names dimension 2, allowed a dimension of more than one"},
      {{}, {0, 0, 0, 1, 5, 0}, "auto", "t3e.failed_nodes = [0, 0, 0, 1, 5, 0]: group 1 has y"},
      {{}, {0, 0, 0}, "mode1", "t3e.lut_mode = \"mode1\": allowed with t3e.failed_links or"},
  };
  for (const Case& k : cases) {
    Config c = machine({4, 4, 1}, 0.1);
    c.t3e.failed_links = k.links;
    c.t3e.failed_nodes = k.nodes;
    c.t3e.lut_mode = k.lut_mode;
    try {
      validate(c);
      ADD_FAILURE() << "accepted: " << k.message;
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find(k.message), std::string::npos) << e.what();
    }
  }
}
