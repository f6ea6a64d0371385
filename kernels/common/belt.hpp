// Fixed-slot channel ("conveyor belt", after S-Connect), stored at its receiving end: a channel
// of delay D cycles into a port is a ring of `slots >= D + 1` slots indexed by arrival cycle.
// The sender writes slot ((t + D) mod slots) in cycle t; the receiver reads and empties slot
// (t mod slots). With one spare slot the read and the writes of one cycle never touch the same
// slot, so senders and receivers may run in any order, even fused into one parallel step.
// Storing belts at the receiver lets a router find everything arriving at all its ports in one
// row, whatever their delays, and only a sender that sends pays for finding the far end.
#pragma once
#include <cstdint>

#include "hd.hpp"

namespace ls {

// The slot of cycle t: what arrives in cycle t. The host computes it once per cycle.
LS_HD LS_FORCEINLINE uint32_t belt_slot(uint64_t t, uint32_t slots) {
  return static_cast<uint32_t>(t % slots);
}

// The slot a sender writes in the cycle whose slot is `now`, for a channel of `delay` cycles
// (1 <= delay < slots).
LS_HD LS_FORCEINLINE uint32_t belt_arrival_slot(uint32_t now, uint32_t delay, uint32_t slots) {
  const uint32_t s = now + delay;
  return s >= slots ? s - slots : s;
}

}  // namespace ls
