// One clock of one T3E router and its PE, in order:
//   1. credits arriving for the router's outputs, flits arriving into its input buffers (or
//      discarded, on a channel R_CHAN IGNORE_NORMAL cuts off: channel_control.hpp); one that
//      arrives into an empty buffer is read where it arrived, and written into the buffer
//      after step 5 only if it did not leave (most do)
//   2. barrier/eureka packets (when t3e.barrier runs): the router's BSU registers take what
//      arrived (barrier_network.hpp)
//   3. special packets (special_network.hpp): SPUT/SGET over the nonblocking network; then
//      barrier/eureka packets, one per link a special packet did not take, and the shell's
//      BSUs run the program and send one to the router (shell_bsu.hpp); a link a special or
//      barrier packet takes carries no data flit this clock
//   4. the PE (pe_interface.hpp) takes its credits, injects a flit of a packet created
//      before this clock, takes what arrived for it and returns a credit
//   5. arbitration and the crossbar (arbiter.hpp): at most one flit leaves each input and
//      each output; the flits step 1 left on the belt that did not leave go into their buffers
//   6. the PE's source creates packets (injected from the next clock, as responses are)
// A router writes only its own state and the belt slots entering its channels (flits at the
// far end, credits upstream), so all routers of a batch run as one parallel step per clock.
#pragma once
#include "../common/byte_words.hpp"
#include "arbiter.hpp"
#include "barrier_network.hpp"
#include "pe_interface.hpp"
#include "shell_bsu.hpp"
#include "special_network.hpp"

namespace ls::t3e {

// What step 1 finds at a router's inputs, in one word that lanes taking a port each OR together:
// bit port * kVcs + vc, that input VC's one flit still on the belt (`fresh`); bit kDiscardedAt +
// port, a flit discarded there (and kLostAt + port, its packet lost); bit kOverflowAt + port, a
// flit that found its VC full.
constexpr uint32_t kDiscardedAt = 40, kLostAt = 48, kOverflowAt = 56;
constexpr uint64_t kFreshVcs = (uint64_t{1} << kPortVcs) - 1;
constexpr uint64_t kDiscardedPorts = uint64_t{kPortMask} << kDiscardedAt;
constexpr uint64_t kOverflowPorts = uint64_t{kPortMask} << kOverflowAt;

// Step 1 at port p of router e (router r of its instance; `row` its belt row of this clock, the
// PE's column left to the PE): the credit arriving for output p ...
LS_HD LS_FORCEINLINE void receive_credit(const T3eView& v, uint64_t e, uint64_t row, uint32_t p) {
  int8_t& cr = v.s.cr_belt[row + p];
  v.s.ovc_credits[v.lay.vc(e, p, static_cast<uint32_t>(cr))] += 1;
  cr = kNone;
}
// ... and the flit arriving at input p. A flit arriving into an empty buffer is left on the belt
// for now (`fresh`): the arbiter reads it there, and most leave at once, never written into the
// buffer (Arbiter::settle()).
LS_HD LS_FORCEINLINE uint64_t receive_flit(const T3eView& v, uint64_t e, uint32_t r, uint64_t row,
                                           uint32_t p) {
  const T3eLayout& L = v.lay;
  v.s.in_valid[row + p] = 0;
  const Flit& f = v.s.in_belt[row + p];
  if (const uint32_t cut = ignored(v, e, r, p, f))
    return uint64_t{1} << (kDiscardedAt + p) | uint64_t{cut & kLost ? 1u : 0u} << (kLostAt + p);
  const uint32_t vc = FlitMeta::vc(f.meta);
  const uint64_t iv = L.vc(e, p, vc);
  const uint32_t n = v.s.ivc_count[iv], cap = L.capacity(vc);
  if (n >= cap) return uint64_t{1} << (kOverflowAt + p);  // credit flow control prevents it
  v.s.ivc_count[iv] = static_cast<uint8_t>(n + 1);
  if (n == 0) return uint64_t{1} << (p * kVcs + vc);
  v.s.buf[L.slot(e, p, vc, add_mod(v.s.ivc_head[iv], n, cap))] = f;
  return 0;
}

// Step 1's counts, kept per router: discarded flits, lost packets, and an overflow (the lowest
// port's, as a loop over the ports would record first).
LS_HD inline void count_arrivals(const T3eView& v, uint64_t e, uint64_t row, uint64_t a) {
  v.s.dropped[e] += popcount64(a & kDiscardedPorts);
  for (uint32_t m = static_cast<uint32_t>(a >> kLostAt) & kPortMask; m; m &= m - 1) {
    v.s.lost_packets[e] += 1;
    v.s.lost_flits[e] += FlitMeta::size(v.s.in_belt[row + lowest_bit(m)].meta);
  }
  if (a & kOverflowPorts) {
    const uint32_t p = lowest_bit64(a >> kOverflowAt), vc = FlitMeta::vc(v.s.in_belt[row + p].meta);
    record_violation(v.s.viol, v.s.viol_info, e, kViolOverflow, v.t, p, vc,
                     v.s.ivc_count[v.lay.vc(e, p, vc)]);
  }
}

// Step 1 at every port that a credit or a flit arrives at; returns the fresh VCs.
LS_HD inline uint64_t receive(const T3eView& v, uint64_t e, uint32_t r) {
  const uint64_t row = v.lay.row(e, v.now);
  for (uint32_t m = nonnegative_bytes<kWidth>(v.s.cr_belt + row) & kPortMask; m; m &= m - 1)
    receive_credit(v, e, row, lowest_bit(m));
  uint64_t a = 0;
  for (uint32_t m = static_cast<uint32_t>(nonzero_bytes<kWidth>(v.s.in_valid + row)) & kPortMask; m;
       m &= m - 1)
    a |= receive_flit(v, e, r, row, lowest_bit(m));
  if (a & ~kFreshVcs) count_arrivals(v, e, row, a);
  return a & kFreshVcs;
}

// The packets the routers lost (count_arrivals) into their PEs' terminal counts, as record_loss
// would have counted them: the host runs it after each launch of clocks, before it reads them.
struct FoldLosses {
  uint64_t *lost_packets, *lost_flits, *meas_lost, *st_lost_flits;
  LS_HD void operator()(uint64_t e) const {
    if (!lost_packets[e]) return;
    meas_lost[e] += lost_packets[e];
    st_lost_flits[e] += lost_flits[e];
    lost_packets[e] = lost_flits[e] = 0;
  }
};

struct RouterCycle : CycleForms<RouterCycle> {
  T3eView v;

  // The routers [e0, e1) of one instance, on one CPU thread (CpuExec::run_cycles).
  void range(uint64_t e0, uint64_t e1) const {
    for (uint64_t e = e0; e < e1; ++e) (*this)(e);
  }

  // The lane form (run.lanes = "tile", kernels/common/tile.hpp: lanes<true>): step 1 a port a
  // lane, steps 2-4 on one lane (the barrier and special networks are rare, the PE is one
  // chain), the arbiter's inputs and outputs over the lanes (Arbiter::lanes) and the PE's source
  // on one lane. What lanes find reaches the router's counters through fold_or.
  // The role form (run.roles, tile.hpp: one_lane<false>, lanes<false>): the clock without the
  // PE, and the PE with its shell's BSUs as an item of its own. The PE meets its router only
  // through the belts' PE column (this clock's flit, credit and barrier packet; the injected
  // flit, the returned credit and the shell's barrier packet in later rows) and owns its counts,
  // its violation record and its copy of which BSUs it belongs to (PeState), so it may run
  // before, during or after its router.
  LS_HD uint32_t roles() const { return 1; }
  LS_HD void role(uint64_t e, uint32_t) const {
    const uint32_t inst = v.lay.inst_of(e), r = static_cast<uint32_t>(e % v.lay.routers);
    pe_clock(e, inst, r);
    PeInterface{v, e, inst, r}.generate();
  }

 private:
  friend struct CycleForms<RouterCycle>;
  template <bool kPe>
  LS_HD LS_FORCEINLINE void one_lane(uint64_t e) const {
    const uint32_t inst = v.lay.inst_of(e), r = static_cast<uint32_t>(e % v.lay.routers);
    const uint64_t fresh = receive(v, e, r);
    const uint32_t taken = networks(e);
    if constexpr (kPe) pe_clock(e, inst, r);
    const Arbiter arbiter{v, e, inst, r, taken, fresh};
    const uint64_t sent = arbiter();
    arbiter.settle(fresh & ~sent);
    finish<kPe>(e, inst, r, sent);
  }
  template <bool kPe, class Tile>
  LS_HD LS_FORCEINLINE void lanes(const Tile& t, uint64_t e) const {
    const uint32_t inst = v.lay.inst_of(e), r = static_cast<uint32_t>(e % v.lay.routers);
    const uint64_t row = v.lay.row(e, v.now);
    const uint64_t a = t.fold_or(kPorts, [&](uint32_t p) {
      if (v.s.cr_belt[row + p] >= 0) receive_credit(v, e, row, p);
      return v.s.in_valid[row + p] ? receive_flit(v, e, r, row, p) : 0;
    });
    const uint32_t taken = t.single([&] {
      if (a & ~kFreshVcs) count_arrivals(v, e, row, a);
      const uint32_t x = networks(e);
      if constexpr (kPe) pe_clock(e, inst, r);
      return x;
    });
    const uint64_t sent = Arbiter{v, e, inst, r, taken, a & kFreshVcs}.lanes(t);
    t.single([&] { finish<kPe>(e, inst, r, sent); });
  }
  // Steps 2 and 3's networks; returns the outputs a special or barrier packet takes this clock.
  LS_HD LS_FORCEINLINE uint32_t networks(uint64_t e) const {
    const bool barriers = v.prm.barrier != kNoBarrier;
    if (barriers) BarrierNetwork{v, e}.arrive();
    uint32_t taken = SpecialNetwork{v, e}();
    if (barriers) taken |= BarrierNetwork{v, e}.depart(taken);
    return taken;
  }
  // Step 3's shell and step 4's PE: a barrier packet from the shell takes the PE's channel for
  // the clock before any data flit.
  LS_HD LS_FORCEINLINE void pe_clock(uint64_t e, uint32_t inst, uint32_t r) const {
    const bool pe_barrier = v.prm.barrier != kNoBarrier && ShellBsus{v, e, r}();
    const PeInterface pe{v, e, inst, r};
    pe.credits();
    if (!pe_barrier) pe.inject();
    pe.receive();
  }
  // Step 6, and the watchdog's note that something moved.
  template <bool kPe>
  LS_HD LS_FORCEINLINE void finish(uint64_t e, uint32_t inst, uint32_t r, uint64_t sent) const {
    if (sent) v.s.last_move[e] = static_cast<uint32_t>(v.t);
    if constexpr (kPe) PeInterface{v, e, inst, r}.generate();
  }
};

}  // namespace ls::t3e
