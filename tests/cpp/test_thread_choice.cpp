// ThreadChoice (host/backend/thread_choice.hpp): a single network on every core runs its pieces
// on all threads or on one, whichever took less time a cycle lately. Fed made-up times here.
#include <gtest/gtest.h>

#include <vector>

#include "host/backend/thread_choice.hpp"

using ls::ThreadChoice;

namespace {

// Runs `pieces` pieces of a long step, the split taking `split` seconds a cycle and one thread
// `one`; which way each piece went.
std::vector<bool> run(ThreadChoice& c, int pieces, double split, double one) {
  std::vector<bool> ways;
  for (int k = 0; k < pieces; ++k) {
    const ThreadChoice::Piece p = c.next(1u << 20);
    c.took((p.split ? split : one) * static_cast<double>(p.cycles), p.cycles);
    ways.push_back(p.split);
  }
  return ways;
}

int count(const std::vector<bool>& ways, bool split) {
  int n = 0;
  for (bool w : ways) n += w == split;
  return n;
}

}  // namespace

TEST(ThreadChoice, TheSplitRunsWhileItIsFasterWithFewerAndFewerProbes) {
  ThreadChoice c;
  const std::vector<bool> ways = run(c, 1000, 1e-6, 2e-6);
  EXPECT_TRUE(ways[0]);   // the split first
  EXPECT_FALSE(ways[1]);  // then one thread, once
  // Probes lost wait 1, 2, 4, ... 256 pieces: about ten in a thousand pieces.
  EXPECT_GE(count(ways, false), 8);
  EXPECT_LE(count(ways, false), 12);
}

TEST(ThreadChoice, OneThreadTakesOverWhenTheSplitSlowsAndGivesBackWhenItRecovers) {
  ThreadChoice c;
  run(c, 1000, 1e-6, 2e-6);
  // Another process takes a core: the split's barrier waits a time slice a cycle.
  const std::vector<bool> busy = run(c, 1000, 5e-3, 2e-6);
  EXPECT_TRUE(busy[0]);              // the split's own piece shows it at once
  EXPECT_FALSE(busy[1]);             // one thread from the next piece
  EXPECT_LE(count(busy, true), 12);  // the split only as probes, fewer and fewer
  // The core is free again: the split comes back at its next probe, at most 256 pieces on.
  const std::vector<bool> free = run(c, 300, 1e-6, 2e-6);
  int first = 0;
  while (first < 300 && !free[first]) ++first;
  EXPECT_LE(first, 256);
  EXPECT_GE(count(free, true), 300 - 256 - 12);
}

TEST(ThreadChoice, OneSlowPieceDoesNotTurnIt) {
  ThreadChoice c;
  run(c, 100, 1e-6, 2e-6);
  run(c, 1, 2.5e-6, 2e-6);  // a hiccup of the split (not a probe: the next is at piece 133)
  EXPECT_EQ(count(run(c, 20, 1e-6, 2e-6), true), 20);
}

TEST(ThreadChoice, ProbesAreShortAndPiecesEndWithTheStep) {
  ThreadChoice c;
  const ThreadChoice::Piece first = c.next(1000);
  EXPECT_TRUE(first.split);
  EXPECT_EQ(first.cycles, ThreadChoice::kPiece);
  c.took(1e-3, first.cycles);
  const ThreadChoice::Piece probe = c.next(1000);
  EXPECT_FALSE(probe.split);
  EXPECT_EQ(probe.cycles, ThreadChoice::kProbe);
  c.took(1.0, probe.cycles);        // one thread far slower
  EXPECT_EQ(c.next(5).cycles, 5u);  // the step's last 5 cycles
}
