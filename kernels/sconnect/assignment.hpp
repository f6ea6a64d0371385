// The near-optimal adaptive assignment of messages to transmitters (section 2.2, Figure 4),
// steps 1 and 2:
//   1. sort the transmitters by pending messages, fewest first (a message with several
//      permissible channels counts for each);
//   2. for each transmitter with pending messages, in that order, send the one that has
//      a) the highest priority, b) the oldest age, c) the fewest options, d) comes first in a
//      defined order (here: the lowest buffer), then update all data structures.
// Between a) and b) the transmitter serves the two virtual channels fairly, as the TIC's do
// (section 3): it prefers the VC it did not send last. Without this, the oldest messages, aged
// by refusals from a full VC-0 class downstream, would take every slot and starve VC 1, whose
// progress is what resource ordering counts on to drain the network.
// The optimal assignment the paper measured Figure 4 against (section 2.2: "a bipartite
// cardinality matching problem in each routing cycle") extends Figure 4's choice to a maximum
// matching by augmenting paths (assign_optimal).
// Pure functions of the candidates, so a test can hand them cases; the transmitter stage feeds
// them the router's pool.
#pragma once
#include <cstdint>

#include "../common/hd.hpp"
#include "../common/round_robin.hpp"
#include "sconnect_state.hpp"

namespace ls::sconnect {

constexpr uint32_t kMaxTransmitters = kMaxPorts;  // arrays indexed by port
constexpr uint8_t kNoMessage = 0xFF;

// Whether candidate a ranks before candidate b by Figure 4's criteria a-d, for a transmitter that
// prefers VC `vc` (2: none).
template <class Pool>
LS_HD bool ranks_before(const Pool& c, uint32_t a, uint32_t b, uint32_t vc = 2) {
  if (c.prio(a) != c.prio(b)) return c.prio(a) > c.prio(b);
  if ((c.vc(a) == vc) != (c.vc(b) == vc)) return c.vc(a) == vc;
  if (c.age(a) != c.age(b)) return c.age(a) > c.age(b);
  const uint32_t na = popcount32(c.opts(a)), nb = popcount32(c.opts(b));
  if (na != nb) return na < nb;
  return a < b;
}

// Candidates are the set bits of `waiting` (indices below 64); c.opts(i) is candidate i's mask of
// permissible transmitters, c.prio(i), c.vc(i) and c.age(i) its priority, VC and age.
// Transmitters are the set bits of `free_tx` (below kMaxTransmitters); bit p of `last_vc1` says
// transmitter p sent VC 1 last. Writes choice[p], the candidate transmitter p sends or kNoMessage,
// and returns the candidates sent.
template <class Pool>
LS_HD uint64_t assign_near_optimal(const Pool& c, uint64_t waiting, uint32_t free_tx,
                                   uint32_t last_vc1, uint8_t* choice) {
  uint32_t pending[kMaxTransmitters] = {};
  for (uint32_t p = 0; p < kMaxTransmitters; ++p) choice[p] = kNoMessage;
  for (uint64_t w = waiting; w; w &= w - 1) {
    const uint32_t i = lowest_bit64(w);
    for (uint32_t o = c.opts(i) & free_tx; o; o &= o - 1) pending[lowest_bit(o)] += 1;
  }
  uint64_t sent = 0;
  uint32_t todo = free_tx;
  // Step 1's order, taken one transmitter at a time: fewest pending first, the lowest on ties.
  while (todo) {
    uint32_t p = lowest_bit(todo);
    for (uint32_t o = todo; o; o &= o - 1)
      if (pending[lowest_bit(o)] < pending[p]) p = lowest_bit(o);
    todo &= ~(1u << p);
    if (pending[p] == 0) continue;
    uint32_t best = 64;
    for (uint64_t w = waiting & ~sent; w; w &= w - 1) {
      const uint32_t i = lowest_bit64(w);
      if ((c.opts(i) >> p & 1u) && (best == 64 || ranks_before(c, i, best, ~last_vc1 >> p & 1u)))
        best = i;
    }
    if (best == 64) continue;
    choice[p] = static_cast<uint8_t>(best);
    sent |= uint64_t{1} << best;
  }
  return sent;
}

// Whether candidate i can be sent by an augmenting path: a breadth-first search over the free
// transmitters i may use, through the candidates they send now to those candidates' other free
// transmitters, until one sends nothing; each candidate on the path then moves one transmitter
// along, and i takes the first.
template <class Pool>
LS_HD bool augment(const Pool& c, uint32_t i, uint32_t free_tx, uint8_t* choice) {
  // from[p]: the transmitter whose candidate reached p (kNoMessage: candidate i itself).
  uint8_t from[kMaxTransmitters];
  uint32_t queue[kMaxTransmitters], head = 0, tail = 0, seen = c.opts(i) & free_tx;
  for (uint32_t o = seen; o; o &= o - 1) {
    from[lowest_bit(o)] = kNoMessage;
    queue[tail++] = lowest_bit(o);
  }
  while (head < tail) {
    uint32_t p = queue[head++];
    if (choice[p] == kNoMessage) {
      for (;;) {
        const uint8_t q = from[p];
        choice[p] = q == kNoMessage ? static_cast<uint8_t>(i) : choice[q];
        if (q == kNoMessage) return true;
        p = q;
      }
    }
    for (uint32_t o = c.opts(choice[p]) & free_tx & ~seen; o; o &= o - 1) {
      seen |= 1u << lowest_bit(o);
      from[lowest_bit(o)] = static_cast<uint8_t>(p);
      queue[tail++] = lowest_bit(o);
    }
  }
  return false;
}

// The most candidates sent: Figure 4's choice, then each unsent candidate in Figure 4's rank order
// added by an augmenting path where one exists. A path only moves a sent candidate to another of
// its transmitters, so every candidate Figure 4 sends is sent; the result is a maximum matching
// (a candidate without an augmenting path never gains one later), and where the unsent compete
// the higher-ranked go first. The two differ exactly by what Figure 4's greedy order leaves unsent.
template <class Pool>
LS_HD uint64_t assign_optimal(const Pool& c, uint64_t waiting, uint32_t free_tx, uint32_t last_vc1,
                              uint8_t* choice) {
  uint64_t sent = assign_near_optimal(c, waiting, free_tx, last_vc1, choice);
  uint32_t idle = 0;
  for (uint32_t o = free_tx; o; o &= o - 1) idle += choice[lowest_bit(o)] == kNoMessage;
  for (uint64_t left = waiting & ~sent; left && idle;) {
    uint32_t i = lowest_bit64(left);
    for (uint64_t w = left & (left - 1); w; w &= w - 1)
      if (ranks_before(c, lowest_bit64(w), i)) i = lowest_bit64(w);
    left &= ~(uint64_t{1} << i);
    if (augment(c, i, free_tx, choice)) {
      sent |= uint64_t{1} << i;
      --idle;
    }
  }
  return sent;
}

}  // namespace ls::sconnect
