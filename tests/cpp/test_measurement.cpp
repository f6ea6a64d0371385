// Measurement: offered load as configured for every creation process, saturation flagged with
// a reason, automatic warm-up detection.
#include "helpers.hpp"

using namespace ls;

TEST(Measurement, OfferedLoadMatchesTheConfiguredProcess) {
  Config bern = test::network("mesh", {4, 4}, 0.3);
  Config onoff = bern;
  onoff.traffic.injection = "onoff";
  onoff.traffic.burst_alpha = 0.1;
  onoff.traffic.burst_beta = 0.15;  // on 40% of the time, at 2.5x the mean rate
  Config sizes = bern;
  sizes.traffic.packet_sizes = {1, 8};
  sizes.traffic.packet_size_weights = {3, 1};  // mean 2.75 flits
  for (Config c : {bern, onoff, sizes}) {
    c.run.measure = 20000;
    InstanceResult r = test::run_one(c, test::options("cpu", 1));
    EXPECT_NEAR(r.offered, 0.3, 0.015) << c.traffic.injection;
    EXPECT_NEAR(r.accepted, r.offered, 0.02) << c.traffic.injection;
  }
}

TEST(Measurement, BurstySourcesWaitLonger) {
  Config bern = test::network("mesh", {4, 4}, 0.2);
  Config onoff = bern;
  onoff.traffic.injection = "onoff";
  onoff.traffic.burst_alpha = 0.02;
  onoff.traffic.burst_beta = 0.06;
  const double lb = test::run_one(bern, test::options("cpu", 1)).latency_mean;
  const double lo = test::run_one(onoff, test::options("cpu", 1)).latency_mean;
  EXPECT_GT(lo, lb * 1.1) << "bursts should queue at the source";
}

TEST(Measurement, SaturationIsFlaggedWithAReason) {
  Config c = test::network("mesh", {8, 8}, 0.6);
  c.run.drain = 2000;
  InstanceResult r = test::run_one(c, test::options("cpu", 1));
  EXPECT_TRUE(r.saturated);
  EXPECT_FALSE(r.saturation_reason.empty());
  Config low = test::network("mesh", {8, 8}, 0.1);
  InstanceResult q = test::run_one(low, test::options("cpu", 1));
  EXPECT_FALSE(q.saturated) << q.saturation_reason;
  EXPECT_TRUE(q.saturation_reason.empty());
}

TEST(Measurement, AutomaticWarmupStopsWhenTheNetworkHasSettled) {
  Config c = test::network("torus", {4, 4}, 0.3);
  c.run.warmup_auto = true;
  c.run.warmup = 300;  // the period
  InstanceResult r = test::run_one(c, test::options("cpu", 1));
  EXPECT_TRUE(r.warmup_converged);
  EXPECT_GE(r.warmup_cycles, 600u);  // at least two periods are compared
  EXPECT_EQ(r.warmup_cycles % 300, 0u);
  EXPECT_LT(r.warmup_cycles, 20u * 300);
  EXPECT_NEAR(r.accepted, 0.3, 0.02);
}

TEST(Measurement, PercentilesBracketTheMean) {
  InstanceResult r = test::run_one(test::network("mesh", {4, 4}, 0.4), test::options("cpu", 1));
  EXPECT_LE(r.latency_p50, r.latency_p99);
  EXPECT_LE(r.latency_p99, r.latency_max);
  EXPECT_GT(r.latency_p99, r.latency_mean);
  EXPECT_GT(r.link_util_mean, 0);
  EXPECT_LE(r.link_util_max, 1.0);
}

TEST(Measurement, BoundedSourceQueuesRefuseWhenFull) {
  Config c = test::network("mesh", {4, 4}, 0.9);  // far past saturation
  c.traffic.source_queue = 4;
  c.run.drain = 3000;
  auto e = make_engine({c}, test::options("cpu", 1, true));
  InstanceResult r = e->run().at(0);
  EXPECT_GT(r.refused, 0u);
  EXPECT_TRUE(r.saturated);
  EXPECT_NE(r.saturation_reason.find("refused"), std::string::npos) << r.saturation_reason;
  HostArray q = e->state("source_queue");
  for (uint32_t n = 0; n < 16; ++n)
    EXPECT_LE(reinterpret_cast<const uint32_t*>(q.bytes.data())[n], 4u);
  // Below saturation a bounded queue changes nothing: same packets, same latencies.
  Config low = test::network("mesh", {4, 4}, 0.1), bounded = low;
  bounded.traffic.source_queue = 64;
  InstanceResult a = test::run_one(low), b = test::run_one(bounded);
  EXPECT_EQ(b.refused, 0u);
  EXPECT_EQ(a.latency_mean, b.latency_mean);
  EXPECT_EQ(a.packets, b.packets);
}
