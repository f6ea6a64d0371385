// Switch traversal and credit return for one switch-allocator match: the flit leaves its input
// buffer for the belt at the output port's far end (it arrives out_delay cycles later, which
// covers the rest of switch allocation, the crossbar and the link), and the freed buffer slot
// is returned as a credit on the belt at the input port's far end (credit_delay cycles). A tail
// frees its output VC.
#pragma once
#include "../common/belt.hpp"
#include "vc_state.hpp"

namespace ls {

// Where the switches of instance inst send in the view's cycle, the same for all its routers:
// where its belts begin, the cycle's rows [R, P] of topo.flit_slot and credit_slot, and whether
// the cycle is in the measurement window.
struct InstanceSlots {
  uint64_t belts;  // VcLayout::belts_of(inst)
  const uint32_t *flit_to, *credit_to;
  bool in_window;
};
LS_HD inline InstanceSlots instance_slots(const VcView& v, uint32_t inst) {
  const uint64_t row = uint64_t{v.now} * v.prm.routers * v.prm.ports;
  return {v.lay.belts_of(inst), v.topo.flit_slot + row, v.topo.credit_slot + row,
          v.win.contains(v.t)};
}

// One router's switch in cycle t: the router element, its first port and input VC, where its
// instance's belts begin, and where in them the flits and credits its ports send this cycle land
// (its rows of InstanceSlots::flit_to and credit_to).
struct SwitchSlots {
  uint64_t e, pe, ive, belts;  // belts: VcLayout::belts_of(its instance)
  const uint32_t *flit_to, *credit_to;
  bool in_window;
};

// What a traversal changes in the router's masks: input VCs leaving sa_mask and joining rc_mask,
// output VCs leaving owned_mask. A lane form folds these over its lanes (no two lanes write one
// word) and applies them once (apply_masks).
struct MaskChange {
  uint64_t sa_clear, rc_set, owned_clear;
  LS_HD MaskChange operator|(const MaskChange& o) const {
    return {sa_clear | o.sa_clear, rc_set | o.rc_set, owned_clear | o.owned_clear};
  }
};
LS_HD inline void apply_masks(const VcView& v, uint64_t e, const MaskChange& c) {
  v.s.owned_mask[e] &= ~c.owned_clear;
  v.s.sa_mask[e] &= ~c.sa_clear;
  v.s.rc_mask[e] |= c.rc_set;
}

// The traversal of input VC (ip, vc)'s front flit to output port op. Writes the router's masks
// (kFoldMasks false) or returns what it would write in them (true).
template <class Shape = AnyShape, bool kFoldMasks = false>
LS_HD inline MaskChange switch_traversal(const VcView& v, const SwitchSlots& at, uint32_t ip,
                                         uint32_t vc, uint32_t op) {
  const VcLayout L = Shape::layout(v.lay);  // a local copy: byte stores cannot alias it
  const uint32_t i = ip * L.vcs + vc;
  const uint64_t iv = at.ive + i;
  const uint32_t ovc = v.s.ivc_out_vc[iv], ob = op * L.vcs + ovc;  // the output VC in the router
  const uint64_t o = at.ive + ob;
  // Flit to the belt at the output port's far end.
  const uint32_t h = v.s.ivc_head[iv];
  const Flit& from = v.s.buf[iv * L.depth + h];
  const uint32_t meta = from.meta;
  const uint64_t fo = at.belts + at.flit_to[op];
  Flit& to = v.s.in_belt[fo];
  to = from;  // copied whole (two vector moves on the CPU), then its meta updated
  to.meta = FlitMeta::with_hop(FlitMeta::with_vc(meta, ovc));
  v.s.in_belt_valid[fo] = 1;
  uint8_t* const head = v.s.ivc_head;
  uint8_t* const count = v.s.ivc_count;
  uint8_t* const credits = v.s.ovc_credits;
  head[iv] = static_cast<uint8_t>(h + 1 == L.depth ? 0 : h + 1);
  const uint32_t left = count[iv] - 1u;
  count[iv] = static_cast<uint8_t>(left);
  // Credit upstream for the freed slot.
  v.s.cr_belt[at.belts + at.credit_to[ip]] = static_cast<int8_t>(vc);
  // Output VC bookkeeping.
  credits[o] -= 1;
  const uint64_t bit = 1ull << i;
  MaskChange c{0, 0, 0};
  if (FlitMeta::tail(meta)) {
    int8_t* const out_port = v.s.ivc_out_port;
    uint8_t* const state = v.s.ivc_state;
    c.owned_clear = 1ull << ob;
    out_port[iv] = -1;
    state[iv] = kIvcIdle;
    c.sa_clear = bit;
    c.rc_set = left ? bit : 0;  // the next packet's head waits behind (no branch)
  } else if (left == 0) {
    c.sa_clear = bit;
  }
  if (at.in_window) {
    v.s.out_flits[at.pe + op] += 1;
    v.s.ovc_flits[o] += 1;
  }
  if constexpr (!kFoldMasks) {
    if (c.sa_clear) apply_masks(v, at.e, c);  // nothing to change otherwise
    return {0, 0, 0};
  }
  return c;
}

}  // namespace ls
