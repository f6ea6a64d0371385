// The receiving ends of a router's links, read from the router's own belts (kernels/common/
// belt.hpp): credits arriving on the output ports go into the output-VC credit counters first
// thing in a cycle; flits arriving on the input ports are written into the VC buffer named in
// the flit last thing in the cycle (buffer write).
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

// Credits arriving on the router's output ports this cycle (its belt row of the current slot)
// go into the output-VC counters, and the row is emptied for later cycles.
template <class Shape = AnyShape>
LS_HD inline void credit_receive(const VcView& v, uint64_t e) {
  const VcLayout L = Shape::layout(v.lay);  // a local copy: byte stores cannot alias it
  int8_t* const cr = v.s.cr_belt + L.row(e, v.now);
  uint8_t* const credits = v.s.ovc_credits + e * L.ports * L.vcs;
  for (uint32_t p = 0; p < L.ports; ++p) {  // no branch: which ports get a credit is random
    const int8_t c = cr[p];
    const bool got = c >= 0;
    credits[p * L.vcs + (got ? static_cast<uint32_t>(c) : 0u)] += got;
    cr[p] = -1;
  }
}

// Buffer write, last thing in a cycle (after the switch has freed this cycle's slots): the flits
// arriving on the input ports this cycle go into the VC buffers named in them, so a flit written
// in cycle t can be routed or switched from cycle t+1 and no stage of cycle t sees it. The ports
// with a flit become a mask first: a flit arrives on a random port, so a test per port in the
// loop would often be mispredicted.
template <class Shape = AnyShape>
LS_HD inline void flit_receive(const VcView& v, uint64_t e) {
  const VcLayout L = Shape::layout(v.lay);  // a local copy: byte stores cannot alias it
  const uint32_t V = L.vcs, D = L.depth;
  const uint64_t row = L.row(e, v.now);
  uint8_t* const valid = v.s.in_belt_valid + row;
  uint32_t arrived = 0;
  for (uint32_t p = 0; p < L.ports; ++p) arrived |= static_cast<uint32_t>(valid[p]) << p;
  if (!arrived) return;
  const Flit* const in = v.s.in_belt + row;
  const uint64_t ive = e * L.ports * V;
  uint8_t* const head = v.s.ivc_head + ive;
  uint8_t* const count = v.s.ivc_count + ive;
  const uint8_t* const state = v.s.ivc_state + ive;
  Flit* const buf = v.s.buf + ive * D;
  uint64_t rc = v.s.rc_mask[e], sa = v.s.sa_mask[e];
  for (uint32_t m = arrived; m; m &= m - 1) {
    const uint32_t p = lowest_bit(m);
    valid[p] = 0;
    const Flit& f = in[p];
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

// One step over routers, for the phase-by-phase cycle.
struct CreditReceive {
  VcView v;
  LS_HD void operator()(uint64_t e) const { credit_receive(v, e); }
};
struct FlitReceive {
  VcView v;
  LS_HD void operator()(uint64_t e) const { flit_receive(v, e); }
};

}  // namespace ls
