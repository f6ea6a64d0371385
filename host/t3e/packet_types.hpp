// The T3E's packet types and their lengths in flits (paper Table 3): most packets carry two
// header flits; a single-word Get's response one, a single-word Put's request three. A PE sends
// one type (t3e.packet_type) or a mix of the four (t3e.packet_mix's weights).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "../config/pick.hpp"

namespace ls::t3e {

struct PacketLengths {
  uint32_t request, response;
};

// Table 3, in the order of t3e.packet_mix.
inline const char* const kPacketTypes[] = {"single_word_get", "vector_get", "single_word_put",
                                           "vector_put"};
constexpr uint32_t kTypes = 4;

inline PacketLengths packet_lengths(const std::string& type) {
  return pick<PacketLengths>(type, {{"single_word_get", {2, 2}},
                                    {"vector_get", {2, 10}},
                                    {"single_word_put", {4, 2}},
                                    {"vector_put", {10, 2}}});
}

struct MixEntry {
  PacketLengths len;
  double weight;  // normalised
};

// The types a PE sends and their shares: `weights` over kPacketTypes, or `type` alone if empty.
inline std::vector<MixEntry> packet_mix(const std::string& type,
                                        const std::vector<double>& weights) {
  if (weights.empty()) return {{packet_lengths(type), 1.0}};
  double sum = 0;
  for (double w : weights) sum += w;
  std::vector<MixEntry> mix;
  for (uint32_t i = 0; i < kTypes; ++i)
    mix.push_back({packet_lengths(kPacketTypes[i]), weights[i] / sum});
  return mix;
}

// Request and response flits per request, on average.
inline double mean_flits(const std::vector<MixEntry>& mix) {
  double m = 0;
  for (const MixEntry& x : mix) m += x.weight * (x.len.request + x.len.response);
  return m;
}

}  // namespace ls::t3e
