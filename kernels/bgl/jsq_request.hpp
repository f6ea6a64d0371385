// Arbitration, phase 1 (paper, "Torus network"): for the packet at the head of each VC FIFO and
// injection FIFO, the direction and VC it asks for. The senders tell every FIFO which (direction,
// VC) pairs are available (link free, tokens for a full-sized packet, or two entering an escape
// VC; with the link-level protocol, a sender neither going back nor with a full retransmission
// FIFO) and a two-bit range of each VC's downstream tokens; ANDed with the moves the hint bits and
// the packet's VC allow, the packet takes the available dynamic pair with the most tokens (the
// modified join-the-shortest-queue, JSQ; ties at random; by range, or with bgl.jsq_tokens =
// "exact" by count, which Figure 4's early simulation needs), else its escape pair (escape_vc.hpp),
// else makes no request (with bgl.escape_vcs = "none" a dynamic packet has no escape pair: it
// waits for a dynamic VC). Deterministic and high-priority packets have only their escape pair.
// A packet at its destination asks for the reception FIFO.
#pragma once
#include "escape_vc.hpp"
#include "retransmission.hpp"
#include "tokens.hpp"

namespace ls::bgl {

struct Request {
  uint8_t dir = kNoRequest;  // a sender, kReception, or kNoRequest
  uint8_t vc = 0;            // the downstream VC
  LS_HD bool any() const { return dir != kNoRequest; }
};

// The escape pair of a packet: direction, VC and the tokens it needs there.
struct EscapePair {
  uint32_t dir, vc, need;
};

struct JsqRequest {
  const BglView& v;
  const Node& n;

  // The escape pair of packet f (hint bits non-zero) at the head of a FIFO of receiver `from`
  // (on VC on_vc), or of an injection FIFO (from = kMaxDirs). High-priority packets keep to the
  // high-priority VC in dimension order.
  LS_HD EscapePair escape_pair(const Flit& f, uint32_t from, uint32_t on_vc) const {
    const BglParams& p = v.prm;
    const uint32_t hints = Packet::hints(f.meta);
    EscapePair e;
    if (Packet::high_priority(f.meta)) {
      e.dir = escape_direction(hints, false);
      e.vc = priority_vc(p);
    } else {
      e.dir = escape_direction(hints, p.direction_order);
      e.vc =
          p.dynamic +
          (p.dateline ? dateline_vc(p.shape, e.dir, n.r, f.dest, f.src, p.uncrossed_higher) : 0u);
    }
    const bool entering = !(from < kMaxDirs && on_vc == e.vc && e.dir == (from ^ 1u));
    e.need = tokens_needed(p, e.vc, entering);
    return e;
  }

  // Whether any (direction, VC) pair packet f may ask for has the tokens it needs, links, paths
  // and buses aside: a packet with none is blocked on tokens (Figure 9's statistic). A packet
  // for the reception FIFO needs none.
  LS_HD bool has_tokens(const Flit& f, uint32_t from, uint32_t on_vc) const {
    const uint32_t hints = Packet::hints(f.meta);
    if (hints == 0) return true;
    if (!Packet::high_priority(f.meta) && !Packet::deterministic(f.meta)) {
      for (uint32_t d = 0; d < v.lay.dirs; ++d)
        for (uint32_t w = 0; w < v.prm.dynamic && ((hints >> d) & 1u); ++w)
          if (v.s.tokens[v.lay.vc(n.e, d, w)] >= kFullChunks) return true;
      if (v.prm.no_escape) return false;  // no escape pair (operator())
    }
    const EscapePair e = escape_pair(f, from, on_vc);
    return v.s.tokens[v.lay.vc(n.e, e.dir, e.vc)] >= e.need;
  }

  LS_HD bool available(uint32_t d, uint32_t vc, uint32_t need) const {
    const uint64_t p = v.lay.port(n.e, d);
    return v.s.link_free[p] <= v.t && v.s.tokens[v.lay.vc(n.e, d, vc)] >= need &&
           Retransmission{v, n}.open(p);
  }

  // The request of packet f at the head of a FIFO: `from` the receiver it arrived on (its VC
  // on_vc), or kMaxDirs for an injection FIFO; `to_network`: the receiver has a free path to the
  // senders (an injection FIFO always has); `reception`: bit 0 its normal reception bus is free,
  // bit 1 its high-priority one. `unit`
  // keys the tie-breaking draw (bgl_state.hpp).
  LS_HD Request operator()(const Flit& f, uint32_t from, uint32_t on_vc, bool to_network,
                           uint32_t reception, uint32_t unit) const {
    Request q;
    const uint32_t hints = Packet::hints(f.meta);
    const bool hp = Packet::high_priority(f.meta);
    const bool bus_free = (reception >> (hp ? 1 : 0)) & 1u;  // its reception bus
    if (hints == 0) {
      if (bus_free) q.dir = static_cast<uint8_t>(kReception);
      return q;
    }
    if (!to_network) return q;
    const BglParams& p = v.prm;
    // A row broadcast passing through leaves a copy on its reception bus as it goes on.
    if (Packet::deposit(f.meta) && from < kMaxDirs && !bus_free) return q;
    if (!hp && !Packet::deterministic(f.meta)) {
      uint32_t best = 0, ties = 0;  // best range + 1 so far, and how many pairs share it
      uint8_t cand[kMaxDirs * kMaxVcs];
      for (uint32_t d = 0; d < v.lay.dirs; ++d) {
        if (!((hints >> d) & 1u)) continue;
        for (uint32_t w = 0; w < p.dynamic; ++w) {
          if (!available(d, w, kFullChunks)) continue;
          const uint32_t tokens = v.s.tokens[v.lay.vc(n.e, d, w)];
          const uint32_t score = 1 + (!p.jsq        ? 0u
                                      : p.jsq_exact ? tokens
                                                    : range4(tokens, p.vc_chunks));
          if (score > best) best = score, ties = 0;
          if (score == best) cand[ties++] = static_cast<uint8_t>(d * kMaxVcs + w);
        }
      }
      if (ties != 0) {
        const uint32_t c = ties == 1 ? cand[0] : cand[below(arbiter_draw(v, n, unit).w[0], ties)];
        q.dir = static_cast<uint8_t>(c / kMaxVcs);
        q.vc = static_cast<uint8_t>(c % kMaxVcs);
        return q;
      }
      if (p.no_escape) return q;
    }
    const EscapePair e = escape_pair(f, from, on_vc);
    if (available(e.dir, e.vc, e.need)) {
      q.dir = static_cast<uint8_t>(e.dir);
      q.vc = static_cast<uint8_t>(e.vc);
    }
    return q;
  }
};

}  // namespace ls::bgl
