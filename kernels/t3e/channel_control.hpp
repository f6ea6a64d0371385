// A router's input channels as R_CHAN controls them (manual Table 10): with IGNORE_NORMAL set,
// the router "will not pass the packet to the next node" for packets it receives on the
// channel's direction-order buffers, so a packet on the adaptive VC passes (NO_ADAPT upstream
// keeps adaptive packets off a channel software cuts). Software sets it to cut a failed link or
// node off (paper section 9); the host marks a failed link's channels kLinkDown as well, the
// dead wire, on which everything arriving is lost. A packet whose head arrives on such a
// channel and VC is discarded whole (its later flits too, whatever the bit says by then), never
// entering the buffer: its flits' credits go straight back upstream and it is counted lost. A
// packet already through when the bit is set goes on. R_CHAN6, the PE's channel, cuts off what the
// router's own PE sends.
#pragma once
#include "../common/belt.hpp"
#include "register_bits.hpp"
#include "t3e_state.hpp"

namespace ls::t3e {

// A slot of input VC (p, vc) of router e (router r of its instance) is free again: its credit
// goes to the far end of input p, arriving credit_delay cycles later. The far end of the PE's
// port is the router's own PE column (far_ends), so no branch tells the two apart.
LS_HD inline void credit_upstream(const T3eView& v, uint64_t e, uint32_t r, uint32_t p,
                                  uint32_t vc) {
  const T3eLayout& L = v.lay;
  const uint32_t cs = belt_arrival_slot(v.now, v.prm.credit_delay, L.slots);
  v.s.cr_belt[L.far_end(e, r, v.topo.far_end[r * kPorts + p], cs)] = static_cast<int8_t>(vc);
}

// The R_CHAN register of input port p's channel.
LS_HD inline uint8_t input_chan(const T3eView& v, uint64_t e, uint32_t p) {
  const uint32_t dir = v.s.port_dir[e * kPorts + p];
  return v.s.chan[e * 8 + (dir < kDirections ? dir : kPeChan)];
}

// What ignored() does with a flit: keeps it (0), or discards it, its credit going back upstream;
// kLost: the flit was the tail of a packet created in the window, so the packet counts as lost.
// The caller counts discards (count_discards): a router's ports may be on lanes of their own.
constexpr uint32_t kDiscarded = 1, kLost = 2;

// Flit f arriving at input p of router e (router r of its instance): discarded when
// IGNORE_NORMAL (a direction-order VC's packet) or a dead link cuts the channel off.
LS_HD inline uint32_t ignored(const T3eView& v, uint64_t e, uint32_t r, uint32_t p, const Flit& f) {
  const uint32_t vc = FlitMeta::vc(f.meta);
  uint8_t& dropping = v.s.ivc_dropping[v.lay.vc(e, p, vc)];
  if (!dropping) {
    const uint8_t chan = input_chan(v, e, p);
    const uint8_t cut = vc == kAdaptiveVc ? kLinkDown : kIgnoreNormal | kLinkDown;
    if (!(chan & cut) || !FlitMeta::head(f.meta)) return 0;
    dropping = 1;
  }
  credit_upstream(v, e, r, p, vc);
  if (!FlitMeta::tail(f.meta)) return kDiscarded;
  dropping = 0;
  return v.win.contains(f.ctime) ? kDiscarded | kLost : kDiscarded;
}

}  // namespace ls::t3e
