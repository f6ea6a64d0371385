// The T3E's special network (manual, "Special Routing"): SPUT and SGET follow six delta values,
// primary X, Y, Z then secondary X, Y, Z, a hop each fall_through_turn (6) clocks, with no flow
// control: two packets at one port in one clock, one overwrites the other and is counted
// eaten; IGNORE_SPCL discards them.
#include "helpers.hpp"
#include "kernels/t3e/register_bits.hpp"
#include "kernels/t3e/routing_tag.hpp"
#include "kernels/t3e/special_header.hpp"

using namespace ls;
using namespace ls::t3e;

namespace {

Config machine(std::vector<int64_t> radix, double offered = 0.0) {
  Config c = test::network("torus", std::move(radix), offered);
  c.router.family = "t3e";
  return c;
}

uint64_t deltas(std::vector<int> d) {
  uint64_t w = 0;
  for (size_t i = 0; i < d.size(); ++i) w |= (static_cast<uint64_t>(d[i]) & 63u) << (6 * i);
  return w;
}

std::vector<uint64_t> u64(const Engine& e, const char* name) {
  return test::values<uint64_t>(e.state(name));
}

// Software's command at router r's PE: sent the next clock the engine runs.
void command(Engine& e, uint32_t r, uint32_t kind, uint32_t reg, uint64_t d, uint64_t value) {
  test::edit_state<uint64_t>(e, "special_command", [&](std::vector<uint64_t>& w) {
    w[r * 2] = Special::make(kind, reg, d);
    w[r * 2 + 1] = value;
  });
}

uint64_t total(const std::vector<uint64_t>& v) {
  uint64_t n = 0;
  for (uint64_t x : v) n += x;
  return n;
}

}  // namespace

TEST(T3eSpecial, HeaderDeltasHopInOrder) {
  uint64_t h = Special::make(Special::kSput, Special::kRSw, deltas({0, 2, -1, 1, 0, 0}));
  std::vector<uint32_t> dirs;
  uint32_t d;
  while (Special::next_dir(h, d)) {
    dirs.push_back(d);
    h = Special::hop(h);
  }
  EXPECT_EQ(dirs, (std::vector<uint32_t>{kPlusY, kPlusY, kMinusZ, kPlusX}));
  EXPECT_EQ(Special::delta(deltas({-32, 31}), 0), -32);
  EXPECT_EQ(Special::delta(deltas({-32, 31}), 1), 31);
}

// SPUT writes R_SW at the node the deltas lead to, 4 hops x 6 clocks later; SPUT loads that
// node's R_SGET_RTRN with the way back; SGET reads R_SW and the response comes home. A
// saturating data load changes none of the timing: the network is nonblocking.
TEST(T3eSpecial, SputAndSgetReachTheNodeTheDeltasName) {
  for (double load : {0.0, 0.9}) {
    auto e = make_engine({machine({4, 4, 2}, load)}, test::options());
    e->step(100);
    const uint32_t far = 1 + 4 * 2 + 16;  // (1, 2, 1): primary (0, +2, 0), secondary (+1, 0, +1)
    command(*e, 0, Special::kSput, Special::kRSw, deltas({0, 2, 0, 1, 0, 1}), 0xABC);
    e->step(24);
    EXPECT_EQ(total(u64(*e, "r_sw")), 0u) << "arrived early";
    e->step(1);
    std::vector<uint64_t> sw = u64(*e, "r_sw");
    EXPECT_EQ(sw[far], 0xABCu);
    EXPECT_EQ(total(sw), 0xABCu);

    command(*e, 0, Special::kSput, Special::kRSgetRtrn, deltas({0, 2, 0, 1, 0, 1}),
            deltas({-1, -2, -1}));
    e->step(30);
    command(*e, 0, Special::kSget, Special::kRSw, deltas({0, 2, 0, 1, 0, 1}), 0);
    e->step(48);
    EXPECT_EQ(u64(*e, "special_received")[0], 0u) << "the response came early";
    e->step(1);
    const std::vector<uint64_t> got = u64(*e, "special_received");
    EXPECT_EQ(Special::kind(got[0]), Special::kResponse);
    EXPECT_EQ(got[1], 0xABCu);
    EXPECT_EQ(total(u64(*e, "special_eaten")), 0u);
  }
}

// Routers 1 and 3 of a ring of four SPUT router 2's R_SW in the same clock: the packets meet at
// router 2's register, one overwrites the other (the later port's, from router 1, wins) and one
// is counted eaten.
TEST(T3eSpecial, TwoPacketsAtOnePortOneIsEaten) {
  auto e = make_engine({machine({4, 1, 1})}, test::options());
  command(*e, 1, Special::kSput, Special::kRSw, deltas({1}), 111);
  command(*e, 3, Special::kSput, Special::kRSw, deltas({-1}), 333);
  e->step(20);
  EXPECT_EQ(u64(*e, "r_sw")[2], 111u);
  EXPECT_EQ(u64(*e, "special_eaten")[2], 1u);
  EXPECT_EQ(total(u64(*e, "special_eaten")), 1u);
}

// Barrier packets on every tree link (32 BSUs, a round every 40 clocks) do not eat special
// packets: "the only conflicts that can exist involve packets that are both on this virtual
// network" (paper section 8). A barrier signal waits a clock for the special packet, so every
// SPUT arrives on time, and the barriers still complete.
TEST(T3eSpecial, BarrierPacketsLeaveSpecialPacketsAlone) {
  Config c = machine({4, 4, 2});
  c.t3e.barrier = "barrier";
  c.t3e.barrier_bsus = 32;
  c.t3e.barrier_period = 40;
  auto e = make_engine({c}, test::options());
  e->step(100);
  const uint32_t far = 1 + 4 * 2 + 16;  // (1, 2, 1), as above: 4 hops, 25 clocks
  for (uint64_t i = 1; i <= 20; ++i) {
    command(*e, 0, Special::kSput, Special::kRSw, deltas({0, 2, 0, 1, 0, 1}), i);
    e->step(25);
    EXPECT_EQ(u64(*e, "r_sw")[far], i) << "SPUT " << i;
    e->step(i % 7);  // meet the barrier rounds at other phases
  }
  EXPECT_EQ(total(u64(*e, "special_eaten")), 0u);
  const InstanceResult r = e->run().at(0);
  EXPECT_GT(test::extra(r, "barrier_completions"), 0.0);
}

// IGNORE_SPCL on the channel a special packet arrives by discards it (counted); normal traffic
// on the channel is untouched.
TEST(T3eSpecial, IgnoreSpclDiscards) {
  Config c = machine({4, 1, 1}, 0.3);
  auto e = make_engine({c}, test::options());
  HostArray chan = e->state("r_chan");
  chan.bytes[2 * 8 + kMinusX] |= kIgnoreSpcl;  // router 2's -X channel: from router 1
  e->set_state("r_chan", chan);
  command(*e, 1, Special::kSput, Special::kRSw, deltas({1}), 7);
  e->step(20);
  EXPECT_EQ(u64(*e, "r_sw")[2], 0u);
  EXPECT_EQ(u64(*e, "special_ignored")[2], 1u);
  const InstanceResult r = e->run().at(0);
  EXPECT_EQ(r.lost, 0u);
  EXPECT_FALSE(r.saturated) << r.saturation_reason;
}

// The CUDA backend moves special packets to the same state: SPUTs and SGETs from every PE at
// once under data load, many of them eaten.
TEST(T3eSpecial, CpuAndCudaGiveBitIdenticalState) {
  if (!cuda_available())
    GTEST_SKIP() << "no CUDA device on this machine: T3E special network CPU/GPU equality not "
                    "checked";
  auto state = [](const std::string& backend) {
    auto e = make_engine({machine({4, 4, 2}, 0.5)}, test::options(backend, 0, false));
    e->step(200);
    for (uint32_t r = 0; r < 32; ++r)
      command(*e, r, r % 2 ? Special::kSget : Special::kSput, Special::kRSw,
              deltas({static_cast<int>(r % 3), 1, 0, -1, static_cast<int>(r % 2)}), r);
    e->step(300);
    std::vector<std::vector<uint8_t>> s;
    for (const std::string& n : e->state_names()) s.push_back(e->state(n).bytes);
    return s;
  };
  EXPECT_EQ(state("cpu"), state("cuda"));
}
