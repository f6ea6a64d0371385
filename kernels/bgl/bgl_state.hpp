// State of a batch of Blue Gene/L torus networks (Adiga et al., "Blue Gene/L torus
// interconnection network", IBM J. R&D 49(2/3), 2005; seed 001): every field one flat array, the
// instance first. The clock is the paper's network cycle, one byte time: a link moves one byte
// per cycle, so a packet of n 32-byte chunks holds its link for 32n bytes, its trailer and the gap.
// A router (a node's torus unit) has a receiver and a sender per direction, each receiver with
// its VC FIFOs (dynamic VCs, the bubble escape VC, the high-priority VC), and the processor
// interface's injection FIFOs and reception. Packets move whole: a packet is a 32-byte record
// (kernels/common/flit.hpp) with its own meta word, and the bytes behind its head follow at one
// per cycle, which is what link, path and FIFO occupancy times count.
#pragma once
#include <cstdint>

#include "../common/cycle_view.hpp"
#include "../common/flit.hpp"
#include "../common/hd.hpp"
#include "../common/rng.hpp"
#include "../common/source.hpp"
#include "../common/terminal_stats.hpp"
#include "../common/traffic.hpp"
#include "../common/violation.hpp"

namespace ls::bgl {

constexpr uint32_t kChunkBytes = 32;
constexpr uint32_t kFullChunks = 8;  // a full-sized packet: 256 bytes
constexpr uint32_t kMaxDirs = 6;     // x+ x- y+ y- z+ z- (direction d: dimension d / 2, + if even)
constexpr uint32_t kMaxVcs = 6;    // dynamic VCs (up to 4), the escape VCs (1 or 2), high priority
constexpr uint32_t kMaxPaths = 4;  // receiver-to-sender transfer buses (paths)
constexpr uint32_t kPriorityFifos = 2;  // high-priority injection FIFOs, after the normal ones
constexpr uint32_t kMaxFifos = 6 + kPriorityFifos;
constexpr uint32_t kReception = kMaxDirs;  // a request for the reception FIFO, not a sender
constexpr uint32_t kNoRequest = 0xFF;

// A packet's meta word: [0..3] chunks (1-8), [4..6] the VC it is on, [7..12] hint bits (bit d:
// may still move in direction d), [13] deterministic (dimension order on the bubble VC only),
// [14] high priority, [15] corrupted on the link it is crossing (its CRC check fails), [16..22]
// hops so far, [23] the deposit bit (a row broadcast: a copy goes into the reception FIFO of
// every node it passes), [24..31] its sequence number on that link (the link-level protocol's
// header).
struct Packet {
  LS_HD static uint32_t make(uint32_t chunks, uint32_t vc, uint32_t hints, bool det, bool hp,
                             bool deposit = false) {
    return chunks | (vc << 4) | (hints << 7) | (det ? 1u << 13 : 0u) | (hp ? 1u << 14 : 0u) |
           (deposit ? 1u << 23 : 0u);
  }
  LS_HD static uint32_t chunks(uint32_t m) { return m & 15u; }
  LS_HD static uint32_t vc(uint32_t m) { return (m >> 4) & 7u; }
  LS_HD static uint32_t hints(uint32_t m) { return (m >> 7) & 63u; }
  LS_HD static bool deterministic(uint32_t m) { return (m >> 13) & 1u; }
  LS_HD static bool high_priority(uint32_t m) { return (m >> 14) & 1u; }
  LS_HD static uint32_t hops(uint32_t m) { return (m >> 16) & 127u; }
  LS_HD static bool deposit(uint32_t m) { return (m >> 23) & 1u; }
  LS_HD static bool corrupted(uint32_t m) { return (m >> 15) & 1u; }
  LS_HD static uint32_t link_seq(uint32_t m) { return m >> 24; }
  LS_HD static uint32_t with_link(uint32_t m, uint32_t seq, bool corrupted) {
    return (m & 0x00FF7FFFu) | (seq << 24) | (corrupted ? 1u << 15 : 0u);
  }
  // The packet with the hops of another (software re-injecting it keeps its hops so far).
  LS_HD static uint32_t with_hops(uint32_t m, uint32_t hops) {
    return (m & ~(127u << 16)) | (hops << 16);
  }
  // The packet as it leaves on VC vc with hint bits h, one hop further.
  LS_HD static uint32_t moved(uint32_t m, uint32_t vc, uint32_t h) {
    const uint32_t hops = Packet::hops(m) + 1;
    return (m & ~((7u << 4) | (63u << 7) | (127u << 16))) | (vc << 4) | (h << 7) |
           ((hops > 127u ? 127u : hops) << 16);
  }
};
// A packet record's spare words: when its head may take part in arbitration where it waits, and
// until when it is on the receiver's bypass channel (its tail still arriving; 0: never was).
LS_HD inline uint32_t& ready_at(Flit& f) {
  return f.unused[0];
}
LS_HD inline uint32_t ready_at(const Flit& f) {
  return f.unused[0];
}
LS_HD inline uint32_t& bypass_until(Flit& f) {
  return f.unused[1];
}
LS_HD inline uint32_t bypass_until(const Flit& f) {
  return f.unused[1];
}

enum BubbleRule : uint32_t {
  kBubbleFixed = 0,     // each packet on the bubble VC counts as a full-sized one (the paper's fix)
  kBubbleOriginal = 1,  // tokens count actual size: free space can fragment and deadlock
};

// Which way a packet half way round a ring goes (the cut-off registers software sets).
enum HalfWay : uint32_t {
  kHalfWayCoordinate = 0,  // + from an even coordinate in the dimension, - from an odd one
  kHalfWayNode = 1,        // + from a node whose coordinates sum to an even number
  kHalfWayPlus = 2,        // always +
};

// Nodes and links that are down (bgl.dead_nodes, bgl.dead_links; kernels/bgl/dead_nodes.hpp
// routes around them). Link i joins node link_node[i] to its + neighbour in dimension
// link_dim[i]; both ways are down.
constexpr uint32_t kMaxDead = 8;
struct DeadNodes {
  uint32_t count;
  uint32_t node[kMaxDead];
  uint32_t links;
  uint32_t link_node[kMaxDead], link_dim[kMaxDead];
  LS_HD bool contains(uint32_t n) const {
    for (uint32_t i = 0; i < count; ++i)
      if (node[i] == n) return true;
    return false;
  }
  LS_HD bool any() const { return count + links != 0; }
};

struct BglParams {
  uint32_t routers;
  uint32_t dirs;         // 2 x dimensions
  uint32_t vcs;          // dynamic + escape VCs + 1
  uint32_t dynamic;      // dynamic VCs; then the escape VCs (escape_vc.hpp), the last high priority
  bool dateline;         // the escape VCs are a dateline pair (else one bubble escape VC)
  bool no_escape;        // bgl.escape_vcs = "none": dynamic packets never take the escape VC
  bool direction_order;  // escape routes in direction order x+ y+ z+ x- y- z- (else x, y, z)
  bool uncrossed_higher;  // a dateline pair puts packets that never cross on its higher VC
  bool pair_entry_two;    // entering a dateline pair's escape VC needs two full packets' tokens
  uint32_t vc_chunks, escape_chunks;  // capacity (tokens) of a dynamic VC, of the escape and HP VCs
  uint32_t ring;                      // packet slots per VC FIFO (the larger capacity)
  uint32_t fifos, fifo_chunks, fifo_ring;  // injection FIFOs per node (normal, then 2 high
  uint32_t normal_fifos;                   // priority), their capacity
  bool infinite_fifos;     // no byte limit and every backlogged packet loaded at once (the paper's)
  uint32_t injection_gap;  // software's pacing: packet k loaded from byte time k x gap (0: none)
  DeadNodes dead;          // nodes and links that are down (dead_nodes.hpp)
  uint64_t priority_threshold;       // a packet is high priority when a draw is below it
  uint32_t paths;                    // receiver-to-sender paths per receiver
  uint32_t pipeline;                 // input pipeline: cycles from a head's arrival to arbitration
  uint32_t trailer, gap, ack_bytes;  // link bytes per packet beyond its chunks; a token-ack
  uint32_t overhead;                 // bytes of a packet that are not payload (software's)
  uint32_t slots;                    // belt slots: longest link + ack_bytes
  uint32_t rtx;                      // retransmission FIFO packets per sender (0: not modelled)
  uint32_t rtx_timeout;              // cycles without an acknowledgement before going back
  uint64_t error_threshold;          // a transmission is corrupted when a draw is below it
  BubbleRule bubble_rule;
  bool jsq;                          // phase 1: most downstream tokens (JSQ), else random
  bool jsq_exact;                    // JSQ compares token counts, not their two-bit ranges
  uint64_t slq_threshold;            // phases 2, 3: an SLQ cycle when a 32-bit draw is below it
  uint64_t network_threshold;        // phase 3: in-network packets favoured when a draw is below it
  uint64_t deterministic_threshold;  // a packet is deterministic (dimension order on the bubble
                                     // VC only) when a draw is below it; 2^32: every packet
  bool bypass;                       // receivers' bypass channels (lowest priority in phase 2)
  bool arbitration_gap;  // a receiver wholly blocked in a cycle requests nothing in the next
  HalfWay half_way;      // which way a packet half way round a ring goes
  uint32_t source_queue;
  Shape shape;
};

struct BglLayout {
  uint32_t routers, dirs, vcs, ring, fifos, fifo_ring, paths, slots, rtx;
  LS_HD uint64_t port(uint64_t e, uint32_t d) const { return e * dirs + d; }
  // Sender port p's retransmission FIFO entry for link sequence number seq.
  LS_HD uint64_t rtx_slot(uint64_t p, uint32_t seq) const { return p * rtx + seq % rtx; }
  LS_HD uint64_t vc(uint64_t e, uint32_t d, uint32_t v) const { return (e * dirs + d) * vcs + v; }
  LS_HD uint64_t slot(uint64_t vcix, uint32_t s) const { return vcix * ring + s; }
  LS_HD uint64_t path(uint64_t e, uint32_t d, uint32_t p) const {
    return (e * dirs + d) * paths + p;
  }
  LS_HD uint64_t fifo(uint64_t e, uint32_t f) const { return e * fifos + f; }
  // Receiver d's bus to its normal (hp = 0) or high-priority (1) reception FIFO.
  LS_HD uint64_t bus(uint64_t e, uint32_t d, uint32_t hp) const { return port(e, d) * 2 + hp; }
  LS_HD uint64_t fifo_slot(uint64_t fx, uint32_t s) const { return fx * fifo_ring + s; }
  // Belts: what arrives at router e's receiver d (packets) and for its sender d (token-acks).
  LS_HD uint64_t belt(uint64_t e, uint32_t s, uint32_t d) const {
    return (e * slots + s) * dirs + d;
  }
  // A token-ack's tokens per VC, then the acknowledged packet count.
  LS_HD uint64_t tok(uint64_t b, uint32_t v) const { return b * (vcs + 1) + v; }
  // Link counters [inst, router, topology port]: port d + 1 is direction d.
  LS_HD uint64_t link(uint64_t e, uint32_t d) const { return e * (dirs + 1) + d + 1; }
};

// The wiring, the same for every instance: router r's direction d leads to far[r*dirs+d] =
// router * dirs + the far router's receiver (its port towards r), a link of delay[r*dirs+d].
struct BglTopology {
  const int32_t* far;
  const uint8_t* delay;
};

struct BglState {
  // Receivers [inst, router, dir, vc]: the VC FIFOs.
  Flit* fifo;            // [.., vc, ring] packets in arrival order
  uint8_t* head;         // ring index of the oldest
  uint8_t* count;        // packets held
  uint8_t* used;         // tokens (chunks) the VC holds: its packets', until their bytes leave
  uint8_t* drain_left;   // chunks of the packet leaving the FIFO still to leave (0: FIFO free)
  uint8_t* drain_extra;  // tokens a bubble packet holds beyond its chunks (fixed rule), freed last
  uint32_t* drain_next;  // the cycle its next chunk has left
  uint8_t* owed;         // tokens freed and not yet returned upstream
  // Receivers [inst, router, dir]; the reception buses [.., dir, 2]: normal, high priority
  uint32_t* path_free;  // [.., dir, path] the cycle each receiver-to-sender path is free
  uint32_t* recv_free;  // the cycle the bus to the reception FIFO is free
  Flit* recv_pkt;       // the packet on it (delivered when its last byte is in)
  uint8_t* recv_busy;   // 1: recv_pkt is being received
  uint32_t* rx_count;   // packets whose heads have arrived on the link and were accepted (with
                        // the link-level protocol: the sequence number expected next)
  uint32_t* rx_tail;    // the cycle the last of them is wholly in (its trailer checked)
  uint32_t* rx_acked;   // packets acknowledged upstream
  uint8_t* blocked;     // 1: at its last arbitration the receiver had packets to send and every
                        // (direction, VC) they may take was busy (bgl.arbitration_gap only:
                        // null without it), so its next request waits a cycle
  // Senders [inst, router, dir]
  uint32_t* link_free;  // the cycle the outgoing link is free
  uint8_t* tokens;      // [.., dir, vc] downstream tokens per VC
  // The link-level protocol (retransmission.hpp), when modelled (prm.rtx > 0). Sequence numbers
  // count packets on a link from 0 (the header carries the low 8 bits).
  Flit* rtx_fifo;         // [.., dir, rtx] sender: packets sent and not yet acknowledged
  uint32_t* rtx_time;     // [.., dir, rtx] the cycle each was last sent
  uint32_t* tx_seq;       // sender: the next packet's sequence number
  uint32_t* tx_acked;     // sender: packets acknowledged (the oldest unacknowledged one's number)
  uint32_t* tx_next;      // sender: the next to send; below tx_seq while going back (resending)
  uint32_t* tx_crc;       // sender: link-level CRC of the packets acknowledged
  uint32_t* rx_crc;       // receiver: link-level CRC of the packets accepted (rx_count of them)
  uint32_t* link_errors;  // receiver: corrupted packets discarded
  uint32_t* resent;       // sender: packets sent again
  // Statistics since cycle 0, senders [inst, router, dir]
  uint32_t* chunks_sent;  // [.., dir, vc] chunks sent on each downstream VC (not copies sent again)
  uint32_t* token_acks;   // token-acks (and ack-only packets) received
  uint32_t* unblocking;   // ... of them freeing a previously blocked packet (Figure 9)
  // Belts [inst, router, slot, dir]
  Flit* belt;           // a packet's head arriving at receiver dir
  uint8_t* belt_valid;  // 1: belt holds one
  uint16_t* tok_belt;   // [.., dir, vcs + 1] a token-ack for sender dir (tokens per VC, acks)
  uint8_t* tok_valid;
  // Processor interface [inst, router, fifo]: the injection FIFOs
  Flit* inj;  // [.., fifo, fifo_ring]
  uint8_t* inj_head;
  uint8_t* inj_count;
  uint16_t* inj_used;  // chunks held
  // Counters
  uint32_t* link_bytes;     // [inst, router, port] bytes sent in the window, every overhead
  uint32_t* payload_bytes;  // [inst, router, port] payload bytes sent in the window
  uint64_t* injected;       // [inst, router] packets that entered the network (since cycle 0)
  uint64_t* delivered;      // [inst, router] packets wholly received
  uint64_t* deposited;      // [inst, router] row-broadcast copies received on their way
  uint64_t* turned;         // [inst, router] plane-fill packets software turned at this node
  uint64_t* unroutable;     // [inst, router] packets not sent: their destination is unreachable
  uint64_t* relayed;        // [inst, router] first legs software re-injected at this node
  uint64_t* hp_count;       // [inst, router] high-priority packets of the window delivered
  uint64_t* hp_lat_sum;     // ... and their network latencies (from injection) summed
  uint32_t* wake;           // [inst, router] the cycle the router next has anything to decide
  uint32_t* last_move;      // [inst, router] last cycle a packet started on a link or bus
  uint32_t* viol;           // [inst, router] first invariant violation, 0 none
  uint32_t* viol_info;      // [inst, router, 4]
};

// Invariant violations.
enum BglViolation : uint32_t {
  kViolTokens = 1,     // a VC's tokens + its held + in flight != its capacity
  kViolOverflow = 2,   // a VC FIFO over its capacity
  kViolWrongNode = 3,  // a packet received at a node that is not its destination
  kViolLinkBusy = 4,   // a packet started on a busy link
  kViolSequence = 5,   // a sender's protocol counters out of order with its receiver's
  kViolDeadNode = 6,   // something arrived at a dead node
  kViolDeadLink = 7,   // something arrived over a dead link
};

struct BglView : CycleView {
  BglParams prm;
  BglLayout lay;
  BglTopology topo;
  BglState s;
};

// The router a stage runs for: element e = inst * routers + r.
struct Node {
  uint64_t e;
  uint32_t inst, r;
};

// Random draws of a router's arbiters in a cycle, one per deciding unit: a FIFO head (phase 1,
// unit < 64: receiver d's VC v is d * kMaxVcs + v, injection FIFO f is 48 + f), a receiver
// (phase 2, 64 + d) or a sender (phase 3, 72 + d).
LS_HD inline Draw arbiter_draw(const BglView& v, const Node& n, uint32_t unit) {
  return philox_draw(v.traffic[n.inst].seed, v.t, n.r * 128u + unit, kStreamArbitrate);
}

}  // namespace ls::bgl
