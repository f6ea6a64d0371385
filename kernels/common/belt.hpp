// Fixed-slot channel ("conveyor belt", after S-Connect): a channel of delay D cycles holds
// `slots >= D + 1` slots; the sender writes slot (t mod slots) in cycle t and the receiver reads
// the slot written D cycles earlier. With one spare slot the read and the write of one cycle
// never touch the same slot, so senders and receivers may run in any order, even fused into one
// parallel step. The host computes the write slot once per cycle.
#pragma once
#include <cstdint>

#include "hd.hpp"

namespace ls {

LS_HD LS_FORCEINLINE uint32_t belt_write_slot(uint64_t t, uint32_t slots) {
  return static_cast<uint32_t>(t % slots);
}

// Slot written `delay` cycles before the cycle whose write slot is `ws` (delay < slots).
LS_HD LS_FORCEINLINE uint32_t belt_read_slot(uint32_t ws, uint32_t delay, uint32_t slots) {
  return ws >= delay ? ws - delay : ws + slots - delay;
}

}  // namespace ls
