// The Cray T3E's configuration keys ([t3e]): ranges and documentation.
#include "../config/key_builders.hpp"
#include "t3e_family.hpp"

namespace ls::t3e {

std::vector<KeyInfo> section_keys() {
  using namespace keys;
  using E = T3eConfig;
  const auto part = &Config::t3e;
  return {
      int_key("t3e", "buffer_depth", part, &E::buffer_depth, 2, 64,
              "flits each of the four deterministic VCs of an input buffers (the T3E: 12), and "
              "the PE's injection VCs"),
      int_key("t3e", "pe_buffer_depth", part, &E::pe_buffer_depth, 2, 64,
              "flits each of the PE's receive VCs (request and response class) holds; at least "
              "end_point + credit_delay + 1 (13) lets the PE take a flit every clock, as Table "
              "4's one-way figures assume"),
      int_key("t3e", "adaptive_depth", part, &E::adaptive_depth, 10, 64,
              "flits the adaptive VC of an input buffers (the T3E: 22); at least the longest "
              "packet, 10 flits, since a packet enters it only if it fits whole"),
      enum_key("t3e", "adaptive_admission", part, &E::adaptive_admission,
               {"packet", "empty", "flit"},
               "when a head may enter an adaptive VC (paper section 5): packet, when the "
               "downstream adaptive buffer has room for the whole packet, several packets "
               "co-residing (the T3E's rule); empty, only when that buffer is empty, one packet "
               "at a time (Duato's rule, which the paper adapts); flit, with one free slot, as "
               "a wormhole VC (for the paper's comparison: a packet blocked half in an adaptive "
               "buffer holds it, so the deadlock freedom the other two give is lost; the "
               "watchdog ends a run that deadlocks)"),
      bool_key("t3e", "adaptive", part, &E::adaptive,
               "the ADAPT bit of the default routing tags: packets may take the adaptive VC "
               "in a profitable direction (paper section 5)"),
      enum_key("t3e", "packet_type", part, &E::packet_type,
               {"single_word_get", "vector_get", "single_word_put", "vector_put"},
               "what every PE sends (paper Table 3: request and response flits 2/2, 2/10, "
               "4/2, 10/2); traffic.offered counts request and response flits"),
      float_list_key("t3e", "packet_mix", part, &E::packet_mix, 4,
                     "a memory-traffic mix instead of t3e.packet_type: relative weights of "
                     "single-word Gets, vector Gets, single-word Puts and vector Puts (four, or "
                     "none), drawn per request"),
      float_key("t3e", "ordered_fraction", part, &E::ordered_fraction, 0.0, 1.0,
                "share of requests that are ordered: their routing tag's ADAPT bit is cleared, "
                "so they keep to the deterministic path (paper section 5); their responses "
                "may adapt"),
      int_key("t3e", "response_queue", part, &E::response_queue, 10, 65535,
              "responses a PE holds before injecting them; while it is full the PE stops "
              "taking requests (never responses)"),
      int_key("t3e", "outstanding", part, &E::outstanding, 0, 65535,
              "requests a PE may have waiting for their responses (0: no limit)"),
      int_key("t3e", "fall_through_straight", part, &E::fall_through_straight, 1, 15,
              "clocks from a router's input pins to the next router's, going straight "
              "through on the fast path (Table 2: 3)"),
      int_key("t3e", "fall_through_turn", part, &E::fall_through_turn, 1, 15,
              "the same through the crossbar: turning, or straight when the fast path is "
              "ruled out (Table 2: 6)"),
      int_key("t3e", "end_point", part, &E::end_point, 1, 30,
              "clocks through the source router from its PE, and through the destination "
              "router to its PE (Table 2: about 10)"),
      int_key("t3e", "credit_delay", part, &E::credit_delay, 1, 15,
              "clocks for a freed buffer slot to be known upstream"),
      enum_key("t3e", "lut_mode", part, &E::lut_mode,
               {"auto", "mode0", "mode1", "mode2", "mode3", "computed"},
               "R_NET_LUT mode: one entry per logical PE (mode0, up to 544 PEs), one per 4 PEs "
               "(mode1, mode2, up to 2176), R_LUT_OVERRIDE's one tag for every packet (mode3: for "
               "traffic.pattern bitcomp, transpose or bitrev, each PE's register holding its "
               "partner's tag), "
               "or tags computed from coordinates (ours, for machines beyond 2176 PEs); auto "
               "takes the first that fits"),
      enum_key("t3e", "logical_format", part, &E::logical_format,
               {"linear", "format1", "format1_yx", "format3", "random"},
               "logical PE numbers (R_LWHO): X fastest, then Y, then Z (the manual's Format 2), "
               "the manual's Formats 1 and 3 generalised, Format 1 with Y0 below X0 (the "
               "numbering of the manual's mode 2 example, Figure 48, which mode2 needs), or a "
               "random renaming (run.seed)"),
      enum_key("t3e", "half_ring_tie", part, &E::half_ring_tie, {"parity", "plus"},
               "the default tables' direction to a node half a ring away: + from even source "
               "ordinates and - from odd ones (parity: reproduces the paper's Table 1), or always "
               "+ (plus: the manual's Table 13 as printed)"),
      enum_key("t3e", "adaptive_hops", part, &E::adaptive_hops, {"ignored", "taken"},
               "a routing tag with ADAPT set and an initial or final hop (tables hand-written "
               "through R_NET_LUT; the computed ones never have both): ignored (the manual's "
               "'Adaptive Routing': an adaptive packet 'does not use the initial hop value and "
               "the final hop value' and routes minimally to the tag's address) or taken (on "
               "deterministic VCs first and last, adaptive in between: the model's reading "
               "before 2026-11-29)"),
      int_key("t3e", "r_orient", part, &E::r_orient, 0, 7,
              "R_ORIENT: bit d set makes port 1 of dimension d (X0, Y0, Z0) the - direction"),
      bool_key("t3e", "no_fast", part, &E::no_fast,
               "R_CHAN NO_FAST on every network channel: straight-through traffic crosses the "
               "crossbar too"),
      int_list_key("t3e", "partial_plane", part, &E::partial_plane, 0, 2, 1, 32,
                   "a partial plane (manual, Partial planes): [nx, ny], the last Z plane holding "
                   "only the nodes of physical X < nx and Y < ny; its X links close a ring, its Y "
                   "links do not, and the Z rings of the other columns close over kz - 1 nodes; "
                   "tables use initial +Z and final -Z hops where needed (mode0 only); empty: a "
                   "full torus"),
      int_list_key("t3e", "failed_links", part, &E::failed_links, 0, 4 * 4096, 0, 31,
                   "links that fail, four integers each: x, y, z of a node (physical "
                   "coordinates, R_PWHO) and a dimension (0 X, 1 Y, 2 Z), the link from that "
                   "node to its + neighbour in the dimension (both directions fail); the host "
                   "reroutes around them (R_NET_LUT, mode0 only)",
                   true),
      int_list_key("t3e", "failed_nodes", part, &E::failed_nodes, 0, 3 * 4096, 0, 31,
                   "nodes that fail, three integers each: x, y, z (physical coordinates); their "
                   "links fail and nobody can reach them or be reached from them",
                   true),
      int_key("t3e", "fail_cycle", part, &E::fail_cycle, 0, 1ll << 31,
              "the cycle t3e.failed_links and t3e.failed_nodes fail at (0: before the run); "
              "then the host cuts them off (R_CHAN IGNORE_NORMAL) and loads rerouted tables, "
              "and packets already routed across them are lost",
              true),
      int_list_key("t3e", "partitions", part, &E::partitions, 0, 2 * 4096, 0, 4095,
                   "partitions (manual, Virtual PE Number), two integers each: the base logical "
                   "PE and the virtual PE limit (the partition's PEs less one); a PE in a "
                   "partition sends to the partition's virtual PEs, the traffic pattern running "
                   "over them; a PE in none runs no application and counts in no result; "
                   "empty: one partition of every PE but the hot spares",
                   true),
      int_key("t3e", "hot_spares", part, &E::hot_spares, 0, 4095,
              "the highest-numbered logical PEs held as hot spares, in no partition; a failed "
              "node (t3e.failed_nodes) in a partition is renamed: a spare takes its logical PE "
              "number (R_LWHO), so the application keeps all its virtual PEs",
              true),
      enum_key("t3e", "barrier", part, &E::barrier, {"off", "barrier", "eureka"},
               "the PEs' synchronisation program on the virtual barrier/eureka networks (paper "
               "section 6), a round every t3e.barrier_period clocks on BSUs 0 .. "
               "t3e.barrier_bsus - 1, each spanning every PE (tree rooted at router 0): every "
               "PE joins a barrier, or one PE (round mod PEs) signals a eureka and the others "
               "join a barrier once they see it; results add barrier and eureka latencies"),
      int_key("t3e", "barrier_period", part, &E::barrier_period, 1, 1ll << 30,
              "clocks between the rounds of t3e.barrier; a PE whose BSU is still busy when a "
              "round begins sits it out (barrier_overruns)"),
      int_key("t3e", "barrier_bsus", part, &E::barrier_bsus, 1, 32,
              "BSUs t3e.barrier uses in each round (of the 32 per PE), each with its own "
              "packets on the same tree: they share the links, one barrier packet per clock"),
      int_key("t3e", "barrier_hop", part, &E::barrier_hop, 1, 15,
              "clocks a barrier/eureka packet takes from one BSU register to the next "
              "(router, or PE); the paper gives no figure: 3, Table 2's straight-through "
              "fall-through")};
}

}  // namespace ls::t3e
