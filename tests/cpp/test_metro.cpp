// The METRO family (seed 003): the multibutterfly builder, golden timing on a one-router
// network worked out by hand (a connection, a blocked one in each reclamation mode),
// invariants under saturation, determinism, CPU/GPU equality, and configuration errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>

#include "helpers.hpp"
#include "host/config/schema.hpp"
#include "host/topology/topology.hpp"
#include "kernels/metro/metro_state.hpp"

namespace ls {
namespace {

Config metro(std::vector<int64_t> radix, std::vector<int64_t> dilation, double offered,
             int64_t size = 19) {
  Config c = test::network("multibutterfly", std::move(radix), offered);
  c.topology.dilation = std::move(dilation);
  c.router.family = "metro";
  c.traffic.packet_size = size;
  return c;
}

Config figure3(double offered) {
  return metro({4, 4, 4}, {2, 2, 1}, offered);
}

// Figure 1: 16 endpoints of two ports, 4 x 2 dilation-2 routers in two stages, then 4 x 4
// dilation-1 routers; every stage's wires lead where the destination's digits say, a router's
// two wires of a direction reach two different routers, and every endpoint can reach every
// other over many paths.
TEST(Metro, Figure1MultibutterflyWiring) {
  TopologyConfig tc;
  tc.kind = "multibutterfly";
  tc.radix = {2, 2, 4};
  tc.dilation = {2, 2, 1};
  tc.endpoint_ports = 2;
  const Topology t = build_topology(tc);
  ASSERT_EQ(t.nodes, 16u);
  ASSERT_EQ(t.routers, 24u);  // 32 wires, 4 forward ports a router, three stages
  const uint32_t P = t.ports;
  const std::vector<Stage> st = multistage_stages(tc);
  for (uint32_t r = 0; r < t.routers; ++r) {
    const Stage& s = st[t.stage[r]];
    for (uint32_t q = 0; q < 2 * s.ports(); ++q)
      EXPECT_TRUE(t.peer[r * P + q] >= 0 || t.port_node[r * P + q] >= 0) << r << " " << q;
    if (t.stage[r] + 1u == st.size()) continue;
    for (uint32_t j = 0; j < s.radix; ++j) {
      std::set<int32_t> to;
      for (uint32_t k = 0; k < s.dilation; ++k)
        to.insert(t.peer[r * P + s.ports() + j * s.dilation + k] / static_cast<int32_t>(P));
      EXPECT_EQ(to.size(), s.dilation) << "router " << r << " direction " << j;
    }
  }
  // Every choice of backward port a router may make leads on to the destination.
  for (uint32_t src = 0; src < t.nodes; ++src)
    for (uint32_t dst = 0; dst < t.nodes; ++dst) {
      std::set<int32_t> here, exits;
      for (uint32_t k = 0; k < t.node_ports; ++k) here.insert(t.node_entry[src * 2 + k] / int(P));
      uint32_t paths = t.node_ports, div = t.nodes;
      for (const Stage& s : st) {
        div /= s.radix;
        const uint32_t j = dst / div % s.radix;
        std::set<int32_t> next;
        for (int32_t r : here)
          for (uint32_t k = 0; k < s.dilation; ++k) {
            const int32_t port =
                r * static_cast<int32_t>(P) + static_cast<int32_t>(s.ports() + j * s.dilation + k);
            if (t.peer[port] >= 0) {
              next.insert(t.peer[port] / static_cast<int32_t>(P));
            } else {
              EXPECT_EQ(t.port_node[port], static_cast<int32_t>(dst));
              exits.insert(port);
            }
          }
        paths *= s.dilation;
        here = next;
      }
      EXPECT_EQ(exits.size(), t.node_ports) << src << " -> " << dst;
      EXPECT_EQ(paths, 8u);  // 2 entering ports x dilation 2 x 2 x 1
    }
}

// One router of 2 x 1 ports (radix 2, dilation 1) between two endpoints of one port each;
// both send a message of 2 data words (the checksum last) to endpoint 0 in clock 0. The
// router sees both start words in clock 1 and serves forward port 1 first (ports take turns,
// clock mod 2); the other is blocked.
struct TwoSenders {
  std::unique_ptr<Engine> e;
  uint32_t winner, loser;
  explicit TwoSenders(const std::string& reclaim) {
    Config c = metro({2}, {1}, 2.0, 2);
    c.topology.endpoint_ports = 1;
    c.metro.reclaim = reclaim;
    c.traffic.pattern = "hotspot";
    c.traffic.hotspot_nodes = {0};
    c.traffic.hotspot_fraction = 1.0;
    c.traffic.max_packets = 1;
    e = make_engine({c}, test::options());
    winner = static_cast<uint32_t>(test::values<int32_t>(e->state("port_node"))[1]);
    loser = 1 - winner;
  }
  uint32_t at(const char* name, uint32_t n) const {
    return test::values<uint32_t>(e->state(name))[n];
  }
  uint64_t acked(uint32_t n) const { return test::values<uint64_t>(e->state("messages_acked"))[n]; }
};

// The winner's words (route, 2 data, TURN in clocks 0-3) reach endpoint 0 two clocks later
// (endpoint wire, router); the TURN in clock 5, answered at once; the acknowledgement is back
// in clock 7 = 3 words + 2 x 2 clocks. Fast reclamation: the router drops the loser at once,
// the drop is back in clock 2 and the loser retries in it.
TEST(Metro, GoldenConnectionAndFastReclamation) {
  TwoSenders n("fast");
  n.e->step(3);  // clocks 0, 1, 2
  EXPECT_EQ(n.at("msg_start", n.loser), 2u);
  EXPECT_EQ(n.at("msg_start", n.winner), 0u);
  n.e->step(4);  // through clock 6
  EXPECT_EQ(n.acked(n.winner), 0u);
  n.e->step(1);  // clock 7
  EXPECT_EQ(n.acked(n.winner), 1u);
  n.e->step(40);
  EXPECT_EQ(n.acked(n.loser), 1u);
  EXPECT_EQ(test::values<uint8_t>(n.e->state("src_mode")), std::vector<uint8_t>(2, 0));
}

// Detailed reclamation: the router holds the loser's path until its TURN (clock 3, seen in
// clock 4), then returns a STATUS saying blocked (back in clock 5), its checksum (6) and a
// drop (7): the loser retries in clock 7.
TEST(Metro, DetailedReclamationHoldsUntilTheTurn) {
  TwoSenders n("detailed");
  n.e->step(5);
  EXPECT_EQ(n.at("msg_start", n.loser), 0u);
  EXPECT_EQ(test::values<uint8_t>(n.e->state("src_failed"))[n.loser], 0u);
  n.e->step(1);  // clock 5: the STATUS
  EXPECT_EQ(test::values<uint8_t>(n.e->state("src_failed"))[n.loser], 1u);
  n.e->step(2);  // clocks 6, 7
  EXPECT_EQ(n.at("msg_start", n.loser), 7u);
  EXPECT_EQ(n.acked(n.winner), 1u);
  n.e->step(40);
  EXPECT_EQ(n.acked(n.loser), 1u);
}

// Past saturation, with every invariant checked every clock (belt slots written once,
// connections mirrored, checksums good, messages conserved) and the watchdog on: nothing is
// lost and every endpoint holds at most its one message. Figure 3's multibutterfly, and a fat
// tree of the same radix and dilation.
TEST(Metro, SaturatedNetworksKeepTheirInvariants) {
  for (const char* kind : {"multibutterfly", "fat_tree"})
    for (const char* reclaim : {"fast", "detailed"})
      for (int64_t hw : {0, 2}) {
        Config c = figure3(0.8);
        c.topology.kind = kind;
        c.metro.reclaim = reclaim;
        c.metro.hw = hw;
        c.metro.vtd = hw;
        c.run.warmup = 300;
        c.run.measure = 1500;
        c.run.drain = 0;
        auto e = make_engine({c}, test::options("cpu", 2, true));
        const InstanceResult r = e->run().at(0);
        EXPECT_GT(r.packets, 100u) << kind << reclaim << hw;
        EXPECT_GT(test::extra(r, "failed_fraction"), 0.2) << kind << reclaim << hw;
        EXPECT_EQ(r.lost, 0u);
        const auto started = test::values<uint64_t>(e->state("messages_started")),
                   acked = test::values<uint64_t>(e->state("messages_acked"));
        for (size_t n = 0; n < started.size(); ++n) EXPECT_LE(started[n] - acked[n], 1u);
      }
}

// Figure 1's network with a dead router in its middle stage: unmasked, the sources find it by
// timeouts (their connections into it answer nothing) and retry on new random paths until
// every message is delivered; masked (the ports wired to it disabled, as scan would), nobody
// tries it. The same when it dies mid-run, connections through it lost and retried.
// Figure 1's network at 0.2 with a fault from cycle 0 or 1200, masked or not, under debug checks:
// nothing is lost, unmasked faults cost timeouts, masked ones from the start none, and every
// source has at most its current message outstanding. check(engine, mask, from_start) adds the
// fault's own.
template <class Fault, class Check>
void survives(const Fault& fault, const Check& check) {
  for (int64_t fail_cycle : {0, 1200})
    for (bool mask : {false, true}) {
      Config c = metro({2, 2, 4}, {2, 2, 1}, 0.2);
      fault(c);
      c.metro.mask_failed = mask;
      c.metro.failure_cycle = fail_cycle;
      c.metro.timeout = 60;
      auto e = make_engine({c}, test::options("cpu", 1, true));
      const InstanceResult r = e->run().at(0);
      const std::string what =
          "fail_cycle " + std::to_string(fail_cycle) + " mask " + std::to_string(mask);
      EXPECT_FALSE(r.saturated) << what << ": " << r.saturation_reason;
      EXPECT_EQ(r.lost, 0u) << what;
      EXPECT_GT(r.packets, 200u) << what;
      if (!mask) EXPECT_GT(test::extra(r, "timed_out_fraction"), 0.01) << what;
      if (mask && fail_cycle == 0) EXPECT_EQ(test::extra(r, "timed_out_fraction"), 0.0) << what;
      const auto started = test::values<uint64_t>(e->state("messages_started")),
                 acked = test::values<uint64_t>(e->state("messages_acked"));
      for (size_t n = 0; n < started.size(); ++n) EXPECT_LE(started[n] - acked[n], 1u) << what;
      check(*e, mask, fail_cycle == 0);
    }
}

TEST(Metro, RetriesUntilDeliveredAroundADeadRouter) {
  survives([](Config& c) { c.metro.failed_routers = {9}; },
           [](Engine& e, bool, bool) {
             EXPECT_EQ(test::values<uint8_t>(e.state("router_dead"))[9], 1u);
           });
}

// Router 0's first backward port (its forward ports are 0-3) has a broken wire: masked, neither
// it nor the stage-1 port it leads to carries a word; unmasked, the words sent into it are lost.
TEST(Metro, RetriesUntilDeliveredAroundABrokenWire) {
  survives(
      [](Config& c) {
        c.metro.failed_ports = {0, 4};
      },
      [](Engine& e, bool mask, bool from_start) {
        const auto dead = test::values<uint8_t>(e.state("port_dead"));
        const auto enabled = test::values<uint8_t>(e.state("port_enabled"));
        EXPECT_EQ(dead[4], 1u);
        EXPECT_EQ(std::count(dead.begin(), dead.end(), 1), 1);
        EXPECT_EQ(std::count(enabled.begin(), enabled.end(), 0), mask ? 2 : 0);
        if (mask && from_start) EXPECT_EQ(test::values<uint32_t>(e.state("link_words"))[4], 0u);
      });
  Config c = metro({2, 2, 4}, {2, 2, 1}, 0.2);
  c.metro.failed_ports = {0, 8};  // router 0 has 8 ports
  EXPECT_NE(test::config_error_of([&] {
              make_engine({c}, test::options("cpu", 1, false));
            }).find("metro.failed_ports = [0, 8]: pair 0 is (0, 8)"),
            std::string::npos);
}

// The wires between endpoints and routers break the same way: router 0's forward port 0 is an
// endpoint's entering wire, last-stage router 20's backward port 4 an endpoint's leaving wire.
// Masked, the endpoint enters by its other port and no router chooses the leaving wire, so
// neither carries a word; unmasked, the connections over them time out and are retried.
TEST(Metro, RetriesUntilDeliveredAroundBrokenEndpointWires) {
  survives(
      [](Config& c) {
        c.metro.failed_ports = {0, 0, 20, 4};
      },
      [](Engine& e, bool mask, bool from_start) {
        const auto dead = test::values<uint8_t>(e.state("port_dead"));
        const auto enabled = test::values<uint8_t>(e.state("port_enabled"));
        const auto words = test::values<uint32_t>(e.state("link_words"));
        const size_t entering = 0, leaving = 20 * 8 + 4;
        EXPECT_EQ(dead[entering] + dead[leaving], 2u);
        EXPECT_EQ(std::count(dead.begin(), dead.end(), 1), 2);
        EXPECT_EQ(std::count(enabled.begin(), enabled.end(), 0), mask ? 2 : 0);
        if (mask && from_start) EXPECT_EQ(words[entering] + words[leaving], 0u);
      });
}

// Data words corrupted on the wires of Figure 1's network (3 stages: 4 wires a path): a message
// of 19 words reaches its destination's checksum check bad with probability about
// 1 - (1 - p)^(19 x 4) (the weighted checksum misses no stream with one or two words changed), is
// acknowledged bad and retried, and every message is still delivered (debug checks on).
TEST(Metro, CorruptedWordsAreRetriedUntilGood) {
  const double p = 0.002;
  Config clean = metro({2, 2, 4}, {2, 2, 1}, 0.2);
  clean.run.measure = 20000;
  Config c = clean;
  c.metro.word_error_rate = p;
  auto e = make_engine({c}, test::options("cpu", 1, true));
  const InstanceResult r = e->run().at(0);
  const InstanceResult r0 = make_engine({clean}, test::options("cpu", 1, true))->run().at(0);
  EXPECT_FALSE(r.saturated) << r.saturation_reason;
  EXPECT_EQ(r.lost, 0u);
  EXPECT_GT(r.packets, 2000u);
  const double expected = 1 - std::pow(1 - p, 19 * 4);
  EXPECT_NEAR(test::extra(r, "bad_checksum_fraction"), expected, 0.2 * expected);
  EXPECT_GT(test::extra(r, "words_corrupted"), 0.0);
  EXPECT_GT(test::extra(r, "attempts_per_message"),
            test::extra(r0, "attempts_per_message") + 0.5 * expected);
  uint64_t bad = 0;
  for (uint64_t b : test::values<uint64_t>(e->state("bad_checksums"))) bad += b;
  EXPECT_GT(bad, 200u);
  const auto started = test::values<uint64_t>(e->state("messages_started")),
             acked = test::values<uint64_t>(e->state("messages_acked"));
  for (size_t n = 0; n < started.size(); ++n) EXPECT_LE(started[n] - acked[n], 1u);
}

// The retry policy (metro.backoff) on a one-router network whose router is dead and not masked:
// endpoint 0's one message times out on every attempt. An attempt streams 4 words (route, 2
// data words, TURN), times out metro.timeout clocks after its TURN, and the next starts after the
// back-off (a clock at least): so successive attempts start 3 + timeout + wait apart. Fixed: the
// wait is retry_delay each time; exponential: it doubles, at most backoff_limit times; random:
// uniform from 0 to that, the same in every run.
TEST(Metro, RetryBackoffPolicies) {
  const auto waits = [](const char* policy) {
    Config c = metro({2}, {1}, 2.0, 2);
    c.topology.endpoint_ports = 1;
    c.traffic.pattern = "hotspot";
    c.traffic.hotspot_nodes = {1};
    c.traffic.hotspot_fraction = 1.0;
    c.traffic.sender_every = 2;
    c.traffic.max_packets = 1;
    c.metro.failed_routers = {0};
    c.metro.mask_failed = false;
    c.metro.timeout = 10;
    c.metro.retry_delay = 4;
    c.metro.backoff = policy;
    c.metro.backoff_limit = 3;
    auto e = make_engine({c}, test::options("cpu", 1, true));
    std::vector<uint32_t> starts;
    for (int t = 0; t < 1200; ++t) {
      e->step(1);
      const uint32_t s = test::values<uint32_t>(e->state("msg_start"))[0];
      if (starts.empty() || s != starts.back()) starts.push_back(s);
    }
    std::vector<uint32_t> out;
    for (size_t k = 1; k < starts.size(); ++k) out.push_back(starts[k] - starts[k - 1] - 13);
    return out;
  };
  const std::vector<uint32_t> fixed = waits("fixed"), doubling = waits("exponential"),
                              random = waits("random");
  ASSERT_GT(fixed.size(), 20u);
  for (uint32_t w : fixed) EXPECT_EQ(w, 4u);
  ASSERT_GT(doubling.size(), 6u);
  EXPECT_EQ(std::vector<uint32_t>(doubling.begin(), doubling.begin() + 6),
            (std::vector<uint32_t>{4, 8, 16, 32, 32, 32}));
  ASSERT_GT(random.size(), 20u);
  for (size_t k = 0; k < random.size(); ++k) {
    EXPECT_GE(random[k], 1u);
    EXPECT_LE(random[k], 4u << std::min<size_t>(k, 3)) << k;
  }
  EXPECT_NE(std::set<uint32_t>(random.begin(), random.end()).size(), 1u);
  EXPECT_EQ(random, waits("random"));
}

// The end-to-end checksum (metro.checksum) on a stream of 20 8-bit words closed by its checksum
// word, each corrupted word's bit 0 flipped as on a noisy wire: the weighted fold (c <- 3c +
// word) fails every stream with one or two words changed, wherever they are; the plain sum
// passes two words changed in opposite directions, the weakness the fidelity ledger's
// metro.data_intact measured on traced traffic.
TEST(Metro, TheWeightedChecksumFailsEveryStreamWithTwoWordsChanged) {
  for (const uint32_t weight : {3u, 1u}) {
    metro::MetroParams p{};
    p.value_mask = 255;
    p.checksum_weight = weight;
    std::vector<uint32_t> words;
    uint32_t c = 0;
    for (uint32_t k = 0; k < 19; ++k) {
      words.push_back((k * 77 + 13) & 255);
      c = metro::checksum_fold(p, c, words.back());
    }
    words.push_back(metro::checksum_word(p, c, 0));
    const auto passes = [&](const std::vector<uint32_t>& ws) {
      uint32_t sum = 0;
      for (uint32_t w : ws) sum = metro::checksum_fold(p, sum, w);
      return sum == 0;
    };
    ASSERT_TRUE(passes(words));
    uint32_t single = 0, pairs = 0, passed_pairs = 0;
    for (size_t i = 0; i < words.size(); ++i) {
      auto one = words;
      one[i] ^= 1;
      single += passes(one);
      for (size_t j = i + 1; j < words.size(); ++j) {
        auto two = one;
        two[j] ^= 1;
        pairs += 1;
        passed_pairs += passes(two);
      }
    }
    EXPECT_EQ(single, 0u) << "weight " << weight;
    EXPECT_EQ(pairs, 190u);
    if (weight == 3)
      EXPECT_EQ(passed_pairs, 0u);
    else
      EXPECT_GT(passed_pairs, 20u);  // a pair whose bits 0 differ: +1 and -1
  }
}

// Locating the corrupted wire from the routers' checksums: on Figure 1's network with one noisy
// wire (an endpoint's entering wire into router 0, router 0's backward wire into the middle
// stage, last-stage router 20's wire to an endpoint), every source that located a fault names
// that wire, by its router end: the hops before it agree with the source, those after it with
// each other. About one located a bad checksum: a message corrupted on two wires names both;
// in detailed mode blocked attempts return their routers' checksums too, so more are located. With
// every wire noisy, about one wire a bad message.
TEST(Metro, SourcesLocateTheCorruptedWire) {
  const uint64_t RP = 8;  // Figure 1's routers: 4 forward, 4 backward ports
  for (const char* reclaim : {"fast", "detailed"})
    for (auto [router, port] : {std::pair{0, 0}, {0, 4}, {20, 4}}) {
      Config c = metro({2, 2, 4}, {2, 2, 1}, 0.2);
      c.run.measure = 10000;
      c.metro.reclaim = reclaim;
      c.metro.word_error_rate = 0.1;
      c.metro.noisy_ports = {router, port};
      auto e = make_engine({c}, test::options("cpu", 1, true));
      const InstanceResult r = e->run().at(0);
      const std::string what = std::string(reclaim) + " wire (" + std::to_string(router) + ", " +
                               std::to_string(port) + ")";
      EXPECT_EQ(r.lost, 0u) << what;
      const auto located = test::values<uint64_t>(e->state("faults_located")),
                 bad = test::values<uint64_t>(e->state("bad_checksums"));
      const auto suspect = test::values<uint32_t>(e->state("suspect_wire"));
      const uint64_t all_located = std::accumulate(located.begin(), located.end(), uint64_t{0}),
                     all_bad = std::accumulate(bad.begin(), bad.end(), uint64_t{0});
      EXPECT_GT(all_bad, 30u) << what;
      EXPECT_GT(all_located, 0.9 * all_bad) << what;
      if (std::string(reclaim) == "fast") EXPECT_LT(all_located, 1.1 * all_bad) << what;
      EXPECT_EQ(test::extra(r, "faults_located"), static_cast<double>(all_located));
      for (size_t n = 0; n < suspect.size(); ++n)
        if (located[n] != 0) EXPECT_EQ(suspect[n], router * RP + port) << what << " endpoint " << n;
    }
  Config c = metro({2, 2, 4}, {2, 2, 1}, 0.2);
  c.metro.word_error_rate = 0.002;
  c.run.measure = 20000;
  auto e = make_engine({c}, test::options("cpu", 1, true));
  e->run();
  const auto located = test::values<uint64_t>(e->state("faults_located")),
             bad = test::values<uint64_t>(e->state("bad_checksums"));
  const double all_located = std::accumulate(located.begin(), located.end(), 0.0),
               all_bad = std::accumulate(bad.begin(), bad.end(), 0.0);
  EXPECT_GT(all_bad, 100.0);
  EXPECT_GT(all_located, 0.9 * all_bad);
  EXPECT_LT(all_located, 1.2 * all_bad);
  c.metro.noisy_ports = {0, 9};
  EXPECT_NE(test::config_error_of([&] {
              make_engine({c}, test::options("cpu", 1, false));
            }).find("metro.noisy_ports = [0, 9]: pair 0 is (0, 9)"),
            std::string::npos);
}

// Reads (traffic.request_reply): the destination turns the connection back with its reply. On
// Figure 3's network unloaded, the acknowledgement leaves the destination 24 clocks after the
// request's first word (20 words and 4 clocks a way: the endpoint wire and 3 stages), DATA-IDLE
// fills metro.reply_delay clocks, then the reply's words and its TURN, which reaches the source
// 4 clocks later: 28 + delay + words + 1. The one-way time of the request is unchanged.
TEST(Metro, ReadsTurnTheConnectionBack) {
  Config c = figure3(0.0005);
  c.run.measure = 40000;
  c.traffic.request_reply = true;
  c.traffic.reply_size = 5;  // the paper's 4-word cache line and its checksum
  c.metro.reply_delay = 10;
  const InstanceResult r = make_engine({c}, test::options("cpu", 1, true))->run().at(0);
  EXPECT_GT(r.packets, 20u);
  EXPECT_DOUBLE_EQ(r.latency_mean, 28.0 + 10 + 5 + 1);
  EXPECT_DOUBLE_EQ(r.latency_max, 28.0 + 10 + 5 + 1);
  EXPECT_DOUBLE_EQ(test::extra(r, "one_way_mean"), 23.0);
  EXPECT_DOUBLE_EQ(test::extra(r, "attempts_per_message"), 1.0);
  // Loaded past saturation, in both reclamation modes, and with words corrupted both ways: a
  // bad reply is retried like a bad request, and every message is delivered once.
  for (const char* reclaim : {"fast", "detailed"})
    for (double p : {0.0, 0.01}) {
      Config l = figure3(p == 0 ? 0.8 : 0.2);
      l.metro.reclaim = reclaim;
      l.traffic.request_reply = true;
      l.traffic.reply_size = 5;
      l.metro.reply_delay = 3;
      l.metro.word_error_rate = p;
      l.run.warmup = 300;
      l.run.measure = 3000;
      auto e = make_engine({l}, test::options("cpu", 2, true));
      const InstanceResult lr = e->run().at(0);
      const std::string what = std::string(reclaim) + " p " + std::to_string(p);
      EXPECT_EQ(lr.lost, 0u) << what;
      EXPECT_GT(lr.packets, 200u) << what;
      if (p > 0) EXPECT_GT(test::extra(lr, "bad_replies"), 10.0) << what;
      if (p == 0) EXPECT_EQ(test::extra(lr, "bad_replies"), 0.0) << what;
      const auto started = test::values<uint64_t>(e->state("messages_started")),
                 acked = test::values<uint64_t>(e->state("messages_acked"));
      for (size_t n = 0; n < started.size(); ++n) EXPECT_LE(started[n] - acked[n], 1u) << what;
    }
}

// metro.exchanges: a read's connection carries k request/reply exchanges. The paper: "The
// connection may be reversed as many times as the source and destination desire before being
// closed" and "Once the connection is established and the request is transmitted, the reply
// data can stream back along the path opened by the request without incurring any additional
// latency to acquire a new connection through the network". One read alone on Figure 3's
// network (endpoint 0 to 63; 19-word requests, a 5-word reply after 10 clocks of fetching): the
// first exchange takes 44 clocks from creation (H header words + 19 + 2 x 4 + 1 + 10 + 5, H = 1
// route word, as in ReadsTurnTheConnectionBack); each exchange after it is the open path's
// turn-around, measured 43 clocks: the 19 request words and its TURN, which reaches the
// destination a path (4 clocks: the endpoint wire and 3 stages) later, its acknowledgement
// (a clock), 10 of DATA-IDLE, the 5 reply words and its TURN, a path back: 19 + 4 + 1 + 10 + 5 +
// 4. It needs no header: the fresh read's H words are all the setup costs, and with
// metro.hw = 2 (6 header words) a fresh read takes 49 and an added exchange still 43. The
// routers set up one connection (3 crossbar settings, one a stage) for all k; every
// exchange's request and reply are checked good (debug: a bad checksum where nothing corrupts
// words is a violation), the message delivered once.
TEST(Metro, ExchangesTurnOneConnectionAgainAndAgain) {
  for (const int64_t hw : {0, 2})
    for (const int64_t k : {1, 2, 4}) {
      Config c = metro({4, 4, 4}, {2, 2, 1}, 24.0);  // a read of 19 + 5 words a clock at most
      c.traffic.pattern = "hotspot";
      c.traffic.hotspot_nodes = {63};
      c.traffic.hotspot_fraction = 1.0;
      c.traffic.sender_every = 64;  // endpoint 0 alone
      c.traffic.max_packets = 1;
      c.traffic.request_reply = true;
      c.traffic.reply_size = 5;
      c.metro.reply_delay = 10;
      c.metro.hw = hw;
      c.metro.exchanges = k;
      c.run.warmup = 0;
      const std::string what = "hw " + std::to_string(hw) + " k " + std::to_string(k);
      auto e = make_engine({c}, test::options("cpu", 1, true));
      const auto forward = test::values<uint8_t>(e->state("forward_ports"));
      const uint32_t ports = static_cast<uint32_t>(e->state("conn").shape[2]);
      std::vector<uint8_t> was = test::values<uint8_t>(e->state("conn"));
      uint32_t setups = 0;
      std::vector<uint64_t> done_at;  // the clocks each exchange's reply was checked good
      uint64_t t = 0, acked_at = 0;
      for (; t < 1000 && acked_at == 0; ++t) {
        e->step(1);
        const std::vector<uint8_t> conn = test::values<uint8_t>(e->state("conn"));
        for (size_t q = 0; q < conn.size(); ++q)
          setups +=
              q % ports < forward[q / ports] && was[q] == metro::kNone8 && conn[q] != metro::kNone8;
        was = conn;
        if (k > 1) {
          const uint64_t done = test::values<uint64_t>(e->state("exchanges_done"))[0];
          if (done > done_at.size()) done_at.push_back(t);
        }
        if (test::values<uint64_t>(e->state("messages_acked"))[0] == 1) acked_at = t;
      }
      ASSERT_NE(acked_at, 0u) << what;
      const uint64_t ctime = test::values<uint32_t>(e->state("msg_ctime"))[0];
      const uint64_t header = hw == 0 ? 1 : 3 * static_cast<uint64_t>(hw);
      const uint64_t turn_around = 19 + 4 + 1 + 10 + 5 + 4;  // 43
      EXPECT_EQ(acked_at - ctime, header + turn_around + static_cast<uint64_t>(k - 1) * 43) << what;
      EXPECT_EQ(setups, 3u) << what;  // one connection: a crossbar setting in each stage
      if (k > 1) {
        ASSERT_EQ(done_at.size(), static_cast<size_t>(k)) << what;
        EXPECT_EQ(done_at.front() - ctime, header + turn_around) << what;
        for (size_t j = 1; j < done_at.size(); ++j)
          EXPECT_EQ(done_at[j] - done_at[j - 1], turn_around) << what << " exchange " << j;
        EXPECT_EQ(done_at.back(), acked_at) << what;  // delivered at the last reply
      }
      EXPECT_EQ(test::values<uint64_t>(e->state("bad_replies"))[0], 0u) << what;
      EXPECT_EQ(test::values<uint64_t>(e->state("bad_checksums"))[63], 0u) << what;
      EXPECT_EQ(test::values<uint32_t>(e->state("msg_fails"))[0], 0u) << what;  // one attempt
      e->step(40);  // the drop: every crossbar free, every endpoint idle
      for (uint8_t q : test::values<uint8_t>(e->state("conn"))) EXPECT_EQ(q, metro::kNone8);
      for (uint8_t m : test::values<uint8_t>(e->state("sink_mode"))) EXPECT_EQ(m, metro::kSinkIdle);
      EXPECT_EQ(test::values<uint8_t>(e->state("src_mode"))[0], metro::kSrcIdle) << what;
      // The same through run(): the message's latency, creation to its last reply.
      const InstanceResult r = test::run_one(c, test::options("cpu", 1, true));
      EXPECT_EQ(r.packets, 1u) << what;
      EXPECT_DOUBLE_EQ(r.latency_mean, static_cast<double>(acked_at - ctime)) << what;
      if (k > 1) EXPECT_EQ(test::extra(r, "exchanges_completed"), static_cast<double>(k)) << what;
    }
}

// Under load, words corrupted on the wires both ways (metro.word_error_rate) and k = 3
// exchanges a read, in both reclamation modes: every message is delivered once, and only
// after three good replies in one attempt; a bad request or reply at any exchange fails the
// attempt and its retry starts again from the first exchange, so the good exchanges exceed
// 3 per delivered message (the failed attempts' own). Debug checks on throughout.
TEST(Metro, EveryDeliveredReadHadAllItsExchangesGood) {
  for (const char* reclaim : {"fast", "detailed"}) {
    Config c = figure3(0.2);
    c.metro.reclaim = reclaim;
    c.traffic.request_reply = true;
    c.traffic.reply_size = 5;
    c.metro.reply_delay = 3;
    c.metro.word_error_rate = 0.001;
    c.metro.exchanges = 3;
    c.run.warmup = 300;
    c.run.measure = 4000;
    auto e = make_engine({c}, test::options("cpu", 2, true));
    const InstanceResult r = e->run().at(0);
    EXPECT_FALSE(r.saturated) << reclaim << r.saturation_reason;
    EXPECT_EQ(r.lost, 0u) << reclaim;
    EXPECT_GT(r.packets, 100u) << reclaim;
    EXPECT_GT(test::extra(r, "bad_replies"), 5.0) << reclaim;
    EXPECT_GT(test::extra(r, "bad_checksum_fraction"), 0.0) << reclaim;
    const auto started = test::values<uint64_t>(e->state("messages_started")),
               acked = test::values<uint64_t>(e->state("messages_acked")),
               done = test::values<uint64_t>(e->state("exchanges_done"));
    uint64_t all_acked = 0, all_done = 0;
    for (size_t n = 0; n < started.size(); ++n) {
      EXPECT_LE(started[n] - acked[n], 1u) << reclaim;
      EXPECT_GE(done[n], 3 * acked[n]) << reclaim << " endpoint " << n;
      all_acked += acked[n];
      all_done += done[n];
    }
    EXPECT_EQ(test::extra(r, "exchanges_completed"), static_cast<double>(all_done));
    EXPECT_GT(all_done, 3 * all_acked + 20) << reclaim;  // good exchanges of failed attempts
  }
}

// metro.port_vtd: a wire of its own length. On a 4-endpoint network of dilation 1 with one
// wire an endpoint (one path a pair), bit-complement traffic at a trickle: 4 more clocks on
// the wire out of source 0's first router toward its destination make the one-way time of
// exactly the destinations whose streams cross it 4 clocks longer; the same on every wire
// between the stages makes every connection 8 clocks longer, the stream and the
// acknowledgement each crossing one such wire: 20 + 2 x (1 + 2) + 8 = 34.
TEST(Metro, WiresOfTheirOwnLength) {
  Config c = metro({2, 2}, {1, 1}, 0.0005);
  c.topology.endpoint_ports = 1;
  c.traffic.pattern = "bitcomp";
  c.run.measure = 40000;
  const Topology t = build_topology(c.topology);
  const int32_t P = static_cast<int32_t>(t.ports);
  const int64_t a = t.node_entry[0] / P;  // source 0's router; toward 3: direction 1, port 3
  const auto oneway = [](const Config& cfg) {
    auto e = make_engine({cfg}, test::options("cpu", 1, true));
    const InstanceResult r = e->run().at(0);
    const auto sum = test::values<uint64_t>(e->state("oneway_sum"));
    const auto n = test::values<uint32_t>(e->state("messages_received"));
    std::vector<double> out;
    for (size_t d = 0; d < n.size(); ++d) out.push_back(n[d] ? double(sum[d]) / n[d] : -1.0);
    return std::pair{r, out};
  };
  const auto [r0, base] = oneway(c);
  EXPECT_DOUBLE_EQ(r0.latency_mean, 26.0);
  c.metro.port_vtd = {a, 3, 4};
  const auto [r1, slow] = oneway(c);
  for (uint32_t d = 0; d < 4; ++d) {
    const uint32_t src = 3 - d;
    const bool crosses = t.node_entry[src] / P == a && d / 2 == 1;
    ASSERT_GT(base[d], 0.0);
    EXPECT_DOUBLE_EQ(slow[d] - base[d], crosses ? 4.0 : 0.0) << "destination " << d;
  }
  c.metro.port_vtd.clear();
  for (int64_t r = 0; r < 2; ++r)
    for (int64_t q = 2; q < 4; ++q) c.metro.port_vtd.insert(c.metro.port_vtd.end(), {r, q, 4});
  EXPECT_DOUBLE_EQ(oneway(c).first.latency_mean, 34.0);
  c.metro.port_vtd = {a, 3, 16};
  EXPECT_NE(test::config_error_of([&] {
              make_engine({c}, test::options("cpu", 1, false));
            }).find("metro.port_vtd = [" + std::to_string(a) + ", 3, 16]: triple 0"),
            std::string::npos);
}

// metro.swallow (hw = 0): Figure 3's network in 2-bit words carries its 6 route bits in 3
// header words. Swallowing at the first two stages, each router routes on its own word and
// consumes it: the words the stages send on per attempt fall by 1, 2 and 2, and the latency is
// the same 22 + 2 x (1 + 3) = 30 clocks (the data's timing does not change). Swallowing at a
// 1-word route's first stage would leave the next router a data word: refused.
TEST(Metro, SwallowConsumesTheRouteWord) {
  const auto words_per_attempt = [](Config c) {
    c.traffic.offered = 0.005;
    c.run.warmup = 0;
    c.run.measure = 100000;
    auto e = make_engine({c}, test::options("cpu", 2, false));
    e->run();
    const Topology t = build_topology(c.topology);
    const auto words = test::values<uint32_t>(e->state("link_words"));
    const auto attempts = test::values<uint32_t>(e->state("attempts"));
    const double n = std::accumulate(attempts.begin(), attempts.end(), 0.0);
    const std::vector<Stage> st = multistage_stages(c.topology);
    std::vector<double> out(st.size(), 0.0);
    for (uint32_t r = 0; r < t.routers; ++r)
      for (uint32_t q = st[t.stage[r]].ports(); q < 2 * st[t.stage[r]].ports(); ++q)
        out[t.stage[r]] += words[r * t.ports + q] / n;
    return out;
  };
  Config c = figure3(0.0005);
  c.metro.width = 2;
  c.traffic.pattern = "bitcomp";
  c.run.measure = 40000;
  const std::vector<double> plain = words_per_attempt(c);
  EXPECT_DOUBLE_EQ(make_engine({c}, test::options("cpu", 1, true))->run().at(0).latency_mean, 30.0);
  c.metro.swallow = {0, 1};
  const std::vector<double> swallowed = words_per_attempt(c);
  const InstanceResult r = make_engine({c}, test::options("cpu", 1, true))->run().at(0);
  EXPECT_DOUBLE_EQ(r.latency_mean, 30.0);
  EXPECT_DOUBLE_EQ(test::extra(r, "attempts_per_message"), 1.0);
  EXPECT_NEAR(plain[0], 23.0, 0.2);  // 3 header words, 19 data, the TURN
  const std::vector<double> fewer = {1, 2, 2};
  for (size_t l = 0; l < 3; ++l) EXPECT_NEAR(plain[l] - swallowed[l], fewer[l], 0.05) << l;
  c.metro.width = 8;
  const std::string e =
      test::config_error_of([&] { make_engine({c}, test::options("cpu", 1, false)); });
  EXPECT_NE(e.find("metro.swallow = [0, 1]: allowed only while a header word leads"),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("layer 1 would route on a data word"), std::string::npos) << e;
}

// metro.header_error_rate with width cascading (metro.cascade), Figure 3's network at a
// trickle under debug checks. Alone (c = 1), a flipped route bit sends the connection where it
// says, and the end-to-end checksum, which then covers the destination, fails there; in a
// 2-cascade the slices disagree at the first router whose digit differs and the IN-USE check
// shuts the connection down at once. With hw = 2 every header word is consumed on the way, so
// in a cascade nothing corrupted reaches an endpoint at all. Every message is delivered.
TEST(Metro, CorruptedRoutesAndTheInUseCheck) {
  const auto run = [](int64_t cascade, int64_t hw) {
    Config c = figure3(0.01);
    c.metro.header_error_rate = 0.05;
    c.metro.cascade = cascade;
    c.metro.hw = hw;
    c.run.warmup = 0;
    c.run.measure = 20000;
    auto e = make_engine({c}, test::options("cpu", 1, true));
    const InstanceResult r = e->run().at(0);
    EXPECT_EQ(r.lost, 0u);
    EXPECT_GT(r.packets, 500u);
    const auto started = test::values<uint64_t>(e->state("messages_started")),
               acked = test::values<uint64_t>(e->state("messages_acked"));
    for (size_t n = 0; n < started.size(); ++n) EXPECT_LE(started[n] - acked[n], 1u);
    return r;
  };
  const InstanceResult alone = run(1, 0), pair = run(2, 0), consumed = run(2, 2);
  EXPECT_EQ(test::extra(alone, "inuse_shutdowns"), 0.0);
  EXPECT_GT(test::extra(alone, "bad_checksum_fraction"), 0.1);
  EXPECT_GT(test::extra(pair, "inuse_shutdowns"), 50.0);
  EXPECT_GT(test::extra(pair, "bad_headers"), 0.0);
  EXPECT_LT(test::extra(pair, "bad_checksum_fraction"),
            0.75 * test::extra(alone, "bad_checksum_fraction"));
  EXPECT_GT(test::extra(consumed, "inuse_shutdowns"), 50.0);
  EXPECT_EQ(test::extra(consumed, "bad_checksum_fraction"), 0.0);
  EXPECT_GT(test::extra(consumed, "attempts_per_message"), 1.05);
}

// The error counters of a batch: each instance's results sum its own wires' corrupted words
// (every element's, routers and endpoints: [inst, elem, port]) and its own routers' shutdowns
// ([inst, router]), and an instance's results are those it gives run alone. (The sums once took
// [inst, endpoint] slices of both arrays: a router's counters fell to the wrong instance.)
TEST(Metro, ErrorCountersAreEachInstancesOwn) {
  std::vector<Config> batch;
  for (int64_t seed : {5, 6}) {
    Config c = figure3(0.3);
    c.metro.header_error_rate = 0.02;
    c.metro.word_error_rate = 0.002;
    c.metro.cascade = 2;
    c.run.seed = seed;
    c.run.warmup = 0;
    c.run.measure = 3000;
    c.run.drain = 0;  // the same cycles in the batch as alone (the counters span the whole run)
    batch.push_back(c);
  }
  auto e = make_engine(batch, test::options("cpu", 1, false));
  const std::vector<InstanceResult> r = e->run();
  const auto corrupted = test::values<uint32_t>(e->state("words_corrupted"));
  const auto shutdowns = test::values<uint64_t>(e->state("inuse_shutdowns"));
  const auto half = [](const auto& v, size_t i) {
    const size_t n = v.size() / 2;
    return std::accumulate(v.begin() + i * n, v.begin() + (i + 1) * n, 0.0);
  };
  for (size_t i = 0; i < 2; ++i) {
    SCOPED_TRACE("instance " + std::to_string(i));
    EXPECT_GT(half(corrupted, i), 100.0);
    EXPECT_GT(half(shutdowns, i), 10.0);
    EXPECT_EQ(test::extra(r[i], "words_corrupted"), half(corrupted, i));
    EXPECT_EQ(test::extra(r[i], "inuse_shutdowns"), half(shutdowns, i));
  }
  const InstanceResult alone = make_engine({batch[1]}, test::options("cpu", 1, false))->run().at(0);
  EXPECT_EQ(test::extra(alone, "words_corrupted"), test::extra(r[1], "words_corrupted"));
  EXPECT_EQ(test::extra(alone, "inuse_shutdowns"), test::extra(r[1], "inuse_shutdowns"));
}

// reads: every message a read with a reply, words corrupted on the wires.
// exchanges: reads of that many request/reply exchanges a connection (metro.exchanges).
std::vector<Config> mixed_batch(const std::string& kind = "multibutterfly", bool reads = false,
                                int64_t exchanges = 1) {
  std::vector<Config> cs;
  for (double off : {0.1, 0.5, 0.9}) {
    Config c = figure3(off);
    c.topology.kind = kind;
    if (reads) {
      c.traffic.request_reply = true;
      c.traffic.reply_size = 5;
      c.metro.reply_delay = 3;
      c.metro.word_error_rate = 0.005;
      c.metro.exchanges = exchanges;
    }
    c.run.seed = static_cast<int64_t>(off * 10);
    cs.push_back(c);
  }
  return cs;
}

TEST(Metro, SameStateOnAnyThreadsScheduleAndBatchPosition) {
  for (auto [kind, reads, k] : {std::tuple{"multibutterfly", false, 1},
                                {"fat_tree", false, 1},
                                {"multibutterfly", true, 1},
                                {"multibutterfly", true, 3}}) {
    const auto one =
        test::state_after(mixed_batch(kind, reads, k), test::options("cpu", 1, false), 2000);
    EXPECT_EQ(one,
              test::state_after(mixed_batch(kind, reads, k), test::options("cpu", 2, false), 2000));
    EXPECT_EQ(one,
              test::state_after(mixed_batch(kind, reads, k), test::options("cpu", 2, true), 2000));
  }
  // An instance alone runs as it does in its batch.
  auto batch = make_engine(mixed_batch(), test::options("cpu", 2, false));
  auto alone = make_engine({mixed_batch()[2]}, test::options("cpu", 1, false));
  batch->step(1500);
  alone->step(1500);
  const HostArray b = batch->state("belt"), a = alone->state("belt");
  EXPECT_TRUE(std::equal(a.bytes.begin(), a.bytes.end(), b.bytes.end() - a.bytes.size()));
}

TEST(Metro, CpuAndCudaGiveBitIdenticalState) {
  if (!cuda_available())
    GTEST_SKIP() << "no CUDA device on this machine: METRO CPU/GPU equality not checked";
  for (auto [kind, reads, k] : {std::tuple{"multibutterfly", false, 1},
                                {"fat_tree", false, 1},
                                {"multibutterfly", true, 1},
                                {"multibutterfly", true, 3}})
    EXPECT_EQ(test::state_after(mixed_batch(kind, reads, k), test::options("cpu", 2, false), 3000),
              test::state_after(mixed_batch(kind, reads, k), test::options("cuda", 0, false), 3000))
        << kind << (reads ? " reads" : "") << " exchanges " << k;
}

TEST(Metro, BadConfigurationsNameTheKey) {
  const auto err = [](const std::function<void(Config&)>& edit) {
    Config c = figure3(0.1);
    edit(c);
    return test::config_error_of([&] { validate(c); });
  };
  EXPECT_NE(err([](Config& c) { c.topology.kind = "torus"; }).find("topology.kind"),
            std::string::npos);
  EXPECT_NE(err([](Config& c) { c.router.family = "vc"; }).find("multibutterfly and fat_tree only"),
            std::string::npos);
  EXPECT_NE(err([](Config& c) {
              c.topology.radix = {4, 3};
              c.topology.dilation = {2, 1};
            }).find("powers of two"),
            std::string::npos);
  EXPECT_NE(err([](Config& c) {
              c.topology.dilation = {2, 2};
            }).find("topology.dilation"),
            std::string::npos);
  EXPECT_NE(err([](Config& c) {
              c.topology.endpoint_ports = 1;  // the last stage's 2 wires per endpoint
              c.topology.dilation = {2, 2, 2};
            }).find("topology.endpoint_ports"),
            std::string::npos);
  EXPECT_NE(err([](Config& c) { c.metro.reclaim = "slow"; }).find("fast, detailed"),
            std::string::npos);
  EXPECT_NE(err([](Config& c) { c.metro.failed_routers = {64}; }).find("below 64"),
            std::string::npos);
  EXPECT_NE(err([](Config& c) { c.metro.reply_delay = -1; }).find("metro.reply_delay = -1"),
            std::string::npos);
  EXPECT_NE(test::config_error_of([] {
              Config c = figure3(0.1);
              set_key(c, "metro", "exchanges", int64_t{0});
            }).find("metro.exchanges"),
            std::string::npos);
  // Exchanges after the first are a read's: a write's connection is turned once.
  EXPECT_NE(err([](Config& c) {
              c.metro.exchanges = 2;
            }).find("metro.exchanges = 2: allowed only 1 without traffic.request_reply"),
            std::string::npos);
  EXPECT_EQ(err([](Config& c) {
              c.metro.exchanges = 2;
              c.traffic.request_reply = true;
            }),
            "");
  // Figure 3's network: 3 routers on a path, 2 x (1 + 3 x (8 + 8)) = 98 clocks for the answer.
  EXPECT_NE(err([](Config& c) {
              c.metro.dp = 8;
              c.metro.vtd = 8;
              c.metro.timeout = 97;
            }).find("metro.timeout = 97: allowed at least 98 here"),
            std::string::npos);
}

// A timeout as short as the answer allows: the acknowledgement and the destination's drop reach
// the source in its last clock, so at light load nothing times out, and under load every
// invariant holds. A clock shorter, every attempt timed out, and sources dropping connections
// whose answer was still coming crossed its drop and sent later streams to the wrong endpoint
// (found by the differential runs: a fat tree of 5 routers a path, dp + vtd = 5, timeout 50).
TEST(Metro, TheShortestTimeoutAllowedLetsEveryAnswerHome) {
  for (const bool tree : {false, true}) {
    Config c = tree ? metro({2, 2, 2}, {1, 1, 1}, 0.02) : metro({2, 2, 4}, {2, 2, 1}, 0.02);
    if (tree) {
      c.topology.kind = "fat_tree";
      c.topology.endpoint_ports = 1;
    }
    c.metro.dp = 2;
    c.metro.vtd = 3;
    c.metro.timeout = tree ? 2 * (1 + 5 * 5) : 2 * (1 + 3 * 5);
    c.run.measure = 20000;
    const InstanceResult light = test::run_one(c, test::options("cpu", 1, true));
    EXPECT_GT(light.packets, 100u) << tree;
    EXPECT_EQ(test::extra(light, "timed_out_fraction"), 0.0) << tree;
    c.traffic.offered = 0.5;
    c.traffic.packet_size = 1;
    c.run.measure = 3000;
    InstanceResult loaded;
    ASSERT_NO_THROW(loaded = test::run_one(c, test::options("cpu", 1, true))) << tree;
    EXPECT_EQ(loaded.lost, 0u) << tree;
  }
}

}  // namespace
}  // namespace ls
