// Debug mode's checks of one Blue Gene/L router after a cycle: no VC FIFO over its capacity;
// every VC's tokens conserved (the upstream sender's tokens + tokens on token-acks in flight +
// tokens of packets on the link + the FIFO's held tokens + tokens owed back = capacity); and the
// packets the router holds (VC FIFOs, reception buses, heads on its belts) for the host's
// conservation check: injected - delivered = held by all routers. With the link-level protocol
// a packet on a link is the upstream sender's retransmission FIFO entry that this receiver has
// not yet accepted (copies on the belt may be dropped: they are not counted), its tokens stay
// reserved until then, and the protocol's counters keep their order: acknowledged <= accepted
// <= sent, going back within the unacknowledged ones, no more of those than the FIFO holds. So
// a packet lost or accepted twice on a link breaks conservation.
#pragma once
#include "../common/violation.hpp"
#include "tokens.hpp"

namespace ls::bgl {

struct CheckInvariants {
  BglView v;
  uint64_t* held;  // [inst, R]

  LS_HD void operator()(uint64_t e) const {
    const BglLayout& L = v.lay;
    const uint32_t inst = static_cast<uint32_t>(e / L.routers),
                   r = static_cast<uint32_t>(e % L.routers);
    uint64_t packets = 0;
    for (uint32_t d = 0; d < L.dirs; ++d) {
      for (uint32_t hp = 0; hp < 2; ++hp) {  // a row broadcast's copy is not the packet
        const Flit& f = v.s.recv_pkt[L.bus(e, d, hp)];
        packets += v.s.recv_busy[L.bus(e, d, hp)] && !(Packet::deposit(f.meta) && f.dest != r);
      }
      const int32_t far = v.topo.far[uint64_t{r} * L.dirs + d];
      const uint64_t ue = uint64_t{inst} * L.routers + static_cast<uint32_t>(far) / L.dirs;
      const uint32_t ud = static_cast<uint32_t>(far) % L.dirs;  // the upstream's sender to us
      const uint64_t p = L.port(e, d), up = L.port(ue, ud);
      const bool rtx = v.prm.rtx != 0;
      for (uint32_t w = 0; w < L.vcs; ++w) {
        const uint64_t q = L.vc(e, d, w);
        packets += v.s.count[q];
        const uint32_t cap = capacity(v.prm, w);
        if (v.s.used[q] > cap)
          record_violation(v.s.viol, v.s.viol_info, e, kViolOverflow, v.t, d, w, v.s.used[q]);
        uint32_t total = v.s.tokens[L.vc(ue, ud, w)] + v.s.used[q] + v.s.owed[q];
        for (uint32_t s = 0; s < L.slots; ++s) {
          const uint64_t b = L.belt(e, s, d), ub = L.belt(ue, s, ud);
          if (!rtx && v.s.belt_valid[b] && Packet::vc(v.s.belt[b].meta) == w)
            total += charge(v.prm, w, Packet::chunks(v.s.belt[b].meta));
          if (v.s.tok_valid[ub]) total += v.s.tok_belt[L.tok(ub, w)];
        }
        for (uint32_t k = v.s.rx_count[p]; rtx && k < v.s.tx_seq[up]; ++k) {
          const uint32_t m = v.s.rtx_fifo[L.rtx_slot(up, k)].meta;
          if (Packet::vc(m) == w) total += charge(v.prm, w, Packet::chunks(m));
        }
        if (total != cap)
          record_violation(v.s.viol, v.s.viol_info, e, kViolTokens, v.t, d, w, total);
      }
      if (rtx) {
        packets += v.s.tx_seq[up] - v.s.rx_count[p];
        const uint32_t acked = v.s.tx_acked[up], next = v.s.tx_next[up], sent = v.s.tx_seq[up];
        if (acked > v.s.rx_count[p] || v.s.rx_count[p] > sent || next < acked || next > sent ||
            sent - acked > v.prm.rtx)
          record_violation(v.s.viol, v.s.viol_info, e, kViolSequence, v.t, d, 0, v.s.rx_count[p]);
      } else {
        for (uint32_t s = 0; s < L.slots; ++s) packets += v.s.belt_valid[L.belt(e, s, d)];
      }
    }
    held[e] = packets;
  }
};

}  // namespace ls::bgl
