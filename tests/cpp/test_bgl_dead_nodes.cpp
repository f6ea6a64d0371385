// Blue Gene/L dead nodes and links (paper, "Torus network": software sets the hint bits so that
// they are avoided; kernels/bgl/dead_nodes.hpp): software's choice of hint bits worked by hand,
// and loaded tori with dead nodes and links that none of its packets enters or crosses.
#include <gtest/gtest.h>

#include "bgl_config.hpp"
#include "helpers.hpp"
#include "host/config/schema.hpp"
#include "host/topology/topology.hpp"
#include "kernels/bgl/dead_nodes.hpp"

namespace ls {
namespace {

using test::bgl;

// On an 8x8 torus with node (2, 0) dead, from (0, 0):
// - to (1, 1) the minimal box holds no dead node: the hardware's bits x+ y+, dynamic;
// - to (3, 0) x+ would cross (2, 0): x- the long way round (5 hops), still dynamic;
// - to (4, 1) (x half way: + from an even coordinate) the x+ y+ box holds (2, 0), and its
//   dimension-ordered path crosses it; x- y+ is as short (5 hops) and its box is clear: dynamic;
// - to (2, 2) every dimension-ordered path goes through (2, 0) (x first, to x = 2 on row 0) and
//   every box holds it: no one route reaches it. In direction order (x+ y+ z+ x- y- z-) the x- y+
//   route goes y+ first, up column 0, then x- along row 2 (8 hops): reachable, deterministic.
TEST(BglDeadNodes, SoftwareHintBitsAroundADeadNode) {
  const Shape s = make_shape({8, 8});
  const auto node = [](uint32_t x, uint32_t y) { return x + 8 * y; };
  const bgl::DeadNodes dead{1, {node(2, 0)}};
  const auto route_from = [&](uint32_t src, uint32_t dest, bool direction_order) {
    return bgl::software_route(s, dead, src, dest, bgl::kHalfWayCoordinate, true, direction_order);
  };
  const auto route = [&](uint32_t dest, bool direction_order) {
    return route_from(node(0, 0), dest, direction_order);
  };
  const uint32_t xp = 0b0001, xm = 0b0010, yp = 0b0100;
  for (bool order : {false, true}) {
    bgl::SoftwareRoute r = route(node(1, 1), order);
    EXPECT_TRUE(r.reachable && !r.deterministic);
    EXPECT_EQ(r.hints, xp | yp);
    r = route(node(3, 0), order);
    EXPECT_TRUE(r.reachable && !r.deterministic);
    EXPECT_EQ(r.hints, xm);
    r = route(node(4, 1), order);
    EXPECT_TRUE(r.reachable && !r.deterministic);
    EXPECT_EQ(r.hints, xm | yp);
  }
  EXPECT_FALSE(route(node(2, 2), false).reachable);
  // Software sends that pair in two legs. Of the intermediates within two hops of either end, in
  // order (from (0, 0): offsets with y from -2 up, x fastest), the first whose legs both have a
  // route and the fewest hops in all is (0, 1): y+ to it, then its box x+ y+ to (2, 2) is clear
  // (4 hops, the minimum); (1, 0) is nearer but from there every route crosses (2, 0) or is long.
  const bgl::PlannedRoute two =
      bgl::plan_route(s, dead, node(0, 0), node(2, 2), bgl::kHalfWayCoordinate, true, false);
  EXPECT_TRUE(two.relayed && two.first.reachable && !two.first.deterministic);
  EXPECT_EQ(two.via, node(0, 1));
  EXPECT_EQ(two.first.hints, yp);
  const bgl::SoftwareRoute second = route_from(node(0, 1), node(2, 2), false);
  EXPECT_TRUE(second.reachable && !second.deterministic);
  EXPECT_EQ(second.hints, xp | yp);
  EXPECT_EQ(two.first.hops + second.hops, 4u);
  EXPECT_FALSE(bgl::plan_route(s, dead, node(0, 0), node(2, 2), bgl::kHalfWayCoordinate, true,
                               true)
                   .relayed);  // in direction order one route reaches it
  const bgl::SoftwareRoute r = route(node(2, 2), true);
  EXPECT_TRUE(r.reachable && r.deterministic);
  EXPECT_EQ(r.hints, xm | yp);
  EXPECT_TRUE(bgl::path_clear(s, dead, r.hints, node(0, 0), node(2, 2), true));
  EXPECT_FALSE(bgl::path_clear(s, dead, r.hints, node(0, 0), node(2, 2), false));
  // Packets may not go dynamically (high priority, bgl.deterministic): only the path counts.
  const bgl::SoftwareRoute det =
      bgl::software_route(s, dead, node(0, 0), node(4, 1), bgl::kHalfWayCoordinate, false, false);
  EXPECT_TRUE(det.reachable && det.deterministic);
  EXPECT_EQ(det.hints, xm | yp);
  EXPECT_FALSE(
      bgl::software_route(s, dead, node(0, 0), node(2, 0), bgl::kHalfWayCoordinate, true, false)
          .reachable);  // to the dead node itself
}

// A 4x4x4 torus past saturation with these dead nodes and links, in both escape orders, dynamic
// and deterministic, run under debug checks with the watchdog on; check(engine, result, what).
template <class Check>
void loaded(std::vector<int64_t> nodes, std::vector<int64_t> links, const Check& check) {
  for (const char* order : {"dimension", "direction"})
    for (bool det : {false, true}) {
      Config c = bgl({4, 4, 4}, 1.2);
      c.bgl.dead_nodes = nodes;
      c.bgl.dead_links = links;
      c.bgl.escape_order = order;
      c.bgl.deterministic = det;
      c.bgl.priority_fraction = 0.05;
      const std::string what = std::string(order) + (det ? " deterministic" : " dynamic");
      auto e = make_engine({c}, test::options("cpu", 1, true));
      const InstanceResult r = e->run().at(0);
      EXPECT_GT(r.accepted, 0.4) << what;
      EXPECT_EQ(test::extra(r, "unreachable_pairs"), 0.0) << what;
      EXPECT_GE(test::extra(r, "unroutable_packets"), static_cast<double>(r.lost)) << what;
      check(*e, r, what);
    }
}

// Three dead nodes, uniform traffic (loaded()), under debug checks (nothing may arrive at a dead
// node; tokens, packets conserved, a second leg planned as two legs again) with the watchdog on:
// the dead nodes send and receive nothing, packets to them are not sent but counted, every live
// pair is connected (some in two legs, which their intermediates relay), and
// every other packet is delivered.
TEST(BglDeadNodes, NothingEntersADeadNodeUnderLoad) {
  loaded({5, 22, 43}, {}, [](Engine& e, const InstanceResult& r, const std::string& what) {
    EXPECT_GT(r.lost, 0u) << what;  // those created in the window
    EXPECT_GT(test::extra(r, "relayed_pairs"), 0.0) << what;
    EXPECT_GT(test::extra(r, "relayed_packets"), 0.0) << what;
    const auto injected = test::values<uint64_t>(e.state("packets_injected"));
    const auto delivered = test::values<uint64_t>(e.state("packets_delivered"));
    for (uint32_t d : {5u, 22u, 43u}) {
      EXPECT_EQ(injected[d], 0u) << what << " node " << d;
      EXPECT_EQ(delivered[d], 0u) << what << " node " << d;
    }
    EXPECT_GT(delivered[0], 0u) << what;
  });
}

// Every node sends to (2, 2) of an 8x8 torus with (2, 0) dead, in dimension order: the sources
// software sends in two legs (those whose routes all cross (2, 0)) have their packets relayed by
// their intermediate nodes and by no other node, and every packet is delivered (debug checks:
// a relayed packet reaches its final destination, planned as one route from its intermediate).
TEST(BglDeadNodes, IntermediateNodesRelayTheFirstLegs) {
  Config c = bgl({8, 8}, 0.04);  // 2.5 bytes a cycle into (2, 2), two-thirds of its links
  c.run.measure = 30000;
  c.bgl.dead_nodes = {2};
  c.traffic.pattern = "hotspot";
  c.traffic.hotspot_nodes = {18};
  c.traffic.hotspot_fraction = 1.0;
  auto e = make_engine({c}, test::options("cpu", 1, true));
  const InstanceResult r = e->run().at(0);
  EXPECT_FALSE(r.saturated) << r.saturation_reason;
  EXPECT_EQ(r.lost, 0u);
  EXPECT_EQ(test::extra(r, "unreachable_pairs"), 0.0);
  const Shape s = make_shape({8, 8});
  const bgl::DeadNodes dead{1, {2}};
  std::vector<bool> via(64, false);
  int sources = 0;
  for (uint32_t src = 0; src < 64; ++src) {
    if (src == 2 || src == 18) continue;
    const bgl::PlannedRoute p =
        bgl::plan_route(s, dead, src, 18, bgl::kHalfWayCoordinate, true, false);
    ASSERT_TRUE(p.first.reachable) << src;
    if (p.relayed) via[p.via] = true, ++sources;
  }
  EXPECT_GT(sources, 0);
  const auto relayed = test::values<uint64_t>(e->state("packets_relayed"));
  const auto delivered = test::values<uint64_t>(e->state("packets_delivered"));
  uint64_t all = 0;
  for (uint32_t n = 0; n < 64; ++n) {
    EXPECT_EQ(relayed[n] > 0, via[n]) << "node " << n;
    all += delivered[n];
  }
  EXPECT_EQ(delivered[18], all);
  EXPECT_GT(all, 300u);  // about eight a source
}

// On an 8x8 torus with the link between (2, 0) and (3, 0) down, from (0, 0):
// - to (4, 0) (x half way: + from an even coordinate) x+ would cross it: x- the other way round,
//   as short, dynamic;
// - to (3, 1) the x+ y+ box holds both its ends and the packet moves in x, and every ordered path
//   goes x+ along row 0 first: x- y+ (6 hops), dynamic;
// - to (2, 1) the x+ y+ box holds (2, 0) but not (3, 0): the link is outside it, so the
//   hardware's choice stands.
TEST(BglDeadNodes, SoftwareHintBitsAroundADeadLink) {
  const Shape s = make_shape({8, 8});
  const auto node = [](uint32_t x, uint32_t y) { return x + 8 * y; };
  bgl::DeadNodes dead{};
  dead.links = 1;
  dead.link_node[0] = node(2, 0);
  dead.link_dim[0] = 0;
  const uint32_t xp = 0b0001, xm = 0b0010, yp = 0b0100;
  EXPECT_TRUE(bgl::link_down(s, dead, node(2, 0), 0));   // x+ from (2, 0)
  EXPECT_TRUE(bgl::link_down(s, dead, node(3, 0), 1));   // x- from (3, 0)
  EXPECT_FALSE(bgl::link_down(s, dead, node(2, 0), 1));  // x- from (2, 0)
  EXPECT_FALSE(bgl::link_down(s, dead, node(2, 1), 0));
  for (bool order : {false, true}) {
    const auto route = [&](uint32_t dest) {
      return bgl::software_route(s, dead, node(0, 0), dest, bgl::kHalfWayCoordinate, true, order);
    };
    bgl::SoftwareRoute r = route(node(4, 0));
    EXPECT_TRUE(r.reachable && !r.deterministic);
    EXPECT_EQ(r.hints, xm);
    r = route(node(3, 1));
    EXPECT_TRUE(r.reachable && !r.deterministic);
    EXPECT_EQ(r.hints, xm | yp);
    EXPECT_EQ(r.hops, 6u);
    r = route(node(2, 1));
    EXPECT_TRUE(r.reachable && !r.deterministic);
    EXPECT_EQ(r.hints, xp | yp);
    EXPECT_TRUE(bgl::box_blocked(s, dead, xp | yp, node(0, 0), node(3, 1)));
    EXPECT_FALSE(bgl::box_blocked(s, dead, yp, node(2, 0), node(2, 1)));  // moves only in y
  }
  // Deterministically, x+ y+ to (3, 1) fails only in the order that crosses x first.
  EXPECT_FALSE(bgl::path_clear(s, dead, xp | yp, node(0, 0), node(3, 1), false));
  EXPECT_FALSE(bgl::path_clear(s, dead, xp | yp, node(0, 0), node(3, 1), true));
  EXPECT_TRUE(bgl::path_clear(s, dead, xp | yp, node(0, 0), node(2, 1), false));
}

// Dead links and nodes together on a 4x4x4 torus past saturation, both escape orders, dynamic and
// deterministic, under debug checks (anything arriving over a dead link is a violation) with the
// watchdog on: every live pair is connected and every packet to a live node is delivered.
TEST(BglDeadNodes, NothingCrossesADeadLinkUnderLoad) {
  loaded({43}, {0, 0, 5, 1, 22, 2, 60, 0},
         [](Engine&, const InstanceResult& r, const std::string& what) {
           EXPECT_GT(test::extra(r, "deterministic_pairs"), 0.0) << what;
           EXPECT_GT(r.packets, 1000u) << what;
         });
}

TEST(BglDeadNodes, BadDeadNodesNameTheKey) {
  Config c = bgl({4, 4}, 0.1);
  c.bgl.dead_nodes = {3, 16};
  EXPECT_NE(test::config_error_of([&] { validate(c); }).find("bgl.dead_nodes = [3, 16]"),
            std::string::npos);
  c.bgl.dead_nodes = {3, 3};
  EXPECT_NE(test::config_error_of([&] { validate(c); }).find("distinct"), std::string::npos);
  c.bgl.dead_nodes = {3};
  c.traffic.pattern = "linefill";
  EXPECT_NE(test::config_error_of([&] { validate(c); }).find("traffic.pattern = \"linefill\""),
            std::string::npos);
  c.bgl.dead_nodes = {};
  c.bgl.dead_links = {3, 0};
  EXPECT_NE(test::config_error_of([&] { validate(c); }).find("bgl.dead_links = [3, 0] with"),
            std::string::npos);
  c.traffic.pattern = "uniform";
  c.bgl.dead_links = {3, 0, 5};
  EXPECT_NE(test::config_error_of([&] { validate(c); }).find("even number"), std::string::npos);
  c.bgl.dead_links = {3, 2};
  EXPECT_NE(test::config_error_of([&] { validate(c); }).find("pair 0 is (3, 2)"),
            std::string::npos);
  c.bgl.dead_links = {3, 1, 3, 1};
  EXPECT_NE(test::config_error_of([&] { validate(c); }).find("repeats pair 0"), std::string::npos);
}

}  // namespace
}  // namespace ls
