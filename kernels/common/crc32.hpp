// CRC-32 (the IEEE 802.3 polynomial, reflected) of 32-bit words, bit by bit: the link-level
// check Blue Gene/L's senders and receivers each keep over the packets of a link (seed 001,
// "Torus network"), small enough for a kernel and needing no table in device memory.
#pragma once
#include <cstdint>

#include "hd.hpp"

namespace ls {

LS_HD inline uint32_t crc32_word(uint32_t crc, uint32_t word) {
  crc = ~crc;
  for (int b = 0; b < 32; ++b) {
    const uint32_t bit = (crc ^ (word >> b)) & 1u;
    crc = (crc >> 1) ^ (bit ? 0xEDB88320u : 0u);
  }
  return ~crc;
}

}  // namespace ls
