// run.schedule: the GPU's schedules (a launch per cycle; a block per instance or a cooperative
// grid running many cycles per launch, kernels/common/block_cycles.hpp) give the state of the
// CPU's own schedule, bit for bit, in every family. On the CPU a block's threads run as a loop,
// forward, reversed or shuffled: the lockstep rule says their order cannot matter, and these
// tests would find an element that reads what another writes in the same cycle. Where a GPU is
// present the same schedules run there too, against the CPU.
#include "helpers.hpp"
#include "host/backend/schedule.hpp"
#include "host/backend/write_audit.hpp"
#include "host/config/schema.hpp"

using namespace ls;
using test::expect_same;
using test::full_state;

namespace {

// A loaded batch of two instances of one family's small network (keys as section.name).
std::vector<Config> family_batch(const std::vector<std::pair<std::string, Value>>& keys) {
  std::vector<Config> cs;
  for (int64_t seed : {3, 4}) {
    Config c;
    for (const auto& [key, value] : keys) {
      const size_t dot = key.find('.');
      set_key(c, key.substr(0, dot), key.substr(dot + 1), value);
    }
    c.run.seed = seed;
    cs.push_back(c);
  }
  validate(cs[0]);
  return cs;
}

Value ints(std::vector<int64_t> v) {
  return Value(std::move(v));
}
Value str(const char* s) {
  return Value(std::string(s));
}

struct FamilyCase {
  const char* name;
  std::vector<Config> batch;
};

// Each family past or near its knee, with the features that touch most state.
std::vector<FamilyCase> families() {
  return {
      {"vc", family_batch({{"topology.radix", ints({4, 4})},
                           {"router.routing", str("min_adaptive")},
                           {"router.vcs", Value(int64_t{4})},
                           {"traffic.packet_size", Value(int64_t{3})},
                           {"traffic.offered", Value(0.5)}})},
      {"sconnect", family_batch({{"router.family", str("sconnect")},
                                 {"topology.radix", ints({4, 4})},
                                 {"traffic.offered", Value(0.7)},
                                 {"traffic.packet_sizes", ints({1, 4})},
                                 {"traffic.packet_size_weights", Value(std::vector<double>{1, 1})},
                                 {"sconnect.buffers", Value(int64_t{14})},
                                 {"sconnect.reserve", Value(int64_t{4})},
                                 {"sconnect.priorities", Value(int64_t{1})}})},
      {"t3e", family_batch({{"router.family", str("t3e")},
                            {"topology.radix", ints({4, 4, 2})},
                            {"traffic.offered", Value(0.5)},
                            {"t3e.barrier", str("barrier")},
                            {"t3e.barrier_period", Value(int64_t{40})}})},
      {"metro", family_batch({{"router.family", str("metro")},
                              {"topology.kind", str("multibutterfly")},
                              {"topology.radix", ints({2, 2, 4})},
                              {"topology.dilation", ints({2, 2, 1})},
                              {"traffic.packet_size", Value(int64_t{10})},
                              {"traffic.offered", Value(0.4)}})},
      {"bgl", family_batch({{"router.family", str("bgl")},
                            {"topology.radix", ints({4, 4, 2})},
                            {"topology.link_delay", Value(int64_t{3})},
                            {"traffic.packet_size", Value(int64_t{256})},
                            {"traffic.offered", Value(1.2)}})},
  };
}

std::vector<Config> with_schedule(std::vector<Config> cs, const char* schedule, const char* order,
                                  int64_t cycles_per_launch = 0, int64_t block_threads = 0,
                                  const char* hot = "global", const char* lanes = "one",
                                  const char* view = "shared", bool roles = false) {
  for (Config& c : cs) {
    c.run.lanes = lanes;
    c.run.roles = roles;
    c.run.hot_state = hot;
    c.run.block_view = view;
    c.run.schedule = schedule;
    c.run.block_order = order;
    c.run.cycles_per_launch = cycles_per_launch;
    c.run.block_threads = block_threads;
  }
  return cs;
}

// Steps both batches alike, in two steps (so a second step starts from a launch's end), and
// compares every state array. In a write-audit build (make audit) the second batch's GPU
// schedule on the CPU is audited too: no byte written by two GPU threads in one cycle.
void expect_same_state(const std::vector<Config>& a, const std::vector<Config>& b,
                       const std::string& backend_b, int threads_b = 1) {
  auto x = make_engine(a, test::options("cpu", 1, false));
  auto y = make_engine(b, test::options(backend_b, threads_b, false));
  for (uint64_t n : {700, 333}) {
    x->step(n);
#ifdef LS_WRITE_AUDIT
    audit::begin();
#endif
    y->step(n);
#ifdef LS_WRITE_AUDIT
    const std::vector<std::string> conflicts = audit::end();
    for (const std::string& c : conflicts) ADD_FAILURE() << "written twice in a cycle: " << c;
#endif
  }
  expect_same(full_state(*x), full_state(*y), x->state_names());
}

// Each case's batch with tiles under the block schedule, lanes reversed and shuffled on the CPU
// (and on CUDA where there is a device), against the CPU's own schedule.
void expect_lane_form_state(const std::vector<std::vector<std::pair<std::string, Value>>>& cases) {
  for (size_t i = 0; i < cases.size(); ++i) {
    const std::vector<Config> batch = family_batch(cases[i]);
    for (const char* order : {"reversed", "shuffled"}) {
      SCOPED_TRACE("case " + std::to_string(i) + ", " + order);
      expect_same_state(batch, with_schedule(batch, "block", order, 0, 0, "global", "tile"), "cpu");
    }
    if (cuda_available()) {
      SCOPED_TRACE("case " + std::to_string(i) + ", cuda");
      expect_same_state(batch, with_schedule(batch, "launch", "forward", 0, 0, "global", "tile"),
                        "cuda");
    }
  }
}

}  // namespace

TEST(Schedule, GpuSchedulesOnTheCpuGiveTheCpuScheduleState) {
  for (const FamilyCase& f : families()) {
    for (const char* order : {"forward", "reversed", "shuffled"}) {
      SCOPED_TRACE(std::string(f.name) + ", block, " + order);
      expect_same_state(f.batch, with_schedule(f.batch, "block", order), "cpu");
      // The view where the kernel's parameter puts it, each thread's clock its own.
      expect_same_state(f.batch,
                        with_schedule(f.batch, "block", order, 0, 0, "global", "one", "parameter"),
                        "cpu");
    }
    SCOPED_TRACE(f.name);
    expect_same_state(f.batch, with_schedule(f.batch, "grid", "shuffled"), "cpu");
    expect_same_state(f.batch, with_schedule(f.batch, "launch", "forward"), "cpu");
    // Launches of 7 cycles: a launch's end falls inside the steps, where the view is copied
    // into the block anew.
    expect_same_state(f.batch, with_schedule(f.batch, "block", "shuffled", 7), "cpu", 2);
    // The hot arrays in the block's own buffer, their global slices overwritten meanwhile
    // (CpuBlock::hide): a cycle that reached one other than through the view's rebased
    // pointer, or a slice copied short, would change the state.
    expect_same_state(f.batch, with_schedule(f.batch, "block", "reversed", 0, 0, "shared"), "cpu");
    expect_same_state(f.batch, with_schedule(f.batch, "block", "shuffled", 7, 0, "shared"), "cpu",
                      2);
  }
}

// run.lanes = "tile": each element on a tile of 16 lanes (kernels/common/tile.hpp), which the
// CPU runs as a loop in the block's order. The vc family's lane form (its ports and VCs over the
// lanes) and the other families' cycle on one lane give the CPU schedule's state: a lane that
// read what another lane of the same step wrote would differ in reversed or shuffled order.
TEST(Schedule, TilesOnTheCpuGiveTheCpuScheduleState) {
  for (const FamilyCase& f : families()) {
    for (const char* order : {"forward", "reversed", "shuffled"}) {
      SCOPED_TRACE(std::string(f.name) + ", block, tile, " + order);
      expect_same_state(f.batch, with_schedule(f.batch, "block", order, 0, 0, "global", "tile"),
                        "cpu");
    }
    SCOPED_TRACE(f.name);
    expect_same_state(f.batch, with_schedule(f.batch, "grid", "shuffled", 0, 0, "global", "tile"),
                      "cpu");
    expect_same_state(f.batch, with_schedule(f.batch, "launch", "forward", 0, 0, "global", "tile"),
                      "cpu", 2);
    expect_same_state(f.batch, with_schedule(f.batch, "block", "shuffled", 7, 0, "shared", "tile"),
                      "cpu", 2);
    expect_same_state(
        f.batch, with_schedule(f.batch, "block", "reversed", 7, 0, "global", "tile", "parameter"),
        "cpu", 2);
  }
}

// The vc lane form over the router's shapes and policies: fixed shapes and any shape, dimension
// order and adaptive routing, wormhole and cut-through, both allocators and iSLIP's later
// iterations, pipeline delays that keep a ready cycle, request-reply's two classes, and a
// crossbar's many terminals a router.
namespace {
std::vector<std::vector<std::pair<std::string, Value>>> vc_lane_cases() {
  return {
      {{"topology.radix", ints({4, 4})}, {"traffic.offered", Value(0.45)}},
      {{"topology.kind", str("torus")},
       {"topology.radix", ints({4, 4})},
       {"router.vcs", Value(int64_t{4})},
       {"router.flow_control", str("vct")},
       {"traffic.packet_size", Value(int64_t{5})},
       {"traffic.offered", Value(0.6)}},
      {{"topology.radix", ints({3, 3, 3})},
       {"router.routing", str("min_adaptive")},
       {"router.vcs", Value(int64_t{3})},
       {"router.vc_allocator", str("separable_input_first")},
       {"router.sw_allocator", str("separable_input_first")},
       {"router.routing_delay", Value(int64_t{2})},
       {"router.vc_alloc_delay", Value(int64_t{0})},
       {"traffic.offered", Value(0.5)}},
      {{"topology.radix", ints({4, 4})},
       {"router.vcs", Value(int64_t{4})},
       {"router.alloc_iters", Value(int64_t{3})},
       {"traffic.request_reply", Value(true)},
       {"traffic.offered", Value(0.4)}},
      {{"topology.radix", ints({4, 4})},
       {"router.routing", str("min_adaptive")},
       {"router.vcs", Value(int64_t{4})},
       {"router.flow_control", str("vct")},
       {"router.alloc_iters", Value(int64_t{2})},
       {"traffic.packet_size", Value(int64_t{4})},
       {"traffic.offered", Value(0.6)}},
      {{"topology.kind", str("crossbar")},
       {"topology.radix", ints({12})},
       {"router.vcs", Value(int64_t{5})},
       {"traffic.packet_size", Value(int64_t{4})},
       {"traffic.offered", Value(0.9)}},
  };
}
}  // namespace
TEST(Schedule, VcLaneFormGivesTheCpuScheduleState) {
  expect_lane_form_state(vc_lane_cases());
}

// run.roles: the routers without their one-lane roles (on tiles or one lane each) and the roles
// as items of their own, run in one order over both (roles before their routers, after them, or
// shuffled among them), under launch and under block, give the CPU schedule's state: a role that
// reached its router other than through the belts' later slots would differ. Tiles under launch
// and one lane under block (the candidates) in every order, the other two shuffled; on CUDA
// each forward.
namespace {
void expect_role_form_state(const std::vector<std::vector<std::pair<std::string, Value>>>& cases) {
  struct Form {
    const char *schedule, *lanes;
    std::vector<const char*> orders;
  };
  const std::vector<Form> forms = {{"launch", "tile", {"forward", "reversed", "shuffled"}},
                                   {"block", "one", {"forward", "reversed", "shuffled"}},
                                   {"launch", "one", {"shuffled"}},
                                   {"block", "tile", {"shuffled"}}};
  for (size_t i = 0; i < cases.size(); ++i) {
    const std::vector<Config> batch = family_batch(cases[i]);
    for (const Form& f : forms) {
      for (const char* order : f.orders) {
        SCOPED_TRACE("case " + std::to_string(i) + ", " + f.schedule + ", " + f.lanes + ", " +
                     order);
        expect_same_state(
            batch, with_schedule(batch, f.schedule, order, 0, 0, "global", f.lanes, "shared", true),
            "cpu");
      }
      if (cuda_available()) {
        SCOPED_TRACE("case " + std::to_string(i) + ", " + f.schedule + ", " + f.lanes + ", cuda");
        expect_same_state(
            batch,
            with_schedule(batch, f.schedule, "forward", 0, 0, "global", f.lanes, "parameter", true),
            "cuda");
      }
    }
  }
  // A block too small for every router and role at once loops over both (block_threads), and
  // the hot arrays on chip serve the roles too.
  const std::vector<Config> batch = family_batch(cases[0]);
  expect_same_state(
      batch, with_schedule(batch, "block", "shuffled", 0, 64, "shared", "one", "shared", true),
      "cpu");
  if (cuda_available())
    expect_same_state(
        batch, with_schedule(batch, "block", "forward", 0, 64, "shared", "one", "shared", true),
        "cuda");
}
}  // namespace

// The vc role form: each terminal a role.
TEST(Schedule, VcRoleFormGivesTheCpuScheduleState) {
  expect_role_form_state(vc_lane_cases());
}

// The T3E's lane form over its features: adaptive routing under two admission rules (and the
// families' case under the default one), transpose traffic past the knee, a link failing mid-run
// (flits discarded where they arrive, their packets lost), eureka packets with a mirrored
// orientation, R_NET_LUT mode 3, and a partial plane's partitions with a hot spare.
namespace {
std::vector<std::vector<std::pair<std::string, Value>>> t3e_lane_cases() {
  const Value t3e = str("t3e");
  return {
      {{"router.family", t3e},
       {"topology.radix", ints({4, 4, 4})},
       {"traffic.pattern", str("transpose")},
       {"t3e.adaptive_admission", str("empty")},
       {"traffic.offered", Value(0.8)}},
      {{"router.family", t3e},
       {"topology.radix", ints({4, 4, 2})},
       {"t3e.adaptive_admission", str("flit")},
       {"traffic.offered", Value(0.5)}},
      {{"router.family", t3e},
       {"topology.radix", ints({8, 2, 1})},
       {"t3e.adaptive", Value(false)},
       {"t3e.failed_links", ints({3, 0, 0, 0})},
       {"t3e.fail_cycle", Value(int64_t{300})},
       {"traffic.offered", Value(0.5)}},
      {{"router.family", t3e},
       {"topology.radix", ints({4, 2, 4})},
       {"t3e.barrier", str("eureka")},
       {"t3e.barrier_period", Value(int64_t{70})},
       {"t3e.r_orient", Value(int64_t{5})},
       {"traffic.offered", Value(0.6)}},
      {{"router.family", t3e},
       {"topology.radix", ints({4, 4, 2})},
       {"t3e.lut_mode", str("mode3")},
       {"traffic.pattern", str("bitrev")},
       {"traffic.offered", Value(0.5)}},
      {{"router.family", t3e},
       {"topology.radix", ints({4, 4, 3})},
       {"t3e.partial_plane", ints({3, 2})},
       {"t3e.partitions", ints({0, 15, 16, 20})},
       {"t3e.hot_spares", Value(int64_t{1})},
       {"t3e.failed_nodes", ints({1, 2, 0})},
       {"traffic.pattern", str("neighbor")},
       {"traffic.offered", Value(0.6)}},
  };
}
}  // namespace
TEST(Schedule, T3eLaneFormGivesTheCpuScheduleState) {
  expect_lane_form_state(t3e_lane_cases());
}

// The T3E's role form over the same features: the PE, with its shell's BSUs, a role.
TEST(Schedule, T3eRoleFormGivesTheCpuScheduleState) {
  expect_role_form_state(t3e_lane_cases());
}

// Blue Gene/L's lane form over its features: JSQ and the bubble escape, the dateline pair with
// random arbitration and no input pipeline (heads ready the cycle they arrive, beside
// token-acks), the arbitration gap with high-priority packets, the link-level retransmission
// with errors, dead nodes routed around, and a plane fill's broadcasts turning at corners.
TEST(Schedule, BglLaneFormGivesTheCpuScheduleState) {
  const Value bgl = str("bgl");
  const std::vector<std::vector<std::pair<std::string, Value>>> cases = {
      {{"router.family", bgl},
       {"topology.radix", ints({4, 4, 4})},
       {"traffic.packet_size", Value(int64_t{256})},
       {"traffic.offered", Value(0.9)}},
      {{"router.family", bgl},
       {"topology.radix", ints({4, 4, 4})},
       {"bgl.escape_vcs", str("dateline_pair")},
       {"bgl.slq_fraction", Value(0.0)},
       {"bgl.pipeline_delay", Value(int64_t{0})},
       {"bgl.vc_bytes", Value(int64_t{512})},
       {"traffic.packet_size", Value(int64_t{64})},
       {"traffic.offered", Value(1.2)}},
      {{"router.family", bgl},
       {"topology.radix", ints({4, 4, 2})},
       {"bgl.arbitration_gap", Value(true)},
       {"bgl.priority_fraction", Value(0.2)},
       {"traffic.packet_size", Value(int64_t{256})},
       {"traffic.offered", Value(1.0)}},
      {{"router.family", bgl},
       {"topology.radix", ints({4, 2, 2})},
       {"bgl.retransmission_packets", Value(int64_t{4})},
       {"bgl.link_error_rate", Value(0.002)},
       {"traffic.packet_size", Value(int64_t{96})},
       {"traffic.offered", Value(0.8)}},
      {{"router.family", bgl},
       {"topology.radix", ints({4, 4, 2})},
       {"bgl.dead_nodes", ints({5, 22})},
       {"traffic.packet_size", Value(int64_t{256})},
       {"traffic.offered", Value(0.7)}},
      {{"router.family", bgl},
       {"topology.radix", ints({4, 4, 2})},
       {"traffic.pattern", str("planefill")},
       {"traffic.packet_size", Value(int64_t{256})},
       {"traffic.offered", Value(0.8)}},
  };
  expect_lane_form_state(cases);
}

// METRO's lane form over its features: a dilated multibutterfly past its knee (requests for one
// direction in one clock), pipelined setup with detailed reclamation and routers failing
// unmasked mid-run, swallowed route words with a hot spot, a fat tree, width cascading with
// header errors (shut-downs), and data errors with backoff.
TEST(Schedule, MetroLaneFormGivesTheCpuScheduleState) {
  const Value metro = str("metro"), mbfly = str("multibutterfly");
  const std::vector<std::vector<std::pair<std::string, Value>>> cases = {
      {{"router.family", metro},
       {"topology.kind", mbfly},
       {"topology.radix", ints({2, 2, 4})},
       {"topology.dilation", ints({2, 2, 1})},
       {"traffic.packet_size", Value(int64_t{6})},
       {"traffic.offered", Value(0.8)}},
      {{"router.family", metro},
       {"topology.kind", mbfly},
       {"topology.radix", ints({2, 2, 4})},
       {"topology.dilation", ints({2, 2, 1})},
       {"metro.hw", Value(int64_t{2})},
       {"metro.vtd", Value(int64_t{1})},
       {"metro.reclaim", str("detailed")},
       {"metro.retry_delay", Value(int64_t{3})},
       {"metro.failed_routers", ints({9, 17})},
       {"metro.failure_cycle", Value(int64_t{400})},
       {"metro.mask_failed", Value(false)},
       {"metro.timeout", Value(int64_t{40})},
       {"traffic.packet_size", Value(int64_t{10})},
       {"traffic.pattern", str("hotspot")},
       {"traffic.offered", Value(0.4)}},
      {{"router.family", metro},
       {"topology.kind", mbfly},
       {"topology.radix", ints({4, 4})},
       {"topology.dilation", ints({2, 1})},
       {"metro.width", Value(int64_t{2})},
       {"metro.swallow", ints({0})},
       {"traffic.pattern", str("hotspot")},
       {"traffic.packet_size", Value(int64_t{4})},
       {"traffic.offered", Value(0.7)}},
      {{"router.family", metro},
       {"topology.kind", str("fat_tree")},
       {"topology.radix", ints({4, 4})},
       {"traffic.packet_size", Value(int64_t{8})},
       {"traffic.offered", Value(0.6)}},
      {{"router.family", metro},
       {"topology.kind", mbfly},
       {"topology.radix", ints({2, 2, 4})},
       {"topology.dilation", ints({2, 2, 1})},
       {"metro.cascade", Value(int64_t{2})},
       {"metro.header_error_rate", Value(0.01)},
       {"traffic.packet_size", Value(int64_t{6})},
       {"traffic.offered", Value(0.6)}},
      {{"router.family", metro},
       {"topology.kind", mbfly},
       {"topology.radix", ints({2, 2, 4})},
       {"topology.dilation", ints({2, 2, 1})},
       {"metro.word_error_rate", Value(0.005)},
       {"metro.backoff", str("random")},
       {"traffic.packet_size", Value(int64_t{12})},
       {"traffic.offered", Value(0.6)}},
  };
  expect_lane_form_state(cases);
}

// S-Connect's lane form over its features: the TIC's queues past the knee with quad-messages and
// corrupted slots (acknowledgements lost, messages sent again), Figure 4's assignment with a
// small pool spilling its excess, Figure 5's hypercube past its knee with sent messages in the
// channels' stores and corrupted slots, the TIC's channels sending from a small pool into their
// stores on lanes of their own, the optimal one on dual-TIC routers of 17 ports with slower
// channels, four priorities without bypass on a hypercube, and noisy channels under Figure 4's
// assignment with quads. (Control messages and the counters under tiles: SconnectControl.)
TEST(Schedule, SconnectLaneFormGivesTheCpuScheduleState) {
  const Value sconnect = str("sconnect");
  const std::vector<std::vector<std::pair<std::string, Value>>> cases = {
      {{"router.family", sconnect},
       {"topology.radix", ints({4, 4})},
       {"traffic.offered", Value(0.7)},
       {"traffic.packet_sizes", ints({1, 4})},
       {"traffic.packet_size_weights", Value(std::vector<double>{1, 1})},
       {"sconnect.buffers", Value(int64_t{20})},
       {"sconnect.reserve", Value(int64_t{4})},
       {"sconnect.priorities", Value(int64_t{1})},
       {"sconnect.bit_error_rate", Value(0.002)}},
      {{"router.family", sconnect},
       {"topology.radix", ints({4, 4})},
       {"traffic.offered", Value(0.9)},
       {"sconnect.assignment", str("near_optimal")},
       {"sconnect.buffers", Value(int64_t{12})},
       {"sconnect.reserve", Value(int64_t{1})},
       {"sconnect.priorities", Value(int64_t{1})}},
      {{"router.family", sconnect},
       {"topology.kind", str("hypercube")},
       {"topology.dimension", Value(int64_t{6})},
       {"topology.max_ports", Value(int64_t{6})},
       {"traffic.offered", Value(1.0)},
       {"sconnect.assignment", str("near_optimal")},
       {"sconnect.unacknowledged", str("channel")},
       {"sconnect.buffers", Value(int64_t{10})},
       {"sconnect.priorities", Value(int64_t{1})},
       {"sconnect.bit_error_rate", Value(0.002)}},
      {{"router.family", sconnect},
       {"topology.radix", ints({4, 4})},
       {"traffic.offered", Value(0.9)},
       {"sconnect.unacknowledged", str("channel")},
       {"sconnect.buffers", Value(int64_t{8})},
       {"sconnect.priorities", Value(int64_t{1})}},
      {{"router.family", sconnect},
       {"topology.kind", str("random_regular")},
       {"topology.nodes", Value(int64_t{32})},
       {"topology.degree", Value(int64_t{4})},
       {"topology.max_ports", Value(int64_t{15})},
       {"topology.dual_tic", Value(true)},
       {"topology.link_delay", Value(int64_t{2})},
       {"traffic.offered", Value(0.5)},
       {"sconnect.assignment", str("optimal")},
       {"sconnect.priorities", Value(int64_t{2})}},
      {{"router.family", sconnect},
       {"topology.kind", str("hypercube")},
       {"topology.dimension", Value(int64_t{4})},
       {"traffic.offered", Value(0.6)},
       {"traffic.priority_weights", Value(std::vector<double>{1, 1, 1, 1})},
       {"sconnect.priorities", Value(int64_t{4})},
       {"sconnect.bypass", Value(false)},
       {"sconnect.host_ports", Value(int64_t{1})}},
      {{"router.family", sconnect},
       {"topology.radix", ints({4, 4})},
       {"traffic.offered", Value(0.6)},
       {"traffic.packet_sizes", ints({1, 4})},
       {"traffic.packet_size_weights", Value(std::vector<double>{3, 1})},
       {"sconnect.assignment", str("near_optimal")},
       {"sconnect.reserve", Value(int64_t{4})},
       {"sconnect.priorities", Value(int64_t{2})},
       {"sconnect.noisy_channels", ints({0, 1, 5, 2})},
       {"sconnect.noisy_bit_error_rate", Value(0.01)}},
  };
  expect_lane_form_state(cases);
}

TEST(Schedule, GpuSchedulesOnCudaGiveTheCpuState) {
  if (!cuda_available())
    GTEST_SKIP() << "no CUDA device on this machine: the GPU's schedules are checked on the CPU";
  for (const FamilyCase& f : families()) {
    SCOPED_TRACE(f.name);
    expect_same_state(f.batch, with_schedule(f.batch, "launch", "forward"), "cuda");
    expect_same_state(f.batch, with_schedule(f.batch, "block", "forward"), "cuda");
    expect_same_state(f.batch, with_schedule(f.batch, "block", "forward", 7, 32), "cuda");
    expect_same_state(
        f.batch, with_schedule(f.batch, "block", "forward", 7, 32, "global", "one", "parameter"),
        "cuda");
    expect_same_state(f.batch, with_schedule(f.batch, "block", "forward", 0, 0, "shared"), "cuda");
    expect_same_state(f.batch, with_schedule(f.batch, "grid", "forward"), "cuda");
    expect_same_state(f.batch, with_schedule(f.batch, "grid", "forward", 64, 32), "cuda");
    expect_same_state(f.batch, with_schedule(f.batch, "launch", "forward", 0, 0, "global", "tile"),
                      "cuda");
    expect_same_state(f.batch, with_schedule(f.batch, "block", "forward", 0, 0, "global", "tile"),
                      "cuda");
    expect_same_state(f.batch, with_schedule(f.batch, "block", "forward", 7, 48, "shared", "tile"),
                      "cuda");
    expect_same_state(
        f.batch, with_schedule(f.batch, "block", "forward", 0, 0, "global", "tile", "parameter"),
        "cuda");
    expect_same_state(f.batch, with_schedule(f.batch, "grid", "forward", 0, 0, "global", "tile"),
                      "cuda");
  }
}

TEST(Schedule, KeysAreCheckedAndNamed) {
  Config c;
  std::string m = test::config_error_of([&] { set_key(c, "run", "schedule", str("warp")); });
  EXPECT_NE(m.find("run.schedule"), std::string::npos) << m;
  EXPECT_NE(m.find("warp"), std::string::npos) << m;
  EXPECT_NE(m.find("auto, launch, block, grid"), std::string::npos) << m;
  m = test::config_error_of([&] { set_key(c, "run", "lanes", str("warp")); });
  EXPECT_NE(m.find("run.lanes"), std::string::npos) << m;
  EXPECT_NE(m.find("auto, one, tile"), std::string::npos) << m;
  // Roles: the vc and T3E families' (the role forms), under launch and block.
  std::vector<Config> roles =
      with_schedule(families()[0].batch, "grid", "forward", 0, 0, "global", "one", "shared", true);
  m = test::config_error_of([&] { validate(roles[0]); });
  EXPECT_NE(m.find("run.roles = true"), std::string::npos) << m;
  EXPECT_NE(m.find("\"launch\", \"block\" or \"auto\", here \"grid\""), std::string::npos) << m;
  roles = with_schedule(families()[1].batch, "launch", "forward", 0, 0, "global", "tile", "shared",
                        true);
  m = test::config_error_of([&] { validate(roles[0]); });
  EXPECT_NE(m.find("router.family = vc or t3e"), std::string::npos) << m;
  EXPECT_NE(m.find("here \"sconnect\""), std::string::npos) << m;
  // The view in the kernel's parameter cannot hold the hot arrays' rebased pointers.
  const std::vector<Config> param =
      with_schedule(families()[0].batch, "block", "forward", 0, 0, "shared", "one", "parameter");
  m = test::config_error_of([&] { validate(param[0]); });
  EXPECT_NE(m.find("run.block_view = \"parameter\""), std::string::npos) << m;
  EXPECT_NE(m.find("run.hot_state = \"global\""), std::string::npos) << m;
  m = test::config_error_of([&] { set_key(c, "run", "block_threads", Value(int64_t{2048})); });
  EXPECT_NE(m.find("run.block_threads"), std::string::npos) << m;
  EXPECT_NE(m.find("2048"), std::string::npos) << m;
}

// Results say which schedule ran, `auto` resolved (Engine::schedule; on CUDA, what cuda_plan
// picks for the batch).
TEST(Schedule, EngineSaysWhichScheduleRan) {
  const std::vector<Config> vc = families()[0].batch;
  EXPECT_EQ(make_engine(vc, test::options("cpu", 1, false))->schedule(), "stages");
  EXPECT_EQ(make_engine(vc, test::options("cpu", 1, true))->schedule(), "debug");
  EXPECT_EQ(make_engine(with_schedule(vc, "block", "forward", 0, 0, "global", "tile"),
                        test::options("cpu", 1, false))
                ->schedule(),
            "block, tile");
  EXPECT_EQ(
      make_engine(with_schedule(vc, "launch", "forward", 0, 0, "global", "auto", "shared", true),
                  test::options("cpu", 1, false))
          ->schedule(),
      "launch, tile, roles");
  EXPECT_EQ(
      make_engine(with_schedule(vc, "block", "forward", 0, 0, "global", "one", "shared", true),
                  test::options("cpu", 1, false))
          ->schedule(),
      "block, roles");
  std::vector<Config> phases = vc;
  for (Config& c : phases) c.run.fuse_phases = false;
  EXPECT_EQ(make_engine(phases, test::options("cpu", 1, false))->schedule(), "phases");
  std::vector<Config> t3e = with_schedule(families()[2].batch, "grid", "forward");
  for (Config& c : t3e) c.run.warmup = 100, c.run.measure = 200;
  auto e = make_engine(t3e, test::options("cpu", 1, false));
  EXPECT_EQ(e->schedule(), "grid");
  EXPECT_EQ(e->run()[0].schedule, "grid");
  if (cuda_available()) {  // two 16-router instances: a tile a router, or a block each
    EXPECT_EQ(make_engine(vc, test::options("cuda", 1, false))->schedule(), "launch, tile");
    EXPECT_EQ(make_engine(with_schedule(vc, "auto", "forward"), test::options("cuda", 1, false))
                  ->schedule(),
              "block");
  }
}

// CUDA's `auto` takes what an H100 measured fastest for the batch's shape (schedule.hpp).
TEST(Schedule, CudaAutoTakesTheMeasuredFastest) {
  constexpr uint64_t kSms = 132;  // an H100's
  const auto plan = [](const char* schedule, const char* lanes, uint64_t instances,
                       uint64_t per_instance, const char* hot = "global", bool roles = false) {
    RunConfig run;
    run.schedule = schedule;
    run.lanes = lanes;
    run.hot_state = hot;
    run.roles = roles;
    const CudaPlan p = cuda_plan(schedule_of(run), instances, per_instance, kSms);
    return schedule_name(p.kind, p.lanes, p.roles);
  };
  // Both keys auto: a tile an element under `launch` up to 1,024 elements, then one lane.
  EXPECT_EQ(plan("auto", "auto", 1, 64), "launch, tile");   // an 8x8 mesh
  EXPECT_EQ(plan("auto", "auto", 1, 512), "launch, tile");  // an 8x8x8 torus
  EXPECT_EQ(plan("auto", "auto", 2, 512), "launch, tile");
  EXPECT_EQ(plan("auto", "auto", 1, 2048), "launch");
  EXPECT_EQ(plan("auto", "auto", 256, 64), "block");          // 256 8x8 meshes
  EXPECT_EQ(plan("auto", "auto", 256, 512), "block");         // 256 of them
  EXPECT_EQ(plan("auto", "auto", 1024, 64), "block");         // 1,024 meshes
  EXPECT_EQ(plan("auto", "auto", 256, 4096), "launch");       // more than a block
  EXPECT_EQ(plan("auto", "auto", 1, 262144), "launch");       // 64x64x64
  EXPECT_EQ(plan("auto", "auto", 1, 64, "shared"), "block");  // hot state on chip: a block
  // One lane named: the schedule by the instances' size and number.
  EXPECT_EQ(plan("auto", "one", 1, 64), "block");
  EXPECT_EQ(plan("auto", "one", 1, 256), "block");  // a 16x16 torus
  EXPECT_EQ(plan("auto", "one", 1, 512), "launch");
  EXPECT_EQ(plan("auto", "one", 8, 512), "launch");
  EXPECT_EQ(plan("auto", "one", 256, 512), "block");
  // A schedule named: tiles under `launch` alone, for as few elements; what is named is kept.
  EXPECT_EQ(plan("launch", "auto", 1, 512), "launch, tile");
  EXPECT_EQ(plan("launch", "auto", 256, 64), "launch");
  EXPECT_EQ(plan("block", "auto", 1, 64), "block");
  EXPECT_EQ(plan("grid", "auto", 1, 512), "grid");
  EXPECT_EQ(plan("block", "tile", 256, 64), "block, tile");
  EXPECT_EQ(plan("launch", "one", 1, 64), "launch");
  // Roles run under launch (named or auto) and block, on tiles unless one lane is named.
  EXPECT_EQ(plan("launch", "auto", 1, 64, "global", true), "launch, tile, roles");
  EXPECT_EQ(plan("auto", "auto", 256, 64, "global", true), "launch, tile, roles");
  EXPECT_EQ(plan("launch", "one", 1, 64, "global", true), "launch, roles");
  EXPECT_EQ(plan("block", "one", 1, 64, "global", true), "block, roles");
  EXPECT_EQ(plan("block", "tile", 1, 64, "global", true), "block, tile, roles");
}
