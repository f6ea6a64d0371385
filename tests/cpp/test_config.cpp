// Configuration errors name the key, the value and what is allowed.
#include <cmath>

#include "helpers.hpp"
#include "host/config/did_you_mean.hpp"
#include "host/config/schema.hpp"
#include "host/traffic/completion_peak.hpp"

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
  c.vc.vc_depth = 0;
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

TEST(Config, AMisspeltNameIsAnsweredWithItsNeighbour) {
  Config c;
  std::string m = error_of([&] { set_key(c, "traffic", "ofered", Value(0.1)); });
  EXPECT_NE(m.find("unknown key traffic.ofered (did you mean traffic.offered?): allowed pattern"),
            std::string::npos)
      << m;
  // A key in the wrong section is named where it is.
  m = error_of([&] { set_key(c, "traffic", "vcs", Value(int64_t{2})); });
  EXPECT_NE(m.find("unknown key traffic.vcs (did you mean router.vcs?): allowed"),
            std::string::npos)
      << m;
  m = error_of([&] { set_key(c, "routr", "vcs", Value(int64_t{2})); });
  EXPECT_NE(m.find("unknown section [routr] (did you mean [router]?): allowed topology"),
            std::string::npos)
      << m;
  m = error_of([&] { set_key(c, "topology", "kind", Value(std::string("tours"))); });
  EXPECT_NE(m.find("topology.kind = \"tours\" (did you mean \"torus\"?): allowed mesh, torus"),
            std::string::npos)
      << m;
  // Nothing is offered where no name is close.
  m = error_of([&] { set_key(c, "router", "vc_count", Value(int64_t{2})); });
  EXPECT_EQ(m.find("did you mean"), std::string::npos) << m;
  EXPECT_EQ(closest_name("rotuing", {"routing", "rotating"}), "routing");  // a swap is one edit
  EXPECT_EQ(closest_name("dimension_ordr", {"dimension_order", "dimension"}), "dimension_order");
  EXPECT_EQ(closest_name("xyz", {"abc", "mesh"}), "");
  EXPECT_EQ(closest_name(std::string(100, 'a'), {std::string(99, 'a')}), "");  // too long to try
}

TEST(Config, NamesAndTextArePrintedWithTheirControlCharactersEscaped) {
  // std::exception::what() ends at a NUL: the message would lose what is allowed.
  Config c;
  std::string m = error_of([&] { set_key(c, "router", std::string("no\0such", 7), Value(true)); });
  EXPECT_NE(m.find("unknown key router.no\\x00such: allowed "), std::string::npos) << m;
  m = error_of([&] { set_key(c, std::string("a\nb"), "vcs", Value(true)); });
  EXPECT_NE(m.find("unknown section [a\\x0ab]: allowed topology"), std::string::npos) << m;
  m = error_of([&] { set_key(c, "router", "routing", Value(std::string("dor\0x\x7f", 6))); });
  EXPECT_NE(m.find("router.routing = \"dor\\x00x\\x7f\": allowed dor"), std::string::npos) << m;
  // A NUL in a file name would open another file than the one named.
  m = error_of(
      [&] { set_key(c, "topology", "edge_file", Value(std::string("ring.txt\0.gz", 12))); });
  EXPECT_NE(m.find("topology.edge_file = \"ring.txt\\x00.gz\": allowed a file name (no NUL"),
            std::string::npos)
      << m;
  EXPECT_EQ(escaped("é, \"quoted\" \\ and tabs\t"), "é, \"quoted\" \\ and tabs\\x09");
}

TEST(Config, WeightsAreFiniteAndSoAreTheirSums) {
  // An infinite sum made the load's limit NaN, and traffic.offered went unchecked.
  Config c = test::network("mesh", {4, 4}, 0.1);
  std::string m = error_of([&] {
    set_key(c, "traffic", "packet_size_weights", Value(std::vector<double>{INFINITY, 1}));
  });
  EXPECT_NE(m.find("traffic.packet_size_weights = [inf, 1]: allowed a list of at most 8 finite"),
            std::string::npos)
      << m;
  c.traffic.packet_sizes = {1, 2};
  c.traffic.packet_size_weights = {1e308, 1e308};
  m = error_of([&] { validate(c); });
  EXPECT_NE(m.find("allowed weights with a positive, finite sum"), std::string::npos) << m;
  // Near the largest double, yet with a finite sum: the limit is the mean size, 1.5 flits.
  c.traffic.packet_size_weights = {8e307, 8e307};
  EXPECT_DOUBLE_EQ(offered_limit(c), 1.5);
  // The mean the engines time a packet by (a finite workload's peak): the same, not inf from
  // a weight times a size overflowing.
  c.traffic.packet_sizes = {4, 1};
  c.traffic.packet_size_weights = {1e308, 1};
  EXPECT_NO_THROW(validate(c));
  EXPECT_DOUBLE_EQ(mean_packet_size(c.traffic), 4.0);
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
  c.vc.vcs = 3;  // torus dimension order needs an even number of VCs
  EXPECT_NE(error_of([&] { validate(c); }).find("router.vcs = 3"), std::string::npos);
  c = Config{};
  c.vc.flow_control = "vct";
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
  // run.auto_cuda_routers routers per CPU thread, by default the family's own (vc 250): an 8x8
  // mesh (64 routers) stays on the CPU, an 8x8x8 torus (512) goes to the GPU against up to two
  // threads, a batch of 32 8x8 meshes (2,048) against up to eight threads; 0 always takes the
  // GPU.
  Config c;
  EXPECT_EQ(c.run.auto_cuda_routers, -1);
  const int64_t per_thread = auto_cuda_routers(c);
  EXPECT_EQ(per_thread, 250);
  EXPECT_FALSE(auto_takes_cuda(64, 1, per_thread));
  EXPECT_TRUE(auto_takes_cuda(512, 2, per_thread));
  EXPECT_FALSE(auto_takes_cuda(512, 3, per_thread));
  EXPECT_TRUE(auto_takes_cuda(32 * 64, 8, per_thread));
  EXPECT_FALSE(auto_takes_cuda(32 * 64, 9, per_thread));
  EXPECT_TRUE(auto_takes_cuda(1, 16, 0));
  EXPECT_TRUE(auto_takes_cuda(250, 0, per_thread));  // an unknown thread count counts as one
  // The T3E's GPU cycle is about vc's and its CPU router-cycle 5x dearer: its 512 PEs go to the
  // GPU against up to eight threads. A value set is taken as it is.
  c.router.family = "t3e";
  EXPECT_EQ(auto_cuda_routers(c), 60);
  EXPECT_TRUE(auto_takes_cuda(512, 8, auto_cuda_routers(c)));
  EXPECT_FALSE(auto_takes_cuda(512, 9, auto_cuda_routers(c)));
  for (const char* f : {"sconnect", "metro", "bgl"}) {
    c.router.family = f;
    EXPECT_GT(auto_cuda_routers(c), 0) << f;
  }
  c.run.auto_cuda_routers = 1000;
  EXPECT_EQ(auto_cuda_routers(c), 1000);
}

namespace ls {

std::unique_ptr<Engine> make_t3e_engine_cpu(const std::vector<Config>&, const EngineOptions&);

namespace {

// The memory check before allocating (a batch too large is a ConfigError naming topology.radix)
// must not let through a batch whose arrays would not fit: every family's estimate covers what
// its engine allocates, without refusing networks that would fit several times over.
TEST(Config, StateSizeEstimateCoversWhatEachFamilyAllocates) {
  std::vector<Config> cases;
  cases.push_back(test::network("mesh", {8, 8}, 0.1));
  cases.push_back(test::network("torus", {4, 4, 4}, 0.1, 4));
  Config t3e = test::network("torus", {4, 4, 4}, 0.1);
  t3e.router.family = "t3e";
  cases.push_back(t3e);
  Config bgl = test::network("torus", {4, 4, 4}, 0.1);
  bgl.router.family = "bgl";
  bgl.traffic.packet_size = 256;
  cases.push_back(bgl);
  Config sc = test::network("hypercube", {8, 8}, 0.1);  // radix unused: dimension says
  sc.topology.dimension = 6;
  sc.topology.max_ports = 6;
  sc.router.family = "sconnect";
  cases.push_back(sc);
  Config mesh_sc = test::network("mesh", {8, 8}, 0.1);
  mesh_sc.router.family = "sconnect";
  cases.push_back(mesh_sc);
  Config metro = test::network("multibutterfly", {4, 4, 4}, 0.1);
  metro.topology.dilation = {2, 2, 1};
  metro.router.family = "metro";
  metro.traffic.packet_size = 19;
  cases.push_back(metro);
  for (const Config& c : cases) {
    const std::vector<Config> batch = {c, c};
    const uint64_t got = make_engine(batch, test::options("cpu", 1, false))->state_bytes();
    const uint64_t est = estimated_state_bytes(batch);
    EXPECT_GE(est, got) << c.router.family << " " << c.topology.kind;
    EXPECT_LE(est, 2 * got) << c.router.family << " " << c.topology.kind;
  }
}

// What the estimate misjudges is caught array by array before it is allocated: an engine built
// directly (make_engine checks the estimate first) under a limit one byte short of its state
// stops with the same error; at its state exactly, it builds.
TEST(Config, AnArrayOverTheMemoryLimitIsAnErrorBeforeItIsAllocated) {
  Config c = test::network("torus", {4, 4, 4}, 0.1);
  c.router.family = "t3e";
  EngineOptions o = test::options("cpu", 1, false);
  const uint64_t bytes = make_engine({c}, o)->state_bytes();
  o.memory_limit = static_cast<double>(bytes);
  EXPECT_EQ(make_t3e_engine_cpu({c}, o)->state_bytes(), bytes);
  o.memory_limit -= 1;
  std::string m = error_of([&] { make_t3e_engine_cpu({c}, o); });
  EXPECT_NE(m.find("topology.radix = [4, 4, 4]"), std::string::npos) << m;
  EXPECT_NE(m.find("fits in memory"), std::string::npos) << m;
  EXPECT_NE(m.find("(the engine's memory_limit)"), std::string::npos) << m;  // not 80% of memory
  // make_engine refuses from the estimate, before building anything.
  o.memory_limit = static_cast<double>(estimated_state_bytes({c})) - 1;
  m = error_of([&] { make_engine({c}, o); });
  EXPECT_NE(m.find("fits in memory"), std::string::npos) << m;
}

}  // namespace
}  // namespace ls
