// Request-reply at a sink, the same for every family with two message classes: a request's
// tail creates a reply back to its source, kept in a queue until the terminal injects it. The
// ejection channel is credit controlled, and the sink returns a request flit's credit only
// while it can reserve a queue slot for the next request flit the router may send (slots =
// replies waiting + slots reserved + spare), so a full queue stops requests at the router and
// never replies: no cycle of waits runs through the terminals.
#pragma once
#include <cstdint>

#include "hd.hpp"
#include "round_robin.hpp"

namespace ls {

// [inst, node, ...] arrays of a terminal's reply queue and its ejection credits.
struct ReplyQueueState {
  uint32_t* dest;    // [inst, node, cap] the requester of each reply waiting
  uint32_t* time;    // [inst, node, cap] when it was created (its request's tail arrived)
  uint32_t* origin;  // [inst, node, cap] when its request was created (round trips), or null
  uint32_t* size;    // [inst, node, cap] its flits, or null (the family's one reply size)
  uint32_t* head;
  uint32_t* count;
  uint32_t* spare;    // slots neither holding a reply nor reserved for a request flit
  uint8_t* pending;   // [inst, node, vcs] consumed flits whose credit is due to the router
  uint8_t* withheld;  // [inst, node, vcs] request credits held back: queue full
};

struct ReplyQueue {
  const ReplyQueueState& q;
  uint32_t cap, vcs;

  // A request flit on ejection VC vc was consumed. Its reservation becomes the reply to `dest`
  // (tail) or spare; its credit goes back only if a spare slot can be reserved, else waits.
  LS_HD void request_flit(uint64_t ne, uint32_t vc, bool tail, uint32_t dest, uint32_t time,
                          uint32_t origin = 0, uint32_t size = 0) const {
    if (tail) {
      const uint32_t slot = add_mod(q.head[ne], q.count[ne], cap);
      q.dest[ne * cap + slot] = dest;
      q.time[ne * cap + slot] = time;
      if (q.origin) q.origin[ne * cap + slot] = origin;
      if (q.size) q.size[ne * cap + slot] = size;
      q.count[ne] += 1;
    } else {
      q.spare[ne] += 1;
    }
    if (q.spare[ne] > 0) {
      q.spare[ne] -= 1;
      q.pending[ne * vcs + vc] += 1;
    } else {
      q.withheld[ne * vcs + vc] += 1;
    }
  }

  // The ejection VCs with a credit due to the router, as a mask.
  LS_HD uint32_t due(uint64_t ne) const {
    uint32_t m = 0;
    for (uint32_t vc = 0; vc < vcs; ++vc) m |= uint32_t{q.pending[ne * vcs + vc] != 0} << vc;
    return m;
  }
  // One credit goes back to the router per cycle, round-robin over the VCs (`ptr` the
  // pointer): its VC, or -1 when none is due.
  LS_HD int return_credit(uint64_t ne, uint8_t& ptr) const {
    const uint32_t m = due(ne);
    if (!m) return -1;
    const uint32_t vc = rr_first(m, ptr);
    q.pending[ne * vcs + vc] -= 1;
    ptr = static_cast<uint8_t>(next_mod(vc, vcs));
    return static_cast<int>(vc);
  }

  // The oldest reply leaves the queue (one must wait); its slot becomes spare and may reserve
  // for a withheld credit.
  LS_HD void pop(uint64_t ne, uint32_t& dest, uint32_t& time, uint32_t& origin,
                 uint32_t& size) const {
    const uint32_t h = q.head[ne];
    dest = q.dest[ne * cap + h];
    time = q.time[ne * cap + h];
    origin = q.origin ? q.origin[ne * cap + h] : 0;
    size = q.size ? q.size[ne * cap + h] : 0;
    q.head[ne] = next_mod(h, cap);
    q.count[ne] -= 1;
    q.spare[ne] += 1;
    for (uint32_t vc = 0; vc < vcs; ++vc)
      if (q.withheld[ne * vcs + vc]) {
        q.withheld[ne * vcs + vc] -= 1;
        q.pending[ne * vcs + vc] += 1;
        q.spare[ne] -= 1;
        break;
      }
  }
  // ... for a family whose replies are all one size.
  LS_HD void pop(uint64_t ne, uint32_t& dest, uint32_t& time, uint32_t& origin) const {
    uint32_t size;
    pop(ne, dest, time, origin, size);
  }
};

}  // namespace ls
