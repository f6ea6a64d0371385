// The unblocking probability (paper, "Virtual channel architecture", Figure 9): the fraction of
// token-acks returned to a sender that free at least one previously blocked packet to move. A
// packet waiting at the head of a VC FIFO or an injection FIFO (ready for arbitration, its FIFO's
// output free) is blocked when no (direction, VC) pair it may ask for has the tokens it needs;
// a token-ack for sender s frees it when afterwards a pair towards s has them. The paper
// measured it to show the dateline pair's throughput waves: packets waiting for one escape VC of
// the pair while tokens come back for the other.
#pragma once
#include "jsq_request.hpp"

namespace ls::bgl {

struct Unblocking {
  const BglView& v;
  const Node& n;

  // The waiting packets that may move towards sender s and are blocked on tokens, by phase-1
  // unit (receiver d's VC w: d * kMaxVcs + w; injection FIFO f: 48 + f).
  LS_HD uint64_t blocked(uint32_t s) const {
    uint64_t mask = 0;
    for_each_head([&](const Flit& f, uint32_t from, uint32_t on_vc, uint32_t unit) {
      if (((Packet::hints(f.meta) >> s) & 1u) && !JsqRequest{v, n}.has_tokens(f, from, on_vc))
        mask |= uint64_t{1} << unit;
    });
    return mask;
  }

  // Whether any of the packets in `mask` now has the tokens it needs.
  LS_HD bool freed(uint64_t mask) const {
    bool any = false;
    for_each_head([&](const Flit& f, uint32_t from, uint32_t on_vc, uint32_t unit) {
      any |= ((mask >> unit) & 1u) && JsqRequest{v, n}.has_tokens(f, from, on_vc);
    });
    return any;
  }

  // The heads waiting, ready for arbitration, but for one arriving in this very cycle (with no
  // input pipeline it would be ready at once): it was blocked on nothing before, and the
  // cycle's heads may arrive before or after its token-acks (the lanes of a tile take them apart).
  template <class Fn>
  LS_HD void for_each_head(Fn&& fn) const {
    const BglLayout& L = v.lay;
    const uint32_t arrived_now = v.prm.pipeline == 0 ? 1u : 0u;
    for (uint32_t d = 0; d < L.dirs; ++d)
      for (uint32_t w = 0; w < L.vcs; ++w) {
        const uint64_t q = L.vc(n.e, d, w);
        if (v.s.count[q] == 0 || v.s.drain_left[q] != 0) continue;
        const Flit& f = v.s.fifo[L.slot(q, v.s.head[q])];
        if (ready_at(f) + arrived_now <= v.t) fn(f, d, w, d * kMaxVcs + w);
      }
    for (uint32_t fi = 0; fi < L.fifos; ++fi) {
      const uint64_t fx = L.fifo(n.e, fi);
      if (v.s.inj_count[fx] == 0) continue;
      const Flit& f = v.s.inj[L.fifo_slot(fx, v.s.inj_head[fx])];
      if (ready_at(f) <= v.t) fn(f, kMaxDirs, 0, 48 + fi);
    }
  }
};

}  // namespace ls::bgl
