// The T3E's packet types and their lengths in flits (paper Table 3): most packets carry two
// header flits; a single-word Get's response one, a single-word Put's request three.
#pragma once
#include <cstdint>
#include <string>

#include "../config/pick.hpp"

namespace ls::t3e {

struct PacketLengths {
  uint32_t request, response;
};

inline PacketLengths packet_lengths(const std::string& type) {
  return pick<PacketLengths>(type, {{"single_word_get", {2, 2}},
                                    {"vector_get", {2, 10}},
                                    {"single_word_put", {4, 2}},
                                    {"vector_put", {10, 2}}});
}

}  // namespace ls::t3e
