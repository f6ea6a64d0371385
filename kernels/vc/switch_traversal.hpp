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
// where its belts begin, the cycle's rows of VcView::flit_to and credit_to, and whether the
// cycle is in the measurement window.
struct InstanceSlots {
  uint64_t belts;  // VcLayout::belts_of(inst)
  const uint32_t *flit_to, *credit_to;
  bool in_window;
};
LS_HD inline InstanceSlots instance_slots(const VcView& v, uint32_t inst) {
  return {v.lay.belts_of(inst), v.flit_to, v.credit_to, v.win.contains(v.t)};
}

// One router's switch in cycle t: the router element, its first port and input VC, where its
// instance's belts begin, and where in them the flits and credits its ports send this cycle land
// (its rows of VcView::flit_to and credit_to).
struct SwitchSlots {
  uint64_t e, pe, ive, belts;  // belts: VcLayout::belts_of(its instance)
  const uint32_t *flit_to, *credit_to;
  bool in_window;
};

template <class Shape = AnyShape>
LS_HD inline void switch_traversal(const VcView& v, const SwitchSlots& at, uint32_t ip, uint32_t vc,
                                   uint32_t op) {
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
  uint64_t* const sa_mask = v.s.sa_mask;
  uint64_t* const owned = v.s.owned_mask;
  head[iv] = static_cast<uint8_t>(h + 1 == L.depth ? 0 : h + 1);
  const uint32_t left = count[iv] - 1u;
  count[iv] = static_cast<uint8_t>(left);
  // Credit upstream for the freed slot.
  v.s.cr_belt[at.belts + at.credit_to[ip]] = static_cast<int8_t>(vc);
  // Output VC bookkeeping.
  credits[o] -= 1;
  const uint64_t bit = 1ull << i;
  if (FlitMeta::tail(meta)) {
    int8_t* const out_port = v.s.ivc_out_port;
    uint8_t* const state = v.s.ivc_state;
    uint64_t* const rc_mask = v.s.rc_mask;
    owned[at.e] &= ~(1ull << ob);
    out_port[iv] = -1;
    state[iv] = kIvcIdle;
    sa_mask[at.e] &= ~bit;
    rc_mask[at.e] |= left ? bit : 0;  // the next packet's head waits behind (no branch)
  } else if (left == 0) {
    sa_mask[at.e] &= ~bit;
  }
  if (at.in_window) {
    v.s.out_flits[at.pe + op] += 1;
    v.s.ovc_flits[o] += 1;
  }
}

}  // namespace ls
