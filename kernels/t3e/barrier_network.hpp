// The virtual barrier/eureka networks of a T3E router (paper section 6), one router per call.
// Barrier/eureka packets are single flits on their own VC: they need no buffer and never block,
// because the router's BSU registers always sink them. An arriving packet updates its BSU's
// register (bsu_register.hpp):
//  - a child's barrier sets its ARRIVED bit; when every child is in, the register clears and
//    signals its parent, or, at the root, sends completion to every child;
//  - a child's eureka goes up to the parent, or from the root down to every child, once per
//    round (EUREKA set; later eurekas of the round are dropped);
//  - the parent's completion or eureka notification goes on down to every child.
// Signals waiting for a link are bits of a per-link mask, not packets in a buffer. Each link
// carries one barrier packet per clock, taking the link that clock before any data flit (the
// highest priority), unless a special packet has it (special_network.hpp: that network cannot
// hold a packet, a barrier signal waits a clock); BSUs take turns round-robin, and a BSU's signals
// go in BsuSignal order so that one round's completion passes a link before the next round's
// eureka. A packet reaches the next router's (or the PE's) register barrier_hop clocks after it
// leaves.
#pragma once
#include "../common/belt.hpp"
#include "../common/round_robin.hpp"
#include "t3e_state.hpp"

namespace ls::t3e {

struct BarrierNetwork {
  const T3eView& v;
  uint64_t e;

  LS_HD uint64_t pending(uint32_t link, uint32_t sig) const {
    return (e * kBsuLinks + link) * kBsuSignals + sig;
  }
  // The port of a register's link: the PE's, or its direction's (R_ORIENT).
  LS_HD uint32_t port_of(uint32_t link) const {
    return link == kBsuPe ? kPePort : v.s.dir_port[e * kDirections + link - 1];
  }
  LS_HD void signal(uint32_t link, uint32_t sig, uint32_t b) const {
    v.s.bsu_pending[pending(link, sig)] |= 1u << b;
  }
  LS_HD void to_children(uint32_t w, uint32_t sig, uint32_t b) const {
    for (uint32_t c = BsuReg::children(w); c; c &= c - 1) signal(lowest_bit(c), sig, b);
  }

  // The packets arriving this clock update their registers.
  LS_HD void arrive() const {
    const uint64_t row = v.lay.row(e, v.now);
    for (uint32_t p = 0; p < kPorts; ++p) {
      const uint8_t code = v.s.bsu_belt[row + p];
      if (!code) continue;
      v.s.bsu_belt[row + p] = 0;
      const uint32_t link =
          p == kPePort ? kBsuPe : BsuReg::link_of_dir(v.s.port_dir[e * kPorts + p]);
      absorb(static_cast<uint32_t>(code - 1) >> 5, static_cast<uint32_t>(code - 1) & 31u, link, p);
    }
  }

  // One packet out of each link whose port a special packet has not `taken`; returns the ports
  // whose output a barrier packet takes this clock.
  LS_HD uint32_t depart(uint32_t taken) const {
    uint32_t busy = 0;
    for (uint32_t link = 0; link < kBsuLinks; ++link) {
      if (taken >> port_of(link) & 1u) continue;
      uint32_t any = 0;
      for (uint32_t sig = 0; sig < kBsuSignals; ++sig) any |= v.s.bsu_pending[pending(link, sig)];
      if (!any) continue;
      uint8_t& rr = v.s.bsu_rr[e * kBsuLinks + link];
      const uint32_t b = rr_first(any, rr);
      rr = static_cast<uint8_t>(next_mod(b, kBsus));
      uint32_t sig = 0;
      while (!(v.s.bsu_pending[pending(link, sig)] >> b & 1u)) ++sig;
      v.s.bsu_pending[pending(link, sig)] &= ~(1u << b);
      busy |= 1u << send(link, sig, b);
    }
    return busy;
  }

  // BSU b's register takes signal sig from link (arriving on port p).
  LS_HD void absorb(uint32_t sig, uint32_t b, uint32_t link, uint32_t p) const {
    uint32_t& w = v.s.bsu[e * kBsus + b];
    const bool up = sig >= kEurekaUp;
    if (up ? !(BsuReg::children(w) >> link & 1u) : BsuReg::parent(w) + 1 != link)
      return tree_error(p, b, sig);
    const bool root = BsuReg::parent(w) == BsuReg::kNoParent;
    switch (sig) {
      case kBarrierUp: {
        const uint32_t a = BsuReg::arrived(w) | 1u << link;
        if (a != BsuReg::children(w)) {
          w = BsuReg::with_arrived(w, a);
          return;
        }
        w = BsuReg::with_arrived(w, 0);
        if (!root) return signal(BsuReg::parent(w) + 1, kBarrierUp, b);
        w &= ~BsuReg::kEureka;
        return to_children(w, kCompletion, b);
      }
      case kEurekaUp:
        if (w & BsuReg::kEureka) return;
        w |= BsuReg::kEureka;
        if (!root) return signal(BsuReg::parent(w) + 1, kEurekaUp, b);
        return to_children(w, kEurekaDown, b);
      case kCompletion:
        w &= ~BsuReg::kEureka;
        return to_children(w, kCompletion, b);
      default:  // kEurekaDown
        w |= BsuReg::kEureka;
        return to_children(w, kEurekaDown, b);
    }
  }

  // A packet of signal sig for BSU b leaves on link's port, to the far router's register or
  // this router's PE; returns the port.
  LS_HD uint32_t send(uint32_t link, uint32_t sig, uint32_t b) const {
    const uint32_t port = port_of(link);
    const uint32_t slot = belt_arrival_slot(v.now, v.prm.barrier_hop, v.lay.slots);
    const uint8_t code = static_cast<uint8_t>(1 + (sig << 5 | b));
    const uint32_t r = static_cast<uint32_t>(e % v.lay.routers);
    if (port != kPePort && v.topo.peer[r * kPorts + port] < 0) {
      tree_error(port, b, sig);
      return port;
    }
    // The far end: the next router's register, or this router's PE column (far_ends).
    v.s.bsu_belt[v.lay.far_end(e, r, v.topo.far_end[r * kPorts + port], slot)] = code;
    return port;
  }

  // The BSU's tree is misconfigured (a packet from a link the register does not expect, or a
  // link that does not exist): the run ends with the error, as for a dateline error.
  LS_HD void tree_error(uint32_t port, uint32_t b, uint32_t sig) const {
    if (v.s.error[e] != 0) return;
    v.s.error[e] = kErrBsuTree;
    v.s.error_info[e * 4 + 0] = static_cast<uint32_t>(v.t);
    v.s.error_info[e * 4 + 1] = port;
    v.s.error_info[e * 4 + 2] = b;
    v.s.error_info[e * 4 + 3] = sig;
  }
};

}  // namespace ls::t3e
