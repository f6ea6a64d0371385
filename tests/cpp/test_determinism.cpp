// Same seed, same numbers: across thread counts, across runs, across backends (bit for bit, on
// the whole state after a loaded run).
#include "helpers.hpp"

using namespace ls;

namespace {

std::vector<HostArray> full_state(Engine& e) {
  std::vector<HostArray> s;
  for (const std::string& n : e.state_names()) s.push_back(e.state(n));
  return s;
}

void expect_same(const std::vector<HostArray>& a, const std::vector<HostArray>& b,
                 const std::vector<std::string>& names) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i)
    EXPECT_TRUE(a[i].bytes == b[i].bytes) << names[i] << " differs";
}

std::vector<Config> batch() {
  std::vector<Config> cs;
  for (double o : {0.1, 0.3, 0.6}) {
    Config c = test::network("torus", {4, 4}, o, 4);
    c.router.routing = "min_adaptive";
    c.traffic.packet_size = 3;
    c.run.seed = static_cast<int64_t>(o * 100);
    cs.push_back(c);
  }
  return cs;
}

}  // namespace

// These run without debug mode on purpose: debug mode steps cycle by cycle, and the point here
// is the production schedules (instance-parallel batches, router-parallel networks, fusion).
TEST(Determinism, OneAndTwoThreadsGiveIdenticalState) {
  auto a = make_engine(batch(), test::options("cpu", 1, false));
  auto b = make_engine(batch(), test::options("cpu", 2, false));
  a->step(3000);
  b->step(3000);
  expect_same(full_state(*a), full_state(*b), a->state_names());
}

TEST(Determinism, OneAndTwoThreadsSplittingOneNetwork) {
  // One instance large enough that the CPU backend splits its routers across threads each cycle,
  // each thread running its share stage by stage (StagedCycle).
  for (int64_t delay : {1, 0}) {
    Config c = test::network("torus", {16, 16}, 0.4);
    c.router.routing_delay = c.router.vc_alloc_delay = delay;
    auto a = make_engine({c}, test::options("cpu", 1, false));
    auto b = make_engine({c}, test::options("cpu", 2, false));
    a->step(1500);
    b->step(1500);
    SCOPED_TRACE("routing_delay = vc_alloc_delay = " + std::to_string(delay));
    expect_same(full_state(*a), full_state(*b), a->state_names());
  }
}

TEST(Determinism, FusedAndStagedCyclesGiveIdenticalState) {
  // The GPU's cycle (RouterCycle, every stage of one router at a time; the CPU runs it in debug
  // mode) against the CPU's (StagedCycle, each stage over all routers with work for it). Both
  // skip readiness tests when delays are 1 or more; with delays of 0 they must not.
  for (int64_t delay : {1, 0}) {
    std::vector<Config> cs = batch();
    for (Config& c : cs) c.router.routing_delay = c.router.vc_alloc_delay = delay;
    auto fused = make_engine(cs, test::options("cpu", 1, true));
    auto staged = make_engine(cs, test::options("cpu", 1, false));
    fused->step(1500);
    staged->step(1500);
    SCOPED_TRACE("routing_delay = vc_alloc_delay = " + std::to_string(delay));
    expect_same(full_state(*fused), full_state(*staged), fused->state_names());
  }
}

TEST(Determinism, FusedAndPhasedCyclesGiveIdenticalState) {
  // A batch runs instance by instance, each stage by stage (StagedCycle), against one parallel
  // step per phase. The staged cycle skips the readiness tests that delays of one or more make
  // needless; with delays of 0 (a stage acting in the cycle of the one before) and 2 it must
  // still agree.
  for (int64_t delay : {1, 0, 2}) {
    std::vector<Config> fused = batch(), phased = batch();
    for (Config& c : fused) c.router.routing_delay = c.router.vc_alloc_delay = delay;
    for (Config& c : phased) c.router.routing_delay = c.router.vc_alloc_delay = delay;
    for (Config& c : phased) c.run.fuse_phases = false;
    auto a = make_engine(fused, test::options("cpu", 2, false));
    auto b = make_engine(phased, test::options("cpu", 2, false));
    a->step(2000);
    b->step(2000);
    SCOPED_TRACE("routing_delay = vc_alloc_delay = " + std::to_string(delay));
    expect_same(full_state(*a), full_state(*b), a->state_names());
  }
}

TEST(Determinism, RepeatedRunsGiveIdenticalResults) {
  auto r1 = make_engine(batch(), test::options("cpu", 2, false))->run();
  auto r2 = make_engine(batch(), test::options("cpu", 2, false))->run();
  for (size_t i = 0; i < r1.size(); ++i) {
    EXPECT_EQ(r1[i].latency_mean, r2[i].latency_mean);
    EXPECT_EQ(r1[i].accepted, r2[i].accepted);
    EXPECT_EQ(r1[i].link_utilization, r2[i].link_utilization);
  }
}

TEST(Determinism, BatchMembersDoNotInfluenceEachOther) {
  std::vector<Config> cs = batch();
  auto together = make_engine(cs, test::options("cpu", 2, false))->run();
  auto alone = make_engine({cs[1]}, test::options("cpu", 1, false))->run();
  EXPECT_EQ(together[1].latency_mean, alone[0].latency_mean);
  EXPECT_EQ(together[1].accepted, alone[0].accepted);
}

TEST(Determinism, CpuAndCudaGiveBitIdenticalState) {
  if (!cuda_available())
    GTEST_SKIP() << "no CUDA device on this machine: CPU/GPU equality not checked";
  auto a = make_engine(batch(), test::options("cpu", 2, false));
  auto b = make_engine(batch(), test::options("cuda", 0, false));
  a->step(3000);
  b->step(3000);
  expect_same(full_state(*a), full_state(*b), a->state_names());
}
