// Analytical checks: zero-load latency, uniform-traffic channel-load bounds, and the
// head-of-line blocking limit of an input-queued crossbar.
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
    c.router.vc_depth = 16;
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
  c.router.routing_delay = 0;
  c.router.vc_alloc_delay = 0;
  c.run.warmup = 2000;
  c.run.measure = 20000;
  c.run.drain = 0;
  InstanceResult r = test::run_one(c, test::options("cpu", 1));
  EXPECT_NEAR(r.accepted, 0.6184, 0.02);
}
