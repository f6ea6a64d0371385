// Same seed, same numbers: across thread counts, across runs, across backends (bit for bit, on
// the whole state after a loaded run).
#include "helpers.hpp"

using namespace ls;
using test::expect_same;
using test::full_state;

namespace {

std::vector<Config> batch() {
  std::vector<Config> cs;
  for (double o : {0.1, 0.3, 0.6}) {
    Config c = test::network("torus", {4, 4}, o, 4);
    c.vc.routing = "min_adaptive";
    c.traffic.packet_size = 3;
    c.run.seed = static_cast<int64_t>(o * 100);
    cs.push_back(c);
  }
  return cs;
}

// The configurations with routing_delay = vc_alloc_delay = delay. The cycles skip readiness
// tests that delays of 1 or more make needless; with delays of 0 (a stage acting in the cycle of
// the one before) they must not.
std::vector<Config> with_delays(std::vector<Config> cs, int64_t delay) {
  for (Config& c : cs) c.vc.routing_delay = c.vc.vc_alloc_delay = delay;
  return cs;
}

// Two engines stepped alike end in the same state, array for array.
void expect_same_after(const std::vector<Config>& ca, const EngineOptions& oa,
                       const std::vector<Config>& cb, const EngineOptions& ob, uint64_t cycles) {
  auto a = make_engine(ca, oa);
  auto b = make_engine(cb, ob);
  a->step(cycles);
  b->step(cycles);
  expect_same(full_state(*a), full_state(*b), a->state_names());
}

}  // namespace

// These run without debug mode on purpose: debug mode steps cycle by cycle, and the point here
// is the production schedules (instance-parallel batches, split networks, staged cycles); one
// compares them with the fused cycle, which is what debug mode runs on the CPU.
TEST(Determinism, OneAndTwoThreadsGiveIdenticalState) {
  expect_same_after(batch(), test::options("cpu", 1, false), batch(),
                    test::options("cpu", 2, false), 3000);
}

TEST(Determinism, OneAndTwoThreadsSplittingOneNetwork) {
  // One instance large enough that the CPU backend splits its routers across threads each cycle,
  // each thread running its share stage by stage (StagedCycle).
  for (int64_t delay : {1, 0}) {
    SCOPED_TRACE("routing_delay = vc_alloc_delay = " + std::to_string(delay));
    const std::vector<Config> c = with_delays({test::network("torus", {16, 16}, 0.4)}, delay);
    expect_same_after(c, test::options("cpu", 1, false), c, test::options("cpu", 2, false), 1500);
    // Every core (run.threads = 0): pieces split over the threads and pieces on one
    // (ThreadChoice probes one thread in the second piece whatever the times).
    expect_same_after(c, test::options("cpu", 1, false), c, test::options("cpu", 0, false), 1500);
  }
}

TEST(Determinism, FusedAndStagedCyclesGiveIdenticalState) {
  // The GPU's cycle (RouterCycle, every stage of one router at a time; the CPU runs it in debug
  // mode) against the CPU's (StagedCycle, each stage over all routers with work for it).
  for (int64_t delay : {1, 0}) {
    SCOPED_TRACE("routing_delay = vc_alloc_delay = " + std::to_string(delay));
    const std::vector<Config> cs = with_delays(batch(), delay);
    expect_same_after(cs, test::options("cpu", 1, true), cs, test::options("cpu", 1, false), 1500);
  }
}

TEST(Determinism, FusedAndPhasedCyclesGiveIdenticalState) {
  // A batch runs instance by instance, each stage by stage (StagedCycle), against one parallel
  // step per phase.
  for (int64_t delay : {1, 0, 2}) {
    SCOPED_TRACE("routing_delay = vc_alloc_delay = " + std::to_string(delay));
    const std::vector<Config> fused = with_delays(batch(), delay);
    std::vector<Config> phased = fused;
    for (Config& c : phased) c.run.fuse_phases = false;
    expect_same_after(fused, test::options("cpu", 2, false), phased, test::options("cpu", 2, false),
                      2000);
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
