// Debug-mode invariant check, run after every cycle, one element per router (read-only except
// for the router's own violation record and flit count):
//  - no buffer holds more than vc_depth flits;
//  - for every channel and VC: upstream credits + downstream occupancy + flits in flight on the
//    link + credits in flight back = vc_depth (credits are neither lost nor invented);
//  - chk_flits = flits in the router's buffers, on its belts and on its terminals' belts, which
//    the host sums and compares with flits injected minus flits ejected (flits are conserved);
//  - the activity masks agree with the VC states and occupancies they are derived from.
#pragma once
#include "activity_masks.hpp"
#include "link_receive.hpp"

namespace ls {

struct CheckInvariants {
  VcView v;

  // After cycle t every receiver has emptied its slot of cycle t, so whatever a belt still holds
  // is in flight: visit(slot) for each of the belt's slots.
  template <class Visit>
  LS_HD void each_slot(Visit visit) const {
    for (uint32_t s = 0; s < v.lay.slots; ++s) visit(s);
  }

  LS_HD void operator()(uint64_t e) const {
    const VcLayout L = v.lay;  // a local copy: byte stores cannot alias it
    const uint32_t inst = L.inst_of_router(e), r = L.router_of(e);
    uint64_t flits = 0;
    for (uint32_t p = 0; p < L.ports; ++p) {
      const uint32_t rp = r * L.ports + p;
      const int32_t node = v.topo.port_node[rp];
      if (node < 0 && v.topo.peer[rp] < 0) continue;
      // Upstream of input port p: a terminal or a peer router's output port. Its credit counters
      // and the belt its credits return on are at the port's far end.
      const uint8_t* up_credits;
      uint64_t up_credit_base;  // index of credits[vc=0] upstream
      if (node >= 0) {
        up_credits = v.nic.credits;
        up_credit_base = L.node_elem(inst, static_cast<uint32_t>(node)) * L.vcs;
      } else {
        const uint32_t peer = static_cast<uint32_t>(v.topo.peer[rp]);
        up_credits = v.s.ovc_credits;
        up_credit_base = L.vc(L.router_elem(inst, peer / L.ports), peer % L.ports, 0);
      }
      for (uint32_t vc = 0; vc < L.vcs; ++vc) {
        const uint32_t occ = v.s.ivc_count[L.vc(e, p, vc)];
        flits += occ;
        if (occ > L.depth)
          record_violation(v.s.viol, v.s.viol_info, e, kViolOverflow, v.t, p, vc, occ);
        uint32_t total = occ + up_credits[up_credit_base + vc];
        each_slot([&](uint32_t s) {
          const uint64_t b = L.row(e, s) + p;
          if (v.s.in_belt_valid[b] && FlitMeta::vc(v.s.in_belt[b].meta) == vc) total += 1;
          if (v.s.cr_belt[L.far_slot(inst, v.topo.far_end[rp], s)] == static_cast<int8_t>(vc))
            total += 1;
        });
        if (total != L.depth)
          record_violation(v.s.viol, v.s.viol_info, e, kViolCredits, v.t, p, vc, total);
      }
      each_slot([&](uint32_t s) { flits += v.s.in_belt_valid[L.row(e, s) + p]; });
    }
    // Channels to the terminals: flits on the way count as held; credits + flits and credits in
    // flight + credits the sink has yet to return = vc_depth.
    for (uint32_t p = 0; p < L.ports; ++p) {
      const int32_t node = v.topo.port_node[r * L.ports + p];
      if (node < 0) continue;
      const uint64_t ne = L.node_elem(inst, static_cast<uint32_t>(node));
      const uint32_t far = v.topo.far_end[r * L.ports + p];  // the terminal's column
      each_slot([&](uint32_t s) { flits += v.s.in_belt_valid[L.far_slot(inst, far, s)]; });
      for (uint32_t vc = 0; vc < L.vcs; ++vc) {
        uint32_t total = v.s.ovc_credits[L.vc(e, p, vc)] + v.nic.rq.pending[ne * L.vcs + vc] +
                         v.nic.rq.withheld[ne * L.vcs + vc];
        each_slot([&](uint32_t s) {
          const uint64_t b = L.far_slot(inst, far, s);
          if (v.s.in_belt_valid[b] && FlitMeta::vc(v.s.in_belt[b].meta) == vc) total += 1;
          if (v.s.cr_belt[L.row(e, s) + p] == static_cast<int8_t>(vc)) total += 1;
        });
        if (total != L.depth)
          record_violation(v.s.viol, v.s.viol_info, e, kViolCredits, v.t, p, vc, total);
      }
    }
    v.s.chk_flits[e] = flits;
    const Masks m = derive_masks(v, e);
    if (m.rc != v.s.rc_mask[e] || m.va != v.s.va_mask[e] || m.sa != v.s.sa_mask[e] ||
        m.owned != v.s.owned_mask[e])
      record_violation(v.s.viol, v.s.viol_info, e, kViolMasks, v.t, 0, 0, 0);
  }
};

}  // namespace ls
