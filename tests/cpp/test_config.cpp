// Configuration errors name the key, the value and what is allowed.
#include "helpers.hpp"
#include "host/config/schema.hpp"

using namespace ls;

namespace {

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(Config, UnknownValueNamesKeyValueAndChoices) {
  Config c;
  std::string m =
      error_of([&] { set_key(c, "router", "routing", Value(std::string("west_first"))); });
  EXPECT_NE(m.find("router.routing"), std::string::npos) << m;
  EXPECT_NE(m.find("west_first"), std::string::npos) << m;
  EXPECT_NE(m.find("dor, min_adaptive"), std::string::npos) << m;
}

TEST(Config, AConfigFilledInFromCppIsCheckedKeyByKey) {
  Config c = test::network("mesh", {4, 4}, 0.1);
  c.topology.kind = "ring";
  std::string m = error_of([&] { make_engine({c}, test::options()); });
  EXPECT_NE(m.find("topology.kind = \"ring\": allowed mesh, torus, crossbar"), std::string::npos)
      << m;
  c = test::network("mesh", {4, 4}, 0.1);
  c.router.vc_depth = 0;
  m = error_of([&] { make_engine({c}, test::options()); });
  EXPECT_NE(m.find("router.vc_depth = 0: allowed an integer in [1, 255]"), std::string::npos) << m;
}

TEST(Config, UnknownKeyAndSectionListWhatExists) {
  Config c;
  std::string m = error_of([&] { set_key(c, "router", "vc_count", Value(int64_t{2})); });
  EXPECT_NE(m.find("router.vc_count"), std::string::npos) << m;
  EXPECT_NE(m.find("vcs"), std::string::npos) << m;
  m = error_of([&] { set_key(c, "routers", "vcs", Value(int64_t{2})); });
  EXPECT_NE(m.find("[routers]"), std::string::npos) << m;
  EXPECT_NE(m.find("topology"), std::string::npos) << m;
}

TEST(Config, RangesAndTypes) {
  Config c;
  EXPECT_NE(error_of([&] { set_key(c, "router", "vcs", Value(int64_t{0})); }).find("[1, 16]"),
            std::string::npos);
  EXPECT_NE(error_of([&] { set_key(c, "router", "vcs", Value(2.5)); }).find("router.vcs = 2.5"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              set_key(c, "topology", "radix", Value(std::vector<int64_t>{8, 8, 8, 8, 8}));
            }).find("topology.radix"),
            std::string::npos);
}

TEST(Config, CrossKeyRules) {
  Config c;
  c.router.vcs = 3;  // torus dimension order needs an even number of VCs
  EXPECT_NE(error_of([&] { validate(c); }).find("router.vcs = 3"), std::string::npos);
  c = Config{};
  c.router.flow_control = "vct";
  c.traffic.packet_size = 16;
  EXPECT_NE(error_of([&] { validate(c); }).find("router.vc_depth"), std::string::npos);
  c = Config{};
  c.topology.radix = {3, 3};
  c.traffic.pattern = "bitrev";
  EXPECT_NE(error_of([&] { validate(c); }).find("power of two"), std::string::npos);
  c = Config{};
  c.traffic.offered = 1.5;
  EXPECT_NE(error_of([&] { validate(c); }).find("traffic.offered"), std::string::npos);
}

TEST(Config, BatchMembersShareTheNetwork) {
  Config a, b;
  b.topology.radix = {4, 4};
  std::string m = error_of([&] { make_engine({a, b}, test::options()); });
  EXPECT_NE(m.find("topology.radix"), std::string::npos) << m;
  b = a;
  b.traffic.offered = 0.3;  // per-instance keys may differ
  b.run.seed = 7;
  EXPECT_EQ(make_engine({a, b}, test::options())->instances(), 2u);
}

TEST(Config, CudaRequestedWithoutDeviceIsAClearError) {
  if (cuda_available()) GTEST_SKIP() << "a CUDA device is present";
  std::string m = error_of([&] { make_engine({Config{}}, test::options("cuda")); });
  EXPECT_NE(m.find("run.backend"), std::string::npos) << m;
  // auto falls back to the CPU and says so.
  EXPECT_STREQ(make_engine({Config{}}, test::options("auto"))->backend(), "cpu");
}

TEST(Config, NetworkTooLargeForMemoryIsAClearError) {
  Config c;
  c.topology.radix = {1024, 1024, 512};  // 2^29 routers: hundreds of GB of state
  std::string m = error_of([&] { make_engine({c}, test::options()); });
  EXPECT_NE(m.find("topology.radix"), std::string::npos) << m;
  EXPECT_NE(m.find("fits in memory"), std::string::npos) << m;
}

TEST(Config, AutoTakesTheGpuFromTheMeasuredCrossover) {
  // run.auto_cuda_routers (default 400) routers per CPU thread: an 8x8 mesh (64 routers) stays
  // on the CPU, an 8x8x8 torus (512) goes to the GPU against one thread but not against two, a
  // batch of 32 8x8 meshes (2,048) against up to five threads; 0 always takes the GPU.
  const int64_t per_thread = Config{}.run.auto_cuda_routers;
  EXPECT_EQ(per_thread, 400);
  EXPECT_FALSE(auto_takes_cuda(64, 1, per_thread));
  EXPECT_TRUE(auto_takes_cuda(512, 1, per_thread));
  EXPECT_FALSE(auto_takes_cuda(512, 2, per_thread));
  EXPECT_TRUE(auto_takes_cuda(32 * 64, 5, per_thread));
  EXPECT_FALSE(auto_takes_cuda(32 * 64, 6, per_thread));
  EXPECT_TRUE(auto_takes_cuda(1, 16, 0));
  EXPECT_TRUE(auto_takes_cuda(400, 0, per_thread));  // an unknown thread count counts as one
}
