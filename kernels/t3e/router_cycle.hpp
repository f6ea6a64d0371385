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
//      each output
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

// Step 1: the input side of each port's channel, visiting only the ports something arrives at
// (router r of its instance; its belt row read whole, the PE's column left to the PE). A flit
// arriving into an empty buffer is left on the belt for now (returned: bit port * kVcs + vc):
// the arbiter reads it there, and most leave at once, never written into the buffer (settle()).
LS_HD inline uint64_t receive(const T3eView& v, uint64_t e, uint32_t r) {
  const T3eLayout& L = v.lay;
  const uint64_t row = L.row(e, v.now);
  int8_t* const cr = v.s.cr_belt + row;
  uint8_t* const valid = v.s.in_valid + row;
  for (uint32_t m = nonnegative_bytes<kWidth>(cr) & kPortMask; m; m &= m - 1) {
    const uint32_t p = lowest_bit(m);
    v.s.ovc_credits[L.vc(e, p, static_cast<uint32_t>(cr[p]))] += 1;
    cr[p] = kNone;
  }
  uint64_t fresh = 0;
  for (uint32_t m = static_cast<uint32_t>(nonzero_bytes<kWidth>(valid)) & kPortMask; m;
       m &= m - 1) {
    const uint32_t p = lowest_bit(m);
    valid[p] = 0;
    const Flit& f = v.s.in_belt[row + p];
    if (ignored(v, e, r, p, f)) continue;
    const uint32_t vc = FlitMeta::vc(f.meta);
    const uint64_t iv = L.vc(e, p, vc);
    const uint32_t n = v.s.ivc_count[iv], cap = L.capacity(vc);
    if (n >= cap) {  // credit flow control makes this impossible
      record_violation(v.s.viol, v.s.viol_info, e, kViolOverflow, v.t, p, vc, n);
      continue;
    }
    if (n == 0)
      fresh |= uint64_t{1} << (p * kVcs + vc);
    else
      v.s.buf[L.slot(e, p, vc, add_mod(v.s.ivc_head[iv], n, cap))] = f;
    v.s.ivc_count[iv] = static_cast<uint8_t>(n + 1);
  }
  return fresh;
}

// After the arbiter: the flits receive() left on the belt that did not leave go into their
// buffers (`stay`: those VCs). Nothing writes a router's belt row of this clock.
LS_HD inline void settle(const T3eView& v, uint64_t e, uint64_t stay) {
  const T3eLayout& L = v.lay;
  for (uint64_t m = stay; m; m &= m - 1) {
    const uint32_t k = lowest_bit64(m), p = k / kVcs, vc = k % kVcs;
    v.s.buf[L.slot(e, p, vc, v.s.ivc_head[L.vc(e, p, vc)])] = v.s.in_belt[L.row(e, v.now) + p];
  }
}

struct RouterCycle {
  T3eView v;

  LS_HD void operator()(uint64_t e) const {
    const uint32_t inst = v.lay.inst_of(e), r = static_cast<uint32_t>(e % v.lay.routers);
    const uint64_t fresh = receive(v, e, r);
    const bool barriers = v.prm.barrier != kNoBarrier;
    if (barriers) BarrierNetwork{v, e}.arrive();
    uint32_t taken = SpecialNetwork{v, e}();  // outputs a special or barrier packet takes
    bool pe_barrier = false;
    if (barriers) {
      taken |= BarrierNetwork{v, e}.depart(taken);
      pe_barrier = ShellBsus{v, e, r}();
    }
    const PeInterface pe{v, e, inst, r};
    pe.credits();
    if (!pe_barrier) pe.inject();
    pe.receive();
    const uint64_t sent = Arbiter{v, e, inst, r, taken, fresh}();
    settle(v, e, fresh & ~sent);
    pe.generate();
  }
  // The routers [e0, e1) of one instance, on one CPU thread (CpuExec::run_cycles).
  void range(uint64_t e0, uint64_t e1) const {
    for (uint64_t e = e0; e < e1; ++e) (*this)(e);
  }
};

}  // namespace ls::t3e
