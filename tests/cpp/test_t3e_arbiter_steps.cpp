// Three of the T3E arbiter's steps (kernels/t3e/arbiter.hpp, paper section 7) on a router built
// by hand: only the arrays a step reads are there, each case sets them as the rule needs. Step 1,
// an input's VC keeping the right to request until it gives it up (and the next VC holding flits
// taking it in turn); step 3, output VCs remembering who asked for them; step 4, a physical
// output going round-robin to its contending VCs, the adaptive VC last unless its packet has
// started, and the VC holding the output keeping it.
#include <gtest/gtest.h>

#include <vector>

#include "kernels/t3e/arbiter.hpp"

using namespace ls;
using namespace ls::t3e;

namespace {

// One router's arbitration state, every output VC with credits, nothing owned or selected.
struct HandBuilt {
  std::vector<uint8_t> ivc_count = std::vector<uint8_t>(kPorts * kVcs, 0);
  std::vector<uint8_t> credits = std::vector<uint8_t>(kPorts * kVcs, 12);
  std::vector<int8_t> owner = std::vector<int8_t>(kPorts * kVcs, kNone);
  std::vector<uint8_t> started = std::vector<uint8_t>(kPorts * kVcs, 0);
  std::vector<int8_t> in_sel = std::vector<int8_t>(kPorts, kNone);
  std::vector<uint8_t> in_rr = std::vector<uint8_t>(kPorts, 0);
  std::vector<int8_t> out_hold = std::vector<int8_t>(kPorts, kNone);
  std::vector<uint8_t> out_rr = std::vector<uint8_t>(kPorts, 0);
  std::vector<uint64_t> requests = std::vector<uint64_t>(kPorts * kVcs, 0);
  std::vector<uint8_t> ovc_rr = std::vector<uint8_t>(kPorts * kVcs, 0);
  T3eView v{};

  HandBuilt() {
    v.lay = T3eLayout{1, 12, 22, 16, 11};
    v.s.ivc_count = ivc_count.data();
    v.s.ovc_credits = credits.data();
    v.s.ovc_owner = owner.data();
    v.s.ovc_started = started.data();
    v.s.in_sel = in_sel.data();
    v.s.in_rr = in_rr.data();
    v.s.out_hold = out_hold.data();
    v.s.out_rr = out_rr.data();
    v.s.ovc_requests = requests.data();
    v.s.ovc_rr = ovc_rr.data();
  }
  Arbiter arbiter() const { return Arbiter{v, 0, 0, 0, 0}; }
  // Step 1 for input p, given its VCs holding flits as the arbiter reads them (ivc_count).
  int select(uint32_t p) const {
    uint32_t holding = 0;
    for (uint32_t vc = 0; vc < kVcs; ++vc) holding |= uint32_t{ivc_count[p * kVcs + vc] != 0} << vc;
    return arbiter().select(p, holding);
  }
  // The input VCs asking for output o's adaptive VC.
  static uint64_t adaptive(const Request* req, uint32_t o) {
    uint64_t m = 0;
    for (uint32_t p = 0; p < kPorts; ++p)
      if (req[p].ad_port == static_cast<int8_t>(o)) m |= uint64_t{1} << input_vc(p, req[p].vc);
    return m;
  }
  static int8_t input_vc(uint32_t p, uint32_t vc) { return static_cast<int8_t>(p * kVcs + vc); }
};

}  // namespace

// Input 2 holds flits on VCs 1 and 3. The first to the round-robin pointer (0) gets the right and
// keeps it, clock after clock, until it gives it up (it lost, bubbled, completed or blocked:
// lose()); then the next VC holding flits gets it. A VC whose buffer has emptied loses it too.
TEST(T3eArbiterSteps, AnInputVcKeepsTheRightToRequestUntilItGivesItUp) {
  HandBuilt h;
  h.ivc_count[2 * kVcs + 1] = 3;
  h.ivc_count[2 * kVcs + 3] = 2;
  const Arbiter a = h.arbiter();
  EXPECT_EQ(h.select(2), 1);
  EXPECT_EQ(h.in_sel[2], 1);
  h.ivc_count[2 * kVcs + 4] = 5;  // the adaptive VC fills: VC 1 still has the right
  EXPECT_EQ(h.select(2), 1);
  a.lose(2, 1);
  EXPECT_EQ(h.select(2), 3);
  EXPECT_EQ(h.select(2), 3);
  h.ivc_count[2 * kVcs + 3] = 0;  // VC 3's packet left
  EXPECT_EQ(h.select(2), 4);
  a.lose(2, 4);
  EXPECT_EQ(h.select(2), 1);      // round the VCs again
  EXPECT_EQ(h.select(5), kNone);  // an input holding nothing requests nothing
}

// Output 1's request VC0 is owned; inputs 2 (its VC 0) and 5 (its VC 3) ask for it, and input 5
// then loses its turn to request to another of its VCs. The VC remembers both: when it frees, the
// round-robin (pointer past input 2) gives it to input 5, which is not asking this clock. The
// adaptive VC goes only to an input asking for it now.
TEST(T3eArbiterSteps, AnOutputVcRemembersWhoAskedForIt) {
  HandBuilt h;
  Request req[kPorts];
  for (Request& q : req) q = Request{kNone, kNone, 0, kNone, 0};
  const uint64_t vc0 = 1 * kVcs + 0;
  h.owner[vc0] = HandBuilt::input_vc(4, 0);
  h.requests[vc0] = uint64_t{1} << HandBuilt::input_vc(2, 0) | uint64_t{1}
                                                                   << HandBuilt::input_vc(5, 3);
  h.ivc_count[5 * kVcs + 3] = 1;
  h.ivc_count[5 * kVcs + 4] = 1;
  const Arbiter a = h.arbiter();
  a.lose(5, 3);               // input 5's VC 3 loses its turn: its claim stays
  EXPECT_EQ(h.select(5), 4);  // VC 4 has the right now
  req[2] = Request{0, 1, 0, kNone, 0};
  req[5] = Request{4, 2, 0, kNone, 0};  // asking for another output
  a.grant(1, HandBuilt::adaptive(req, 1));
  EXPECT_EQ(h.owner[vc0], HandBuilt::input_vc(4, 0));  // still owned: nobody gets it
  h.owner[vc0] = kNone;                                // its packet's tail left
  h.ovc_rr[vc0] = static_cast<uint8_t>(HandBuilt::input_vc(2, 0) + 1);
  a.grant(1, HandBuilt::adaptive(req, 1));
  EXPECT_EQ(h.owner[vc0], HandBuilt::input_vc(5, 3));
  EXPECT_EQ(h.owner[1 * kVcs + kAdaptiveVc], kNone);  // nobody asked for it adaptively
  req[2].ad_port = 1;
  a.grant(1, HandBuilt::adaptive(req, 1));
  EXPECT_EQ(h.owner[1 * kVcs + kAdaptiveVc], HandBuilt::input_vc(2, 0));
}

// Output 1 is contended by its request VC0 (owned by input 2's VC 0, asking for it) and its
// adaptive VC (owned by input 3's VC 1, asking for it adaptively), with the round-robin pointer
// at the adaptive VC. An adaptive packet that has not started goes last; once it has started it
// takes its turn; and a VC that holds the output keeps it while it still contends.
TEST(T3eArbiterSteps, TheAdaptiveVcGoesLastUnlessItsPacketHasStarted) {
  HandBuilt h;
  Request req[kPorts];
  for (Request& q : req) q = Request{kNone, kNone, 0, kNone, 0};
  req[2] = Request{0, 1, 0, kNone, 0};  // deterministic: output 1, VC 0
  req[3] = Request{1, 4, 0, 1, 0};      // deterministic output 4, adaptive output 1
  h.owner[1 * kVcs + 0] = HandBuilt::input_vc(2, 0);
  h.owner[1 * kVcs + kAdaptiveVc] = HandBuilt::input_vc(3, 1);
  h.out_rr[1] = kAdaptiveVc;
  const Arbiter a = h.arbiter();
  EXPECT_EQ(a.contend(1, req), 0);
  EXPECT_EQ(h.out_rr[1], 1);  // past the winner

  h.out_rr[1] = kAdaptiveVc;
  h.started[1 * kVcs + kAdaptiveVc] = 1;  // the adaptive VC's packet is mid-way
  EXPECT_EQ(a.contend(1, req), static_cast<int8_t>(kAdaptiveVc));

  h.out_hold[1] = 0;  // VC 0 holds the output: it keeps it
  EXPECT_EQ(a.contend(1, req), 0);
  h.credits[1 * kVcs + 0] = 0;  // ... unless it cannot send: no credit, no contention
  EXPECT_EQ(a.contend(1, req), static_cast<int8_t>(kAdaptiveVc));

  req[3].ad_port = kNone;  // no longer asking for it adaptively: nobody contends
  EXPECT_EQ(a.contend(1, req), kNone);
}
