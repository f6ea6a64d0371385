// The engine's part of every family's view of one cycle: the terminals (sources and their
// measurement), the traffic each instance offers, the cycle and its belt slot, and the
// measurement window. A family's view (VcView, MetroView, ...) adds its parameters, layout,
// topology and state; the engine's run loop sets t and now (BatchEngine::view_at) and win.
#pragma once
#include <cstdint>

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

}  // namespace ls
