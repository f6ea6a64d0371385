// S-Connect's configuration section, [sconnect].
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace ls {

// The S-Connect router (router.family = "sconnect"; seed 004, section 3).
struct SconnectConfig {
  int64_t buffers = 64;
  int64_t reserve = -1;  // -1: sconnect_reserve() chooses from the pool
  int64_t priorities = 4;
  int64_t host_ports = 2;
  bool bypass = true;
  std::string assignment = "tic";
  std::string unacknowledged = "pool";
  int64_t sink_min_priority = 0;
  double bit_error_rate = 0.0;
  std::vector<int64_t> noisy_channels;  // (router, port) pairs at noisy_bit_error_rate
  double noisy_bit_error_rate = 0.0;
  int64_t message_bits = 100;
};

// Buffers reserved per class (S-Connect's sconnect.reserve): as set, or for -1 (the default) a
// quarter of the pool shared out over the classes of the priorities in use (3 per priority), at
// least 1 and at most 4. The paper gives no number ("a minimal number of buffers"); with 1, a
// network driven past saturation fills its pools with VC-0 messages and starves VC 1 (a random
// 4-regular graph of 64 nodes fell from 0.60 to 0.10 accepted), with 4 it holds 0.60-0.63.
inline int64_t sconnect_reserve(const SconnectConfig& s) {
  if (s.reserve >= 0) return s.reserve;
  const int64_t share = s.buffers / (4 * s.priorities);
  return share < 1 ? 1 : share > 4 ? 4 : share;
}

}  // namespace ls
