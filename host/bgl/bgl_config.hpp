// Blue Gene/L's configuration section, [bgl].
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace ls {

// The Blue Gene/L torus router (router.family = "bgl"; seed 001). Sizes in bytes; the clock is
// one byte time.
struct BglConfig {
  int64_t dynamic_vcs = 2;       // dynamic (adaptive) VCs per link
  int64_t vc_bytes = 1024;       // each dynamic VC's FIFO
  int64_t escape_bytes = 1024;   // the bubble escape VC's and the high-priority VC's
  int64_t paths = 2;             // receiver-to-sender transfer buses per receiver
  int64_t pipeline_delay = 8;    // input pipeline: a head's arrival to its arbitration
  int64_t trailer_bytes = 4;     // 24-bit CRC + valid byte
  int64_t gap_bytes = 2;         // idle bytes between packets
  int64_t ack_bytes = 8;         // a token-ack (or ack-only) packet
  int64_t packet_overhead = 16;  // bytes of each packet that are not payload (software's)
  int64_t injection_fifos = 6;   // normal-priority injection FIFOs
  int64_t injection_fifo_bytes = 1024;
  bool infinite_injection_fifos = false;  // the paper's simulator's simplification
  int64_t injection_gap = 0;  // software's pacing: byte times between a node's packets, 0 none
  std::vector<int64_t> dead_nodes;    // nodes that are down: software's hint bits avoid them
  std::vector<int64_t> dead_links;    // (node, dimension) pairs: its + link there is down
  std::string bubble_rule = "fixed";  // fixed (each bubble packet full-sized) or original
  std::string escape_vcs = "bubble";  // the escape VC architecture: bubble, dateline_pair or none
  std::string escape_order = "dimension";  // escape routes: dimension (x, y, z) or direction order
  bool jsq = true;                         // phase 1: join the shortest queue, else random
  std::string jsq_tokens = "range";        // what JSQ compares: two-bit ranges or exact counts
  double slq_fraction = 0.75;              // phases 2, 3: fraction of SLQ cycles (else random)
  double in_network_fraction = 1.0;        // phase 3: cycles favouring in-network packets
  bool deterministic = false;              // every packet in dimension order on the bubble VC
  double deterministic_fraction = 0.0;     // packets software sends so, drawn per packet
  bool bypass = true;                      // receivers' bypass channels
  std::string half_way = "node";           // half way round: node, coordinate or plus
  double priority_fraction = 0.0;          // packets the processors send as high priority
  int64_t retransmission_packets = 0;      // link-level protocol: sender's FIFO (0: not modelled)
  int64_t retransmit_timeout = 2048;       // cycles without an acknowledgement before going back
  double link_error_rate = 0.0;            // probability a packet's crossing of a link is corrupted
  // a dateline pair's VC for packets that never cross: lower (the paper's words) or higher
  std::string dateline_uncrossed = "lower";
  // tokens to enter a dateline pair's escape VC: one full-sized packet's (the paper's pair has no
  // bubble rule) or two (the bubble's entry rule, to tell what keeps the bubble's rings moving)
  std::string pair_entry = "one";
  // the VHDL's arbitration gap (fixed in the hardware): a wholly blocked receiver skips a cycle
  bool arbitration_gap = false;
};

}  // namespace ls
