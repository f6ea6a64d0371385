// The modified serve-the-longest-queue choice (paper, "Torus network") that phases 2 and 3 share:
// on an SLQ cycle (a programmable fraction of cycles) the candidate whose FIFO is fullest by its
// two-bit fullness range wins, ties at random; on the other cycles the winner is random, so no
// FIFO is shut out for good.
#pragma once
#include "bgl_state.hpp"

namespace ls::bgl {

// The index (< count) of the winner among candidates of the given fullness ranges; d is the
// deciding unit's draw (w[0] picks the kind of cycle, w[1] the candidate).
LS_HD inline uint32_t slq_pick(const BglParams& p, const Draw& d, const uint8_t* fullness,
                               uint32_t count) {
  if (count == 1) return 0;
  if (d.w[0] >= p.slq_threshold) return below(d.w[1], count);
  uint32_t best = 0, ties = 0;
  for (uint32_t i = 0; i < count; ++i) {
    if (fullness[i] > best) best = fullness[i], ties = 0;
    if (fullness[i] == best) ++ties;
  }
  uint32_t k = below(d.w[1], ties);
  for (uint32_t i = 0; i < count; ++i)
    if (fullness[i] == best && k-- == 0) return i;
  return 0;
}

}  // namespace ls::bgl
