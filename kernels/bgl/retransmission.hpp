// The link-level error recovery (paper, "Torus network"): every packet crossing a link carries
// a sequence number in its header and a CRC in its trailer. The sender keeps each packet it
// sends in its retransmission FIFO until the receiver acknowledges it (token-ack and ack-only
// packets carry the count). The receiver accepts only the packet it expects next with a good
// CRC and drops the others: a corrupted one, and those behind it, which it must not take out of
// order. A sender that hears no acknowledgement for bgl.retransmit_timeout cycles after sending
// its oldest unacknowledged packet goes back and sends everything from that one again, before
// any new packet (go-back-N, as in the IBM HPS and HIPPI-6400 links the paper names). Both ends
// keep a 32-bit link-level CRC of the packets sent (acknowledged) and received; they must match
// at the end of a run, which catches errors the packet CRC let through.
//
// A packet's tokens are taken once, when it is first sent, and stay reserved for it until the
// receiver accepts a copy: a copy sent again needs no tokens, and one dropped returns none.
// What the model leaves out: the hardware may forward a packet before its CRC has arrived and
// mark it invalid with the trailer's valid byte; here the receiver drops a corrupted packet at
// once, so the downstream links never carry it.
#pragma once
#include "../common/crc32.hpp"
#include "bgl_state.hpp"

namespace ls::bgl {

// The link-level CRC after one more packet (its header and identity as the link carried it).
LS_HD inline uint32_t packet_crc(uint32_t crc, const Flit& f) {
  const uint32_t words[] = {f.dest, f.src, f.seq, f.ctime, f.itime, f.meta & ~(1u << 15)};
  for (uint32_t w : words) crc = crc32_word(crc, w);
  return crc;
}

struct Retransmission {
  const BglView& v;
  const Node& n;

  LS_HD bool on() const { return v.prm.rtx != 0; }

  // Sender port p may start a new packet: it is not going back and its FIFO has room.
  LS_HD bool open(uint64_t p) const {
    return !on() ||
           (v.s.tx_next[p] == v.s.tx_seq[p] && v.s.tx_seq[p] - v.s.tx_acked[p] < v.prm.rtx);
  }
  LS_HD bool going_back(uint64_t p) const { return on() && v.s.tx_next[p] != v.s.tx_seq[p]; }

  // A new packet f on sender port p: numbered, and a copy kept.
  LS_HD Flit keep(uint64_t p, Flit f) const {
    if (!on()) return f;
    const uint32_t seq = v.s.tx_seq[p]++;
    v.s.tx_next[p] = v.s.tx_seq[p];
    f.meta = Packet::with_link(f.meta, seq & 255u, false);
    const uint64_t k = v.lay.rtx_slot(p, seq);
    v.s.rtx_fifo[k] = f;
    v.s.rtx_time[k] = static_cast<uint32_t>(v.t);
    return f;
  }

  // The next packet sender port p sends again while going back.
  LS_HD Flit resend(uint64_t p) const {
    const uint64_t k = v.lay.rtx_slot(p, v.s.tx_next[p]++);
    v.s.rtx_time[k] = static_cast<uint32_t>(v.t);
    v.s.resent[p] += 1;
    return v.s.rtx_fifo[k];
  }

  // Packet f as it crosses sender d's link: corrupted with probability bgl.link_error_rate.
  LS_HD Flit on_the_wire(uint32_t d, Flit f) const {
    const bool bad =
        v.prm.error_threshold != 0 &&
        philox_draw(v.traffic[n.inst].seed, v.t, n.r * kMaxDirs + d, kStreamError).w[0] <
            v.prm.error_threshold;
    f.meta = Packet::with_link(f.meta, Packet::link_seq(f.meta), bad);
    return f;
  }

  // `acks` more packets acknowledged to sender port p: out of its FIFO, into its link CRC.
  LS_HD void acknowledged(uint64_t p, uint32_t acks) const {
    for (uint32_t k = 0; k < acks; ++k) {
      v.s.tx_crc[p] = packet_crc(v.s.tx_crc[p], v.s.rtx_fifo[v.lay.rtx_slot(p, v.s.tx_acked[p])]);
      v.s.tx_acked[p] += 1;
    }
    if (v.s.tx_next[p] < v.s.tx_acked[p]) v.s.tx_next[p] = v.s.tx_acked[p];
  }

  // Sender port p's time-out: nothing acknowledged for rtx_timeout cycles since its oldest
  // unacknowledged packet was sent, so it goes back to that one. Whether it did.
  LS_HD bool time_out(uint64_t p) const {
    if (!on() || v.s.tx_acked[p] == v.s.tx_seq[p] || v.t < deadline(p)) return false;
    v.s.tx_next[p] = v.s.tx_acked[p];
    return true;
  }
  LS_HD uint32_t deadline(uint64_t p) const {
    return v.s.rtx_time[v.lay.rtx_slot(p, v.s.tx_acked[p])] + v.prm.rtx_timeout;
  }

  // Whether receiver port p accepts packet f: with the protocol, only the one it expects next
  // (rx_count) with a good CRC.
  LS_HD bool accept(uint64_t p, const Flit& f) const {
    if (!on()) return true;
    if (Packet::corrupted(f.meta)) {
      v.s.link_errors[p] += 1;
      return false;
    }
    if (Packet::link_seq(f.meta) != (v.s.rx_count[p] & 255u)) return false;
    v.s.rx_crc[p] = packet_crc(v.s.rx_crc[p], f);
    return true;
  }
};

}  // namespace ls::bgl
