// Debug mode's invariant checks record the first violation an element sees, with where and
// what, for the host to report (the codes are each family's own; 0 is none).
#pragma once
#include <cstdint>

#include "hd.hpp"

namespace ls {

LS_HD inline void record_violation(uint32_t* viol, uint32_t* info, uint64_t i, uint32_t code,
                                   uint64_t t, uint32_t port, uint32_t vc, uint32_t value) {
  if (viol[i] != 0) return;  // keep the first
  viol[i] = code;
  info[i * 4 + 0] = static_cast<uint32_t>(t);
  info[i * 4 + 1] = port;
  info[i * 4 + 2] = vc;
  info[i * 4 + 3] = value;
}

}  // namespace ls
