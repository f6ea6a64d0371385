// The engine's part of every family's view of one cycle: the terminals (sources and their
// measurement), the traffic each instance offers, the cycle and its belt slot, and the
// measurement window. A family's view (VcView, MetroView, ...) adds its parameters, layout,
// topology and state; the engine's run loop sets t and now (set_clock) and win.
#pragma once
#include <cstdint>

#include "belt.hpp"
#include "hd.hpp"
#include "source.hpp"
#include "terminal_stats.hpp"
#include "traffic.hpp"

namespace ls {

// A thread's own clock: the cycle it runs and that cycle's belt slot.
struct ThreadClock {
  uint64_t t;
  uint32_t now, unused;
};

#ifndef __CUDA_ARCH__
inline thread_local ThreadClock cpu_thread_clock{};
#endif

// The calling thread's clock, which a schedule of many cycles per launch (block_cycles.hpp) sets
// each cycle: on a GPU the thread's slot at the start of its block's dynamic shared memory (the
// kernels that run block_cycles leave room for one a thread there), on the CPU the thread's own
// variable (a CPU block runs all its lanes on one thread).
LS_HD LS_FORCEINLINE ThreadClock& thread_clock() {
#ifdef __CUDA_ARCH__
  extern __shared__ __align__(16) unsigned char block_shared[];
  return reinterpret_cast<ThreadClock*>(block_shared)[threadIdx.x];
#else
  return cpu_thread_clock;
#endif
}

// A view's clock field (the cycle, or its belt slot), read as a number: its value `at`, or with
// `own` set the calling thread's clock's. A view whose clock moves every cycle cannot stay in a
// kernel's parameter, and a view in shared memory makes every state pointer read from it a shared
// load and every state access a generic one (docs/performance.md, "Where the block schedule reads
// its view"); so under many cycles per launch the view stays in the parameter and each thread
// keeps the clock itself.
template <class T, T ThreadClock::*kField>
struct ClockField {
  T at, own;  // (own as wide as at: no padding in a view copied as bytes)
  LS_HD LS_FORCEINLINE operator T() const { return own ? thread_clock().*kField : at; }
};
using ClockCycle = ClockField<uint64_t, &ThreadClock::t>;
using ClockSlot = ClockField<uint32_t, &ThreadClock::now>;

struct CycleView {
  SourceState src;               // [inst, node] (S-Connect: [inst, node, priority])
  StatsState st;                 // [inst, node]
  const TrafficParams* traffic;  // [inst] (S-Connect: [inst, priority])
  const uint32_t* perm;          // [inst, node] a random permutation per instance
  ClockCycle t;                  // the current cycle
  ClockSlot now;                 // its belt slot (t mod slots)
  Window win;                    // the measurement window
};

// A family's view moved to cycle t: its clock and the clock's belt slot. The host calls it once
// per cycle (at(t): the functor of cycle t, batch_engine.hpp).
template <class View>
LS_HD void set_clock(View& v, uint64_t t) {
  v.t = {t, 0};
  v.now = {belt_slot(t, v.lay.slots), 0};
}

// The functor at(t) of a launch of many cycles from cycle t, as block_cycles runs it: its view's
// clock is every thread's own (thread_clock).
template <class At>
auto clock_per_thread(const At& at, uint64_t t) {
  auto f = at(t);
  f.v.t.own = f.v.now.own = 1;
  return f;
}

// A thread's clock from cycle t to t + 1, its belt slot one further round the `slots`.
LS_HD LS_FORCEINLINE void tick(ThreadClock& c, uint32_t slots) {
  c.t += 1;
  c.now = c.now + 1 == slots ? 0 : c.now + 1;
}

}  // namespace ls
