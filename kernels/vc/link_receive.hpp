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
  kViolMasks = 6,
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

LS_HD inline void link_receive(const VcView& v, uint64_t e, uint32_t inst, uint32_t r) {
  const VcLayout L = v.lay;  // a local copy: byte stores cannot alias it
  for (uint32_t p = 0; p < L.ports; ++p) {
    const uint32_t rp = r * L.ports + p;
    const int32_t node = v.topo.port_node[rp];
    const int32_t peer = v.topo.peer[rp];
    // Flits in: from the terminal's injection belt or the peer router's output belt.
    const uint8_t* valid;
    const FlitArrays* from;
    uint64_t idx;
    if (node >= 0) {
      valid = v.nic.inj_belt_valid;
      from = &v.nic.inj_belt;
      idx = L.belt(L.node_elem(inst, static_cast<uint32_t>(node)),
                   belt_read_slot(v.ws, v.prm.terminal_delay, L.slots));
    } else if (peer >= 0) {
      valid = v.s.out_belt_valid;
      from = &v.s.out_belt;
      idx = L.belt(L.port_of(inst, peer), belt_read_slot(v.ws, v.topo.out_delay[peer], L.slots));
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
        const uint32_t tail = v.s.ivc_head[iv] + n;
        from->copy_to(v.s.buf, idx, L.slot(e, p, vc, tail >= L.depth ? tail - L.depth : tail));
        v.s.ivc_count[iv] = static_cast<uint8_t>(n + 1);
        v.s.ivc_arrival[iv] = static_cast<uint32_t>(v.t);
        const uint64_t bit = 1ull << (p * L.vcs + vc);
        if (v.s.ivc_state[iv] == kIvcIdle) v.s.rc_mask[e] |= bit;
        if (v.s.ivc_state[iv] == kIvcActive) v.s.sa_mask[e] |= bit;
      }
    }
    // Credits in: from the peer's input port, or from the terminal's sink.
    int8_t c = -1;
    if (node >= 0)
      c = v.nic.ej_cr_belt[L.belt(L.node_elem(inst, static_cast<uint32_t>(node)),
                                  belt_read_slot(v.ws, v.topo.credit_delay[rp], L.slots))];
    else
      c = v.s.cr_belt[L.belt(L.port_of(inst, peer),
                             belt_read_slot(v.ws, v.topo.credit_delay[peer], L.slots))];
    if (c >= 0) v.s.ovc_credits[L.vc(e, p, static_cast<uint32_t>(c))] += 1;
  }
}

struct LinkReceive {
  VcView v;
  LS_HD void operator()(uint64_t e) const {
    link_receive(v, e, v.lay.inst_of_router(e), v.lay.router_of(e));
  }
};

}  // namespace ls
