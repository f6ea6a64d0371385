// Buffer write: each router takes the flit arriving on every input port into the VC buffer
// named in the flit, and the credits arriving on every output port into that port's output-VC
// credit counters. A flit written in cycle t can be routed or switched from cycle t+1.
#pragma once
#include "../common/belt.hpp"
#include "vc_state.hpp"

namespace ls {

enum VcViolation : uint32_t {
  kViolNone = 0,
  kViolOverflow = 1,
  kViolCredits = 2,
  kViolNotHead = 3,
  kViolWrongDest = 4,
  kViolPacketOrder = 5,
};

LS_HD inline void record_violation(uint32_t* viol, uint32_t* info, uint64_t i, uint32_t code,
                                   uint64_t t, uint32_t port, uint32_t vc, uint32_t value) {
  if (viol[i] != kViolNone) return;  // keep the first
  viol[i] = code;
  info[i * 4 + 0] = static_cast<uint32_t>(t);
  info[i * 4 + 1] = port;
  info[i * 4 + 2] = vc;
  info[i * 4 + 3] = value;
}

struct LinkReceive {
  VcView v;
  LS_HD void operator()(uint64_t e) const {
    const VcLayout& L = v.lay;
    const uint32_t inst = L.inst_of_router(e), r = L.router_of(e);
    for (uint32_t p = 0; p < L.ports; ++p) {
      const uint32_t rp = r * L.ports + p;
      const int32_t node = v.topo.port_node[rp];
      const int32_t peer = v.topo.peer[rp];
      // Flits in.
      const uint8_t* valid;
      const FlitArrays* from;
      uint64_t idx;
      if (node >= 0) {
        valid = v.nic.inj_belt_valid;
        from = &v.nic.inj_belt;
        idx = L.belt(L.node_elem(inst, node), belt_read_slot(v.t, v.prm.terminal_delay, L.slots));
      } else if (peer >= 0) {
        valid = v.s.out_belt_valid;
        from = &v.s.out_belt;
        uint64_t up = L.port(L.router_elem(inst, peer / L.ports), peer % L.ports);
        idx = L.belt(up, belt_read_slot(v.t, v.topo.out_delay[peer], L.slots));
      } else {
        continue;  // unconnected mesh edge
      }
      if (valid[idx]) {
        const uint32_t vc = FlitMeta::vc(from->meta[idx]);
        const uint64_t iv = L.vc(e, p, vc);
        const uint32_t n = v.s.ivc_count[iv];
        if (n >= L.depth) {
          record_violation(v.s.viol, v.s.viol_info, e, kViolOverflow, v.t, p, vc, n + 1);
        } else {
          from->copy_to(v.s.buf, idx, L.slot(e, p, vc, (v.s.ivc_head[iv] + n) % L.depth));
          v.s.ivc_count[iv] = static_cast<uint8_t>(n + 1);
          v.s.ivc_arrival[iv] = static_cast<uint32_t>(v.t);
        }
      }
      // Credits in (terminal output ports need none: the sink always accepts).
      if (peer >= 0) {
        uint64_t down = L.port(L.router_elem(inst, peer / L.ports), peer % L.ports);
        int8_t c = v.s.cr_belt[L.belt(down, belt_read_slot(v.t, v.topo.credit_delay[peer], L.slots))];
        if (c >= 0) v.s.ovc_credits[L.vc(e, p, static_cast<uint32_t>(c))] += 1;
      }
    }
  }
};

}  // namespace ls
