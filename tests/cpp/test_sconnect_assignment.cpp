// Figure 4's near-optimal assignment (kernels/sconnect/assignment.hpp) on hand-built pools:
// step 1's transmitter order and each of step 2's criteria in turn.
#include <gtest/gtest.h>

#include <vector>

#include "kernels/sconnect/assignment.hpp"

using namespace ls::sconnect;

namespace {

struct Msg {
  uint32_t opts, prio, age, vc = 0;
};
struct Pool {
  std::vector<Msg> m;
  uint32_t opts(uint32_t i) const { return m[i].opts; }
  uint32_t prio(uint32_t i) const { return m[i].prio; }
  uint32_t age(uint32_t i) const { return m[i].age; }
  uint32_t vc(uint32_t i) const { return m[i].vc; }
};
constexpr uint32_t A = 1u << 1, B = 1u << 2, C = 1u << 3;

// choice[p] for transmitters A, B, C (ports 1, 2, 3); every message waiting.
std::vector<int> assign(const Pool& pool, uint32_t free_tx = A | B | C, uint32_t last_vc1 = 0) {
  uint8_t choice[kMaxTransmitters];
  const uint64_t all = (uint64_t{1} << pool.m.size()) - 1;
  const uint64_t sent = assign_near_optimal(pool, all, free_tx, last_vc1, choice);
  std::vector<int> out;
  uint64_t seen = 0;
  for (uint32_t p : {1u, 2u, 3u}) {
    out.push_back(choice[p] == kNoMessage ? -1 : choice[p]);
    if (choice[p] != kNoMessage) seen |= uint64_t{1} << choice[p];
  }
  EXPECT_EQ(sent, seen);
  return out;
}

}  // namespace

// Message 0 may take A or B, messages 1 and 2 only A. Pending: A 3, B 1. Step 1 serves B first,
// which sends message 0, and A then sends message 1: two sends. Served in port order, A would
// take message 0 (it ranks first: lowest buffer) and B would stay idle.
TEST(SconnectAssignment, TransmittersWithFewestPendingChooseFirst) {
  const Pool pool{{{A | B, 0, 0}, {A, 0, 0}, {A, 0, 0}}};
  EXPECT_EQ(assign(pool), (std::vector<int>{1, 0, -1}));
}

TEST(SconnectAssignment, HighestPriorityFirst) {
  const Pool pool{{{A, 0, 9}, {A, 2, 0}, {A, 1, 0}}};
  EXPECT_EQ(assign(pool), (std::vector<int>{1, -1, -1}));
}

TEST(SconnectAssignment, ThenOldestAge) {
  const Pool pool{{{A, 1, 0}, {A, 1, 3}, {A, 1, 2}}};
  EXPECT_EQ(assign(pool), (std::vector<int>{1, -1, -1}));
}

TEST(SconnectAssignment, ThenFewestOptions) {
  // Both may take B; B is the only transmitter with pending messages that is free.
  const Pool pool{{{B | C, 0, 0}, {B, 0, 0}}};
  EXPECT_EQ(assign(pool, B), (std::vector<int>{-1, 1, -1}));
}

TEST(SconnectAssignment, ThenTheLowestBuffer) {
  const Pool pool{{{C, 0, 1}, {C, 0, 1}}};
  EXPECT_EQ(assign(pool), (std::vector<int>{-1, -1, 0}));
}

TEST(SconnectAssignment, BusyTransmittersAndSentMessagesAreSkipped) {
  // C is not free; message 0 (C only) waits. A and B each send one of the two that may use both.
  const Pool pool{{{C, 3, 0}, {A | B, 0, 0}, {A | B, 0, 1}}};
  EXPECT_EQ(assign(pool, A | B), (std::vector<int>{2, 1, -1}));
}

// Within a priority a transmitter serves the VC it did not send last (as the TIC's do), before
// age: an old VC-0 message refused again and again cannot starve VC 1.
TEST(SconnectAssignment, VirtualChannelsTakeTurnsBeforeAge) {
  const Pool pool{{{A, 0, 7, 0}, {A, 0, 0, 1}, {A, 1, 0, 0}}};
  EXPECT_EQ(assign(pool, A, 0), (std::vector<int>{2, -1, -1}));  // priority still first
  const Pool same_prio{{{A, 0, 7, 0}, {A, 0, 0, 1}}};
  EXPECT_EQ(assign(same_prio, A, 0), (std::vector<int>{1, -1, -1}));  // VC 0 sent last
  EXPECT_EQ(assign(same_prio, A, A), (std::vector<int>{0, -1, -1}));  // VC 1 sent last
  const Pool only_vc0{{{A, 0, 1, 0}, {A, 0, 5, 0}}};
  EXPECT_EQ(assign(only_vc0, A, 0), (std::vector<int>{1, -1, -1}));  // the other VC has none
}
