// The Cray T3E's configuration section, [t3e].
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace ls {

// The Cray T3E router (router.family = "t3e"; seeds 000, the paper, and 002, the manual).
struct T3eConfig {
  int64_t buffer_depth = 12;     // flits per deterministic VC buffer (paper section 1)
  int64_t adaptive_depth = 22;   // flits per adaptive VC buffer
  int64_t pe_buffer_depth = 16;  // flits each receive VC of the PE holds
  bool adaptive = true;          // the ADAPT bit of the default routing tags
  // When a head may enter an adaptive VC: packet, empty or flit (t3e.adaptive_admission).
  std::string adaptive_admission = "packet";
  std::string packet_type = "single_word_get";  // Table 3
  std::vector<double> packet_mix;               // weights of Table 3's types (empty: packet_type)
  double ordered_fraction = 0;                  // requests sent with ADAPT cleared
  int64_t response_queue = 64;        // responses a PE holds before it stops taking requests
  int64_t outstanding = 0;            // requests a PE may have in flight, 0: no limit
  int64_t fall_through_straight = 3;  // Table 2
  int64_t fall_through_turn = 6;
  int64_t end_point = 10;
  int64_t credit_delay = 2;
  std::string lut_mode = "auto";  // R_NET_LUT mode
  std::string logical_format = "linear";
  std::string half_ring_tie = "parity";   // default tags half a ring away: + from even sources
  std::string adaptive_hops = "ignored";  // an ADAPT tag's initial and final hops: or taken
  int64_t r_orient = 0;
  bool no_fast = false;  // R_CHAN NO_FAST on every network channel
  // A last Z plane of nx x ny nodes (manual, "Partial planes"): [nx, ny], or empty: full.
  std::vector<int64_t> partial_plane;
  // Faults (paper section 9), in physical coordinates: links as (x, y, z, dimension) groups,
  // the link from the node to its + neighbour; nodes as (x, y, z) groups.
  std::vector<int64_t> failed_links, failed_nodes;
  int64_t fail_cycle = 0;  // the cycle they fail at (0: before the run)
  // Partitions (manual, "Virtual PE Number"): (base logical PE, virtual PE limit) pairs; empty:
  // one partition of every PE but the hot spares, the highest-numbered logical PEs.
  std::vector<int64_t> partitions;
  int64_t hot_spares = 0;
  // Barrier/eureka networks (paper section 6): the PEs' synchronisation program.
  std::string barrier = "off";   // off, barrier, eureka
  int64_t barrier_period = 200;  // clocks between rounds
  int64_t barrier_bsus = 1;      // BSUs used, each with the default tree
  int64_t barrier_hop = 3;       // clocks a barrier packet takes to the next register
};

}  // namespace ls
