// Partitions and virtual PE numbers on the T3E (manual, "Virtual PE Number"): a PE sends to
// the virtual PEs of its own partition (virtual PE v is logical PE base + v), PEs in no
// partition run nothing and count in no result, and hot spares take a failed PE's logical
// number so the application keeps every virtual PE.
#include "helpers.hpp"
#include "host/config/schema.hpp"

using namespace ls;

namespace {

// The manual's Table 7: a 16-PE machine (2 x 4 x 2) with partitions A (logical PEs 0-3),
// B (4-9) and C (D-F); A, B and C hex are in none.
Config table7(double offered) {
  Config c = test::network("torus", {2, 4, 2}, offered);
  c.router.family = "t3e";
  c.t3e.partitions = {0, 3, 4, 5, 13, 2};
  return c;
}

struct Counts {
  std::vector<uint64_t> injected, ejected;  // by logical PE
};
Counts by_logical_pe(Engine& e) {
  const std::vector<uint32_t> lwho = test::values<uint32_t>(e.state("r_lwho"));
  const std::vector<uint64_t> inj = test::values<uint64_t>(e.state("injected_flits"));
  const std::vector<uint64_t> ej = test::values<uint64_t>(e.state("ejected_flits"));
  Counts c{std::vector<uint64_t>(lwho.size()), std::vector<uint64_t>(lwho.size())};
  for (size_t r = 0; r < lwho.size(); ++r) {
    c.injected[lwho[r]] = inj[r];
    c.ejected[lwho[r]] = ej[r];
  }
  return c;
}

}  // namespace

// Every request goes to virtual PE 0 of its sender's partition (a hot spot of all the
// traffic): 30 single-word Gets from each PE, so virtual PE 0 takes 2 x 30 request flits from
// every member and every member 2 x 30 response flits; the PEs in no partition see nothing.
TEST(T3ePartitions, VirtualPeZeroIsThePartitionsBaseLogicalPe) {
  Config c = table7(0.4);
  c.traffic.pattern = "hotspot";
  c.traffic.hotspot_nodes = {0};
  c.traffic.hotspot_fraction = 1.0;
  c.traffic.max_packets = 30;
  auto e = make_engine({c}, test::options());
  e->step(3000);
  const Counts n = by_logical_pe(*e);
  const std::vector<std::pair<uint32_t, uint32_t>> parts = {{0, 4}, {4, 6}, {13, 3}};
  for (const auto& [base, size] : parts)
    for (uint32_t v = 0; v < size; ++v) {
      SCOPED_TRACE("logical PE " + std::to_string(base + v));
      EXPECT_EQ(n.injected[base + v], 60u + (v == 0 ? 60u * size : 0u));
      EXPECT_EQ(n.ejected[base + v], 60u + (v == 0 ? 60u * size : 0u));
    }
  for (uint32_t idle : {10u, 11u, 12u}) {
    EXPECT_EQ(n.injected[idle], 0u) << "logical PE " << idle;
    EXPECT_EQ(n.ejected[idle], 0u) << "logical PE " << idle;
  }
}

// Uniform traffic stays inside each partition: what a partition's PEs inject, they eject
// (single-word Puts: 4-flit requests, 2-flit responses, so a request answered from another
// partition would leave the sums unequal).
TEST(T3ePartitions, TrafficStaysInsideItsPartition) {
  Config c = table7(0.5);
  c.t3e.packet_type = "single_word_put";
  c.traffic.max_packets = 40;
  auto e = make_engine({c}, test::options());
  e->step(4000);
  const Counts n = by_logical_pe(*e);
  uint64_t total = 0;
  for (const auto& [first, last] :
       std::vector<std::pair<uint32_t, uint32_t>>{{0, 3}, {4, 9}, {13, 15}}) {
    uint64_t in = 0, out = 0;
    for (uint32_t l = first; l <= last; ++l) {
      in += n.injected[l];
      out += n.ejected[l];
    }
    EXPECT_EQ(in, out) << "partition of logical PEs " << first << "-" << last;
    total += in;
  }
  EXPECT_EQ(total, 13u * 40u * 6u);  // 40 Puts of 4 + 2 flits from each of 13 PEs
}

// Offered and accepted load are per PE taking part: 13 of the 16 here.
TEST(T3ePartitions, ResultsAverageOverThePesInPartitions) {
  const InstanceResult r = test::run_one(table7(0.2), test::options("cpu", 1, false));
  EXPECT_NEAR(r.offered, 0.2, 0.015);
  EXPECT_NEAR(r.accepted, 0.2, 0.015);
  EXPECT_GT(r.accepted_min, 0.1);  // the idle PEs are not the minimum
}

// A failed node with a hot spare: the spare takes its logical PE number, tables lead there,
// and nothing is lost; without one, the packets for the failed PE are.
TEST(T3ePartitions, HotSpareTakesAFailedPesNumber) {
  Config c = test::network("torus", {4, 2, 2}, 0.2);
  c.router.family = "t3e";
  c.t3e.failed_nodes = {1, 0, 0};  // router 1, logical PE 1
  c.t3e.hot_spares = 1;            // logical PE 15, router 15
  auto e = make_engine({c}, test::options());
  const std::vector<uint32_t> lwho = test::values<uint32_t>(e->state("r_lwho"));
  const std::vector<uint32_t> pe_router = test::values<uint32_t>(e->state("pe_router"));
  EXPECT_EQ(lwho[15], 1u);
  EXPECT_EQ(lwho[1], 15u);
  EXPECT_EQ(pe_router[1], 15u);
  const InstanceResult spared = e->run().at(0);
  EXPECT_EQ(spared.lost, 0u);
  EXPECT_EQ(test::extra(spared, "unroutable_packets"), 0);
  const std::vector<uint64_t> ej = test::values<uint64_t>(e->state("ejected_flits"));
  EXPECT_EQ(ej[1], 0u);
  EXPECT_GT(ej[15], 0u);

  c.t3e.hot_spares = 0;
  const InstanceResult unspared = test::run_one(c);
  EXPECT_GT(unspared.lost, 0u);
}

// The node failing mid-run (t3e.fail_cycle): from then the spare runs the failed node's
// application, making packets as any PE of the partition does, and the failed node makes none.
TEST(T3ePartitions, HotSpareTakesOverTheFailedNodesApplicationMidRun) {
  Config c = test::network("torus", {4, 2, 2}, 0.2);
  c.router.family = "t3e";
  c.t3e.failed_nodes = {1, 0, 0};
  c.t3e.hot_spares = 1;
  c.t3e.fail_cycle = 1000;
  auto e = make_engine({c}, test::options());
  auto created = [&] { return test::values<uint32_t>(e->state("packets_created")); };
  e->step(1000);
  const std::vector<uint32_t> before = created();
  EXPECT_EQ(before[15], 0u);  // a spare runs no application
  EXPECT_GT(before[1], 0u);
  e->step(2000);
  const std::vector<uint32_t> after = created();
  EXPECT_EQ(after[1], before[1]);
  // About 100 each in 2,000 clocks (91-113 measured; the spare 101).
  for (uint32_t r : {0u, 2u, 15u}) EXPECT_GT(after[r] - before[r], 60u) << "router " << r;
}

TEST(T3ePartitions, ConfigurationErrorsNameTheKey) {
  auto error_of = [](const Config& c) { return test::config_error_of([&] { validate(c); }); };
  Config c = table7(0.2);
  c.t3e.partitions = {0, 3, 2, 1};
  EXPECT_NE(error_of(c).find("t3e.partitions = [0, 3, 2, 1]: partition 1 overlaps partition 0"),
            std::string::npos)
      << error_of(c);
  c.t3e.partitions = {0, 3, 4};
  EXPECT_NE(error_of(c).find("allowed pairs of integers"), std::string::npos) << error_of(c);
  c.t3e.partitions = {10, 5};
  c.t3e.hot_spares = 2;
  EXPECT_NE(error_of(c).find("partition 0 reaches logical PE 15, allowed up to 13 (16 PEs less "
                             "2 hot spares)"),
            std::string::npos)
      << error_of(c);
  c.t3e.hot_spares = 16;
  EXPECT_NE(error_of(c).find("t3e.hot_spares = 16: allowed fewer than the PEs, here 16"),
            std::string::npos)
      << error_of(c);
  c = table7(0.2);
  c.traffic.pattern = "bitcomp";
  EXPECT_NE(error_of(c).find("allowed only when the number of PEs of partition 1 is a power of "
                             "two, here PEs of partition 1 = 6"),
            std::string::npos)
      << error_of(c);
  c.traffic.pattern = "randperm";
  EXPECT_NE(error_of(c).find("randperm\": allowed on the T3E only with one partition"),
            std::string::npos)
      << error_of(c);
}
