// Analytical checks: zero-load latency, uniform-traffic channel-load bounds, the head-of-line
// blocking limit of an input-queued crossbar, and the packet rate of one virtual channel.
#include <algorithm>
#include <cmath>

#include "helpers.hpp"

using namespace ls;

namespace {

// Mean routers traversed under uniform traffic (destination includes the source).
double mean_routers(const std::string& kind, int64_t k, int n) {
  double per_dim = kind == "mesh" ? (k * k - 1.0) / (3.0 * k) : k / 4.0;  // k even for the torus
  return 1.0 + n * per_dim;
}

}  // namespace

TEST(Analytical, ZeroLoadLatencyIsHopsTimesPerHopDelayPlusSerialisation) {
  struct Z {
    const char* kind;
    int64_t k;
    int n;
    int64_t link, size;
  };
  for (Z z : {Z{"mesh", 4, 2, 1, 1}, Z{"mesh", 8, 2, 1, 4}, Z{"torus", 8, 2, 2, 1},
              Z{"torus", 4, 3, 1, 3}, Z{"torus", 6, 1, 3, 2}}) {
    Config c = test::network(z.kind, std::vector<int64_t>(z.n, z.k), 0.002 * z.size);
    c.topology.link_delay = z.link;
    c.traffic.packet_size = z.size;
    c.run.measure = 40000;
    c.run.seed = 11;
    InstanceResult r = test::run_one(c, test::options("cpu", 1));
    const double R = r.hops_mean;  // routers traversed, measured
    // Per router 4 cycles (routing, VC and switch allocation, switch traversal), per link L,
    // 1 cycle each on the injection and ejection channels, 1 cycle from creation to injection.
    const double expect = 3 + 4 * R + z.link * (R - 1) + (z.size - 1);
    EXPECT_NEAR(r.latency_mean, expect, 0.01 * expect) << z.kind << " k=" << z.k << " n=" << z.n;
    EXPECT_NEAR(R, mean_routers(z.kind, z.k, z.n), 0.03 * R) << z.kind << " k=" << z.k;
  }
}

TEST(Analytical, PerDimensionLinkDelaysAddUpAlongThePath) {
  // 4x4 mesh, x links 1 cycle, y links 5: uniform traffic crosses on average
  // (k^2-1)/(3k) = 1.25 links per dimension, so zero-load latency = 3 + 4 * 3.5 + 1.25 * 1 +
  // 1.25 * 5 = 24.5 cycles.
  Config c = test::network("mesh", {4, 4}, 0.01);
  c.topology.dim_link_delay = {1, 5};
  c.run.measure = 40000;
  InstanceResult r = test::run_one(c, test::options("cpu", 1));
  EXPECT_NEAR(r.latency_mean, 24.5, 0.03 * 24.5);
  EXPECT_NEAR(r.hops_mean, 3.5, 0.03 * 3.5);
}

TEST(Analytical, UniformThroughputNeverExceedsTheChannelLoadBound) {
  struct B {
    const char* kind;
    std::vector<int64_t> radix;
    int64_t vcs;
    double bound;
  };
  for (const B& b : {B{"mesh", {8, 8}, 8, 4.0 / 8}, B{"torus", {8, 8}, 8, 8.0 / 8},
                     B{"mesh", {4, 4, 4}, 4, 4.0 / 4}}) {
    Config c = test::network(b.kind, b.radix, b.bound, b.vcs);  // offered = the bound
    c.vc.vc_depth = 16;
    c.run.drain = 0;
    InstanceResult r = test::run_one(c, test::options("cpu", 1));
    EXPECT_LE(r.accepted, b.bound * 1.01) << b.kind;
    EXPECT_GT(r.accepted, b.bound * 0.5) << b.kind << ": far below the bound";
  }
}

TEST(Analytical, InputQueuedCrossbarSaturatesAtTheHeadOfLineLimit) {
  // 8x8 switch, one FIFO (VC) per input, single-flit packets, a one-cycle router so that a
  // packet per cycle can leave each input: throughput 0.6184 (Karol et al., N = 8).
  Config c = test::network("crossbar", {8}, 1.0, 1);
  c.vc.routing_delay = 0;
  c.vc.vc_alloc_delay = 0;
  c.run.warmup = 2000;
  c.run.measure = 20000;
  c.run.drain = 0;
  InstanceResult r = test::run_one(c, test::options("cpu", 1));
  EXPECT_NEAR(r.accepted, 0.6184, 0.02);
}

TEST(Analytical, AVirtualChannelForwardsOnePacketPerSizePlusTwoCycles) {
  // Two routers exchanging packets at full load. An input VC routes its next head only after
  // the previous tail has left (routing, VC allocation and switch allocation take a cycle
  // each), so each VC passes a p-flit packet every p + 2 cycles, as in BookSim's iq router:
  // accepted = min(1, vcs * p / (p + 2)). This is why 1-flit packets with 2 VCs saturate far
  // below the channel-load bound (BookSim's C3a, an 8x8 torus: 0.26 against 1.0).
  for (int64_t vcs : {1, 2, 4})
    for (int64_t p : {1, 2, 4}) {
      // Offered beyond what the terminal channel takes (1 flit per cycle; with 1-flit packets
      // the most a source creates, a packet every cycle), so the sources are never idle: at
      // exactly the capacity a queue's throughput over a finite window falls short of it by
      // chance.
      Config c = test::network("mesh", {2}, std::min(1.5, static_cast<double>(p)), vcs);
      c.traffic.pattern = "bitcomp";  // node 0 <-> node 1
      c.traffic.packet_size = p;
      c.run.drain = 0;
      InstanceResult r = test::run_one(c, test::options("cpu", 1));
      const double expect =
          std::min(1.0, static_cast<double>(vcs * p) / static_cast<double>(p + 2));
      EXPECT_NEAR(r.accepted, expect, 0.02) << vcs << " VCs, " << p << "-flit packets";
    }
}

TEST(Analytical, ARingsDatelineLinkCarriesOnlyTheUpperVcClass) {
  // 8-node ring, 2 VCs, dimension order: every packet crossing the wraparound link rides dateline
  // class 1, one VC, so that link passes at most one 1-flit packet per 3 cycles (the test
  // above). Under uniform traffic each link carries the offered load, so the ring saturates
  // below 1/3 flits/node/cycle, a third of its channel-load bound of 8/k = 1.
  Config c = test::network("torus", {8}, 0.6);
  c.run.drain = 0;
  InstanceResult r = test::run_one(c, test::options("cpu", 1));
  EXPECT_LE(r.accepted, 1.0 / 3 + 0.01);
  EXPECT_GT(r.accepted, 0.2);
}
