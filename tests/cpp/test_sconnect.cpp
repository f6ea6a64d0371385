// The S-Connect family (kernels/sconnect): zero-load latency worked out from the channel
// delays, the priority guarantee of section 2.3, refusals and re-routing with a small pool,
// conservation and pool bookkeeping checked every cycle (debug mode), deadlock freedom of the
// routing tables under saturation (watchdog), and determinism across threads and batches.
#include <cstring>

#include "graph_helpers.hpp"
#include "helpers.hpp"
#include "host/config/schema.hpp"
#include "host/topology/topology.hpp"

using namespace ls;

namespace {

Config sconnect(const std::string& kind, std::vector<int64_t> radix, double offered) {
  Config c = test::network(kind, std::move(radix), offered);
  c.router.family = "sconnect";
  return c;
}

}  // namespace

// A message created in cycle c enters the network in c + 1 and, with nothing in its way, crosses
// each channel in its delay D, cutting through every router (bypass): delivered in
// c + 1 + hops * D. Without bypass each router it leaves holds it one more cycle.
TEST(Sconnect, ZeroLoadLatencyIsOnePlusHopsTimesChannelDelay) {
  for (int64_t delay : {1, 3})
    for (bool bypass : {true, false}) {
      Config c = sconnect("torus", {8}, 0.002);
      c.topology.link_delay = delay;
      c.sconnect.bypass = bypass;
      c.run.measure = 20000;
      const InstanceResult r = test::run_one(c, test::options("cpu", 1, false));
      ASSERT_GT(r.packets, 100u);
      const double per_hop = static_cast<double>(delay) + (bypass ? 0.0 : 1.0);
      EXPECT_NEAR(r.latency_mean, 1.0 + per_hop * r.hops_mean, 0.01 * r.latency_mean)
          << "delay " << delay << " bypass " << bypass;
      EXPECT_NEAR(r.hops_mean, 2.0, 0.15);  // uniform on a ring of 8 (the source included)
    }
}

// Section 2.3: a message of priority n + 1 is delivered even when the network is saturated with
// messages of priority n that nobody removes. Every host sends 300 messages of each priority, at
// 0.9 and 0.1 messages per cycle; no host takes priority 0.
TEST(Sconnect, HigherPriorityIsDeliveredThroughASaturatedLowerPriority) {
  Config c = sconnect("mesh", {4, 4}, 1.0);
  c.traffic.priority_weights = {0.9, 0.1};
  c.traffic.max_packets = 300;
  c.sconnect.priorities = 2;
  c.sconnect.buffers = 16;
  c.sconnect.sink_min_priority = 1;
  auto e = make_engine({c}, test::options("cpu", 1, true));
  e->step(8000);
  const std::vector<uint64_t> inj = test::values<uint64_t>(e->state("injected_messages")),
                              got = test::values<uint64_t>(e->state("delivered_messages"));
  const std::vector<uint32_t> queued = test::values<uint32_t>(e->state("source_queue"));
  uint64_t inj0 = 0, inj1 = 0, got0 = 0, got1 = 0;
  for (size_t n = 0; n < 16; ++n) {
    EXPECT_EQ(queued[n * 4 + 1], 0u) << "node " << n;
    inj0 += inj[n * 4];
    inj1 += inj[n * 4 + 1];
    got0 += got[n * 4];
    got1 += got[n * 4 + 1];
  }
  // Priority 0 fills the network and stays: sources still hold some, none was delivered ...
  EXPECT_EQ(got0, 0u);
  EXPECT_GT(inj0, 16u * 16u / 2) << "priority 0 should fill the pools";
  // ... and every priority-1 message was delivered all the same.
  EXPECT_EQ(inj1, 16u * 300u);
  EXPECT_EQ(got1, inj1);
}

// A pool of 5 buffers under heavy load refuses messages; the sender routes them again. Debug
// mode checks, every cycle, that nothing is lost or duplicated (injected - delivered = messages
// the pools own) and that the pools' bookkeeping holds; the drain delivers every tracked one.
TEST(Sconnect, RefusedMessagesAreRoutedAgainAndNoneIsLost) {
  for (const std::string& b : test::backends()) {
    Config c = sconnect("torus", {4, 4}, 0.8);
    c.sconnect.buffers = 5;  // 3 reserved (one per class), 2 shared
    c.sconnect.priorities = 1;
    c.run.warmup = 300;
    c.run.measure = 1500;
    c.run.watchdog = 1000;
    auto e = make_engine({c}, test::options(b, 1, true));
    const InstanceResult r = e->run().at(0);
    double rejects = -1;
    for (const auto& [k, x] : r.extra)
      if (k == "reject_fraction") rejects = x;
    EXPECT_GT(rejects, 0.01) << b;
    EXPECT_LT(rejects, 1.0) << b;
    EXPECT_EQ(r.saturation_reason.find("undelivered"), std::string::npos) << r.saturation_reason;
  }
}

// Section 3.2: under heavy transmission errors (a quarter of slots corrupted, messages and
// acknowledgements alike) the per-slot 1-bit windows retransmit and discard duplicates: debug mode
// checks every cycle that injected - delivered = the messages the pools own (a lost message or
// a second copy would break it), and once the sources stop every message has been delivered once.
// Both readings of where a sent message waits (sconnect.unacknowledged): a refused one comes back
// from its channel's store into the pool.
TEST(Sconnect, NothingIsLostOrDuplicatedUnderTransmissionErrors) {
  for (const char* unacknowledged : {"pool", "channel"})
    for (const char* assignment : {"tic", "near_optimal", "optimal"})
      for (int64_t delay : {1, 3}) {
        Config c = sconnect("torus", {4, 4}, 0.5);
        c.topology.link_delay = delay;
        c.sconnect.assignment = assignment;
        c.sconnect.unacknowledged = unacknowledged;
        c.sconnect.priorities = 1;
        c.sconnect.buffers = 16;
        c.sconnect.bit_error_rate = 0.003;  // 100-bit slots: 26% corrupted
        c.traffic.max_packets = 200;
        c.run.watchdog = 2000;
        auto e = make_engine({c}, test::options("cpu", 1, true));
        e->step(6000);
        e->check_deadlock();
        const std::vector<uint64_t> inj = test::values<uint64_t>(e->state("injected_messages")),
                                    got = test::values<uint64_t>(e->state("delivered_messages"));
        uint64_t i = 0, g = 0;
        for (size_t k = 0; k < inj.size(); ++k) {
          i += inj[k];
          g += got[k];
        }
        EXPECT_EQ(i, 16u * 200u) << unacknowledged << " " << assignment << " delay " << delay;
        EXPECT_EQ(g, i) << unacknowledged << " " << assignment << " delay " << delay;
      }
}

// The same network measured: errors and the duplicates they cause are counted, and cost
// throughput nothing at a load well below saturation.
TEST(Sconnect, TransmissionErrorsAreCountedAndRetransmitted) {
  Config c = sconnect("torus", {4, 4}, 0.4);
  c.sconnect.bit_error_rate = 0.003;
  c.run.measure = 3000;
  const InstanceResult r = test::run_one(c, test::options("cpu", 1, false));
  double errors = 0, duplicates = 0;
  for (const auto& [k, x] : r.extra) {
    if (k == "error_fraction") errors = x;
    if (k == "duplicates") duplicates = x;
  }
  EXPECT_NEAR(errors, 2 * 0.26, 0.1);  // a message and its acknowledgement, each 26%
  EXPECT_GT(duplicates, 0);
  EXPECT_NEAR(r.accepted, r.offered, 0.02 * r.offered);
  EXPECT_FALSE(r.saturated) << r.saturation_reason;
}

// One noisy channel (router 5's port 1, both ways) on an otherwise clean 4x4 torus: errors arrive
// only at its two ends, nothing is lost (debug checks), and a batch whose instances have
// different error rates keeps each its own (instance 1 clean everywhere). A channel that is not
// one is refused by name.
TEST(Sconnect, NoisyChannelsCorruptOnlyTheirOwnSlots) {
  Config c = sconnect("torus", {4, 4}, 0.4);
  c.sconnect.noisy_channels = {5, 1};
  c.sconnect.noisy_bit_error_rate = 0.003;
  c.run.measure = 3000;
  Config clean = c;
  clean.sconnect.noisy_channels = {};
  auto e = make_engine({c, clean}, test::options("cpu", 1, true));
  const std::vector<InstanceResult> r = e->run();
  const Topology t = build_topology(c.topology);
  const auto errors = test::values<uint32_t>(e->state("link_errors"));
  const uint64_t here = 5 * t.ports + 1, there = static_cast<uint64_t>(t.peer[here]);
  const uint64_t per_instance = uint64_t{t.routers} * t.ports;
  for (uint64_t k = 0; k < per_instance; ++k) {
    if (k == here || k == there)
      EXPECT_GT(errors[k], 20u) << "port " << k;
    else
      EXPECT_EQ(errors[k], 0u) << "port " << k;
    EXPECT_EQ(errors[per_instance + k], 0u) << "instance 1, port " << k;
  }
  for (const InstanceResult& x : r) EXPECT_FALSE(x.saturated) << x.saturation_reason;
  EXPECT_GT(test::extra(r[0], "error_fraction"), 0.0);
  EXPECT_EQ(test::extra(r[1], "error_fraction"), 0.0);
  c.sconnect.noisy_channels = {5, 0};  // the host port
  EXPECT_NE(test::config_error_of([&] {
              make_engine({c}, test::options("cpu", 1, false));
            }).find("sconnect.noisy_channels = [5, 0]: pair 0 is (5, 0)"),
            std::string::npos);
}

// Debug mode catches a pool whose bookkeeping was broken from outside.
TEST(Sconnect, DebugModeReportsABrokenPool) {
  Config c = sconnect("mesh", {3, 3}, 0.3);
  auto e = make_engine({c}, test::options("cpu", 1, true));
  e->step(50);
  HostArray used = e->state("class_used");
  used.bytes[4 * 3 * 2] += 1;  // router 2 claims a buffer it does not hold
  e->set_state("class_used", used);
  EXPECT_THROW(e->step(1), SimulationError);
}

// Saturated, the routing tables' resource ordering keeps every torus and mesh free of deadlock:
// the watchdog (no message accepted or delivered anywhere for 1,000 cycles) stays quiet.
TEST(Sconnect, SaturatedNetworksDoNotDeadlock) {
  for (const char* kind : {"torus", "mesh"})
    for (const char* pattern : {"uniform", "tornado"}) {
      Config c = sconnect(kind, {4, 4}, 1.0);
      c.traffic.pattern = pattern;
      c.sconnect.buffers = 12;
      c.sconnect.priorities = 1;
      c.run.warmup = 500;
      c.run.measure = 3000;
      c.run.drain = 0;
      c.run.watchdog = 1000;
      InstanceResult r;
      ASSERT_NO_THROW(r = test::run_one(c, test::options("cpu", 1, false))) << kind << pattern;
      EXPECT_GT(r.accepted, 0.1) << kind << " " << pattern;
    }
}

// Two configurations stop every message, and the watchdog names their cause beside the stuck
// routers: no buffers reserved (pools fill with messages waiting on each other), and channels
// that corrupt nearly every slot (every transmission sent again). Without the cause, the same
// network moves.
TEST(Sconnect, TheWatchdogNamesAConfigurationThatStopsEveryMessage) {
  Config c = sconnect("hypercube", {8}, 0.9);  // the radix is unused
  c.topology.dimension = 6;
  c.topology.max_ports = 6;
  c.sconnect.buffers = 10;
  c.sconnect.priorities = 1;
  c.traffic.priority_weights = {};
  c.traffic.packet_size = 1;
  c.run.warmup = 1000;
  c.run.measure = 2000;
  c.run.watchdog = 1000;
  Config no_reserve = c;
  no_reserve.sconnect.reserve = 0;
  std::string m = test::simulation_error([&] { test::run_one(no_reserve); });
  EXPECT_NE(m.find("pools are full and sconnect.reserve = 0 keeps no buffer"), std::string::npos)
      << m;
  EXPECT_EQ(m.find("corrupt a slot"), std::string::npos) << m;
  Config noisy = c;
  noisy.sconnect.reserve = 1;
  noisy.traffic.offered = 0.1;
  noisy.sconnect.bit_error_rate = 0.01;
  noisy.sconnect.message_bits = 65536;  // a slot is whole with probability 0.99^65536
  m = test::simulation_error([&] { test::run_one(noisy); });
  EXPECT_NE(m.find("384 channel ends corrupt a slot with probability up to 1"), std::string::npos)
      << m;
  EXPECT_NE(m.find("sconnect.message_bits = 65536"), std::string::npos) << m;
  EXPECT_EQ(m.find("sconnect.reserve = 0"), std::string::npos) << m;
  noisy.sconnect.message_bits = 100;
  EXPECT_GT(test::run_one(noisy).accepted, 0.05);
  c.sconnect.reserve = 1;
  EXPECT_GT(test::run_one(c).accepted, 0.3);
}

// Figure 4's assignment under saturation: nothing lost or duplicated (debug mode), the pool
// bookkeeping holds with messages waiting unassigned, and a nearly full pool sends its excess off
// the routing table (misroute_fraction > 0) rather than refusing most transmissions as the TIC
// does past saturation.
TEST(Sconnect, NearOptimalAssignmentKeepsEveryMessageAndSpillsTheExcess) {
  double extra[2][2];  // [tic, near_optimal][reject, misroute]
  for (int k = 0; k < 2; ++k) {
    Config c = sconnect("torus", {6, 6}, 0.9);
    c.sconnect.assignment = k ? "near_optimal" : "tic";
    c.sconnect.buffers = 12;
    c.sconnect.priorities = 1;
    c.traffic.priority_weights = {};
    c.run.warmup = 500;
    c.run.measure = 1500;
    c.run.drain = 4000;
    c.run.watchdog = 1000;
    const InstanceResult r = test::run_one(c, test::options("cpu", 1, true));
    for (const auto& [name, x] : r.extra) {
      if (name == "reject_fraction") extra[k][0] = x;
      if (name == "misroute_fraction") extra[k][1] = x;
    }
    EXPECT_GT(r.accepted, 0.1) << c.sconnect.assignment;
  }
  EXPECT_EQ(extra[0][1], 0.0);  // the TIC never leaves its table
  EXPECT_GT(extra[1][1], 0.0);
  EXPECT_LT(extra[1][0], extra[0][0]);
}

// The largest routers the topologies build: a dual-TIC node of 15 channels a router gives each
// router 17 ports (the host's, 15 channels and the twin link, port 16). Every assignment keeps
// its pool's books (debug mode) and delivers everything: Figure 4's and the optimal one once
// indexed their per-transmitter arrays by port within 16 entries, and broke the pool in cycle 1.
TEST(Sconnect, SeventeenPortRoutersKeepTheirPools) {
  for (const char* assignment : {"tic", "near_optimal", "optimal"}) {
    Config c;
    c.router.family = "sconnect";
    c.topology = test::random_regular(32, 4, 5);
    c.topology.max_ports = 15;
    c.topology.dual_tic = true;
    c.sconnect.assignment = assignment;
    c.traffic.offered = 0.5;
    c.run.warmup = 300;
    c.run.measure = 1000;
    c.run.drain = 4000;
    ASSERT_EQ(build_topology(c.topology).ports, 17u);
    InstanceResult r;
    ASSERT_NO_THROW(r = test::run_one(c, test::options("cpu", 1, true))) << assignment;
    EXPECT_GT(r.accepted, 0.4) << assignment;
    EXPECT_EQ(r.lost, 0u) << assignment;
  }
}

// The same state whatever the thread count, and an instance's results whatever its batch.
TEST(Sconnect, ThreadsAndBatchesDoNotChangeResults) {
  Config a = sconnect("torus", {16, 16}, 0.4), b = a;
  b.run.seed = 7;
  b.traffic.offered = 0.3;
  auto state_after = [&](int threads) {
    auto e = make_engine({a}, test::options("cpu", threads, false));
    e->step(400);
    std::vector<std::vector<uint8_t>> s;
    for (const std::string& n : e->state_names()) s.push_back(e->state(n).bytes);
    return s;
  };
  EXPECT_EQ(state_after(1), state_after(2));
  // Batches: with the random draws of errors and of Figure 4's excess rule too.
  for (const char* assignment : {"tic", "near_optimal"}) {
    a.topology.radix = b.topology.radix = {8, 8};
    a.sconnect.assignment = b.sconnect.assignment = assignment;
    a.sconnect.bit_error_rate = b.sconnect.bit_error_rate = 0.001;
    a.sconnect.buffers = b.sconnect.buffers = 10;
    a.sconnect.priorities = b.sconnect.priorities = 1;
    b.traffic.offered = 0.9;
    const InstanceResult alone = test::run_one(b, test::options("cpu", 2, false));
    const InstanceResult batched = make_engine({a, b}, test::options("cpu", 2, false))->run().at(1);
    EXPECT_EQ(alone.latency_mean, batched.latency_mean) << assignment;
    EXPECT_EQ(alone.accepted, batched.accepted) << assignment;
    EXPECT_EQ(alone.cycles, batched.cycles) << assignment;
    EXPECT_EQ(alone.extra, batched.extra) << assignment;
  }
}

TEST(Sconnect, ConfigErrorsNameTheKey) {
  Config c = sconnect("torus", {4, 4}, 0.3);
  c.traffic.packet_size = 3;  // a message (1) or a quad-message (4) only
  EXPECT_THROW(
      {
        try {
          make_engine({c}, test::options());
        } catch (const ConfigError& e) {
          EXPECT_NE(std::string(e.what()).find("traffic.packet_size = 3"), std::string::npos);
          throw;
        }
      },
      ConfigError);
  c.traffic.packet_size = 4;  // a quad-message: each class must reserve room for one
  c.sconnect.reserve = 1;
  EXPECT_NE(test::config_error_of([&] {
              make_engine({c}, test::options());
            }).find("sconnect.reserve = 1: allowed at least 4"),
            std::string::npos);
  c.sconnect.reserve = 4;
  EXPECT_NO_THROW(make_engine({c}, test::options()));
  c = sconnect("torus", {4, 4}, 0.3);
  c.sconnect.buffers = 12;
  c.sconnect.reserve = 1;  // 4 priorities x 3 classes = 12 reserved: none left to share
  EXPECT_THROW(make_engine({c}, test::options()), ConfigError);
  c = sconnect("torus", {4, 4}, 0.3);
  c.traffic.priority_weights = {1, 1, 1, 1};
  c.sconnect.priorities = 2;
  EXPECT_THROW(make_engine({c}, test::options()), ConfigError);
  // Sent messages in the channels' stores: the pool, 4 channels x 2 x delay 2 and 4 x 3 x 1
  // reserved must fit a 64-bit free mask; a quad's train keeps its buffers in the pool.
  c = sconnect("torus", {4, 4}, 0.3);
  c.topology.link_delay = 2;
  c.sconnect.unacknowledged = "channel";
  c.sconnect.reserve = 1;
  c.sconnect.buffers = 36;
  EXPECT_NO_THROW(make_engine({c}, test::options()));
  c.sconnect.buffers = 37;  // refused by validate(), before any engine (a fuzz finding)
  EXPECT_NE(test::config_error_of([&] { validate(c); })
                .find("sconnect.unacknowledged = \"channel\": allowed where sconnect.buffers (37) "
                      "+ 2 x channels (4) x the longest channel delay (2) + the reserves (12) <= "
                      "64 (here 65)"),
            std::string::npos);
  c.sconnect.buffers = 24;
  c.sconnect.reserve = 4;
  c.sconnect.priorities = 1;
  c.traffic.priority_weights = {};
  c.traffic.packet_size = 4;
  EXPECT_NE(
      test::config_error_of([&] {
        make_engine({c}, test::options());
      }).find("sconnect.unacknowledged = \"channel\": allowed only with messages of one slot"),
      std::string::npos);
}

namespace {
std::vector<Config> mixed_batch(const char* assignment) {
  std::vector<Config> cs;
  for (double o : {0.1, 0.5, 0.9}) {
    Config c = sconnect("torus", {4, 4}, o);
    c.topology.link_delay = 2;
    c.sconnect.assignment = assignment;
    c.traffic.priority_weights = {0.6, 0.3, 0.1};
    c.sconnect.buffers = 14;
    c.sconnect.bit_error_rate = 0.001;
    c.run.seed = static_cast<int64_t>(o * 100);
    cs.push_back(c);
  }
  return cs;
}
// The same with sent messages waiting in their channels' stores (sconnect.unacknowledged).
std::vector<Config> store_batch(const char* assignment) {
  std::vector<Config> cs = mixed_batch(assignment);
  for (Config& c : cs) c.sconnect.unacknowledged = "channel";
  return cs;
}
// Quad-messages among single messages (kernels/sconnect/quad.hpp), on pools that refuse them.
std::vector<Config> quad_batch(const char* assignment) {
  std::vector<Config> cs = mixed_batch(assignment);
  for (Config& c : cs) {
    c.traffic.packet_sizes = {1, 4};
    c.traffic.packet_size_weights = {2, 1};
    c.sconnect.priorities = 3;
    c.sconnect.buffers = 40;
    c.sconnect.reserve = 4;
  }
  return cs;
}
}  // namespace

// Debug mode steps cycle by cycle over all routers (thrust::for_each), the production schedule
// instance by instance: the same state.
TEST(Sconnect, DebugAndProductionSchedulesGiveIdenticalState) {
  for (auto batch : {mixed_batch, store_batch, quad_batch})
    for (const char* a : {"tic", "near_optimal", "optimal"})
      EXPECT_EQ(test::state_after(batch(a), test::options("cpu", 2, true), 1500),
                test::state_after(batch(a), test::options("cpu", 2, false), 1500))
          << a;
}

TEST(Sconnect, CpuAndCudaGiveBitIdenticalState) {
  if (!cuda_available())
    GTEST_SKIP() << "no CUDA device on this machine: S-Connect CPU/GPU equality not checked";
  for (auto batch : {mixed_batch, store_batch, quad_batch})
    for (const char* a : {"tic", "near_optimal", "optimal"})
      EXPECT_EQ(test::state_after(batch(a), test::options("cpu", 2, false), 3000),
                test::state_after(batch(a), test::options("cuda", 0, false), 3000))
          << a;
}

// Section 3.4's monitoring: each router's programmable counter counts the event its perf_select
// names, and the 16-bit timer advances one per routing cycle and can be adjusted. Five identical
// instances (same seed), counting messages sent on each of the four channels and on any.
TEST(Sconnect, PerformanceCountersCountTheSelectedEvent) {
  std::vector<Config> cs(6, sconnect("torus", {4, 4}, 0.6));
  auto e = make_engine(cs, test::options("cpu", 1, false));
  HostArray select = e->state("perf_select");
  const uint8_t events[6] = {16 + 1, 16 + 2, 16 + 3, 16 + 4, 11, 2};  // sent on 1..4, any; injected
  for (size_t i = 0; i < 6; ++i) std::fill_n(select.bytes.begin() + i * 16, 16, events[i]);
  e->set_state("perf_select", select);
  HostArray timer = e->state("timer");
  timer.bytes[0] = 0xF0;  // router 0 of instance 0: 65520, wraps
  timer.bytes[1] = 0xFF;
  e->set_state("timer", timer);
  e->step(1000);
  const std::vector<uint32_t> count = test::values<uint32_t>(e->state("perf_count"));
  const std::vector<uint64_t> injected = test::values<uint64_t>(e->state("injected_messages"));
  uint64_t any = 0;
  for (size_t r = 0; r < 16; ++r) {
    EXPECT_EQ(count[r] + count[16 + r] + count[32 + r] + count[48 + r], count[64 + r]) << r;
    any += count[64 + r];
    uint64_t inj = 0;
    for (size_t p = 0; p < 4; ++p) inj += injected[(5 * 16 + r) * 4 + p];
    EXPECT_EQ(count[80 + r], inj) << r;
  }
  EXPECT_GT(any, 16u * 1000u * 6 / 10);  // about a message per node per cycle and hop
  const std::vector<uint16_t> t = test::values<uint16_t>(e->state("timer"));
  EXPECT_EQ(t[0], static_cast<uint16_t>(65520 + 1000));
  EXPECT_EQ(t[1], 1000);
}
