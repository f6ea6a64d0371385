// The processor shell's barrier/eureka synchronisation units (paper section 6, Figure 6), and
// the synchronisation program the PEs run on them (t3e.barrier). A BSU is in S_BAR, S_ARM or
// S_EUR:
//  - OP_BAR: S_BAR or S_EUR -> S_ARM, and a barrier packet to the local router;
//  - OP_EUR: S_BAR -> S_EUR, and a eureka packet; OP_EUR_B both: S_BAR -> S_ARM;
//  - the network's completion takes S_ARM to S_BAR, its eureka notification S_BAR to S_EUR.
// The PE sends one barrier/eureka packet per clock to its router (a BSU's eureka before its
// barrier), taking its channel that clock before any data flit.
// The program: every barrier_period clocks a round begins and each PE whose PE bit is set in
// its router's register for BSU b < barrier_bsus (a member of the tree) acts on it:
//  - "barrier": OP_BAR on each;
//  - "eureka": the PE of router (round mod routers) performs OP_EUR_B; every other member
//    waits for the eureka, and on the clock after it sees S_EUR joins the barrier with OP_BAR.
// A member whose BSU is not back in S_BAR when a round begins sits the round out (an overrun).
// Latencies are clocks from the round's start: to each member's completion, and to each
// notified member's eureka.
#pragma once
#include "../common/belt.hpp"
#include "../common/round_robin.hpp"
#include "t3e_state.hpp"

namespace ls::t3e {

struct ShellBsus {
  const T3eView& v;
  uint64_t e;
  uint32_t r;

  LS_HD uint8_t& state(uint32_t b) const { return v.pe.bsu_state[e * kBsus + b]; }
  LS_HD bool member(uint32_t b) const { return v.pe.bsu_member[e] >> b & 1u; }
  LS_HD void op_bar(uint32_t b) const {
    state(b) = kSArm;
    v.pe.bsu_send[e * 2 + 1] |= 1u << b;
  }
  LS_HD void op_eur(uint32_t b) const {
    state(b) = kSEur;
    v.pe.bsu_send[e * 2 + 0] |= 1u << b;
  }
  LS_HD void op_eur_b(uint32_t b) const {
    op_eur(b);
    op_bar(b);
  }

  // The program, the arrivals from the router, then one packet to the router; returns whether
  // a packet took the PE's channel this clock.
  LS_HD bool operator()() const {
    program();
    receive();
    return send();
  }

  LS_HD void program() const {
    const uint32_t n = v.prm.barrier_bsus;
    const uint64_t period = v.prm.barrier_period;
    if (v.t % period == 0) {
      const bool trigger = v.prm.barrier == kEurekaRounds && (v.t / period) % v.lay.routers == r;
      bool started = false;
      for (uint32_t b = 0; b < n; ++b) {
        if (!member(b)) continue;
        if (state(b) != kSBar) {
          if (v.win.contains(v.t)) v.pe.overruns[e] += 1;
          continue;
        }
        started = true;
        if (v.prm.barrier == kBarrierRounds)
          op_bar(b);
        else if (trigger)
          op_eur_b(b);
      }
      if (started) v.pe.round_start[e] = static_cast<uint32_t>(v.t);
    }
    if (v.prm.barrier == kEurekaRounds)  // the eureka observed: join the barrier
      for (uint32_t b = 0; b < n; ++b)
        if (state(b) == kSEur) op_bar(b);
  }

  LS_HD void receive() const {
    const uint64_t k = v.lay.row(e, v.now) + kPeColumn;
    const uint8_t code = v.s.bsu_belt[k];
    if (!code) return;
    v.s.bsu_belt[k] = 0;
    const uint32_t sig = static_cast<uint32_t>(code - 1) >> 5,
                   b = static_cast<uint32_t>(code - 1) & 31u;
    const uint32_t start = v.pe.round_start[e], lat = static_cast<uint32_t>(v.t) - start;
    const bool measured = b < v.prm.barrier_bsus && v.win.contains(start);
    if (sig == kCompletion && state(b) == kSArm) {
      state(b) = kSBar;
      if (!measured) return;
      v.pe.bar_sum[e] += lat;
      v.pe.bar_count[e] += 1;
      if (lat > v.pe.bar_max[e]) v.pe.bar_max[e] = lat;
    } else if (sig == kEurekaDown && state(b) == kSBar) {
      state(b) = kSEur;
      if (!measured) return;
      v.pe.eur_sum[e] += lat;
      v.pe.eur_count[e] += 1;
      if (lat > v.pe.eur_max[e]) v.pe.eur_max[e] = lat;
    }
  }

  LS_HD bool send() const {
    uint32_t* q = v.pe.bsu_send + e * 2;
    const uint32_t any = q[0] | q[1];
    if (!any) return false;
    const uint32_t b = lowest_bit(any);
    const uint32_t which = q[0] >> b & 1u ? 0u : 1u;  // a BSU's eureka before its barrier
    q[which] &= ~(1u << b);
    const uint32_t sig = which == 0 ? kEurekaUp : kBarrierUp;
    const uint32_t slot = belt_arrival_slot(v.now, v.prm.barrier_hop, v.lay.slots);
    v.s.bsu_belt[v.lay.row(e, slot) + kPePort] = static_cast<uint8_t>(1 + (sig << 5 | b));
    return true;
  }
};

}  // namespace ls::t3e
