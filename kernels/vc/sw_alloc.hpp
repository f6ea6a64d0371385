// Switch allocation: every input port offers, per output port, its first ready VC in
// round-robin order (a VC with an output VC, a flit written in an earlier cycle and a
// downstream credit); iSLIP (outputs grant by pointer, inputs accept by pointer, pointers moved
// only on first-iteration accepts) or separable input-first round-robin picks at most one flit
// per input and per output port. Winners traverse the switch in the same phase.
#pragma once
#include "../common/round_robin.hpp"
#include "switch_traversal.hpp"

namespace ls {

LS_HD inline void sw_alloc(const VcView& v, uint64_t e) {
  const VcLayout L = v.lay;  // a local copy: byte stores cannot alias it
  const uint32_t P = L.ports, V = L.vcs, S = L.slots;
  const uint64_t t = v.t, pe = e * P, ive = pe * V;
  const SwitchSlots at{e, pe, ive, pe * S + v.ws, t >= v.win_start && t < v.win_end};
  // This router's slices, held in locals so the byte stores below never force a reload.
  uint8_t* const valid = v.s.out_belt_valid + at.belt0;
  int8_t* const cr = v.s.cr_belt + at.belt0;
  int8_t* const grant = v.s.sa_grant + pe;
  uint8_t* const out_ptr = v.s.sa_out_ptr + pe;
  uint8_t* const in_ptr = v.s.sa_in_ptr + pe;
  uint8_t* const vc_ptr = v.s.sa_vc_ptr + pe;
  const uint32_t* const ready_at = v.s.ivc_ready + ive;
  const uint32_t* const arrival = v.s.ivc_arrival + ive;
  const uint8_t* const count = v.s.ivc_count + ive;
  const int8_t* const out_port = v.s.ivc_out_port + ive;
  const uint8_t* const out_vc = v.s.ivc_out_vc + ive;
  const uint8_t* const credits = v.s.ovc_credits + ive;
  for (uint32_t p = 0; p < P; ++p) {  // the belts carry nothing unless written below
    valid[p * S] = 0;
    cr[p * S] = -1;
    grant[p] = -1;
  }
  // Requests: req_vc[ip][op] = VC of input ip offered to output op; masks both ways. An input
  // VC can send if active with a flit (sa_mask), past its pipeline delay, its flit written in
  // an earlier cycle, and its output VC has a credit.
  int8_t req_vc[kMaxPorts][kMaxPorts];
  uint32_t out_req[kMaxPorts], in_req[kMaxPorts];
  for (uint32_t op = 0; op < P; ++op) out_req[op] = 0;
  const uint64_t sa = v.s.sa_mask[e], vc_bits = (1ull << V) - 1;
  bool any = false;
  for (uint32_t ip = 0; ip < P; ++ip) {
    in_req[ip] = 0;
    const uint64_t mine = (sa >> (ip * V)) & vc_bits;
    if (!mine) continue;
    // The input's VCs in round-robin order from its pointer: those at or after it, then before.
    const uint32_t ptr = vc_ptr[ip];
    const uint64_t after = mine >> ptr << ptr;
    for (uint64_t m = after, rest = mine & ~after;; m = rest, rest = 0) {
      for (; m; m &= m - 1) {
        const uint32_t vc = lowest_bit64(m), i = ip * V + vc;
        if (ready_at[i] > t || (count[i] == 1 && arrival[i] >= t)) continue;
        const uint32_t op = static_cast<uint32_t>(out_port[i]);
        if (credits[op * V + out_vc[i]] == 0 || ((in_req[ip] >> op) & 1)) continue;
        req_vc[ip][op] = static_cast<int8_t>(vc);
        out_req[op] |= 1u << ip;
        in_req[ip] |= 1u << op;
        any = true;
      }
      if (!rest) break;
    }
  }
  if (!any) return;

  uint32_t in_free = (1u << P) - 1, out_free = in_free;
  int8_t match[kMaxPorts];  // output matched to each input, -1 none
  for (uint32_t ip = 0; ip < P; ++ip) match[ip] = -1;
  if (v.prm.sw_alloc == Allocator::kSeparableInputFirst) {
    uint32_t chose[kMaxPorts];  // inputs that chose each output
    for (uint32_t op = 0; op < P; ++op) chose[op] = 0;
    for (uint32_t ip = 0; ip < P; ++ip) {
      const int op = rr_pick(in_req[ip], in_ptr[ip]);
      if (op >= 0) chose[op] |= 1u << ip;
    }
    for (uint32_t op = 0; op < P; ++op) {
      const int ip = rr_pick(chose[op], out_ptr[op]);
      if (ip < 0) continue;
      match[ip] = static_cast<int8_t>(op);
      out_ptr[op] = static_cast<uint8_t>(next_mod(ip, P));
      in_ptr[ip] = static_cast<uint8_t>(next_mod(op, P));
    }
  } else {
    for (uint32_t iter = 0; iter < v.prm.alloc_iters; ++iter) {
      uint32_t granted[kMaxPorts];  // outputs that granted each input
      for (uint32_t ip = 0; ip < P; ++ip) granted[ip] = 0;
      bool grants = false;
      for (uint32_t op = 0; op < P; ++op) {
        if (!((out_free >> op) & 1)) continue;
        const int ip = rr_pick(out_req[op] & in_free, out_ptr[op]);
        if (ip >= 0) granted[ip] |= 1u << op, grants = true;
      }
      if (!grants) break;
      for (uint32_t ip = 0; ip < P; ++ip) {
        const int op = rr_pick(granted[ip], in_ptr[ip]);
        if (op < 0) continue;
        match[ip] = static_cast<int8_t>(op);
        in_free &= ~(1u << ip);
        out_free &= ~(1u << op);
        if (iter == 0) {
          out_ptr[op] = static_cast<uint8_t>(next_mod(ip, P));
          in_ptr[ip] = static_cast<uint8_t>(next_mod(op, P));
        }
      }
    }
  }
  bool moved = false;
  for (uint32_t ip = 0; ip < P; ++ip) {
    if (match[ip] < 0) continue;
    const uint32_t op = static_cast<uint32_t>(match[ip]);
    const uint32_t vc = static_cast<uint32_t>(req_vc[ip][op]);
    vc_ptr[ip] = static_cast<uint8_t>(next_mod(vc, V));
    grant[op] = static_cast<int8_t>(ip);
    switch_traversal(v, at, ip, vc, op);
    moved = true;
  }
  if (moved) v.s.last_move[e] = static_cast<uint32_t>(t);
}

struct SwAlloc {
  VcView v;
  LS_HD void operator()(uint64_t e) const { sw_alloc(v, e); }
};

}  // namespace ls
