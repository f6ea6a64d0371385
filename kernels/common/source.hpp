// A terminal's traffic source, the same for every router family: the creation process and the
// source queue of packets created but not yet started.
//
// The queue is unbounded without being stored: the cycles a node creates packets in are a pure
// function of (seed, node) (traffic.hpp), so the queue is just `queued` (packets created, not yet
// started) and `cursor`, the creation cycle of the oldest; the next one is found again from it
// when that packet starts. A bounded queue (traffic.source_queue) stores the creation cycles in a
// ring instead, since which packets it refused cannot be recomputed. The source sleeps between
// packets: it finds its next creation cycle (`gen_next`; see next_creation) and does nothing
// until then.
#pragma once
#include <cstdint>

#include "round_robin.hpp"
#include "terminal_stats.hpp"
#include "traffic.hpp"

namespace ls {

// Sources [inst, node].
struct SourceState {
  uint32_t* cursor;    // unbounded source queue: creation cycle of the oldest queued packet
  uint8_t* on_cursor;  // on/off state after the cursor's cycle
  uint32_t* gen_next;  // the cycle the source wakes: its next creation if gen_hit, else
  uint8_t* gen_hit;    // where its search stopped
  uint8_t* on_gen;     // on/off state after the cycles the source has looked at
  uint32_t* queued;    // packets created and not yet started
  uint32_t* created;   // packets created so far
  uint32_t* sq_ring;   // [inst, node, source_queue] creation cycles (bounded queues only)
  uint32_t* sq_head;   // index of the oldest queued packet in sq_ring
  uint32_t* seq;       // packets started so far (the next packet number)
};

// The source of terminal ne (= inst * nodes + n) in cycle t. A terminal may have several
// sources (S-Connect: one per priority, so a blocked priority never holds up another): `ne`
// indexes the source's state, `sn` the terminal's statistics.
struct SourceOps {
  const SourceState& s;
  const StatsState& st;
  uint32_t cap;  // source queue capacity in packets, 0: unbounded
  uint64_t t;
  Window win;

  // How far a source looks for its next packet in one go (one draw of a Bernoulli source): one
  // that finds none wakes there to look further (a rate of 0 would otherwise look forever).
  static constexpr uint32_t kGenLookahead = kGenWindows * kGenWindow;

  LS_HD bool generating(uint64_t ne) const { return static_cast<uint32_t>(t) == s.gen_next[ne]; }

  // The source wakes at gen_next (when `generating`): a creation cycle if gen_hit, else where
  // its last search for one stopped. It creates the packet (if any) and looks for the next one.
  // A node that is no sender (a gather's receivers among them), or has created its
  // traffic.max_packets (every finite workload's source, once its backlog is made: it creates one
  // a cycle until then), never wakes again: its gen_next stays in the past. (A source that woke
  // every cycle kept a Blue Gene/L router awake through a whole alltoall.)
  LS_HD void generate(uint64_t ne, const TrafficParams& tp, uint32_t n, uint64_t sn) const {
    if (n % tp.sender_every != 0 || (tp.pattern == Pattern::kGather && in_region(tp, n))) return;
    if (tp.max_packets != 0 && s.created[ne] >= tp.max_packets) return;
    uint8_t on = s.on_gen[ne];
    if (!s.gen_hit[ne]) {
      const NextCreation now = next_creation(tp, n, t, t + kGenLookahead, on);
      if (!now.found || now.cycle != t) return sleep(ne, now, on);
    }
    create(ne, tp, n, on, sn);
    sleep(ne, next_creation(tp, n, t + 1, t + 1 + kGenLookahead, on), on);
  }
  LS_HD void sleep(uint64_t ne, const NextCreation& next, uint8_t on) const {
    s.gen_next[ne] = static_cast<uint32_t>(next.cycle);
    s.gen_hit[ne] = next.found;
    s.on_gen[ne] = on;
  }

  // The source creates a packet this cycle (`on`: its on/off state after this cycle): it joins
  // the queue, injectable from the next cycle, unless the queue is full.
  LS_HD void create(uint64_t ne, const TrafficParams& tp, uint32_t n, uint8_t on,
                    uint64_t sn) const {
    if (cap != 0 && s.queued[ne] >= cap) {  // full: the packet is not created
      if (win.contains(t)) st.refused[sn] += 1;
      return;
    }
    if (cap != 0) {
      s.sq_ring[ne * cap + add_mod(s.sq_head[ne], s.queued[ne], cap)] = static_cast<uint32_t>(t);
    } else if (s.queued[ne] == 0) {
      s.cursor[ne] = static_cast<uint32_t>(t);
      s.on_cursor[ne] = on;
    }
    s.created[ne] += 1;
    s.queued[ne] += 1;
    if (win.contains(t)) {
      st.created_flits[sn] += packet_size_at(tp, n, t);
      st.meas_created[sn] += 1;
    }
  }

  // The creation cycle of the oldest queued packet (one must be queued), left in the queue.
  LS_HD uint64_t oldest(uint64_t ne) const {
    return cap != 0 ? s.sq_ring[ne * cap + s.sq_head[ne]] : s.cursor[ne];
  }

  // The oldest queued packet leaves the queue: its creation cycle, or false when none is queued.
  LS_HD bool pop(uint64_t ne, const TrafficParams& tp, uint32_t n, uint64_t& ctime) const {
    if (s.queued[ne] == 0) return false;
    const uint64_t c = oldest(ne);
    ctime = c;
    s.queued[ne] -= 1;
    if (cap != 0) {  // bounded: pop the ring
      s.sq_head[ne] = next_mod(s.sq_head[ne], cap);
      return true;
    }
    if (s.queued[ne] == 0) return true;
    // The next queued packet was created after c and before this cycle (before it if the queue
    // was set from outside: those packets count as created now).
    uint8_t on = s.on_cursor[ne];
    const NextCreation next = next_creation(tp, n, c + 1, t, on);
    s.cursor[ne] = static_cast<uint32_t>(next.found && next.cycle < t ? next.cycle : t);
    s.on_cursor[ne] = on;
    return true;
  }
};

}  // namespace ls
