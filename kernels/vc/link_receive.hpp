// The receiving ends of a router's links. Credits arriving on every output port go into that
// port's output-VC credit counters first thing in a cycle; flits arriving on every input port are
// written into the VC buffer named in the flit last thing in the cycle (buffer write), so a flit
// written in cycle t can be routed or switched from cycle t+1.
#pragma once
#include "../common/belt.hpp"
#include "../common/round_robin.hpp"
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

// The receiving ends of router (inst, r)'s ports this cycle, read from the slots their upstream
// sides wrote D cycles ago (no one writes those slots this cycle). With take_credits, the
// credits arriving on the output ports go into the output-VC counters; with `arriving`, the flit
// on each input port's slot is noted for the buffer write at the end of the cycle, and the
// returned mask says which ports have one: the buffer write walks its bits instead of testing
// every port (a flit arrives on a random port, so such a test is often mispredicted). Credits
// keep their test: adding 0 or 1 without it saved mispredictions but no measurable time.
template <class Shape = AnyShape>
LS_HD inline uint32_t link_arrivals(const VcView& v, uint64_t e, uint32_t inst, uint32_t r,
                                    bool take_credits, const Flit** arriving) {
  const VcLayout L = Shape::layout(v.lay);  // a local copy: byte stores cannot alias it
  const uint32_t S = L.slots;
  uint8_t* const credits = v.s.ovc_credits + e * L.ports * L.vcs;
  uint32_t arrived = 0;
  for (uint32_t p = 0; p < L.ports; ++p) {
    const uint32_t rp = r * L.ports + p;
    const int32_t node = v.topo.port_node[rp], peer = v.topo.peer[rp];
    int8_t c = -1;
    uint32_t valid = 0;
    const Flit* f = nullptr;
    if (node >= 0) {  // the terminal's injection belt and its sink's credit belt
      const uint64_t nb = L.belt(L.node_elem(inst, static_cast<uint32_t>(node)), 0);
      if (take_credits) c = v.nic.ej_cr_belt[nb + belt_read_slot(v.ws, v.topo.credit_delay[rp], S)];
      const uint64_t i = nb + belt_read_slot(v.ws, v.prm.terminal_delay, S);
      if (arriving) valid = v.nic.inj_belt_valid[i], f = v.nic.inj_belt + i;
    } else if (peer >= 0) {  // the peer's port facing this one
      const uint64_t pb = L.belt(L.port_of(inst, peer), 0);
      if (take_credits) c = v.s.cr_belt[pb + belt_read_slot(v.ws, v.topo.credit_delay[peer], S)];
      const uint64_t i = pb + belt_read_slot(v.ws, v.topo.out_delay[peer], S);
      if (arriving) valid = v.s.out_belt_valid[i], f = v.s.out_belt + i;
    }
    if (c >= 0) credits[p * L.vcs + static_cast<uint32_t>(c)] += 1;
    if (arriving) arriving[p] = f;
    arrived |= valid << p;
  }
  return arrived;
}

// Buffer write, last thing in a cycle (after the switch has freed this cycle's slots): a flit
// written in cycle t can be routed or switched from cycle t+1, so no stage of cycle t sees it.
template <class Shape = AnyShape>
LS_HD inline void flit_receive(const VcView& v, uint64_t e, uint32_t arrived,
                               const Flit* const* arriving) {
  const VcLayout L = Shape::layout(v.lay);  // a local copy: byte stores cannot alias it
  const uint32_t V = L.vcs, D = L.depth;
  const uint64_t ive = e * L.ports * V;
  uint8_t* const head = v.s.ivc_head + ive;
  uint8_t* const count = v.s.ivc_count + ive;
  const uint8_t* const state = v.s.ivc_state + ive;
  Flit* const buf = v.s.buf + ive * D;
  uint64_t rc = v.s.rc_mask[e], sa = v.s.sa_mask[e];
  for (uint32_t m = arrived; m; m &= m - 1) {
    const uint32_t p = lowest_bit(m);
    const Flit& f = *arriving[p];
    const uint32_t vc = FlitMeta::vc(f.meta), i = p * V + vc;
    const uint32_t n = count[i];
    if (n >= D) {
      record_violation(v.s.viol, v.s.viol_info, e, kViolOverflow, v.t, p, vc, n + 1);
      continue;
    }
    const uint32_t tail = head[i] + n;
    buf[i * D + (tail >= D ? tail - D : tail)] = f;
    count[i] = static_cast<uint8_t>(n + 1);
    rc |= static_cast<uint64_t>(state[i] == kIvcIdle) << i;
    sa |= static_cast<uint64_t>(state[i] == kIvcActive) << i;
  }
  v.s.rc_mask[e] = rc;
  v.s.sa_mask[e] = sa;
}

// One step over routers of either end, for the phase-by-phase cycle.
template <bool kFlits>
struct LinkReceive {
  VcView v;
  LS_HD void operator()(uint64_t e) const {
    const Flit* arriving[kMaxPorts];
    const uint32_t arrived = link_arrivals(v, e, v.lay.inst_of_router(e), v.lay.router_of(e),
                                           !kFlits, kFlits ? arriving : nullptr);
    if (kFlits) flit_receive(v, e, arrived, arriving);
  }
};
using CreditReceive = LinkReceive<false>;
using FlitReceive = LinkReceive<true>;

}  // namespace ls
