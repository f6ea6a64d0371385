// The engine's part of every family's view of one cycle: the terminals (sources and their
// measurement), the traffic each instance offers, the cycle and its belt slot, and the
// measurement window. A family's view (VcView, MetroView, ...) adds its parameters, layout,
// topology and state; the engine's run loop sets t and now (set_clock) and win.
#pragma once
#include <cstdint>

#include "belt.hpp"
#include "source.hpp"
#include "terminal_stats.hpp"
#include "traffic.hpp"

namespace ls {

struct CycleView {
  SourceState src;               // [inst, node] (S-Connect: [inst, node, priority])
  StatsState st;                 // [inst, node]
  const TrafficParams* traffic;  // [inst] (S-Connect: [inst, priority])
  const uint32_t* perm;          // [inst, node] a random permutation per instance
  uint64_t t;                    // the current cycle
  uint32_t now;                  // its belt slot (t mod slots)
  Window win;                    // the measurement window
};

// A family's view moved to cycle t: its clock and the clock's belt slot. A family whose view
// holds more that follows the clock overloads it for its view (set_clock(VcView&, ...)). The
// host calls it once per cycle, or a GPU block's leader once per cycle inside a launch
// (block_cycles.hpp).
template <class View>
LS_HD void set_clock(View& v, uint64_t t) {
  v.t = t;
  v.now = belt_slot(t, v.lay.slots);
}

}  // namespace ls
