#include <gtest/gtest.h>

#include "host/engine/engine.hpp"

using namespace ls;

TEST(Smoke, LowLoadMeshDeliversEverything) {
  Config c;
  c.topology.kind = "mesh";
  c.topology.radix = {4, 4};
  c.traffic.offered = 0.05;
  c.run.warmup = 200;
  c.run.measure = 1000;
  EngineOptions o;
  o.backend = "cpu";
  o.threads = 1;
  o.debug = true;
  auto e = make_engine({c}, o);
  auto r = e->run();
  ASSERT_EQ(r.size(), 1u);
  EXPECT_FALSE(r[0].saturated) << r[0].saturation_reason;
  EXPECT_NEAR(r[0].accepted, r[0].offered, 0.01);
  EXPECT_GT(r[0].packets, 100u);
}
