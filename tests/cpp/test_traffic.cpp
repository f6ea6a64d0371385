// A Bernoulli source's creation chain (kernels/common/traffic.hpp): the process it draws, the
// edge rates, and that a search from any creation cycle continues the same chain (which the
// storage-free source queue relies on).
#include <cmath>

#include "../../host/vc/vc_setup.hpp"
#include "helpers.hpp"
#include "host/config/schema.hpp"
#include "host/topology/topology.hpp"

using namespace ls;

namespace {

TrafficParams bernoulli(double rate, int64_t seed = 7) {
  Config c = test::network("mesh", {2}, rate);
  c.run.seed = seed;
  return traffic_params({c}, 2).at(0);
}

// The creation cycles of source `src` in [0, end), found one after the other as a source does.
std::vector<uint64_t> chain(const TrafficParams& tp, uint32_t src, uint64_t end) {
  std::vector<uint64_t> out;
  uint8_t on = 0;
  for (uint64_t s = 0; s < end;) {
    const NextCreation n = next_creation(tp, src, s, s + 1, on);  // one draw per call
    if (!n.found) {
      s = n.cycle;
      continue;
    }
    if (n.cycle < end) out.push_back(n.cycle);
    s = n.cycle + 1;
  }
  return out;
}

}  // namespace

TEST(Traffic, TheWindowTableIsTheFirstCreationsDistribution) {
  const TrafficParams tp = bernoulli(0.25);
  for (uint32_t j = 0; j < kGenWindow; ++j)
    EXPECT_NEAR(static_cast<double>(tp.first_create[j]) / 4294967296.0, 1.0 - std::pow(0.75, j + 1),
                1e-9);
  // Words below the first entry create at the window's start, words past the last none.
  EXPECT_EQ(first_in_window(tp, 0), 0u);
  EXPECT_EQ(first_in_window(tp, static_cast<uint32_t>(tp.first_create[0]) - 1), 0u);
  EXPECT_EQ(first_in_window(tp, static_cast<uint32_t>(tp.first_create[0])), 1u);
  EXPECT_EQ(first_in_window(tp, static_cast<uint32_t>(tp.first_create[40])), 41u);
  EXPECT_EQ(first_in_window(tp, 0xFFFFFFFFu), kGenWindow);
}

TEST(Traffic, RatesOfZeroAndOneCreateNeverAndAlways) {
  const std::vector<uint64_t> all = chain(bernoulli(1.0), 3, 1000);
  ASSERT_EQ(all.size(), 1000u);
  for (uint64_t c = 0; c < all.size(); ++c) EXPECT_EQ(all[c], c);
  EXPECT_TRUE(chain(bernoulli(0.0), 3, 100000).empty());
}

TEST(Traffic, TheChainIsABernoulliProcess) {
  // Over 400,000 cycles of 4 sources: the number of creations (binomial) within 5 standard
  // deviations, and gaps of 1 (consecutive cycles) and of more than 64 (across windows) as often
  // as independent trials give them.
  for (double p : {0.002, 0.05, 0.15, 0.6}) {
    const TrafficParams tp = bernoulli(p);
    const uint64_t cycles = 100000;
    double n = 0, gaps = 0, ones = 0, long_gaps = 0;
    for (uint32_t src = 0; src < 4; ++src) {
      const std::vector<uint64_t> c = chain(tp, src, cycles);
      n += static_cast<double>(c.size());
      for (size_t k = 1; k < c.size(); ++k, ++gaps) {
        ones += c[k] - c[k - 1] == 1;
        long_gaps += c[k] - c[k - 1] > 64;
      }
    }
    const double trials = 4.0 * cycles, sd = std::sqrt(trials * p * (1 - p));
    EXPECT_NEAR(n, trials * p, 5 * sd) << p;
    EXPECT_NEAR(ones / gaps, p, 5 * std::sqrt(p * (1 - p) / gaps)) << p;
    const double q64 = std::pow(1 - p, 64);
    EXPECT_NEAR(long_gaps / gaps, q64, 5 * std::sqrt(q64 * (1 - q64) / gaps) + 1e-9) << p;
  }
}

TEST(Traffic, ASearchFromAnyCreationContinuesTheSameChain) {
  // The source queue finds the next queued packet from the cursor with a search limited by the
  // present cycle; the source found it with searches of one draw: the same cycles.
  const TrafficParams tp = bernoulli(0.01);
  const std::vector<uint64_t> c = chain(tp, 5, 50000);
  ASSERT_GT(c.size(), 100u);
  for (size_t k = 0; k + 1 < c.size(); ++k) {
    uint8_t on = 0;
    const NextCreation n = next_creation(tp, 5, c[k] + 1, c[k + 1] + 1, on);
    ASSERT_TRUE(n.found);
    EXPECT_EQ(n.cycle, c[k + 1]);
  }
}

// The hot region (Blue Gene/L's hot-region traffic): by default the lower half of every
// dimension (an eighth of a 3-D torus); hot_region_fraction of packets go to one of its nodes
// drawn uniformly, the rest anywhere, so it receives 0.25 + 0.75 / 8 of them; a region given as
// first coordinates and extents is the box it names.
TEST(Traffic, HotRegionSendsItsShareIntoTheBox) {
  for (bool given : {false, true}) {
    Config c = test::network("torus", {8, 8, 4}, 0.1);
    c.traffic.pattern = "hotregion";
    if (given) c.traffic.hot_region = {5, 2, 1, 3, 2, 3};  // x 5-7, y 2-3, z 1-3: 18 nodes
    validate(c);
    const Shape s = build_topology(c.topology).shape;
    const TrafficParams tp = traffic_params({c}, s.nodes).at(0);
    const auto inside = [&](uint32_t n) {
      const uint32_t x = s.coord(n, 0), y = s.coord(n, 1), z = s.coord(n, 2);
      return given ? x >= 5 && y >= 2 && y < 4 && z >= 1 : x < 4 && y < 4 && z < 2;
    };
    const double share = given ? 18.0 / 256 : 1.0 / 8;
    std::vector<uint64_t> hits(s.nodes, 0);
    const uint64_t draws = 200000;
    uint64_t in = 0;
    for (uint64_t k = 0; k < draws; ++k) {
      const uint32_t d = pattern_dest(tp, s, nullptr, 0, k % s.nodes, k);
      hits[d] += 1;
      in += inside(d);
    }
    const double p = 0.25 + 0.75 * share;
    EXPECT_NEAR(static_cast<double>(in) / draws, p, 5 * std::sqrt(p * (1 - p) / draws)) << given;
    // Uniform within: every region node near its expected count.
    const double each = draws * p / (share * s.nodes);
    for (uint32_t n = 0; n < s.nodes; ++n)
      if (inside(n)) EXPECT_NEAR(static_cast<double>(hits[n]), each, 6 * std::sqrt(each)) << n;
  }
}

// FFT traffic: every packet goes to a butterfly partner (its source with one bit flipped), each
// of the log2(nodes) bits equally often; networks whose size is no power of two are refused.
TEST(Traffic, FftSendsEachPacketToAButterflyPartner) {
  Config c = test::network("torus", {8, 4}, 0.1);
  c.traffic.pattern = "fft";
  validate(c);
  const Shape s = build_topology(c.topology).shape;
  const TrafficParams tp = traffic_params({c}, s.nodes).at(0);
  std::vector<uint64_t> per_bit(5, 0);
  const uint64_t draws = 100000;
  for (uint64_t k = 0; k < draws; ++k) {
    const uint32_t src = k % s.nodes, d = pattern_dest(tp, s, nullptr, 0, src, k), x = src ^ d;
    ASSERT_TRUE(x != 0 && (x & (x - 1)) == 0) << src << " -> " << d;
    per_bit[static_cast<size_t>(std::log2(x))] += 1;
  }
  for (uint64_t n : per_bit)
    EXPECT_NEAR(static_cast<double>(n), draws / 5.0, 5 * std::sqrt(draws / 5.0));
  c.topology.radix = {6, 4};
  EXPECT_NE(test::config_error_of([&] { validate(c); }).find("power of two"), std::string::npos);
}

TEST(Traffic, HotRegionsOutsideTheNetworkNameTheKey) {
  const auto err = [](const std::function<void(Config&)>& edit) {
    Config c = test::network("torus", {4, 4}, 0.1);
    c.traffic.pattern = "hotregion";
    edit(c);
    return test::config_error_of([&] { validate(c); });
  };
  EXPECT_EQ(err([](Config&) {}), "");
  EXPECT_NE(err([](Config& c) {
              c.traffic.hot_region = {0, 0, 2};
            }).find("allowed 4 integers"),
            std::string::npos);
  EXPECT_NE(err([](Config& c) {
              c.traffic.hot_region = {3, 0, 2, 1};
            }).find("dimension 0 spans 3 + 2"),
            std::string::npos);
  EXPECT_NE(err([](Config& c) {
              c.topology.kind = "crossbar";
              c.topology.radix = {4};
            }).find("traffic.pattern = \"hotregion\""),
            std::string::npos);
}
