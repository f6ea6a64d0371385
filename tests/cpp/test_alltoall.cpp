// The workloads that end (kernels/common/traffic.hpp): the alltoall (traffic.pattern =
// "alltoall") and the gather into a hot region ("gather"). Each source's order is a permutation
// giving every receiver its share, the run ends when every packet is delivered with the
// completion time and its percentage of the torus's peak, and the configurations they cannot run
// are refused by name.
#include <map>
#include <set>

#include "helpers.hpp"
#include "host/config/schema.hpp"
#include "host/topology/topology.hpp"
#include "host/traffic/completion_peak.hpp"
#include "host/traffic/traffic_params.hpp"

namespace ls {
namespace {

Config alltoall(std::vector<int64_t> radix, int64_t per_pair) {
  Config c = test::network("torus", std::move(radix), 0.1);
  c.traffic.pattern = "alltoall";
  c.traffic.alltoall_packets = per_pair;
  c.run.drain = 1000000;
  return c;
}

// Every source sends exactly P packets to each other node and none to itself, in orders that
// differ between sources and between seeds.
TEST(Alltoall, EachSourceGivesEveryOtherNodeItsShareInAnOrderOfItsOwn) {
  for (uint32_t n : {2u, 5u, 64u, 100u})
    for (int64_t per : {1, 3}) {
      Config c = alltoall({n}, per);
      const TrafficParams tp = traffic_params({c}, n).at(0);
      const uint32_t m = static_cast<uint32_t>(per) * (n - 1);
      ASSERT_EQ(tp.max_packets, m);
      std::vector<std::vector<uint32_t>> orders;
      for (uint32_t src = 0; src < n; ++src) {
        std::map<uint32_t, int64_t> got;
        std::vector<uint32_t> order;
        for (uint32_t k = 0; k < m; ++k) {
          order.push_back((alltoall_dest(tp, n, src, k, src) + n - src) % n);
          got[alltoall_dest(tp, n, src, k, src)] += 1;
        }
        EXPECT_EQ(got.count(src), 0u) << n << " " << src;
        EXPECT_EQ(got.size(), n - 1) << n << " " << src;
        for (const auto& [dest, count] : got) EXPECT_EQ(count, per) << n << " " << src;
        orders.push_back(order);
      }
      if (m > 4) EXPECT_NE(orders[0], orders[1]) << n;  // relative orders differ
      c.run.seed = 99;
      const TrafficParams other = traffic_params({c}, n).at(0);
      if (m > 4) {
        bool differs = false;
        for (uint32_t k = 0; k < m; ++k)
          differs |= alltoall_dest(other, n, 0, k, 0) != alltoall_dest(tp, n, 0, k, 0);
        EXPECT_TRUE(differs) << n;
      }
    }
}

// The peak: on a k-ring each source has sum(min(o, k - o)) hops to make per packet, spread over
// the 2k links: 8-ring 16 hops, so P * 8 * 16 / 16 = 8P link loads; 8x8x8 with the paper's 270
// byte times a packet, 512 x 270 per packet per pair; 32x16x16 bound by its x links, twice the
// load of y and z.
TEST(Alltoall, ThePeakIsTheBusiestLinksLoad) {
  EXPECT_DOUBLE_EQ(alltoall_peak_cycles(alltoall({8}, 3), 1), 3 * 8);
  EXPECT_DOUBLE_EQ(alltoall_peak_cycles(alltoall({8, 8, 8}, 1), 270), 512 * 270);
  EXPECT_DOUBLE_EQ(alltoall_peak_cycles(alltoall({32, 16, 16}, 1), 1), 256 * 256 / 2);
  Config mesh = alltoall({4, 4}, 1);
  mesh.topology.kind = "mesh";
  EXPECT_EQ(alltoall_peak_cycles(mesh, 1), 0);  // no bound computed off a torus
}

// A configuration's bound takes the link time its family gives a packet: vc a flit a cycle,
// Blue Gene/L its bytes with trailer, gap and ack (270 for 256 bytes); a family with no finite
// workloads gives none.
TEST(Alltoall, ThePeakTakesEachFamilysLinkTime) {
  Config vc = alltoall({8}, 3);
  vc.traffic.packet_size = 4;
  EXPECT_DOUBLE_EQ(completion_peak_cycles(vc), 3 * 8 * 4);
  Config bgl = alltoall({8, 8, 8}, 1);
  bgl.router.family = "bgl";
  bgl.traffic.packet_size = 256;
  EXPECT_DOUBLE_EQ(completion_peak_cycles(bgl), 512 * 270);
  Config t3e = alltoall({8}, 1);
  t3e.router.family = "t3e";
  EXPECT_EQ(completion_peak_cycles(t3e), 0);
}

// A vc torus runs the alltoall to completion: every packet delivered once (debug checks each
// cycle), the run's length the cycle of the last delivery, never below the peak, and throughput
// over that time.
TEST(Alltoall, TheRunEndsAtTheLastDelivery) {
  for (int64_t per : {1, 4}) {
    Config c = alltoall({4, 4}, per);
    c.traffic.packet_size = 2;
    const InstanceResult r = test::run_one(c);
    EXPECT_EQ(r.packets, static_cast<uint64_t>(16 * 15 * per));
    EXPECT_FALSE(r.saturated) << r.saturation_reason;
    EXPECT_EQ(test::extra(r, "completion_cycles"), static_cast<double>(r.cycles));
    const double peak = alltoall_peak_cycles(c, 2);
    EXPECT_GE(static_cast<double>(r.cycles), peak);
    EXPECT_NEAR(test::extra(r, "peak_percent"), 100 * peak / static_cast<double>(r.cycles), 1e-9);
    EXPECT_NEAR(r.accepted, 15.0 * per * 2 / static_cast<double>(r.cycles), 1e-12);
    // Ended by the last delivery, not at a 256-cycle check: one cycle less is not enough.
    Config cut = c;
    cut.run.drain = static_cast<int64_t>(r.cycles) - 1;
    const InstanceResult short_run = test::run_one(cut);
    EXPECT_TRUE(short_run.saturated);
    EXPECT_LT(short_run.packets, r.packets);
  }
}

TEST(Alltoall, ConfigurationsItCannotRunNameTheKey) {
  const auto err = [](const std::function<void(Config&)>& edit) {
    Config c = alltoall({4, 4}, 1);
    edit(c);
    return test::config_error_of([&] { validate(c); });
  };
  EXPECT_NE(err([](Config& c) { c.traffic.max_packets = 5; }).find("traffic.max_packets = 5"),
            std::string::npos);
  EXPECT_NE(err([](Config& c) { c.traffic.injection = "onoff"; }).find("traffic.injection"),
            std::string::npos);
  EXPECT_NE(err([](Config& c) { c.traffic.source_queue = 4; }).find("traffic.source_queue = 4"),
            std::string::npos);
  EXPECT_NE(err([](Config& c) { c.traffic.sender_every = 2; }).find("traffic.sender_every = 2"),
            std::string::npos);
  EXPECT_NE(err([](Config& c) {
              c.router.family = "sconnect";
              c.topology.kind = "hypercube";
            }).find("router.family = \"sconnect\""),
            std::string::npos);
  Config uniform = alltoall({4, 4}, 1);
  uniform.traffic.pattern = "uniform";
  EXPECT_NE(test::config_error_of([&] {
              check_same_batch({alltoall({4, 4}, 1), uniform});
            }).find("traffic.pattern = \"uniform\" in instance 1"),
            std::string::npos);
  // From cycle 0 only: a stepped engine's sources have already begun.
  auto e = make_engine({alltoall({4, 4}, 1)}, test::options());
  e->step(10);
  EXPECT_NE(test::config_error_of([&] { e->run(); }).find("from cycle 0"), std::string::npos);
}

Config gather(std::vector<int64_t> radix, int64_t per_pair, std::vector<int64_t> region = {}) {
  Config c = alltoall(std::move(radix), per_pair);
  c.traffic.pattern = "gather";
  c.traffic.hot_region = std::move(region);
  return c;
}

// Every node outside the region sends exactly P packets to each node inside, in an order of its
// own; the nodes inside send nothing.
TEST(Gather, EachSenderGivesEveryNodeOfTheRegionItsShare) {
  const Config c = gather({4, 4}, 3, {1, 1, 2, 2});  // the box (1..2, 1..2)
  const TrafficParams tp = traffic_params({c}, 16).at(0);
  const Shape s = make_shape({4, 4});
  ASSERT_EQ(tp.max_packets, 3u * 4);
  std::vector<uint32_t> first;
  for (uint32_t src = 0; src < 16; ++src) {
    const uint32_t x = src % 4, y = src / 4;
    EXPECT_EQ(in_region(tp, src), x >= 1 && x <= 2 && y >= 1 && y <= 2) << src;
    std::map<uint32_t, int64_t> got;
    for (uint32_t k = 0; k < tp.max_packets; ++k) got[gather_dest(tp, s, k, src)] += 1;
    EXPECT_EQ(got, (std::map<uint32_t, int64_t>{{5, 3}, {6, 3}, {9, 3}, {10, 3}})) << src;
    first.push_back(gather_dest(tp, s, 0, src));
  }
  EXPECT_GT(std::set<uint32_t>(first.begin(), first.end()).size(), 1u);  // orders differ
}

// The peak: every packet crosses one of the links entering the region. A hot spot on 8x8x8 has
// 6 (511 senders); the 4x4x4 box 6 faces of 16; a 2x2 box of a 4x4 torus 8; a region spanning a
// dimension has no faces there.
TEST(Gather, ThePeakIsTheLoadOfTheLinksEnteringTheRegion) {
  EXPECT_DOUBLE_EQ(gather_peak_cycles(gather({8, 8, 8}, 2, {0, 0, 0, 1, 1, 1}), 270),
                   511.0 * 2 * 270 / 6);
  EXPECT_DOUBLE_EQ(gather_peak_cycles(gather({8, 8, 8}, 1), 270), 448.0 * 64 * 270 / 96);
  EXPECT_DOUBLE_EQ(gather_peak_cycles(gather({4, 4}, 3), 2), 12.0 * 4 * 3 * 2 / 8);
  EXPECT_DOUBLE_EQ(gather_peak_cycles(gather({4, 4}, 1, {0, 0, 4, 2}), 1), 8.0 * 8 / 8);
  EXPECT_EQ(workload_packets(gather({8, 8, 8}, 2, {0, 0, 0, 1, 1, 1}), 512), 511u * 2);
}

// A vc torus runs a gather to completion (debug checks each cycle): every packet delivered once,
// the run ending at the last delivery, never faster than the entering links allow.
TEST(Gather, TheRunEndsAtTheLastDeliveryNoSoonerThanThePeak) {
  Config c = gather({4, 4}, 3);
  c.traffic.packet_size = 2;
  const InstanceResult r = test::run_one(c);
  EXPECT_EQ(r.packets, 12u * 4 * 3);
  EXPECT_FALSE(r.saturated) << r.saturation_reason;
  const double peak = gather_peak_cycles(c, 2);
  EXPECT_GE(static_cast<double>(r.cycles), peak);
  EXPECT_NEAR(test::extra(r, "peak_percent"), 100 * peak / static_cast<double>(r.cycles), 1e-9);
  EXPECT_NE(test::config_error_of([] {
              validate(gather({4, 4}, 1, {0, 0, 4, 4}));
            }).find("short of the whole network"),
            std::string::npos);
  Config uniform = gather({4, 4}, 1);
  uniform.traffic.pattern = "uniform";
  EXPECT_NE(test::config_error_of([&] {
              check_same_batch({gather({4, 4}, 1), uniform});
            }).find("allowed only alltoall or gather"),
            std::string::npos);
}

}  // namespace
}  // namespace ls
