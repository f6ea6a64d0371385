// Switch allocation: every input port offers, per output port, its first ready VC in
// round-robin order (a VC with an output VC, a flit written in an earlier cycle and a
// downstream credit); iSLIP (outputs grant by pointer, inputs accept by pointer, pointers moved
// only on first-iteration accepts) or separable input-first round-robin picks at most one flit
// per input and per output port. Winners traverse the switch in the same phase.
#pragma once
#include "../common/round_robin.hpp"
#include "switch_traversal.hpp"

namespace ls {

// The input VCs switch allocation considers in router e this cycle: the active ones holding a
// flit, less those granted their output VC in this same cycle (`granted`), which cannot be
// ready yet while vc_alloc_delay is 1 or more (their readiness test would be a mispredicted
// branch).
LS_HD inline uint64_t sa_active(const VcView& v, uint64_t e, uint64_t granted) {
  return v.s.sa_mask[e] & ~(v.prm.vc_alloc_delay ? granted : 0);
}

// Router e's switch grants of this cycle start empty (every router's, whether or not it has a
// flit to switch); switch allocation then fills in the outputs it grants.
template <class Shape = AnyShape>
LS_HD inline void clear_grants(const VcView& v, uint64_t e) {
  const uint32_t P = Shape::layout(v.lay).ports;
  int8_t* const grant = v.s.sa_grant + e * P;
  for (uint32_t p = 0; p < P; ++p) grant[p] = -1;
}

// One router's switch: its slices of the state, in locals so the byte stores never force a
// reload, and the steps a match takes.
template <class Shape>
struct RouterSwitch {
  const VcView& v;
  SwitchSlots at;
  uint32_t P, V;
  uint64_t t;
  bool track_ready;
  int8_t* grant;
  uint8_t *out_ptr, *in_ptr, *vc_ptr;
  const uint32_t* ready_at;
  const int8_t* out_port;
  const uint8_t* out_vc;
  const uint8_t* credits;
  LS_HD LS_FORCEINLINE RouterSwitch(const VcView& view, uint64_t e, uint32_t r,
                                    const InstanceSlots& slots)
      : v(view) {
    const VcLayout L = Shape::layout(v.lay);  // a local copy: byte stores cannot alias it
    P = L.ports;
    V = L.vcs;
    t = v.t;
    const uint64_t pe = e * P, ive = pe * V;
    at = SwitchSlots{
        e, pe, ive, slots.belts, slots.flit_to + r * P, slots.credit_to + r * P, slots.in_window};
    track_ready = Shape::track_ready(v.prm);
    grant = v.s.sa_grant + pe;
    out_ptr = v.s.sa_out_ptr + pe;
    in_ptr = v.s.sa_in_ptr + pe;
    vc_ptr = v.s.sa_vc_ptr + pe;
    ready_at = v.s.ivc_ready + ive;
    out_port = v.s.ivc_out_port + ive;
    out_vc = v.s.ivc_out_vc + ive;
    credits = v.s.ovc_credits + ive;
  }
  LS_HD uint32_t op_of(uint32_t i) const { return static_cast<uint32_t>(out_port[i]); }
  // Input VC i (active, with a flit) can send to output port op if past its pipeline delay, its
  // flit written in an earlier cycle, and its output VC has a credit.
  LS_HD bool can_send(uint32_t i, uint32_t op) const {
    return (!track_ready || ready_at[i] <= t) && credits[op * V + out_vc[i]] != 0;
  }
  // A match (ip, op) moves the round-robin pointers as a first-iteration accept does; the
  // granted VC's flit then crosses the switch (kFoldMasks: switch_traversal).
  LS_HD void move_pointers(uint32_t ip, uint32_t op) const {
    out_ptr[op] = static_cast<uint8_t>(next_mod(ip, P));
    in_ptr[ip] = static_cast<uint8_t>(next_mod(op, P));
  }
  template <bool kFoldMasks = false>
  LS_HD MaskChange send(uint32_t ip, uint32_t vc, uint32_t op) const {
    vc_ptr[ip] = static_cast<uint8_t>(next_mod(vc, V));
    grant[op] = static_cast<int8_t>(ip);
    return switch_traversal<Shape, kFoldMasks>(v, at, ip, vc, op);
  }
};

// A switch allocation's outcome (sw_decide): the input ports that send (`matched`), the VC each
// sends and its output port, and those whose match moves the round-robin pointers (`moved`: a
// first-iteration accept).
template <class Shape>
struct SwMatch {
  uint32_t matched, moved;
  uint8_t vc[Shape::kMaxP], op[Shape::kMaxP];
};

// The match of router e's switch (allocator S) over its active input VCs `sa`, of which
// `sendable` can send, each to output port op_of(i) (S.op_of, passed as a function: GCC compiles
// the CPU's staged cycle 18 instructions a router-cycle shorter so): an input requests the first
// output port, in VC round-robin order, that each of its VCs can send to; iSLIP or separable
// input-first picks. It reads the round-robin pointers and writes nothing (no pointer it reads can
// have moved: a later iSLIP iteration reads only unmatched ports' pointers), so a lane form runs it
// on every lane alike.
template <class Shape, class OpOf>
LS_HD inline void sw_decide(const RouterSwitch<Shape>& S, uint64_t sa, uint64_t sendable,
                            const OpOf& op_of, SwMatch<Shape>& M) {
  const VcPolicy pol = Shape::policy(S.v.prm.pol);
  const uint32_t V = S.V;
  const uint64_t vc_bits = (1ull << V) - 1;
  M.matched = M.moved = 0;
  // Requests: req_vc[ip][op] = VC of input ip offered to output op; masks both ways (entries
  // are valid only where the masks say so).
  int8_t req_vc[Shape::kMaxP][Shape::kMaxP];
  uint32_t out_req[Shape::kMaxP], in_req[Shape::kMaxP];
  uint32_t ins = 0, outs = 0;        // inputs and outputs with a request
  uint32_t contested = 0;            // outputs requested by more than one input
  for (uint64_t left = sa; left;) {  // the inputs with an active VC, in order
    const uint32_t ip = lowest_bit64(left) / V;
    const uint64_t mine = (sa >> (ip * V)) & vc_bits;
    left &= ~(vc_bits << (ip * V));
    // The input's VCs in round-robin order from its pointer: those at or after it, then before.
    const uint32_t ptr = S.vc_ptr[ip];
    const uint64_t after = mine >> ptr << ptr;
    uint32_t reqs = 0;
    for (uint64_t m = after, rest = mine & ~after;; m = rest, rest = 0) {
      for (; m; m &= m - 1) {
        const uint32_t vc = lowest_bit64(m), i = ip * V + vc;
        if (!(sendable >> i & 1)) continue;
        const uint32_t op = op_of(i), bit = 1u << op;
        if (reqs & bit) continue;
        req_vc[ip][op] = static_cast<int8_t>(vc);
        out_req[op] = (outs & bit ? out_req[op] : 0) | 1u << ip;
        contested |= outs & bit;
        outs |= bit;
        reqs |= bit;
      }
      if (!rest) break;
    }
    in_req[ip] = reqs;
    if (reqs) ins |= 1u << ip;
  }
  if (!ins) return;

  // When no output is asked for by two inputs (a lone requesting input, say), each input gets
  // the output its own pointer picks under either allocator (every output it asks for grants
  // it), and the pointers move as on a first-iteration accept.
  const auto accept = [&](uint32_t ip, uint32_t op, bool first_iteration) {
    M.matched |= 1u << ip;
    M.moved |= static_cast<uint32_t>(first_iteration) << ip;
    M.op[ip] = static_cast<uint8_t>(op);
    M.vc[ip] = static_cast<uint8_t>(req_vc[ip][op]);
  };
  if (!contested) {
    for (uint32_t m = ins; m; m &= m - 1) {
      const uint32_t ip = lowest_bit(m);
      accept(ip, rr_first(in_req[ip], S.in_ptr[ip]), true);
    }
  } else if (pol.sw_alloc == Allocator::kSeparableInputFirst) {
    uint32_t chose[Shape::kMaxP], chosen = 0;  // inputs that chose each output; outputs chosen
    for (uint32_t m = ins; m; m &= m - 1) {
      const uint32_t ip = lowest_bit(m);
      const uint32_t op = rr_first(in_req[ip], S.in_ptr[ip]);
      chose[op] = (chosen >> op & 1 ? chose[op] : 0) | 1u << ip;
      chosen |= 1u << op;
    }
    for (uint32_t m = chosen; m; m &= m - 1) {
      const uint32_t op = lowest_bit(m);
      accept(rr_first(chose[op], S.out_ptr[op]), op, true);
    }
  } else {
    uint32_t out_free = outs;
    for (uint32_t iter = 0; iter < pol.alloc_iters; ++iter) {
      uint32_t granted[Shape::kMaxP], grantees = 0;  // outputs that granted each input; inputs
      for (uint32_t m = out_free; m; m &= m - 1) {
        const uint32_t op = lowest_bit(m);
        const int ip = rr_pick(out_req[op] & ~M.matched, S.out_ptr[op]);
        if (ip < 0) continue;
        granted[ip] = (grantees >> ip & 1 ? granted[ip] : 0) | 1u << op;
        grantees |= 1u << ip;
      }
      if (!grantees) break;
      for (uint32_t m = grantees; m; m &= m - 1) {
        const uint32_t ip = lowest_bit(m);
        const uint32_t op = rr_first(granted[ip], S.in_ptr[ip]);
        accept(ip, op, iter == 0);
        out_free &= ~(1u << op);
      }
    }
  }
}

// Switch allocation and traversal of router e (router r of its instance, whose switches send
// to `slots`) over its input VCs `sa` (sa_active), whose grants clear_grants has emptied.
template <class Shape = AnyShape>
LS_HD inline void sw_alloc(const VcView& v, uint64_t e, uint32_t r, const InstanceSlots& slots,
                           uint64_t sa) {
  if (!sa) return;
  const RouterSwitch<Shape> S(v, e, r, slots);
  const uint32_t V = S.V;
  const uint64_t t = v.t;
  // One active input VC (common under light load) is the only possible request, and wins if it
  // can send: what the match below decides then, without building the request tables.
  if ((sa & (sa - 1)) == 0) {
    const uint32_t i = lowest_bit64(sa), ip = i / V, op = S.op_of(i);
    if (!S.can_send(i, op)) return;
    S.move_pointers(ip, op);
    S.send(ip, i - ip * V, op);
    v.s.last_move[e] = static_cast<uint32_t>(t);
    return;
  }
  // Every VC that can send is the only one of its input port and the only one asking for its
  // output port (common under light load): each sends, which is what either allocator decides
  // then (every request is granted and accepted) without building the request tables.
  uint64_t sendable = 0;
  uint32_t ins_seen = 0, outs_seen = 0, clash = 0;
  for (uint64_t m = sa; m; m &= m - 1) {
    const uint32_t i = lowest_bit64(m), ip = i / V, op = S.op_of(i);
    if (!S.can_send(i, op)) continue;
    clash |= (ins_seen >> ip | outs_seen >> op) & 1;
    ins_seen |= 1u << ip;
    outs_seen |= 1u << op;
    sendable |= 1ull << i;
  }
  if (!clash) {
    if (!sendable) return;
    for (uint64_t m = sendable; m; m &= m - 1) {
      const uint32_t i = lowest_bit64(m), ip = i / V, op = S.op_of(i);
      S.move_pointers(ip, op);
      S.send(ip, i - ip * V, op);
    }
    v.s.last_move[e] = static_cast<uint32_t>(t);
    return;
  }
  SwMatch<Shape> M;
  sw_decide(
      S, sa, sendable, [&](uint32_t i) { return S.op_of(i); }, M);
  for (uint32_t m = M.matched; m; m &= m - 1) {
    const uint32_t ip = lowest_bit(m), op = M.op[ip];
    if (M.moved >> ip & 1) S.move_pointers(ip, op);
    S.send(ip, M.vc[ip], op);
  }
  if (M.matched) v.s.last_move[e] = static_cast<uint32_t>(t);
}

// sw_alloc (with clear_grants before it) of router e on a tile's lanes (kernels/common/
// tile.hpp): whether each active input VC can send an input VC a lane, the match on every lane
// alike (sw_decide), the matched input ports' traversals a port a lane, their changes to the
// masks folded and applied on one lane.
template <class Shape, class Tile>
LS_HD inline void sw_alloc_lanes(const Tile& tl, const VcView& v, uint64_t e, uint32_t r,
                                 const InstanceSlots& slots, uint64_t sa) {
  const RouterSwitch<Shape> S(v, e, r, slots);
  tl.each(S.P, [&](uint32_t p) { S.grant[p] = -1; });
  if (!sa) return;
  const uint64_t sendable = tl.fold_or(S.P * S.V, [&](uint32_t i) -> uint64_t {
    return (sa >> i & 1) && S.can_send(i, S.op_of(i)) ? 1ull << i : 0;
  });
  if (!sendable) return;
  // The match reads the output ports on every lane (nothing writes them before the traversals).
  SwMatch<Shape> M;
  sw_decide(
      S, sa, sendable, [&](uint32_t i) { return S.op_of(i); }, M);
  const MaskChange c = tl.fold_or(S.P, [&](uint32_t ip) {
    if (!(M.matched >> ip & 1)) return MaskChange{0, 0, 0};
    if (M.moved >> ip & 1) S.move_pointers(ip, M.op[ip]);
    return S.template send<true>(ip, M.vc[ip], M.op[ip]);
  });
  if (M.matched)
    tl.single([&] {
      apply_masks(v, e, c);
      v.s.last_move[e] = static_cast<uint32_t>(v.t);
    });
}

struct SwAlloc {
  VcView v;
  LS_HD void operator()(uint64_t e) const {
    clear_grants(v, e);
    sw_alloc(v, e, v.lay.router_of(e), instance_slots(v, v.lay.inst_of_router(e)),
             sa_active(v, e, 0));
  }
};

}  // namespace ls
