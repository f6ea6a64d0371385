// Blue Gene/L dead nodes (paper, "Torus network": software sets the hint bits so that dead nodes
// are avoided; kernels/bgl/dead_nodes.hpp): software's choice of hint bits worked by hand, and
// a loaded torus with dead nodes that none of its packets enters.
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
//   every box holds it: unreachable. In direction order (x+ y+ z+ x- y- z-) the x- y+ route goes
//   y+ first, up column 0, then x- along row 2 (8 hops): reachable, deterministic.
TEST(BglDeadNodes, SoftwareHintBitsAroundADeadNode) {
  const Shape s = make_shape({8, 8});
  const auto node = [](uint32_t x, uint32_t y) { return x + 8 * y; };
  const bgl::DeadNodes dead{1, {node(2, 0)}};
  const auto route = [&](uint32_t dest, bool direction_order) {
    return bgl::software_route(s, dead, node(0, 0), dest, bgl::kHalfWayCoordinate, true,
                               direction_order);
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

// A 4x4x4 torus with three dead nodes, uniform traffic past saturation, dynamic and
// deterministic routing in both escape orders, under debug checks (nothing may arrive at a dead
// node; tokens, packets conserved) with the watchdog on: the dead nodes send and receive
// nothing, packets to them and to unreachable pairs are not sent but counted, every other
// packet is delivered.
TEST(BglDeadNodes, NothingEntersADeadNodeUnderLoad) {
  for (const char* order : {"dimension", "direction"})
    for (bool det : {false, true}) {
      Config c = bgl({4, 4, 4}, 1.2);
      c.bgl.dead_nodes = {5, 22, 43};
      c.bgl.escape_order = order;
      c.bgl.deterministic = det;
      c.bgl.priority_fraction = 0.05;
      const std::string what = std::string(order) + (det ? " deterministic" : " dynamic");
      auto e = make_engine({c}, test::options("cpu", 1, true));
      const InstanceResult r = e->run().at(0);
      EXPECT_GT(r.accepted, 0.4) << what;
      EXPECT_GT(r.lost, 0u) << what;  // those created in the window
      EXPECT_GE(test::extra(r, "unroutable_packets"), static_cast<double>(r.lost)) << what;
      const auto injected = test::values<uint64_t>(e->state("packets_injected"));
      const auto delivered = test::values<uint64_t>(e->state("packets_delivered"));
      for (uint32_t d : {5u, 22u, 43u}) {
        EXPECT_EQ(injected[d], 0u) << what << " node " << d;
        EXPECT_EQ(delivered[d], 0u) << what << " node " << d;
      }
      EXPECT_GT(delivered[0], 0u) << what;
    }
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
}

}  // namespace
}  // namespace ls
