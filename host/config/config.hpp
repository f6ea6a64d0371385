// The parsed configuration: a plain struct mirroring the TOML sections. Defaults, allowed
// values and documentation of every key live in one table (schema.cpp).
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace ls {

// Bad configuration: the message names the key, the value and what is allowed.
struct ConfigError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

struct TopologyConfig {
  std::string kind = "torus";
  std::vector<int64_t> radix = {8, 8};
  int64_t link_delay = 1;
  std::vector<int64_t> dim_link_delay = {};
  int64_t terminal_delay = 1;
  // Graph kinds (hypercube, random_regular, graph): routers of at most max_ports channels.
  int64_t dimension = 4;            // hypercube: 2^dimension nodes
  int64_t nodes = 64;               // random_regular
  int64_t degree = 4;               // random_regular: channels per node
  int64_t graph_seed = 1;           // random_regular
  std::vector<int64_t> edges = {};  // graph: flat (a, b, delay) triples
  std::string edge_file = "";       // graph: "a b [delay]" per line
  int64_t max_ports = 4;            // network channels per router (the TIC's 4)
  bool dual_tic = false;            // a node is two routers joined by a link
  // multibutterfly: radix holds each stage's radix; these its dilation and the network ports
  // of an endpoint (entering and leaving).
  std::vector<int64_t> dilation = {};
  int64_t endpoint_ports = 2;
};

struct RouterConfig {
  std::string family = "vc";
  int64_t vcs = 2;
  int64_t vc_depth = 8;
  std::string routing = "dor";
  bool dateline = true;
  std::string flow_control = "wormhole";
  std::string vc_allocator = "islip";
  std::string sw_allocator = "islip";
  int64_t alloc_iters = 1;
  int64_t routing_delay = 1;
  int64_t vc_alloc_delay = 1;
  int64_t sw_alloc_delay = 1;
  int64_t st_delay = 1;
  int64_t credit_delay = 0;
};

struct TrafficConfig {
  std::string pattern = "uniform";
  std::string injection = "bernoulli";
  int64_t packet_size = 1;
  std::vector<int64_t> packet_sizes = {};
  std::vector<double> packet_size_weights = {};
  double offered = 0.2;
  std::vector<int64_t> hotspot_nodes = {0};
  double hotspot_fraction = 0.2;
  double burst_alpha = 0.1;
  double burst_beta = 0.1;
  int64_t max_packets = 0;
  int64_t alltoall_packets = 1;
  int64_t line_dimension = 0;            // linefill: the dimension of the row broadcasts (0: x)
  int64_t turn_dimension = 1;            // planefill: the plane's other dimension (1: y)
  std::vector<int64_t> hot_region = {};  // first coordinates, then extents; []: lower halves
  double hot_region_fraction = 0.25;
  int64_t sender_every = 1;  // only nodes whose number is a multiple of it create packets
  int64_t source_queue = 0;
  bool request_reply = false;
  int64_t reply_size = 1;
  int64_t reply_queue = 64;
  std::vector<double> priority_weights = {};
};

// The S-Connect router (router.family = "sconnect"; seed 004, section 3).
struct SconnectConfig {
  int64_t buffers = 64;
  int64_t reserve = -1;  // -1: sconnect_reserve() chooses from the pool
  int64_t priorities = 4;
  int64_t host_ports = 2;
  bool bypass = true;
  std::string assignment = "tic";
  int64_t sink_min_priority = 0;
  double bit_error_rate = 0.0;
  std::vector<int64_t> noisy_channels;  // (router, port) pairs at noisy_bit_error_rate
  double noisy_bit_error_rate = 0.0;
  int64_t message_bits = 100;
};

// Buffers reserved per class (S-Connect's sconnect.reserve): as set, or for -1 (the default) a
// quarter of the pool shared out over the classes of the priorities in use (3 per priority), at
// least 1 and at most 4. The paper gives no number ("a minimal number of buffers"); with 1, a
// network driven past saturation fills its pools with VC-0 messages and starves VC 1 (a random
// 4-regular graph of 64 nodes fell from 0.60 to 0.10 accepted), with 4 it holds 0.60-0.63.
inline int64_t sconnect_reserve(const SconnectConfig& s) {
  if (s.reserve >= 0) return s.reserve;
  const int64_t share = s.buffers / (4 * s.priorities);
  return share < 1 ? 1 : share > 4 ? 4 : share;
}

// The Cray T3E router (router.family = "t3e"; seeds 000, the paper, and 002, the manual).
struct T3eConfig {
  int64_t buffer_depth = 12;     // flits per deterministic VC buffer (paper section 1)
  int64_t adaptive_depth = 22;   // flits per adaptive VC buffer
  int64_t pe_buffer_depth = 16;  // flits each receive VC of the PE holds
  bool adaptive = true;          // the ADAPT bit of the default routing tags
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
  std::string half_ring_tie = "parity";  // default tags half a ring away: + from even sources
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

// The METRO router (router.family = "metro"; seed 003, Table 1 and Table 2).
struct MetroConfig {
  int64_t hw = 0;                 // header words each router consumes
  int64_t dp = 1;                 // data pipestages inside a router
  int64_t vtd = 0;                // pipeline stages on the wire out of each port (turn delay)
  std::vector<int64_t> port_vtd;  // (router, port, vtd) triples: a wire of its own length
  std::vector<int64_t> swallow;   // layers whose routers swallow the route word (hw = 0)
  int64_t width = 8;              // w: bits per word (hw = 0: the route's words)
  std::string reclaim = "fast";   // a blocked connection: fast (BCB drop) or detailed
  int64_t retry_delay = 0;        // cycles a source waits after a failed attempt
  std::string backoff = "fixed";  // fixed, exponential or random (back-off)
  int64_t backoff_limit = 10;     // doublings of retry_delay at most
  int64_t timeout = 100;          // clocks after its TURN a source waits for the acknowledgement
  int64_t reply_delay = 0;        // clocks of DATA-IDLE before a read's reply
  double word_error_rate = 0;     // chance a data word is corrupted on each wire it crosses
  double header_error_rate = 0;   // the same for a route (header) word: one slice's bit flips
  int64_t cascade = 1;            // c: routers side by side in one logical router (width)
  std::vector<int64_t> failed_routers;  // dead routers (every port out of service)
  std::vector<int64_t> failed_ports;    // (router, port) pairs whose wires break
  std::vector<int64_t> noisy_ports;     // (router, port) pairs: the wires the error rates hit
  int64_t failure_cycle = 0;            // the clock they die at (0: before the run)
  bool mask_failed = true;  // the ports wired to a dead router are disabled too (scan masking)
};

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
  bool infinite_injection_fifos = false;   // the paper's simulator's simplification
  std::vector<int64_t> dead_nodes;         // nodes that are down: software's hint bits avoid them
  std::vector<int64_t> dead_links;         // (node, dimension) pairs: its + link there is down
  std::string bubble_rule = "fixed";       // fixed (each bubble packet full-sized) or original
  std::string escape_vcs = "bubble";       // the escape VC architecture: bubble or dateline_pair
  std::string escape_order = "dimension";  // escape routes: dimension (x, y, z) or direction order
  bool jsq = true;                         // phase 1: join the shortest queue, else random
  double slq_fraction = 0.75;              // phases 2, 3: fraction of SLQ cycles (else random)
  double in_network_fraction = 1.0;        // phase 3: cycles favouring in-network packets
  bool deterministic = false;              // every packet in dimension order on the bubble VC
  bool bypass = true;                      // receivers' bypass channels
  std::string half_way = "coordinate";     // half way round: coordinate, node or plus
  double priority_fraction = 0.0;          // packets the processors send as high priority
  int64_t retransmission_packets = 0;      // link-level protocol: sender's FIFO (0: not modelled)
  int64_t retransmit_timeout = 2048;       // cycles without an acknowledgement before going back
  double link_error_rate = 0.0;            // probability a packet's crossing of a link is corrupted
  // a dateline pair's VC for packets that never cross: lower (the paper's words) or higher
  std::string dateline_uncrossed = "lower";
};

struct RunConfig {
  int64_t warmup = 2000;
  bool warmup_auto = false;
  int64_t measure = 10000;
  int64_t drain = 20000;
  int64_t seed = 1;
  std::string backend = "auto";
  int64_t auto_cuda_routers = -1;  // -1: the family's measured crossover (registry.cpp)
  int64_t threads = 0;
  bool debug = false;
  bool fuse_phases = true;
  // How a backend runs the cycles between host events (host/backend/schedule.hpp).
  std::string schedule = "auto";        // auto, launch, block, grid
  int64_t cycles_per_launch = 0;        // 0: every cycle up to the next host event
  int64_t block_threads = 0;            // 0: chosen from the instance's size
  std::string block_order = "forward";  // the CPU's order of a block's threads
  std::string hot_state = "global";     // block: the hot arrays in global or shared memory
  int64_t watchdog = 5000;
  double latency_threshold = 500.0;
};

struct Config {
  TopologyConfig topology;
  RouterConfig router;
  TrafficConfig traffic;
  SconnectConfig sconnect;
  T3eConfig t3e;
  MetroConfig metro;
  BglConfig bgl;
  RunConfig run;
};

}  // namespace ls
