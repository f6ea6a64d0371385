// Switch allocation: every input port offers, per output port, its first ready VC in
// round-robin order (a VC with an output VC, a flit written in an earlier cycle and a
// downstream credit); iSLIP (outputs grant by pointer, inputs accept by pointer, pointers moved
// only on first-iteration accepts) or separable input-first round-robin picks at most one flit
// per input and per output port. Winners traverse the switch in the same phase.
#pragma once
#include "../common/round_robin.hpp"
#include "switch_traversal.hpp"

namespace ls {

namespace sw_alloc_detail {

// Can input VC (ip, vc) send a flit this cycle? Sets its output port.
LS_HD inline bool ready(const VcView& v, uint64_t e, uint32_t ip, uint32_t vc, uint32_t* op) {
  const VcLayout L = v.lay;             // a local copy: byte stores cannot alias it
  const uint64_t iv = L.vc(e, ip, vc);  // active and holding a flit (sa_mask)
  if (v.s.ivc_ready[iv] > v.t) return false;
  if (v.s.ivc_count[iv] == 1 && v.s.ivc_arrival[iv] >= v.t) return false;  // still being written
  *op = static_cast<uint32_t>(v.s.ivc_out_port[iv]);
  return v.s.ovc_credits[L.vc(e, *op, v.s.ivc_out_vc[iv])] > 0;
}

}  // namespace sw_alloc_detail

LS_HD inline void sw_alloc(const VcView& v, uint64_t e) {
  const VcLayout L = v.lay;  // a local copy: byte stores cannot alias it
  const uint32_t P = L.ports;
  for (uint32_t p = 0; p < P; ++p) {  // the belts carry nothing unless written below
    v.s.out_belt_valid[L.belt(L.port(e, p), v.ws)] = 0;
    v.s.cr_belt[L.belt(L.port(e, p), v.ws)] = -1;
    v.s.sa_grant[L.port(e, p)] = -1;
  }
  // Requests: req_vc[ip][op] = VC of input ip offered to output op; masks both ways.
  int8_t req_vc[kMaxPorts][kMaxPorts];
  uint64_t out_req[kMaxPorts], in_req[kMaxPorts];
  bool any = false;
  for (uint32_t op = 0; op < P; ++op) out_req[op] = 0;
  const uint64_t sa = v.s.sa_mask[e], vc_bits = (1ull << L.vcs) - 1;
  for (uint32_t ip = 0; ip < P; ++ip) {
    in_req[ip] = 0;
    const uint64_t mine = (sa >> (ip * L.vcs)) & vc_bits;
    if (!mine) continue;
    uint32_t vc = v.s.sa_vc_ptr[L.port(e, ip)];
    for (uint32_t k = 0; k < L.vcs; ++k, vc = next_mod(vc, L.vcs)) {
      uint32_t op;
      if (!((mine >> vc) & 1) || !sw_alloc_detail::ready(v, e, ip, vc, &op) ||
          ((in_req[ip] >> op) & 1))
        continue;
      req_vc[ip][op] = static_cast<int8_t>(vc);
      out_req[op] |= 1ull << ip;
      in_req[ip] |= 1ull << op;
      any = true;
    }
  }
  if (!any) return;

  uint64_t in_free = (1ull << P) - 1, out_free = in_free;
  int8_t match[kMaxPorts];  // output matched to each input, -1 none
  for (uint32_t ip = 0; ip < P; ++ip) match[ip] = -1;
  if (v.prm.sw_alloc == Allocator::kSeparableInputFirst) {
    uint64_t chose[kMaxPorts];  // inputs that chose each output
    for (uint32_t op = 0; op < P; ++op) chose[op] = 0;
    for (uint32_t ip = 0; ip < P; ++ip) {
      const int op = rr_pick(in_req[ip], v.s.sa_in_ptr[L.port(e, ip)]);
      if (op >= 0) chose[op] |= 1ull << ip;
    }
    for (uint32_t op = 0; op < P; ++op) {
      const int ip = rr_pick(chose[op], v.s.sa_out_ptr[L.port(e, op)]);
      if (ip < 0) continue;
      match[ip] = static_cast<int8_t>(op);
      v.s.sa_out_ptr[L.port(e, op)] = static_cast<uint8_t>(next_mod(ip, P));
      v.s.sa_in_ptr[L.port(e, ip)] = static_cast<uint8_t>(next_mod(op, P));
    }
  } else {
    for (uint32_t iter = 0; iter < v.prm.alloc_iters; ++iter) {
      uint64_t granted[kMaxPorts];  // outputs that granted each input
      for (uint32_t ip = 0; ip < P; ++ip) granted[ip] = 0;
      bool grants = false;
      for (uint32_t op = 0; op < P; ++op) {
        if (!((out_free >> op) & 1)) continue;
        const int ip = rr_pick(out_req[op] & in_free, v.s.sa_out_ptr[L.port(e, op)]);
        if (ip >= 0) granted[ip] |= 1ull << op, grants = true;
      }
      if (!grants) break;
      for (uint32_t ip = 0; ip < P; ++ip) {
        const int op = rr_pick(granted[ip], v.s.sa_in_ptr[L.port(e, ip)]);
        if (op < 0) continue;
        match[ip] = static_cast<int8_t>(op);
        in_free &= ~(1ull << ip);
        out_free &= ~(1ull << op);
        if (iter == 0) {
          v.s.sa_out_ptr[L.port(e, op)] = static_cast<uint8_t>(next_mod(ip, P));
          v.s.sa_in_ptr[L.port(e, ip)] = static_cast<uint8_t>(next_mod(op, P));
        }
      }
    }
  }
  for (uint32_t ip = 0; ip < P; ++ip) {
    if (match[ip] < 0) continue;
    const uint32_t op = static_cast<uint32_t>(match[ip]);
    const uint32_t vc = static_cast<uint32_t>(req_vc[ip][op]);
    v.s.sa_vc_ptr[L.port(e, ip)] = static_cast<uint8_t>(next_mod(vc, L.vcs));
    v.s.sa_grant[L.port(e, op)] = static_cast<int8_t>(ip);
    switch_traversal(v, e, ip, vc, op);
  }
}

struct SwAlloc {
  VcView v;
  LS_HD void operator()(uint64_t e) const { sw_alloc(v, e); }
};

}  // namespace ls
