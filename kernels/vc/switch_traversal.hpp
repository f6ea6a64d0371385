// Switch traversal and credit return for one switch-allocator match: the flit leaves its input
// buffer for the output port's belt (it arrives downstream out_delay cycles later, which covers
// the rest of switch allocation, the crossbar and the link), and the freed buffer slot is
// returned upstream as a credit on the input port's credit belt. A tail frees its output VC.
#pragma once
#include "../common/belt.hpp"
#include "vc_state.hpp"

namespace ls {

LS_HD inline void switch_traversal(const VcView& v, uint64_t e, uint32_t ip, uint32_t vc,
                                   uint32_t op) {
  const VcLayout L = v.lay;  // a local copy: byte stores cannot alias it
  const uint64_t iv = L.vc(e, ip, vc);
  const uint32_t ovc = v.s.ivc_out_vc[iv];
  const uint64_t o = L.vc(e, op, ovc);
  // Flit to the output belt.
  const uint64_t f = L.slot(e, ip, vc, v.s.ivc_head[iv]);
  const uint64_t b = L.belt(L.port(e, op), v.ws);
  v.s.buf.copy_to(v.s.out_belt, f, b);
  const uint32_t meta = v.s.buf.meta[f];
  v.s.out_belt.meta[b] = FlitMeta::with_hop(FlitMeta::with_vc(meta, ovc));
  v.s.out_belt_valid[b] = 1;
  const uint32_t head = v.s.ivc_head[iv] + 1u;
  v.s.ivc_head[iv] = static_cast<uint8_t>(head == L.depth ? 0 : head);
  v.s.ivc_count[iv] -= 1;
  // Credit upstream for the freed slot.
  v.s.cr_belt[L.belt(L.port(e, ip), v.ws)] = static_cast<int8_t>(vc);
  // Output VC bookkeeping.
  v.s.ovc_credits[o] -= 1;
  const uint64_t bit = 1ull << (ip * L.vcs + vc);
  if (FlitMeta::tail(meta)) {
    v.s.ovc_owner[o] = kNone;
    v.s.ivc_out_port[iv] = -1;
    v.s.ivc_state[iv] = kIvcIdle;
    v.s.sa_mask[e] &= ~bit;
    if (v.s.ivc_count[iv]) v.s.rc_mask[e] |= bit;  // the next packet's head waits behind
  } else if (v.s.ivc_count[iv] == 0) {
    v.s.sa_mask[e] &= ~bit;
  }
  if (v.t >= v.win_start && v.t < v.win_end) {
    v.s.out_flits[L.port(e, op)] += 1;
    v.s.ovc_flits[o] += 1;
  }
  v.s.last_move[e] = static_cast<uint32_t>(v.t);
}

}  // namespace ls
