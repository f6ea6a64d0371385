// A router's links (paper, "Torus network"): what arrives on its six incoming links, the VC
// FIFOs' bytes leaving (which frees their tokens), and what its senders put on the outgoing
// links: data packets and the eight-byte token-ack packets that carry freed tokens and
// acknowledgements back upstream. A data packet of n chunks holds its link for 32n bytes, the
// 4-byte trailer (24-bit CRC and valid byte) and the 2-byte gap; with the token-ack that answers
// it on the other direction a full packet costs the paper's 270 byte times.
#pragma once
#include "../common/belt.hpp"
#include "../common/round_robin.hpp"
#include "hint_bits.hpp"
#include "retransmission.hpp"
#include "tokens.hpp"
#include "unblocking.hpp"

namespace ls::bgl {

LS_HD inline uint32_t packet_bytes(uint32_t chunks) {
  return chunks * kChunkBytes;
}

struct Link {
  const BglView& v;
  const Node& n;

  // Heads arriving at the receivers join their VC FIFOs (their upstream sender chose the VC and
  // took its tokens), unless the link-level protocol drops them; token-acks arriving for the
  // senders return tokens and acknowledge packets (counted, and those that free a blocked
  // packet: unblocking.hpp). Whether anything arrived.
  LS_HD bool receive() const {
    bool got = false;
    for (uint32_t d = 0; d < v.lay.dirs; ++d) {
      got |= token_ack_in(d);
      got |= head_in(d);
    }
    return got;
  }

  // The token-ack arriving for sender d, if any. Whether one did. (What it frees is judged over
  // the FIFO heads, after the token-acks of the senders before d.)
  LS_HD LS_FORCEINLINE bool token_ack_in(uint32_t d) const {
    const BglLayout& L = v.lay;
    const uint64_t b = L.belt(n.e, v.now, d);
    if (!v.s.tok_valid[b]) return false;
    const uint64_t p = L.port(n.e, d);
    const Retransmission rt{v, n};
    v.s.tok_valid[b] = 0;
    const Unblocking ub{v, n};
    const uint64_t blocked = ub.blocked(d);
    for (uint32_t w = 0; w < L.vcs; ++w) v.s.tokens[L.vc(n.e, d, w)] += v.s.tok_belt[L.tok(b, w)];
    if (rt.on()) rt.acknowledged(p, v.s.tok_belt[L.tok(b, L.vcs)]);
    v.s.token_acks[p] += 1;
    if (blocked != 0 && ub.freed(blocked)) v.s.unblocking[p] += 1;
    return true;
  }

  // The head arriving at receiver d, if any. Whether one did. (No token-ack judges it: it was
  // not blocked before; unblocking.hpp.)
  LS_HD LS_FORCEINLINE bool head_in(uint32_t d) const {
    const BglLayout& L = v.lay;
    const uint64_t b = L.belt(n.e, v.now, d);
    if (!v.s.belt_valid[b]) return false;
    const uint64_t p = L.port(n.e, d);
    v.s.belt_valid[b] = 0;
    Flit f = v.s.belt[b];
    if (!Retransmission{v, n}.accept(p, f)) return true;
    const uint32_t vc = Packet::vc(f.meta), chunks = Packet::chunks(f.meta);
    const uint64_t q = L.vc(n.e, d, vc);
    const uint32_t tail = static_cast<uint32_t>(v.t) + packet_bytes(chunks) - 1 + v.prm.trailer;
    ready_at(f) = static_cast<uint32_t>(v.t) + v.prm.pipeline;
    // Into an idle FIFO the packet flows through on the bypass channel while its tail arrives.
    const bool idle = v.s.count[q] == 0 && v.s.drain_left[q] == 0;
    bypass_until(f) = v.prm.bypass && idle ? tail : 0u;
    v.s.fifo[L.slot(q, add_mod(v.s.head[q], v.s.count[q], L.ring))] = f;
    v.s.count[q] += 1;
    v.s.used[q] += static_cast<uint8_t>(charge(v.prm, vc, chunks));
    v.s.rx_count[p] += 1;
    v.s.rx_tail[p] = tail;
    return true;
  }

  // The packets leaving the VC FIFOs free their tokens a chunk at a time, as their bytes leave
  // (a bubble packet's extra tokens under the fixed rule with its last chunk).
  LS_HD bool drain() const {
    bool freed_any = false;
    for (uint32_t d = 0; d < v.lay.dirs; ++d) freed_any |= drain(d);
    return freed_any;
  }
  LS_HD LS_FORCEINLINE bool drain(uint32_t d) const {
    const BglLayout& L = v.lay;
    const uint32_t t = static_cast<uint32_t>(v.t);
    bool freed_any = false;
    for (uint32_t w = 0; w < L.vcs; ++w) {
      const uint64_t q = L.vc(n.e, d, w);
      if (v.s.drain_left[q] == 0 || v.s.drain_next[q] != t) continue;
      uint32_t freed = 1;
      v.s.drain_left[q] -= 1;
      if (v.s.drain_left[q] == 0) {
        freed += v.s.drain_extra[q];
        v.s.drain_extra[q] = 0;
      } else {
        v.s.drain_next[q] = t + kChunkBytes;
      }
      v.s.used[q] -= static_cast<uint8_t>(freed);
      v.s.owed[q] += static_cast<uint8_t>(freed);
      freed_any = true;
    }
    return freed_any;
  }

  // The senders' retransmission time-outs; whether any went back.
  LS_HD bool time_outs() const {
    const Retransmission rt{v, n};
    bool any = false;
    for (uint32_t d = 0; d < v.lay.dirs && rt.on(); ++d) any |= rt.time_out(v.lay.port(n.e, d));
    return any;
  }

  // The FIFO's packet at its head starts leaving in this cycle: its tokens free over the next
  // 32n cycles, and no other packet of the FIFO leaves before.
  LS_HD void start_drain(uint64_t q, uint32_t vc, uint32_t chunks) const {
    v.s.drain_left[q] = static_cast<uint8_t>(chunks);
    v.s.drain_extra[q] = static_cast<uint8_t>(charge(v.prm, vc, chunks) - chunks);
    v.s.drain_next[q] = static_cast<uint32_t>(v.t) + kChunkBytes;
  }

  // Packets on receiver d's link wholly in and not yet acknowledged (packets arrive one after
  // another, so all but the last are in).
  LS_HD uint32_t acks_owed(uint64_t p) const {
    const uint32_t in = v.s.rx_count[p] - (static_cast<uint32_t>(v.t) < v.s.rx_tail[p] ? 1u : 0u);
    return in - v.s.rx_acked[p];
  }

  // Whether sender d has a token-ack to send for its receiver: acknowledgements owed, or tokens
  // owed for a VC whose packet has wholly left (or a full packet's worth). Tokens freed chunk by
  // chunk thus travel together, about one token-ack per packet under load.
  LS_HD bool token_ack_due(uint32_t d) const {
    const BglLayout& L = v.lay;
    if (acks_owed(L.port(n.e, d)) != 0) return true;
    for (uint32_t w = 0; w < L.vcs; ++w) {
      const uint64_t q = L.vc(n.e, d, w);
      if (v.s.owed[q] != 0 && (v.s.drain_left[q] == 0 || v.s.owed[q] >= kFullChunks)) return true;
    }
    return false;
  }

  // Sender d sends a token-ack: every token its receiver owes and every acknowledgement, wholly
  // received upstream ack_bytes - 1 cycles after its first byte arrives.
  LS_HD void send_token_ack(uint32_t d) const {
    const BglLayout& L = v.lay;
    const uint64_t p = L.port(n.e, d);
    const uint64_t b = far_belt(d, v.prm.ack_bytes - 1);
    for (uint32_t w = 0; w < L.vcs; ++w) {
      const uint64_t q = L.vc(n.e, d, w);
      v.s.tok_belt[L.tok(b, w)] = v.s.owed[q];
      v.s.owed[q] = 0;
    }
    const uint32_t acks = acks_owed(p);
    v.s.tok_belt[L.tok(b, L.vcs)] = static_cast<uint16_t>(acks);
    v.s.rx_acked[p] += acks;
    v.s.tok_valid[b] = 1;
    occupy(d, v.prm.ack_bytes, 0);
  }

  // Sender d sends packet f on VC vc: its hint bits updated for the next node, the VC's tokens
  // taken, a copy kept for retransmission.
  LS_HD void send_packet(uint32_t d, Flit f, uint32_t vc) const {
    const uint32_t chunks = Packet::chunks(f.meta);
    const uint32_t hints = hints_after(v.prm.shape, Packet::hints(f.meta), n.r, f.dest, d);
    f.meta = Packet::moved(f.meta, vc, hints);
    v.s.tokens[v.lay.vc(n.e, d, vc)] -= static_cast<uint8_t>(charge(v.prm, vc, chunks));
    v.s.chunks_sent[v.lay.vc(n.e, d, vc)] += chunks;
    transmit(d, Retransmission{v, n}.keep(v.lay.port(n.e, d), f));
  }

  // Sender d, going back, sends the next packet of its retransmission FIFO again.
  LS_HD void resend(uint32_t d) const {
    transmit(d, Retransmission{v, n}.resend(v.lay.port(n.e, d)));
  }

  // Packet f onto sender d's link: its head reaches the far receiver after the link's delay;
  // the link is busy for the packet's bytes, trailer and gap.
  LS_HD void transmit(uint32_t d, const Flit& f) const {
    const uint32_t chunks = Packet::chunks(f.meta);
    const uint64_t b = far_belt(d, 0);
    v.s.belt[b] = Retransmission{v, n}.on_the_wire(d, f);
    v.s.belt_valid[b] = 1;
    occupy(d, packet_bytes(chunks) + v.prm.trailer + v.prm.gap,
           packet_bytes(chunks) - v.prm.overhead);
    v.s.last_move[n.e] = static_cast<uint32_t>(v.t);
  }

  // The belt slot at the far end of sender d's link that what it starts now reaches, `extra`
  // cycles after the link's delay.
  LS_HD uint64_t far_belt(uint32_t d, uint32_t extra) const {
    const BglLayout& L = v.lay;
    const int32_t far = v.topo.far[uint64_t{n.r} * L.dirs + d];
    const uint32_t fr = static_cast<uint32_t>(far) / L.dirs,
                   fd = static_cast<uint32_t>(far) % L.dirs;
    const uint32_t delay = v.topo.delay[uint64_t{n.r} * L.dirs + d] + extra;
    return L.belt(uint64_t{n.inst} * L.routers + fr, belt_arrival_slot(v.now, delay, L.slots), fd);
  }

  LS_HD void occupy(uint32_t d, uint32_t bytes, uint32_t data) const {
    const uint64_t p = v.lay.port(n.e, d);
    if (v.s.link_free[p] > v.t)
      record_violation(v.s.viol, v.s.viol_info, n.e, kViolLinkBusy, v.t, d, 0, v.s.link_free[p]);
    v.s.link_free[p] = static_cast<uint32_t>(v.t) + bytes;
    v.s.link_bytes[v.lay.link(n.e, d)] += in_window(bytes);
    v.s.payload_bytes[v.lay.link(n.e, d)] += in_window(data);
  }
  // Of `bytes` sent from this cycle on, those inside the measurement window.
  LS_HD uint32_t in_window(uint32_t bytes) const {
    const uint64_t a = v.t > v.win.start ? v.t : v.win.start,
                   b = v.t + bytes < v.win.end ? v.t + bytes : v.win.end;
    return b > a ? static_cast<uint32_t>(b - a) : 0u;
  }
};

}  // namespace ls::bgl
