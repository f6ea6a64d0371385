// The parsed configuration: a plain struct mirroring the TOML sections, the router families'
// sections among them (host/families.hpp). Allowed values and documentation of every key live
// in one table (schema.cpp: the shared sections' keys; host/<family>/<family>_keys.cpp).
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "../families.hpp"

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

// [router]: which family's router; a family's own keys are in its section (host/families.hpp).
struct RouterConfig {
  std::string family = LS_DEFAULT_FAMILY;
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

struct RunConfig {
  int64_t warmup = 2000;
  bool warmup_auto = false;
  int64_t measure = 10000;
  int64_t drain = 20000;
  int64_t seed = 1;
  std::string backend = "auto";
  int64_t auto_cuda_routers = -1;  // -1: the family's measured crossover (its record)
  int64_t threads = 0;
  bool debug = false;
  bool fuse_phases = true;
  // How a backend runs the cycles between host events (host/backend/schedule.hpp).
  std::string schedule = "auto";        // auto, launch, block, grid
  int64_t cycles_per_launch = 0;        // 0: every cycle up to the next host event
  int64_t block_threads = 0;            // 0: chosen from the instance's size
  std::string block_order = "forward";  // the CPU's order of a block's threads
  std::string hot_state = "global";     // block: the hot arrays in global or shared memory
  std::string block_view = "shared";    // block: the cycle's view in shared memory or parameter
  std::string lanes = "auto";           // threads an element: auto, one, or a tile
  bool roles = false;                   // launch, block: one-lane stages on threads of their own
  int64_t watchdog = 5000;
  double latency_threshold = 500.0;
};

struct Config {
  TopologyConfig topology;
  RouterConfig router;
  TrafficConfig traffic;
#define LS_SECTION(family, Section) Section family;  // each family's section
  LS_FAMILIES(LS_SECTION)
#undef LS_SECTION
  RunConfig run;
};

}  // namespace ls
