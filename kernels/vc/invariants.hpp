// Debug-mode invariant check, run after every cycle, one element per router (read-only except
// for the router's own violation record and flit count):
//  - no buffer holds more than vc_depth flits;
//  - for every channel and VC: upstream credits + downstream occupancy + flits in flight on the
//    link + credits in flight back = vc_depth (credits are neither lost nor invented);
//  - chk_flits = flits in the router's buffers and on the belts it receives from, which the
//    host sums and compares with flits injected minus flits ejected (flits are conserved);
//  - the activity masks agree with the VC states and occupancies they are derived from.
#pragma once
#include "activity_masks.hpp"
#include "link_receive.hpp"

namespace ls {

struct CheckInvariants {
  VcView v;

  // Belt slots written in cycles (t - delay, t] hold what is still in flight after cycle t.
  template <class Visit>
  LS_HD void in_flight(uint64_t port_index, uint32_t delay, Visit visit) const {
    for (uint32_t k = 0; k < delay; ++k) {
      if (v.t < k) break;
      visit(v.lay.belt(port_index, belt_write_slot(v.t - k, v.lay.slots)));
    }
  }

  LS_HD void operator()(uint64_t e) const {
    const VcLayout L = v.lay;  // a local copy: byte stores cannot alias it
    const uint32_t inst = L.inst_of_router(e), r = L.router_of(e);
    uint64_t flits = 0;
    for (uint32_t p = 0; p < L.ports; ++p) {
      const uint32_t rp = r * L.ports + p;
      const int32_t node = v.topo.port_node[rp], peer = v.topo.peer[rp];
      if (node < 0 && peer < 0) continue;
      // The upstream side of input port p: a NIC or a peer router's output port.
      uint64_t up_belt;
      uint32_t up_delay;
      const uint8_t* up_valid;
      const Flit* up_flits;
      uint64_t up_credit_base;  // index of credits[vc=0] upstream
      const uint8_t* up_credits;
      if (node >= 0) {
        const uint64_t ne = L.node_elem(inst, static_cast<uint32_t>(node));
        up_belt = ne;
        up_delay = v.prm.terminal_delay;
        up_valid = v.nic.inj_belt_valid;
        up_flits = v.nic.inj_belt;
        up_credits = v.nic.credits;
        up_credit_base = ne * L.vcs;
      } else {
        const uint64_t ue = L.router_elem(inst, static_cast<uint32_t>(peer) / L.ports);
        const uint32_t uq = static_cast<uint32_t>(peer) % L.ports;
        up_belt = L.port(ue, uq);
        up_delay = v.topo.out_delay[peer];
        up_valid = v.s.out_belt_valid;
        up_flits = v.s.out_belt;
        up_credits = v.s.ovc_credits;
        up_credit_base = L.vc(ue, uq, 0);
      }
      for (uint32_t vc = 0; vc < L.vcs; ++vc) {
        const uint32_t occ = v.s.ivc_count[L.vc(e, p, vc)];
        flits += occ;
        if (occ > L.depth)
          record_violation(v.s.viol, v.s.viol_info, e, kViolOverflow, v.t, p, vc, occ);
        uint32_t total = occ + up_credits[up_credit_base + vc];
        in_flight(up_belt, up_delay, [&](uint64_t b) {
          if (up_valid[b] && FlitMeta::vc(up_flits[b].meta) == vc) total += 1;
        });
        in_flight(L.port(e, p), v.topo.credit_delay[rp], [&](uint64_t b) {
          if (v.s.cr_belt[b] == static_cast<int8_t>(vc)) total += 1;
        });
        if (total != L.depth)
          record_violation(v.s.viol, v.s.viol_info, e, kViolCredits, v.t, p, vc, total);
      }
      in_flight(up_belt, up_delay, [&](uint64_t b) { flits += up_valid[b]; });
    }
    // Channels to the terminals: flits on the way count as held; credits + flits and credits in
    // flight + credits the sink has yet to return = vc_depth.
    for (uint32_t p = 0; p < L.ports; ++p) {
      const uint32_t rp = r * L.ports + p;
      const int32_t node = v.topo.port_node[rp];
      if (node < 0) continue;
      const uint64_t ne = L.node_elem(inst, static_cast<uint32_t>(node));
      in_flight(L.port(e, p), v.topo.out_delay[rp],
                [&](uint64_t b) { flits += v.s.out_belt_valid[b]; });
      for (uint32_t vc = 0; vc < L.vcs; ++vc) {
        uint32_t total = v.s.ovc_credits[L.vc(e, p, vc)] + v.nic.ej_pending[ne * L.vcs + vc] +
                         v.nic.ej_withheld[ne * L.vcs + vc];
        in_flight(L.port(e, p), v.topo.out_delay[rp], [&](uint64_t b) {
          if (v.s.out_belt_valid[b] && FlitMeta::vc(v.s.out_belt[b].meta) == vc) total += 1;
        });
        in_flight(ne, v.topo.credit_delay[rp], [&](uint64_t b) {
          if (v.nic.ej_cr_belt[b] == static_cast<int8_t>(vc)) total += 1;
        });
        if (total != L.depth)
          record_violation(v.s.viol, v.s.viol_info, e, kViolCredits, v.t, p, vc, total);
      }
    }
    v.s.chk_flits[e] = flits;
    const Masks m = derive_masks(v, e);
    if (m.rc != v.s.rc_mask[e] || m.va != v.s.va_mask[e] || m.sa != v.s.sa_mask[e])
      record_violation(v.s.viol, v.s.viol_info, e, kViolMasks, v.t, 0, 0, 0);
  }
};

}  // namespace ls
