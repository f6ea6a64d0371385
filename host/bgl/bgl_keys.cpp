// Blue Gene/L's configuration keys ([bgl]): ranges and documentation.
#include "../config/key_builders.hpp"
#include "bgl_family.hpp"

namespace ls::bgl {

std::vector<KeyInfo> section_keys() {
  using namespace keys;
  using G = BglConfig;
  const auto part = &Config::bgl;
  return {
      int_key("bgl", "dynamic_vcs", part, &G::dynamic_vcs, 1, 4,
              "dynamic (adaptive) VCs per link, besides the escape VCs (bgl.escape_vcs) and the "
              "high-priority VC (the paper's Figure 2 compares 1, 2 and 4)"),
      int_key("bgl", "vc_bytes", part, &G::vc_bytes, 256, 4096,
              "bytes of each dynamic VC's FIFO, a multiple of 32 (1 KB: four full-sized "
              "packets)"),
      int_key("bgl", "escape_bytes", part, &G::escape_bytes, 512, 4096,
              "bytes of each escape VC's FIFO and of the high-priority VC's, a multiple of 32 "
              "(entering a bubble VC takes room for two full-sized packets)"),
      int_key("bgl", "paths", part, &G::paths, 1, 4,
              "transfer buses from each receiver to the senders: packets a receiver may be "
              "forwarding at once (Figure 2 compares 1, 2 and 4)"),
      int_key("bgl", "pipeline_delay", part, &G::pipeline_delay, 0, 64,
              "byte times from a packet's first byte arriving to its first arbitration (the "
              "receiver's eight-stage input pipeline); each hop also costs topology.link_delay"),
      int_key("bgl", "trailer_bytes", part, &G::trailer_bytes, 0, 16,
              "link bytes after each data packet (24-bit CRC and the valid byte)"),
      int_key("bgl", "gap_bytes", part, &G::gap_bytes, 0, 16,
              "idle bytes between packets on a link (they keep the links trained)"),
      int_key("bgl", "ack_bytes", part, &G::ack_bytes, 1, 32,
              "bytes of a token-ack or ack-only packet; with trailer and gap a 256-byte packet "
              "and its acknowledgement hold a link for 270 byte times"),
      int_key("bgl", "packet_overhead", part, &G::packet_overhead, 0, 31,
              "bytes of each packet that are not payload (header and software's; 16 gives the "
              "paper's 240 payload bytes in a 256-byte packet), for payload_util"),
      int_key("bgl", "injection_fifos", part, &G::injection_fifos, 1, 6,
              "normal-priority injection FIFOs per node; the processor fills them in turn, a "
              "packet into the next FIFO as soon as it has room"),
      int_key("bgl", "injection_fifo_bytes", part, &G::injection_fifo_bytes, 256, 8192,
              "bytes of each injection FIFO, a multiple of 32"),
      bool_key("bgl", "infinite_injection_fifos", part, &G::infinite_injection_fifos,
               "the paper's simulator's injection FIFOs: no byte limit, each created packet "
               "placed in its FIFO at once (up to 255 packets a FIFO, beyond which the "
               "processor's backlog holds them in order); bgl.injection_fifo_bytes then only "
               "scales the two-bit fullness that SLQ compares"),
      int_key("bgl", "injection_gap", part, &G::injection_gap, 0, 1 << 20,
              "software's injection flow control (the paper's 'injection flow-control software "
              "algorithms'): the processor loads a node's k-th packet into an injection FIFO no "
              "earlier than byte time k x injection_gap, so an alltoall paced at the network's "
              "rate does not run ahead into full VCs; 0: each packet as soon as its FIFO has "
              "room"),
      int_list_key("bgl", "dead_nodes", part, &G::dead_nodes, 0, 8, 0, (1 << 20) - 1,
                   "nodes that are down (numbers, x fastest): they send, receive and forward "
                   "nothing; software sets each packet's hint bits (which way round each ring) "
                   "and its deterministic bit so that no path it may take enters one, fewest hops "
                   "first; a pair no such choice connects goes in two legs through an "
                   "intermediate node within two hops of either end, whose software re-injects it "
                   "(results relayed_packets, relayed_pairs); packets to a dead node or to one "
                   "neither reaches are not sent (result unroutable_packets, counted lost; "
                   "unreachable_pairs counts the pairs)"),
      int_list_key("bgl", "dead_links", part, &G::dead_links, 0, 2 * 8, 0, (1 << 20) - 1,
                   "links that are down, as (node, dimension) pairs, up to 8: the link from that "
                   "node to its + neighbour in that dimension carries nothing either way; "
                   "software's hint bits avoid them as they avoid bgl.dead_nodes"),
      enum_key("bgl", "bubble_rule", part, &G::bubble_rule, {"fixed", "original"},
               "escape VC token accounting: fixed (each packet on a bubble VC counts as "
               "full-sized, the paper's correction) or original (actual size: free space can "
               "fragment over a ring and deadlock)"),
      enum_key("bgl", "escape_vcs", part, &G::escape_vcs, {"bubble", "dateline_pair", "none"},
               "the escape VC architecture (the paper's Figures 7-9): bubble (one bubble escape "
               "VC per link, BG/L's), dateline_pair (two escape VCs per link, the lower before "
               "a packet crosses its dimension's dateline, the wrap-round link from the maximum "
               "coordinate, the higher after; at most 3 dynamic VCs) or none (a dynamic packet "
               "never takes the escape VC and waits for a dynamic one: the experiment behind the "
               "paper's 'tori with dynamic routing can deadlock'; the bubble VC still carries "
               "deterministic packets and row broadcasts)"),
      enum_key("bgl", "dateline_uncrossed", part, &G::dateline_uncrossed, {"lower", "higher"},
               "with bgl.escape_vcs = dateline_pair, the escape VC of a packet whose route never "
               "crosses its dimension's dateline: lower (the paper's words: it has not crossed, "
               "and only crossed packets take the higher) or higher (grouped with the crossed "
               "packets, as in Dally and Seitz's pair)"),
      enum_key("bgl", "pair_entry", part, &G::pair_entry, {"one", "two"},
               "with bgl.escape_vcs = dateline_pair, the tokens a packet needs to enter an "
               "escape VC of the pair (from injection, a turn or a dynamic VC): one full-sized "
               "packet's (the paper's pair, which needs no bubble) or two (the bubble escape "
               "VC's entry rule, an experiment: docs/design/bgl.md, Escape VC architectures)"),
      enum_key("bgl", "escape_order", part, &G::escape_order, {"dimension", "direction"},
               "the escape VCs' (and deterministic packets') route: dimension order (x, then y, "
               "then z; BG/L's) or direction order (x+ y+ z+ x- y- z-, the Cray T3E's)"),
      bool_key("bgl", "jsq", part, &G::jsq,
               "phase 1: a dynamic packet takes the available direction and VC with the most "
               "downstream tokens (join the shortest queue), else one at random"),
      enum_key("bgl", "jsq_tokens", part, &G::jsq_tokens, {"range", "exact"},
               "what JSQ compares: the two-bit range of each VC's downstream tokens the senders "
               "report (the hardware's, section 'Torus network'), or the token counts "
               "themselves (the early simulator's reading: with it JSQ cuts the response time "
               "by the ~20% of Figure 4, with ranges by 1-4%)"),
      float_key("bgl", "slq_fraction", part, &G::slq_fraction, 0.0, 1.0,
                "phases 2 and 3: fraction of cycles that serve the longest queue (by two-bit "
                "fullness); the others choose at random (0: the paper's random base policy)"),
      float_key("bgl", "in_network_fraction", part, &G::in_network_fraction, 0.0, 1.0,
                "phase 3: fraction of cycles on which senders favour packets already in the "
                "network over injection"),
      float_key("bgl", "priority_fraction", part, &G::priority_fraction, 0.0, 1.0,
                "fraction of packets the processors send as high priority (drawn per packet): "
                "into the two high-priority injection FIFOs, on the high-priority VC in dimension "
                "order, first in every arbitration, into the high-priority reception FIFOs; "
                "results add priority_network_latency_mean"),
      bool_key("bgl", "bypass", part, &G::bypass,
               "receivers' bypass channels: a packet arriving into an idle VC FIFO flows through "
               "on the bypass while its tail arrives, and in phase 2 a bypass request has the "
               "lowest priority unless it is high priority (false: it competes as a buffered "
               "packet)"),
      bool_key("bgl", "arbitration_gap", part, &G::arbitration_gap,
               "the one-cycle gap the paper's VHDL simulations found in the receivers' "
               "arbitration pipeline (section 'Performance verification'; fixed in the "
               "hardware, so false by default): a receiver that had a packet ready and a path "
               "free but found every direction, VC and reception bus its packets may ask for "
               "busy in a cycle presents no request in the next, so a sender freed then may "
               "grant an injection FIFO instead, even on cycles favouring in-network packets; "
               "state receiver_blocked [router, direction]"),
      enum_key("bgl", "half_way", part, &G::half_way, {"coordinate", "node", "plus"},
               "which way a packet goes half way round a ring of even size (software's setting "
               "of the hint bits' cut-off registers): node (+ from a node whose coordinates sum "
               "to an even number: balanced under uniform and alltoall traffic and into a hot "
               "spot, where it reproduces the paper's 92% of peak), coordinate (+ from an even "
               "coordinate in that dimension, - from an odd one: a hot spot's senders in one "
               "plane all turn the same way, ~80%) or plus (always +)"),
      bool_key("bgl", "deterministic", part, &G::deterministic,
               "route every packet deterministically: dimension order (x, y, z) on the bubble "
               "VC only"),
      float_key("bgl", "deterministic_fraction", part, &G::deterministic_fraction, 0.0, 1.0,
                "fraction of packets software sends deterministically (drawn per packet; the "
                "paper: packets 'may be either dynamically or deterministically ... routed'): "
                "dimension order on the bubble VC only, the others dynamic; with "
                "bgl.deterministic = true every packet is"),
      int_key("bgl", "retransmission_packets", part, &G::retransmission_packets, 0, 128,
              "the link-level protocol: packets each sender keeps until acknowledged (its "
              "retransmission FIFO; a full FIFO stops the sender), the receiver accepting only "
              "the next in sequence with a good CRC, go-back-N after a time-out, link-level "
              "CRCs compared at the end; results add link_errors, retransmissions, "
              "link_crc_mismatches. 0: not modelled (no errors)"),
      int_key("bgl", "retransmit_timeout", part, &G::retransmit_timeout, 1, 1ll << 20,
              "byte times a sender waits for an acknowledgement of its oldest unacknowledged "
              "packet before sending it and those after it again (our assumption: the paper "
              "gives no figure; a full packet is acknowledged within about 600)"),
      float_key("bgl", "link_error_rate", part, &G::link_error_rate, 0.0, 0.5,
                "probability that one crossing of a link corrupts a data packet (its CRC check "
                "fails and the receiver drops it); needs bgl.retransmission_packets > 0")};
}

}  // namespace ls::bgl
