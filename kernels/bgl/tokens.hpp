// Token flow control (paper, "Torus network"): a token is a 32-byte chunk of a downstream VC
// FIFO. For simple arbiters a VC is offered only if it can take a full-sized packet; a dynamic VC
// (and a dateline escape VC) is charged the packet's actual size. The bubble rules for the bubble
// VCs (the bubble escape VC and the high-priority VC): a packet already on the VC needs tokens
// for one full-sized packet to advance, and two to enter it (at injection, at a turn to a new
// direction, or from a dynamic VC), so after any entry some buffer on the ring has room for a
// packet. With variable sizes that free room can fragment over the ring, a deadlock the paper's
// simulator found: the fix counts each packet on the bubble as full-sized (kBubbleFixed);
// kBubbleOriginal keeps the first rule.
#pragma once
#include "bgl_state.hpp"

namespace ls::bgl {

// The high-priority VC: the last.
LS_HD inline uint32_t priority_vc(const BglParams& p) {
  return p.vcs - 1;
}
// The escape VCs and the high-priority VC: escape_bytes each.
LS_HD inline bool escape_vc(const BglParams& p, uint32_t vc) {
  return vc >= p.dynamic;
}
// The VCs kept deadlock-free by the bubble rules: the high-priority VC, and the escape VC unless
// the escape VCs are a dateline pair.
LS_HD inline bool bubble_vc(const BglParams& p, uint32_t vc) {
  return vc == priority_vc(p) || (!p.dateline && vc == p.dynamic);
}
LS_HD inline uint32_t capacity(const BglParams& p, uint32_t vc) {
  return escape_vc(p, vc) ? p.escape_chunks : p.vc_chunks;
}

// Tokens a packet of `chunks` takes from VC vc's downstream buffer.
LS_HD inline uint32_t charge(const BglParams& p, uint32_t vc, uint32_t chunks) {
  return bubble_vc(p, vc) && p.bubble_rule == kBubbleFixed ? kFullChunks : chunks;
}

// Tokens VC vc must have before a packet may request it: one full-sized packet, two for a
// packet entering a bubble VC (`entering`: it is not already on that VC going that way), or a
// dateline pair's escape VC with bgl.pair_entry = "two".
LS_HD inline uint32_t tokens_needed(const BglParams& p, uint32_t vc, bool entering) {
  const bool two = bubble_vc(p, vc) || (p.pair_entry_two && escape_vc(p, vc));
  return two && entering ? 2 * kFullChunks : kFullChunks;
}

// The two-bit range (0-3) of a count out of cap: what senders report of downstream tokens
// (JSQ) and receivers of their FIFOs' fullness (SLQ).
LS_HD inline uint32_t range4(uint32_t n, uint32_t cap) {
  const uint32_t r = 4 * n / cap;
  return r > 3 ? 3 : r;
}

}  // namespace ls::bgl
