// Routing tables by resource ordering: complete and deadlock-free on every topology (the
// checker finds nothing), minimal wherever the order allows (every hypercube and mesh route),
// and the checker's own findings on tables that are wrong, a minimal ring among them.
#include <cstdio>

#include "graph_helpers.hpp"
#include "host/config/schema.hpp"
#include "host/routing/routing_table.hpp"

using namespace ls;

namespace {

RoutingStats built_and_checked(const TopologyConfig& c, RoutingTable* out = nullptr) {
  const Topology t = build_topology(c);
  RoutingStats s;
  RoutingTable rt = build_routing_table(t, &s);
  EXPECT_EQ(check_routing_table(t, rt), std::vector<std::string>{}) << c.kind;
  std::printf(
      "%-16s %4u routers: minimal %.4f  stretch %.4f  options %.3f of %.3f minimal  root %u\n",
      c.kind.c_str(), t.routers, s.minimal, s.stretch, s.options, s.minimal_options, s.root);
  if (out) *out = std::move(rt);
  return s;
}

std::string joined(const std::vector<std::string>& xs) {
  std::string s;
  for (const std::string& x : xs) s += x + "\n";
  return s;
}

}  // namespace

TEST(RoutingTable, HypercubesRouteEveryPairMinimally) {
  for (int64_t d : {1, 2, 4, 6}) {
    const RoutingStats s = built_and_checked(test::hypercube(d, 6));
    EXPECT_EQ(s.minimal, 1.0) << d;
    EXPECT_EQ(s.stretch, 1.0) << d;
    EXPECT_GE(s.options, 1.0);
  }
  // Dual-TIC nodes: the two routers of a node are one hop apart.
  const RoutingStats dual = built_and_checked(test::hypercube(6, 4, true));
  EXPECT_GT(dual.minimal, 0.9);
}

TEST(RoutingTable, MeshesRouteEveryPairMinimally) {
  // Every shortest path of a mesh can first approach the root of the order, then leave it.
  for (const auto& radix : {std::vector<int64_t>{8, 8}, {3, 3, 3, 3}, {5, 2, 3}}) {
    const RoutingStats s = built_and_checked(test::cube("mesh", radix));
    EXPECT_EQ(s.minimal, 1.0);
    EXPECT_GT(s.options, 1.0);  // adaptive choices
  }
}

TEST(RoutingTable, ToriAndCrossbarsGetCompleteTables) {
  EXPECT_GT(built_and_checked(test::cube("torus", {8, 8})).minimal, 0.8);
  EXPECT_GT(built_and_checked(test::cube("torus", {2, 3})).minimal, 0.8);  // parallel links
  RoutingTable rt;
  built_and_checked(test::cube("crossbar", {8}), &rt);
  EXPECT_EQ(rt.port_mask, std::vector<uint32_t>(8, 0u));  // one router delivers everything
}

TEST(RoutingTable, RandomRegularGraphsGetCompleteDeadlockFreeTables) {
  // Minimal pairs measured: 16 nodes 0.996-1, 64 nodes 0.90, 256 nodes 0.70 (a breadth-first
  // order: 0.82 and 0.56).
  for (auto [n, least] : {std::pair{16, 0.99}, {64, 0.88}, {256, 0.68}})
    for (int64_t seed : {1, 2, 3}) {
      const RoutingStats s = built_and_checked(test::random_regular(n, 4, seed));
      EXPECT_GT(s.minimal, least) << n << " " << seed;
      EXPECT_LT(s.stretch, 1.12) << n << " " << seed;
    }
  EXPECT_GT(built_and_checked(test::random_regular(64, 3, 1)).minimal, 0.75);
  EXPECT_GT(built_and_checked(test::random_regular(64, 6, 1)).minimal, 0.95);
  EXPECT_GT(built_and_checked(test::random_regular(40, 2, 1)).minimal, 0.8);  // a ring
}

TEST(RoutingTable, RingsNeedSomeDetoursAndGetThem) {
  // Minimal routes around a ring wait on each other in a cycle; the table goes the long way
  // where it must, and the checker finds no cycle.
  for (int64_t n : {3, 4, 8, 9}) {
    const RoutingStats s = built_and_checked(test::ring(n));
    if (n >= 8) EXPECT_LT(s.minimal, 1.0) << n;
  }
}

TEST(RoutingTable, TheCheckerFindsTheCycleOfAMinimalRingTable) {
  const Topology t = build_topology(test::ring(4));
  // The shorter way round, clockwise (i -> i + 1) on the tie, all on VC 0.
  auto port_to = [&](uint32_t r, uint32_t n) {
    for (uint32_t p = 1; p < t.ports; ++p)
      if (t.peer[r * t.ports + p] >= 0 &&
          static_cast<uint32_t>(t.peer[r * t.ports + p]) / t.ports == n)
        return p;
    return 0u;
  };
  RoutingTable rt{4, t.ports, 4, std::vector<uint32_t>(16, 0), std::vector<uint8_t>(16, 0)};
  for (uint32_t r = 0; r < 4; ++r)
    for (uint32_t d = 0; d < 4; ++d)
      if (d != r)
        rt.port_mask[rt.at(r, d)] = 1u
                                    << port_to(r, (d + 4 - r) % 4 <= 2 ? (r + 1) % 4 : (r + 3) % 4);
  const std::vector<std::string> problems = check_routing_table(t, rt);
  ASSERT_EQ(problems.size(), 1u) << joined(problems);
  const std::string& m = problems[0];
  EXPECT_NE(m.find("dependency cycle of 4 buffer classes (router, VC): (0, 0) -[destinations 2]-> "
                   "(1, 0) -[destinations 3]-> (2, 0) -[destinations 0]-> (3, 0) -[destinations "
                   "1]-> (0, 0): a deadlock is possible"),
            std::string::npos)
      << m;
  // A dateline at router 0 breaks it: a message that will cross the link 0 -> 1 (or start at
  // router 0) leaves on VC 1 from router 0 on; the rest stays on VC 0.
  for (uint32_t r = 0; r < 4; ++r)
    for (uint32_t d = 0; d < 4; ++d)
      rt.vc[rt.at(r, d)] = r != d && (r == 0 || (d > r && d - r <= 2));
  EXPECT_EQ(check_routing_table(t, rt), std::vector<std::string>{});
}

TEST(RoutingTable, TheCheckerFindsBadEntriesLoopsAndDeadEnds) {
  const Topology t = build_topology(test::cube("mesh", {3}));  // routers 0 - 1 - 2
  RoutingTable good = build_routing_table(t);
  ASSERT_EQ(check_routing_table(t, good), std::vector<std::string>{});
  auto problems_with = [&](auto change) {
    RoutingTable rt = good;
    change(rt);
    return joined(check_routing_table(t, rt));
  };
  auto has = [](const std::string& all, const char* part) {
    return all.find(part) != std::string::npos;
  };
  // Port numbering of a 1-D mesh: 1 towards +x, 2 towards -x.
  std::string m = problems_with([](RoutingTable& rt) { rt.port_mask[rt.at(0, 2)] = 0; });
  EXPECT_TRUE(has(m, "router 0, destination 2: port_mask = 0: no port permitted")) << m;
  EXPECT_TRUE(has(m, "destination 2: routes from router(s) 0 may not reach router 2")) << m;
  m = problems_with([](RoutingTable& rt) { rt.port_mask[rt.at(0, 2)] = 1u << 2; });
  EXPECT_TRUE(
      has(m, "router 0, destination 2: port_mask = 0x4 permits port(s) 0x4 that have no link"))
      << m;
  m = problems_with([](RoutingTable& rt) { rt.port_mask[rt.at(1, 1)] = 1u << 1; });
  EXPECT_TRUE(has(m, "router 1, destination 1: port_mask = 0x2: allowed 0")) << m;
  m = problems_with([](RoutingTable& rt) { rt.vc[rt.at(1, 2)] = 3; });
  EXPECT_TRUE(has(m, "router 1, destination 2: vc = 3: allowed 0 or 1")) << m;
  m = problems_with([](RoutingTable& rt) { rt.port_mask[rt.at(1, 2)] = 1u << 2; });  // back to 0
  EXPECT_TRUE(has(m, "destination 2: routes loop: routers 0 -> 1 -> 0")) << m;
  m = problems_with([](RoutingTable& rt) { rt.port_mask.pop_back(); });
  EXPECT_TRUE(has(m, "allowed 3 x 3")) << m;
}

TEST(RoutingTable, TablesTooLargeAreRefused) {
  const std::string m =
      test::config_error_of([] { build_routing_table(build_topology(test::hypercube(14, 14))); });
  EXPECT_NE(m.find("allowed a routing table of at most 2^26 entries"), std::string::npos) << m;
  // An S-Connect configuration is refused by validate(), before its network is built: 2^14
  // routers x 2^14 destinations, and one past the limit with twin TICs; 2^13 x 2^13 passes.
  Config c;
  c.router.family = "sconnect";
  c.topology.kind = "hypercube";
  c.topology.dimension = 14;
  c.topology.max_ports = 14;
  const std::string v = test::config_error_of([&] { validate(c); });
  EXPECT_NE(v.find("topology: 16384 routers x 16384 destinations: allowed a routing table of "
                   "at most 2^26 entries"),
            std::string::npos)
      << v;
  c.topology.dimension = 13;
  EXPECT_EQ(test::config_error_of([&] { validate(c); }), "");
  c.topology.dual_tic = true;
  EXPECT_NE(test::config_error_of([&] { validate(c); }).find("16384 routers x 8192"),
            std::string::npos);
}
