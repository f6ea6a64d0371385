// The alltoall workload (traffic.pattern = "alltoall"; kernels/common/traffic.hpp): each source's
// order is a permutation giving every other node its share, the run ends when every packet is
// delivered with the completion time and its percentage of the torus's peak, and the
// configurations it cannot run are refused by name.
#include <map>

#include "helpers.hpp"
#include "host/config/schema.hpp"
#include "host/traffic/alltoall_peak.hpp"
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

}  // namespace
}  // namespace ls
