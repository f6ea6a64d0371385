// The TIC's monitoring facilities (section 3.4): "a programmable counter can be connected to 32
// different event sources" and "a 16 bit timer that can be read remotely ... adjusted by adding
// to it atomically". Each router has one counter (perf_count) counting the event its perf_select
// names, and a timer advancing one per routing cycle; Python reads them, and selects and adjusts
// them by writing the state arrays.
#pragma once
#include "sconnect_state.hpp"

namespace ls::sconnect {

enum PerfEvent : uint32_t {
  kEvOff = 0,
  kEvCycle = 1,        // routing cycles
  kEvInjected = 2,     // messages the host injected
  kEvDelivered = 3,    // messages delivered to the host
  kEvAccepted = 4,     // messages taken from the channels into the pool
  kEvRefused = 5,      // messages this router refused (no buffer)
  kEvRejected = 6,     // messages this router sent that were refused downstream
  kEvErrors = 7,       // corrupted messages and acknowledgements received
  kEvDuplicates = 8,   // duplicate messages discarded
  kEvMisrouted = 9,    // messages sent off the routing table (Figure 4)
  kEvPoolFull = 10,    // cycles ending with no free buffer
  kEvSent = 11,        // messages sent on any channel
  kEvSentOnPort = 16,  // + p: messages sent on channel p (16 to 31)
};
constexpr uint32_t kPerfEvents = 32;

// Event `ev` happened once at router e.
LS_HD inline void perf_event(const SconnectView& v, uint64_t e, uint32_t ev) {
  if (v.s.perf_select[e] == ev) v.s.perf_count[e] += 1;
}

}  // namespace ls::sconnect
