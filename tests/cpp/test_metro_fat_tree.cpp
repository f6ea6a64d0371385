// METRO fat trees (host/topology/fat_tree.cpp): the layers and wiring of a 64-endpoint tree,
// every path walked through every port a router may choose, the kernel's route lengths and
// header words against the walk, and the unloaded latency of a connection through the root.
#include <gtest/gtest.h>

#include <set>

#include "helpers.hpp"
#include "host/config/schema.hpp"
#include "host/metro/metro_setup.hpp"
#include "host/topology/topology.hpp"

namespace ls {
namespace {

Config fat_tree(double offered) {
  Config c = test::network("fat_tree", {4, 4, 4}, offered);
  c.topology.dilation = {1, 2, 2};
  c.router.family = "metro";
  c.traffic.packet_size = 19;
  c.metro.width = 8;
  return c;
}

// Levels of 4 children, dilation 1, 2, 2, two wires an endpoint: W = 2 wires between an
// endpoint and its level-2 subtree, 4 above a level-2 subtree, 8 above a level-1 subtree. A
// level-2 subtree has 4 x 2 / (2 x 2) = 2 up routers and 2 / 2 = 1 down router; a level-1
// subtree 4 x 4 / 4 = 4 up and 4 / 2 = 2 down; the root 8 / 1 = 8 down routers.
TEST(MetroFatTree, LayersAndEveryPath) {
  const Config c = fat_tree(0.1);
  const Topology t = build_topology(c.topology);
  const std::vector<Stage> st = multistage_stages(c.topology);
  ASSERT_EQ(st.size(), 5u);  // up 2, up 1, down 0, down 1, down 2
  const std::vector<uint32_t> routers = {32, 16, 8, 8, 16}, groups = {16, 4, 1, 4, 16};
  for (size_t l = 0; l < st.size(); ++l) {
    EXPECT_EQ(st[l].routers, routers[l]) << l;
    EXPECT_EQ(st[l].groups, groups[l]) << l;
    EXPECT_EQ(st[l].up, l < 2) << l;
  }
  ASSERT_EQ(t.routers, 80u);
  ASSERT_EQ(t.nodes, 64u);
  const uint32_t P = t.ports;
  for (uint32_t r = 0; r < t.routers; ++r)
    for (uint32_t q = 0; q < 2 * st[t.stage[r]].ports(); ++q)
      EXPECT_TRUE(t.peer[r * P + q] >= 0 || t.port_node[r * P + q] >= 0) << r << " " << q;
  metro::MetroParams prm = metro::make_params(c, t);
  // Every choice of backward port a router may make leads on to the destination, through the
  // same number of routers: 2 (3 - s) turning at level s = 2 or 1, 5 through the root.
  for (uint32_t src = 0; src < t.nodes; ++src)
    for (uint32_t dst = 0; dst < t.nodes; ++dst) {
      std::set<int32_t> here, exits;
      for (uint32_t k = 0; k < t.node_ports; ++k) here.insert(t.node_entry[src * 2 + k] / int(P));
      uint32_t crossed = 0;
      while (!here.empty()) {
        crossed += 1;
        std::set<int32_t> next;
        for (int32_t r : here) {
          const Stage& s = st[t.stage[r]];
          const uint32_t g = (static_cast<uint32_t>(r) - s.first) / s.group_routers();
          const uint32_t j = s.up ? (dst / s.divisor == g ? 0 : 1) : dst / s.divisor % s.radix;
          for (uint32_t k = 0; k < s.dilation; ++k) {
            const int32_t port = r * int(P) + int(s.ports() + j * s.dilation + k);
            if (t.peer[port] >= 0) {
              next.insert(t.peer[port] / int(P));
            } else {
              EXPECT_EQ(t.port_node[port], int(dst)) << src << " -> " << dst;
              exits.insert(port);
            }
          }
        }
        ASSERT_LE(crossed, 5u);
        here = next;
      }
      EXPECT_EQ(exits.size(), t.node_ports) << src << " -> " << dst;
      const uint32_t expect = src / 4 == dst / 4 ? 2 : src / 16 == dst / 16 ? 4 : 5;
      EXPECT_EQ(crossed, expect) << src << " -> " << dst;
      EXPECT_EQ(metro::route_of(prm, src, dst).routers, expect) << src << " -> " << dst;
    }
  // Header words: one up bit a router climbed, two bits a down router; in 8-bit words one, in
  // 3-bit words three through the root (8 bits) and two turning at level 1 (5 bits); with
  // hw = 2, two a router.
  EXPECT_EQ(metro::route_of(prm, 0, 63).header_words, 1u);
  prm.width = 3;
  EXPECT_EQ(metro::route_of(prm, 0, 63).header_words, 3u);
  EXPECT_EQ(metro::route_of(prm, 0, 15).header_words, 2u);
  EXPECT_EQ(metro::route_of(prm, 0, 1).header_words, 1u);
  prm.hw = 2;
  EXPECT_EQ(metro::route_of(prm, 0, 63).header_words, 10u);
}

// Bit-complement traffic crosses the root: 5 routers, and unloaded the latency from creation
// to acknowledgement is the 20-word stream (one route word, 19 data) + 2 x (1 endpoint wire +
// 5 routers) = 32 clocks, as Figure 3's 28 is on three stages.
TEST(MetroFatTree, UnloadedLatencyThroughTheRoot) {
  Config c = fat_tree(0.0005);
  c.traffic.pattern = "bitcomp";
  c.run.measure = 20000;
  const InstanceResult r = make_engine({c}, test::options("cpu", 1, true))->run().at(0);
  ASSERT_GT(r.packets, 20u);
  EXPECT_DOUBLE_EQ(test::extra(r, "attempts_per_message"), 1.0);
  EXPECT_DOUBLE_EQ(r.latency_mean, 32.0);
  EXPECT_DOUBLE_EQ(r.hops_mean, 5.0);
}

TEST(MetroFatTree, RefusesWhatItCannotWire) {
  Config c = fat_tree(0.1);
  c.topology.dilation = {1, 4, 4};  // 4 x 2 wires into a level-2 subtree: not 8 per router
  const std::string e = test::config_error_of([&] { validate(c); });
  EXPECT_NE(e.find("topology.endpoint_ports = 2"), std::string::npos) << e;
  EXPECT_NE(e.find("at level 2"), std::string::npos) << e;
}

}  // namespace
}  // namespace ls
