#include "schema.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "../../kernels/vc/vc_state.hpp"
#include "../metro/metro_setup.hpp"
#include "../sconnect/sconnect_setup.hpp"
#include "../t3e/packet_types.hpp"
#include "../t3e/partial_plane.hpp"
#include "../t3e/t3e_registers.hpp"
#include "../topology/topology.hpp"
#include "../traffic/completion_peak.hpp"

namespace ls {
namespace {

constexpr double kMaxOffered = 64.0;  // traffic.offered's range: [0, kMaxOffered]

std::string num(double x) {
  std::ostringstream o;
  o << x;
  return o.str();
}

[[noreturn]] void bad(const std::string& key, const Value& v, const std::string& allowed) {
  throw ConfigError(key + " = " + to_string(v) + ": allowed " + allowed);
}

int64_t as_int(const std::string& key, const Value& v, int64_t lo, int64_t hi) {
  const std::string range =
      "an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
  int64_t x;
  if (auto p = std::get_if<int64_t>(&v)) {
    x = *p;
  } else {
    bad(key, v, range);
  }
  if (x < lo || x > hi) bad(key, v, range);
  return x;
}

double as_float(const std::string& key, const Value& v, double lo, double hi) {
  const std::string range = "a number in [" + num(lo) + ", " + num(hi) + "]";
  double x;
  if (auto p = std::get_if<double>(&v)) {
    x = *p;
  } else if (auto q = std::get_if<int64_t>(&v)) {
    x = static_cast<double>(*q);
  } else {
    bad(key, v, range);
  }
  if (!(x >= lo && x <= hi)) bad(key, v, range);
  return x;
}

std::string join(const std::vector<std::string>& xs) {
  std::string s;
  for (size_t i = 0; i < xs.size(); ++i) s += (i ? ", " : "") + xs[i];
  return s;
}

// Builders: one line per key in the table below.
template <class S>
KeyInfo int_key(const char* sec, const char* name, S Config::*part, int64_t S::*m, int64_t lo,
                int64_t hi, const char* doc, bool per_inst = false) {
  std::string allowed = "integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
  std::string key = std::string(sec) + "." + name;
  return {sec,
          name,
          ValueType::kInt,
          allowed,
          doc,
          per_inst,
          [=](const Config& c) { return Value((c.*part).*m); },
          [=](Config& c, const Value& v) { (c.*part).*m = as_int(key, v, lo, hi); }};
}

template <class S>
KeyInfo float_key(const char* sec, const char* name, S Config::*part, double S::*m, double lo,
                  double hi, const char* doc, bool per_inst = false) {
  std::string allowed = "number in [" + num(lo) + ", " + num(hi) + "]";
  std::string key = std::string(sec) + "." + name;
  return {sec,
          name,
          ValueType::kFloat,
          allowed,
          doc,
          per_inst,
          [=](const Config& c) { return Value((c.*part).*m); },
          [=](Config& c, const Value& v) { (c.*part).*m = as_float(key, v, lo, hi); }};
}

template <class S>
KeyInfo enum_key(const char* sec, const char* name, S Config::*part, std::string S::*m,
                 std::vector<std::string> choices, const char* doc, bool per_inst = false) {
  std::string key = std::string(sec) + "." + name, allowed = join(choices);
  return {sec,
          name,
          ValueType::kString,
          allowed,
          doc,
          per_inst,
          [=](const Config& c) { return Value((c.*part).*m); },
          [=](Config& c, const Value& v) {
            auto p = std::get_if<std::string>(&v);
            if (!p) bad(key, v, allowed);
            for (auto& ch : choices)
              if (*p == ch) {
                (c.*part).*m = *p;
                return;
              }
            bad(key, v, allowed);
          }};
}

template <class S>
KeyInfo bool_key(const char* sec, const char* name, S Config::*part, bool S::*m, const char* doc) {
  std::string key = std::string(sec) + "." + name;
  return {sec,
          name,
          ValueType::kBool,
          "true, false",
          doc,
          false,
          [=](const Config& c) { return Value((c.*part).*m); },
          [=](Config& c, const Value& v) {
            auto p = std::get_if<bool>(&v);
            if (!p) bad(key, v, "true, false");
            (c.*part).*m = *p;
          }};
}

template <class S>
KeyInfo string_key(const char* sec, const char* name, S Config::*part, std::string S::*m,
                   const char* allowed, const char* doc) {
  std::string key = std::string(sec) + "." + name;
  return {sec,
          name,
          ValueType::kString,
          allowed,
          doc,
          false,
          [=](const Config& c) { return Value((c.*part).*m); },
          [=](Config& c, const Value& v) {
            auto p = std::get_if<std::string>(&v);
            // A NUL would end the name where the system reads it: another file than the one named.
            if (!p || p->find('\0') != std::string::npos) bad(key, v, allowed);
            (c.*part).*m = *p;
          }};
}

template <class S>
KeyInfo int_list_key(const char* sec, const char* name, S Config::*part, std::vector<int64_t> S::*m,
                     size_t min_len, size_t max_len, int64_t lo, int64_t hi, const char* doc,
                     bool per_inst = false) {
  std::string key = std::string(sec) + "." + name;
  std::string allowed = "a list of " + std::to_string(min_len) + " to " + std::to_string(max_len) +
                        " integers in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
  return {sec,
          name,
          ValueType::kIntList,
          allowed,
          doc,
          per_inst,
          [=](const Config& c) { return Value((c.*part).*m); },
          [=](Config& c, const Value& v) {
            const std::vector<int64_t>* p = std::get_if<std::vector<int64_t>>(&v);
            const std::vector<double>* q = std::get_if<std::vector<double>>(&v);
            if (q && q->empty()) {
              static const std::vector<int64_t> empty;
              p = &empty;
            }
            if (!p || p->size() < min_len || p->size() > max_len) bad(key, v, allowed);
            for (int64_t x : *p)
              if (x < lo || x > hi) bad(key, v, allowed);
            (c.*part).*m = *p;
          }};
}

template <class S>
KeyInfo float_list_key(const char* sec, const char* name, S Config::*part,
                       std::vector<double> S::*m, size_t max_len, const char* doc,
                       bool per_inst = false) {
  std::string key = std::string(sec) + "." + name;
  std::string allowed =
      "a list of at most " + std::to_string(max_len) + " finite non-negative numbers";
  return {sec,
          name,
          ValueType::kFloatList,
          allowed,
          doc,
          per_inst,
          [=](const Config& c) { return Value((c.*part).*m); },
          [=](Config& c, const Value& v) {
            std::vector<double> out;
            if (auto p = std::get_if<std::vector<double>>(&v)) {
              out = *p;
            } else if (auto q = std::get_if<std::vector<int64_t>>(&v)) {
              out.assign(q->begin(), q->end());
            } else {
              bad(key, v, allowed);
            }
            if (out.size() > max_len) bad(key, v, allowed);
            for (double x : out)
              if (!(x >= 0 && std::isfinite(x))) bad(key, v, allowed);
            (c.*part).*m = out;
          }};
}

std::vector<KeyInfo> make_schema() {
  using T = TopologyConfig;
  using R = RouterConfig;
  using F = TrafficConfig;
  using U = RunConfig;
  const auto topo = &Config::topology;
  const auto rtr = &Config::router;
  const auto trf = &Config::traffic;
  const auto run = &Config::run;
  using S = SconnectConfig;
  const auto sc = &Config::sconnect;
  using E = T3eConfig;
  const auto t3 = &Config::t3e;
  using M = MetroConfig;
  const auto mt = &Config::metro;
  using G = BglConfig;
  const auto bg = &Config::bgl;
  return {
      enum_key(
          "topology", "kind", topo, &T::kind,
          {"mesh", "torus", "crossbar", "hypercube", "random_regular", "graph", "multibutterfly",
           "fat_tree"},
          "k-ary n-cube mesh or torus (one terminal per router), one crossbar router with "
          "radix[0] terminals, a graph of routers with at most max_ports channels each (a "
          "hypercube, a random regular graph, or an edge list: edges or edge_file), or a "
          "multistage network of dilated crossbars with endpoints outside the routers: a "
          "multibutterfly (radix and dilation per stage) or a fat tree (radix and dilation per "
          "level, up and down routers at each)"),
      int_list_key("topology", "radix", topo, &T::radix, 1, 4, 1, 4096,
                   "routers per dimension, dimension 0 first (crossbar: [ports], at most 16); "
                   "1 only for router.family = t3e, whose machines may be one node thick; "
                   "multibutterfly: each stage's radix r (logical directions), a power of two, "
                   "the first stage first; fat_tree: each level's children a node, a power of "
                   "two, the root first; endpoints = the product"),
      int_key("topology", "link_delay", topo, &T::link_delay, 1, 255,
              "cycles a flit (and a credit) spends on a router-to-router link (mesh, torus: at "
              "most 64; graph kinds: every link whose edge gives no delay of its own)"),
      int_list_key("topology", "dim_link_delay", topo, &T::dim_link_delay, 0, 4, 1, 64,
                   "link delay per dimension (overrides link_delay; e.g. [1, 1, 4] for long "
                   "links in z)"),
      int_key("topology", "terminal_delay", topo, &T::terminal_delay, 1, 64,
              "cycles on the injection and on the ejection channel"),
      int_key("topology", "dimension", topo, &T::dimension, 1, 16,
              "hypercube: 2^dimension nodes, one channel per dimension"),
      int_key("topology", "nodes", topo, &T::nodes, 2, kMaxGraphNodes, "random_regular: nodes"),
      int_key("topology", "degree", topo, &T::degree, 1, 30,
              "random_regular: channels per node (nodes x degree even, degree < nodes)"),
      int_key("topology", "graph_seed", topo, &T::graph_seed, 0, (1ll << 62),
              "random_regular: seed of the graph (the same graph on every machine; a draw that "
              "is not connected or not simple is drawn again)"),
      int_list_key("topology", "edges", topo, &T::edges, 0, 3 << 20, 0, 1 << 30,
                   "graph: the links as a flat list of (a, b, delay) triples, node ids from 0, "
                   "delay 1 to 255 cycles; nodes = largest id + 1"),
      string_key("topology", "edge_file", topo, &T::edge_file,
                 "a file name (no NUL character), or \"\" for none",
                 "graph: a text file of links instead of edges, one \"a b [delay]\" per line "
                 "(# starts a comment; no delay: link_delay), relative to the current directory"),
      int_key("topology", "max_ports", topo, &T::max_ports, 1, 15,
              "graph kinds: network channels per router (the TIC has 4 serial channels); a "
              "graph with a router of more is refused"),
      bool_key("topology", "dual_tic", topo, &T::dual_tic,
               "graph kinds: each node is two routers (TICs) joined by their parallel ports, a "
               "link of delay 1 (paper Figure 9): the host on the first, the node's channels "
               "alternating between the two, up to 2 x max_ports"),
      int_list_key("topology", "dilation", topo, &T::dilation, 0, 4, 1, 64,
                   "multibutterfly, fat_tree: each stage's (level's) dilation d (equivalent "
                   "backward ports per direction), a power of two; a router has r x d forward "
                   "and r x d backward ports (a fat tree's up router 2 x d); empty: 1 in every "
                   "stage"),
      int_key("topology", "endpoint_ports", topo, &T::endpoint_ports, 1, 8,
              "multibutterfly, fat_tree: network ports of each endpoint, entering and leaving "
              "(the paper's Figure 1: 2), each wired to a different router where the stage "
              "allows"),
      enum_key("router", "family", rtr, &R::family, {"vc", "sconnect", "t3e", "metro", "bgl"},
               "router model: the generic virtual-channel router, Sun's S-Connect (shared "
               "buffer pool, fixed-length messages; [sconnect]), the Cray T3E's 3-D torus "
               "router (direction-order and adaptive routing, datelines, requests and "
               "responses; [t3e]), or MIT's METRO (pipelined circuit-switched dilated "
               "crossbars in a multibutterfly or fat tree, random path choice, source retry; "
               "[metro]), or "
               "IBM's Blue Gene/L torus router (virtual cut-through with tokens in 32-byte "
               "chunks, hint bits, dynamic VCs with a bubble escape, JSQ/SLQ arbitration; one "
               "cycle is one byte time; [bgl])"),
      int_key("router", "vcs", rtr, &R::vcs, 1, 16, "virtual channels per port"),
      int_key("router", "vc_depth", rtr, &R::vc_depth, 1, 255, "flits per VC buffer"),
      enum_key("router", "routing", rtr, &R::routing, {"dor", "min_adaptive"},
               "dimension order (torus: two dateline VC classes), or minimal adaptive with a "
               "dimension-order escape sub-network (Duato)"),
      bool_key("router", "dateline", rtr, &R::dateline,
               "torus dimension order: two dateline VC classes; false puts every packet on any VC "
               "of the port, so a ring's channels wait on each other in a cycle and can deadlock "
               "(for teaching why tori need datelines)"),
      enum_key("router", "flow_control", rtr, &R::flow_control, {"wormhole", "vct"},
               "wormhole, or virtual cut-through (a head advances only if the downstream VC can "
               "take the whole packet)"),
      enum_key("router", "vc_allocator", rtr, &R::vc_allocator, {"islip", "separable_input_first"},
               "VC allocator"),
      enum_key("router", "sw_allocator", rtr, &R::sw_allocator, {"islip", "separable_input_first"},
               "switch allocator"),
      int_key("router", "alloc_iters", rtr, &R::alloc_iters, 1, 8, "iSLIP iterations"),
      int_key("router", "routing_delay", rtr, &R::routing_delay, 0, 64, "route computation cycles"),
      int_key("router", "vc_alloc_delay", rtr, &R::vc_alloc_delay, 0, 64, "VC allocation cycles"),
      int_key("router", "sw_alloc_delay", rtr, &R::sw_alloc_delay, 1, 64,
              "switch allocation cycles"),
      int_key("router", "st_delay", rtr, &R::st_delay, 0, 64, "switch traversal cycles"),
      int_key("router", "credit_delay", rtr, &R::credit_delay, 0, 64,
              "cycles a router takes to send a credit, on top of the link"),
      enum_key(
          "traffic", "pattern", trf, &F::pattern,
          {"uniform", "transpose", "bitcomp", "bitrev", "shuffle", "tornado", "neighbor", "hotspot",
           "randperm", "alltoall", "hotregion", "linefill", "gather", "planefill", "fft"},
          "destination pattern (uniform includes the source itself, as BookSim; alltoall: "
          "every node sends traffic.alltoall_packets packets to every other node, in a "
          "random order of its own, and the run ends when all are delivered; gather: the "
          "same from every node outside traffic.hot_region to every node inside it, the "
          "Blue Gene/L paper's hot-spot and hot-region measurements; linefill: "
          "router.family bgl's row broadcast, each packet along traffic.line_dimension to "
          "every node of its ring, half of them each way round; planefill: bgl's broadcast "
          "to every node of the plane of traffic.line_dimension and traffic.turn_dimension, "
          "in four colours whose corners software turns; fft: the butterfly exchanges of a "
          "radix-2 FFT, each packet to the node whose number differs in one bit, drawn "
          "uniformly per packet)",
          true),
      int_key("traffic", "alltoall_packets", trf, &F::alltoall_packets, 1, 1 << 16,
              "alltoall: packets from every node to every other node (gather: from every node "
              "outside the hot region to every node inside). Each node creates its packets one "
              "a cycle from cycle 0 (traffic.offered, run.warmup and run.measure are not used); "
              "the run ends when all are delivered, or run.drain cycles after the start; results "
              "add completion_cycles, and on a torus peak_percent, the time the busiest links "
              "(gather: the links entering the region) need over the time taken (router.family "
              "= vc or bgl)",
              true),
      int_key("traffic", "line_dimension", trf, &F::line_dimension, 0, kMaxDims - 1,
              "linefill: the dimension the row broadcasts go along (0: x, 1: y, 2: z; the "
              "paper's deposit bit works down any of them); planefill: the plane's first dimension",
              true),
      int_key("traffic", "turn_dimension", trf, &F::turn_dimension, 0, kMaxDims - 1,
              "planefill: the plane's second dimension, along which software turns the "
              "broadcasts of the first",
              true),
      enum_key("traffic", "injection", trf, &F::injection, {"bernoulli", "onoff"},
               "packet creation process: Bernoulli, or a two-state Markov on/off (bursty) source",
               true),
      int_key("traffic", "packet_size", trf, &F::packet_size, 1, 65535,
              "flits per packet (sconnect: messages, 1 or 4 for a quad-message)", true),
      int_list_key("traffic", "packet_sizes", trf, &F::packet_sizes, 0, 8, 1, 65535,
                   "size distribution: sizes (overrides packet_size when not empty)", true),
      float_list_key("traffic", "packet_size_weights", trf, &F::packet_size_weights, 8,
                     "size distribution: relative weight of each entry of packet_sizes", true),
      float_key("traffic", "offered", trf, &F::offered, 0.0, kMaxOffered,
                "offered load in flits per node per cycle (with request-reply: requests and "
                "replies together)",
                true),
      int_list_key("traffic", "hotspot_nodes", trf, &F::hotspot_nodes, 0, 8, 0, 1 << 30,
                   "hotspot: the hot nodes", true),
      float_key("traffic", "hotspot_fraction", trf, &F::hotspot_fraction, 0.0, 1.0,
                "hotspot: fraction of packets sent to a hot node (the rest uniform)", true),
      int_list_key("traffic", "hot_region", trf, &F::hot_region, 0, 2 * kMaxDims, 0, 4095,
                   "hotregion and gather: the region's first coordinate in each dimension, then "
                   "its extent "
                   "in each ([]: the lower half of every dimension, 12.5% of a 3-D torus's nodes, "
                   "as the Blue Gene/L paper's hot region)",
                   true),
      float_key("traffic", "hot_region_fraction", trf, &F::hot_region_fraction, 0.0, 1.0,
                "hotregion: fraction of packets sent to a node of the region drawn uniformly "
                "(the rest uniform over all nodes; the paper's 25%)",
                true),
      float_key("traffic", "burst_alpha", trf, &F::burst_alpha, 0.0, 1.0,
                "on/off: probability per cycle that an off source turns on", true),
      float_key("traffic", "burst_beta", trf, &F::burst_beta, 0.0, 1.0,
                "on/off: probability per cycle that an on source turns off", true),
      int_key("traffic", "max_packets", trf, &F::max_packets, 0, 1ll << 31,
              "each source creates at most this many packets (0: no limit); with offered = "
              "packet_size every source creates one packet per cycle, a deterministic pattern "
              "for golden traces",
              true),
      int_key("traffic", "sender_every", trf, &F::sender_every, 1, 1ll << 30,
              "only nodes whose number is a multiple of this create packets, each at "
              "traffic.offered (1: every node); one-way traffic, such as the T3E's Table 4, "
              "from 2. offered and accepted stay averages over all nodes",
              true),
      int_key("traffic", "source_queue", trf, &F::source_queue, 0, 4096,
              "source queue capacity in packets (0: unbounded); a source does not create "
              "packets while its queue is full (they are counted as refused)"),
      bool_key("traffic", "request_reply", trf, &F::request_reply,
               "every packet is a request answered by a reply from its destination; requests and "
               "replies use separate halves of the VCs (two message classes); METRO: reads, the "
               "reply on the request's own connection, turned back (metro.reply_delay)"),
      int_key("traffic", "reply_size", trf, &F::reply_size, 1, 32767,
              "request-reply: flits per reply (METRO: words, the checksum included)", true),
      int_key("traffic", "reply_queue", trf, &F::reply_queue, 1, 65535,
              "request-reply: replies a terminal can hold; while full it stops taking requests "
              "(at least vcs/2 x vc_depth)"),
      float_list_key(
          "traffic", "priority_weights", trf, &F::priority_weights, 4,
          "the offered load split over message priorities 0, 1, ... in these proportions, "
          "each priority a source queue of its own at the host (empty: all priority 0; "
          "router.family = sconnect only, 3 is the highest)",
          true),
      int_key("sconnect", "buffers", sc, &S::buffers, 2, 64,
              "messages the shared buffer pool of a router holds (the TIC: 64)"),
      int_key("sconnect", "reserve", sc, &S::reserve, -1, 21,
              "buffers reserved for each priority in use and each of its classes (VC 0, VC 1, "
              "delivery to the host), so no class can block another; -1 (the default): "
              "buffers / (4 x priorities), at least 1 and at most 4"),
      int_key("sconnect", "priorities", sc, &S::priorities, 1, 4,
              "priorities in use (reservations are made for these; traffic.priority_weights "
              "has at most this many entries)"),
      int_key("sconnect", "host_ports", sc, &S::host_ports, 1, 2,
              "messages the host can inject, and take, per routing cycle (the TIC's two "
              "parallel ports)"),
      bool_key("sconnect", "bypass", sc, &S::bypass,
               "a message for an idle channel leaves in the cycle it arrives, without waiting "
               "in the pool (section 3.1)"),
      enum_key("sconnect", "assignment", sc, &S::assignment, {"tic", "near_optimal"},
               "transmitter work assignment: the TIC's fixed order (a message joins the queue of "
               "its permissible channel with the fewest pending messages), or Figure 4's "
               "near-optimal one (each cycle, transmitters with the fewest pending messages "
               "first take the highest-priority, oldest, least flexible message; a nearly full "
               "pool sends its excess to random neighbours)"),
      float_key("sconnect", "bit_error_rate", sc, &S::bit_error_rate, 0.0, 0.01,
                "transmission errors: the probability that a bit of a slot (message, or "
                "acknowledgement) is corrupted; the channel protocol (section 3.2) retransmits",
                true),
      int_list_key("sconnect", "noisy_channels", sc, &S::noisy_channels, 0, 32, 0, (1 << 20) - 1,
                   "channels, as (router, port) pairs (ports 1.., as topology.kind numbers them), "
                   "whose bits are corrupted at sconnect.noisy_bit_error_rate both ways instead of "
                   "sconnect.bit_error_rate; the state array channel_error_threshold holds every "
                   "channel's rate and may be written from Python",
                   true),
      float_key("sconnect", "noisy_bit_error_rate", sc, &S::noisy_bit_error_rate, 0.0, 0.01,
                "the bit error rate of sconnect.noisy_channels", true),
      int_key("sconnect", "message_bits", sc, &S::message_bits, 16, 65536,
              "bits a slot carries, for bit_error_rate (the paper's example: a 100-bit message)",
              true),
      int_key("sconnect", "sink_min_priority", sc, &S::sink_min_priority, 0, 3,
              "hosts take only messages of at least this priority; the others stay in the "
              "network (section 2.3's case of a network saturated with messages nobody removes)"),
      int_key("t3e", "buffer_depth", t3, &E::buffer_depth, 2, 64,
              "flits each of the four deterministic VCs of an input buffers (the T3E: 12), and "
              "the PE's injection VCs"),
      int_key("t3e", "pe_buffer_depth", t3, &E::pe_buffer_depth, 2, 64,
              "flits each of the PE's receive VCs (request and response class) holds; at least "
              "end_point + credit_delay + 1 (13) lets the PE take a flit every clock, as Table "
              "4's one-way figures assume"),
      int_key("t3e", "adaptive_depth", t3, &E::adaptive_depth, 10, 64,
              "flits the adaptive VC of an input buffers (the T3E: 22); at least the longest "
              "packet, 10 flits, since a packet enters it only if it fits whole"),
      bool_key("t3e", "adaptive", t3, &E::adaptive,
               "the ADAPT bit of the default routing tags: packets may take the adaptive VC "
               "in a profitable direction (paper section 5)"),
      enum_key("t3e", "packet_type", t3, &E::packet_type,
               {"single_word_get", "vector_get", "single_word_put", "vector_put"},
               "what every PE sends (paper Table 3: request and response flits 2/2, 2/10, "
               "4/2, 10/2); traffic.offered counts request and response flits"),
      float_list_key("t3e", "packet_mix", t3, &E::packet_mix, 4,
                     "a memory-traffic mix instead of t3e.packet_type: relative weights of "
                     "single-word Gets, vector Gets, single-word Puts and vector Puts (four, or "
                     "none), drawn per request"),
      float_key("t3e", "ordered_fraction", t3, &E::ordered_fraction, 0.0, 1.0,
                "share of requests that are ordered: their routing tag's ADAPT bit is cleared, "
                "so they keep to the deterministic path (paper section 5); their responses "
                "may adapt"),
      int_key("t3e", "response_queue", t3, &E::response_queue, 10, 65535,
              "responses a PE holds before injecting them; while it is full the PE stops "
              "taking requests (never responses)"),
      int_key("t3e", "outstanding", t3, &E::outstanding, 0, 65535,
              "requests a PE may have waiting for their responses (0: no limit)"),
      int_key("t3e", "fall_through_straight", t3, &E::fall_through_straight, 1, 15,
              "clocks from a router's input pins to the next router's, going straight "
              "through on the fast path (Table 2: 3)"),
      int_key("t3e", "fall_through_turn", t3, &E::fall_through_turn, 1, 15,
              "the same through the crossbar: turning, or straight when the fast path is "
              "ruled out (Table 2: 6)"),
      int_key("t3e", "end_point", t3, &E::end_point, 1, 30,
              "clocks through the source router from its PE, and through the destination "
              "router to its PE (Table 2: about 10)"),
      int_key("t3e", "credit_delay", t3, &E::credit_delay, 1, 15,
              "clocks for a freed buffer slot to be known upstream"),
      enum_key(
          "t3e", "lut_mode", t3, &E::lut_mode,
          {"auto", "mode0", "mode1", "mode2", "mode3", "computed"},
          "R_NET_LUT mode: one entry per logical PE (mode0, up to 544 PEs), one per 4 PEs "
          "(mode1, mode2, up to 2176), R_LUT_OVERRIDE's one tag for every packet (mode3: refused, "
          "traffic to more than one PE needs a table), "
          "or tags computed from coordinates (ours, for machines beyond 2176 PEs); auto "
          "takes the first that fits"),
      enum_key("t3e", "logical_format", t3, &E::logical_format,
               {"linear", "format1", "format3", "random"},
               "logical PE numbers (R_LWHO): X fastest, then Y, then Z (the manual's Format 2), "
               "the manual's Formats 1 and 3 generalised, or a random renaming (run.seed)"),
      enum_key("t3e", "half_ring_tie", t3, &E::half_ring_tie, {"parity", "plus"},
               "the default tables' direction to a node half a ring away: + from even source "
               "ordinates and - from odd ones (parity: reproduces the paper's Table 1), or always "
               "+ (plus: the manual's Table 13 as printed)"),
      int_key("t3e", "r_orient", t3, &E::r_orient, 0, 7,
              "R_ORIENT: bit d set makes port 1 of dimension d (X0, Y0, Z0) the - direction"),
      bool_key("t3e", "no_fast", t3, &E::no_fast,
               "R_CHAN NO_FAST on every network channel: straight-through traffic crosses the "
               "crossbar too"),
      int_list_key("t3e", "partial_plane", t3, &E::partial_plane, 0, 2, 1, 32,
                   "a partial plane (manual, Partial planes): [nx, ny], the last Z plane holding "
                   "only the nodes of physical X < nx and Y < ny; its X links close a ring, its Y "
                   "links do not, and the Z rings of the other columns close over kz - 1 nodes; "
                   "tables use initial +Z and final -Z hops where needed (mode0 only); empty: a "
                   "full torus"),
      int_list_key("t3e", "failed_links", t3, &E::failed_links, 0, 4 * 4096, 0, 31,
                   "links that fail, four integers each: x, y, z of a node (physical "
                   "coordinates, R_PWHO) and a dimension (0 X, 1 Y, 2 Z), the link from that "
                   "node to its + neighbour in the dimension (both directions fail); the host "
                   "reroutes around them (R_NET_LUT, mode0 only)",
                   true),
      int_list_key("t3e", "failed_nodes", t3, &E::failed_nodes, 0, 3 * 4096, 0, 31,
                   "nodes that fail, three integers each: x, y, z (physical coordinates); their "
                   "links fail and nobody can reach them or be reached from them",
                   true),
      int_key("t3e", "fail_cycle", t3, &E::fail_cycle, 0, 1ll << 31,
              "the cycle t3e.failed_links and t3e.failed_nodes fail at (0: before the run); "
              "then the host cuts them off (R_CHAN IGNORE_NORMAL) and loads rerouted tables, "
              "and packets already routed across them are lost",
              true),
      int_list_key("t3e", "partitions", t3, &E::partitions, 0, 2 * 4096, 0, 4095,
                   "partitions (manual, Virtual PE Number), two integers each: the base logical "
                   "PE and the virtual PE limit (the partition's PEs less one); a PE in a "
                   "partition sends to the partition's virtual PEs, the traffic pattern running "
                   "over them; a PE in none runs no application and counts in no result; "
                   "empty: one partition of every PE but the hot spares",
                   true),
      int_key("t3e", "hot_spares", t3, &E::hot_spares, 0, 4095,
              "the highest-numbered logical PEs held as hot spares, in no partition; a failed "
              "node (t3e.failed_nodes) in a partition is renamed: a spare takes its logical PE "
              "number (R_LWHO), so the application keeps all its virtual PEs",
              true),
      enum_key("t3e", "barrier", t3, &E::barrier, {"off", "barrier", "eureka"},
               "the PEs' synchronisation program on the virtual barrier/eureka networks (paper "
               "section 6), a round every t3e.barrier_period clocks on BSUs 0 .. "
               "t3e.barrier_bsus - 1, each spanning every PE (tree rooted at router 0): every "
               "PE joins a barrier, or one PE (round mod PEs) signals a eureka and the others "
               "join a barrier once they see it; results add barrier and eureka latencies"),
      int_key("t3e", "barrier_period", t3, &E::barrier_period, 1, 1ll << 30,
              "clocks between the rounds of t3e.barrier; a PE whose BSU is still busy when a "
              "round begins sits it out (barrier_overruns)"),
      int_key("t3e", "barrier_bsus", t3, &E::barrier_bsus, 1, 32,
              "BSUs t3e.barrier uses in each round (of the 32 per PE), each with its own "
              "packets on the same tree: they share the links, one barrier packet per clock"),
      int_key("t3e", "barrier_hop", t3, &E::barrier_hop, 1, 15,
              "clocks a barrier/eureka packet takes from one BSU register to the next "
              "(router, or PE); the paper gives no figure: 3, Table 2's straight-through "
              "fall-through"),
      int_key("metro", "hw", mt, &M::hw, 0, 8,
              "header words each router consumes from the head of a stream while it sets up the "
              "connection (Table 1's hw); 0: the route's words pass through to the endpoint"),
      int_key("metro", "dp", mt, &M::dp, 1, 8,
              "data pipestages inside a router (Table 1's dp): clocks a word takes through it"),
      int_key("metro", "vtd", mt, &M::vtd, 0, 15,
              "pipeline stages on the wire out of every router port (Table 2's turn delay); a "
              "stage costs dp + vtd clocks (Table 4's t_stg / t_clk)"),
      int_list_key("metro", "port_vtd", mt, &M::port_vtd, 0, 3 * 64, 0, 1 << 20,
                   "wires of their own length (Table 2's turn delay is per port: 'closer routers "
                   "should be able to take advantage of ... faster' signalling), as (router, "
                   "port, vtd) triples, vtd 0 to 15: words leaving a router over that port's wire "
                   "take dp + vtd clocks, either way on a router-to-router wire (an endpoint's "
                   "own side stays one clock); the other wires keep metro.vtd"),
      int_list_key("metro", "swallow", mt, &M::swallow, 0, 8, 0, 7,
                   "layers (stages; a fat tree's in the order a connection crosses them) whose "
                   "routers swallow the route word they routed on, so the next word leads for "
                   "the next router (Table 2's swallow, per forward port: the state array "
                   "swallow; only with hw = 0); a header word must lead every router's stream"),
      int_key("metro", "width", mt, &M::width, 1, 32,
              "w: bits per word; with hw = 0 the route (log2 r bits per stage) fills "
              "ceil(bits / w) header words"),
      enum_key("metro", "reclaim", mt, &M::reclaim, {"fast", "detailed"},
               "a blocked connection: fast reclamation (a drop request back on the BCB releases "
               "the path at once; the source learns only the stage) or detailed (the router "
               "holds the path until the source turns, then returns its STATUS and checksum)"),
      int_key("metro", "retry_delay", mt, &M::retry_delay, 0, 1 << 20,
              "clocks a source waits after a blocked attempt before it retries (a new random "
              "path)"),
      enum_key("metro", "backoff", mt, &M::backoff, {"fixed", "exponential", "random"},
               "the source's retry policy: wait metro.retry_delay clocks after every failed "
               "attempt (fixed), or after the k-th failure of a message retry_delay x 2^(k-1) "
               "(exponential), or a uniformly random wait from 0 to that (random: binary "
               "exponential back-off), the doublings at most metro.backoff_limit"),
      int_key("metro", "backoff_limit", mt, &M::backoff_limit, 0, 10,
              "doublings of metro.retry_delay at most, for metro.backoff exponential or random"),
      int_key("metro", "timeout", mt, &M::timeout, 1, 1 << 20,
              "clocks a source waits after its TURN for the acknowledgement (a read's source, "
              "after the acknowledgement, this long beyond the reply's due time for its reply); "
              "then it drops the connection and retries (a dead router answers nothing)"),
      int_key("metro", "reply_delay", mt, &M::reply_delay, 0, 1 << 20,
              "with traffic.request_reply (reads: the destination turns the connection back "
              "with its acknowledgement and a reply of traffic.reply_size words, the last its "
              "checksum), the clocks it fills with DATA-IDLE before the reply (fetching the "
              "data: the paper's cache or main memory)"),
      float_key("metro", "word_error_rate", mt, &M::word_error_rate, 0.0, 0.5,
                "chance that a data word is corrupted (one bit flips) on each wire it crosses; "
                "the destination's end-to-end checksum fails, it acknowledges bad and the source "
                "retries (results words_corrupted, bad_checksum_fraction)"),
      float_key("metro", "header_error_rate", mt, &M::header_error_rate, 0.0, 0.5,
                "chance that a route (header) word has one route bit flipped, in one slice of a "
                "cascade, on each wire it crosses: with metro.cascade = 1 the connection goes "
                "where the flipped route says and fails the end-to-end checksum there (which then "
                "covers the route); in a cascade the slices disagree at the first router whose "
                "digit differs and the IN-USE check shuts the connection down (result "
                "inuse_shutdowns), or the header disagrees at the endpoint (bad_headers); either "
                "way the source retries"),
      int_list_key("metro", "noisy_ports", mt, &M::noisy_ports, 0, 2 * 4096, 0, 1 << 20,
                   "the wires metro.word_error_rate and metro.header_error_rate apply to, as "
                   "(router, port) pairs (a wire by either router end, as in "
                   "metro.failed_ports), both ways; [] (the default): every wire",
                   true),
      int_key("metro", "cascade", mt, &M::cascade, 1, 8,
              "c: width cascading, routers side by side as one logical router of c x w bits "
              "(section 5.1), each routing on its own copy of the route with shared random "
              "bits; their wired-AND IN-USE lines shut a connection down when they disagree"),
      int_list_key("metro", "failed_routers", mt, &M::failed_routers, 0, 4096, 0, 1 << 20,
                   "routers that die (numbers as in the topology: stage by stage), at "
                   "metro.failure_cycle: every port out of service, the words that reach them lost",
                   true),
      int_list_key(
          "metro", "failed_ports", mt, &M::failed_ports, 0, 2 * 4096, 0, 1 << 20,
          "wires that break, as (router, port) pairs (ports as the topology numbers them: "
          "forward, then backward; a first stage's forward port is an endpoint's entering wire, "
          "a last stage's backward port its leaving one), at metro.failure_cycle: words either "
          "way over the wire are lost; with metro.mask_failed the ports at both ends are "
          "disabled (an endpoint then enters by its other ports)",
          true),
      int_key("metro", "failure_cycle", mt, &M::failure_cycle, 0, 1ll << 31,
              "the clock metro.failed_routers and metro.failed_ports die at (0: before the run); "
              "connections through "
              "them are lost and their sources time out and retry",
              true),
      bool_key("metro", "mask_failed", mt, &M::mask_failed,
               "fault masking (section 5.1, scan): the ports wired to a dead router are disabled "
               "as it dies, so no router or endpoint chooses them; false leaves the fault for the "
               "sources' timeouts and retries to find"),
      int_key("bgl", "dynamic_vcs", bg, &G::dynamic_vcs, 1, 4,
              "dynamic (adaptive) VCs per link, besides the escape VCs (bgl.escape_vcs) and the "
              "high-priority VC (the paper's Figure 2 compares 1, 2 and 4)"),
      int_key("bgl", "vc_bytes", bg, &G::vc_bytes, 256, 4096,
              "bytes of each dynamic VC's FIFO, a multiple of 32 (1 KB: four full-sized "
              "packets)"),
      int_key("bgl", "escape_bytes", bg, &G::escape_bytes, 512, 4096,
              "bytes of each escape VC's FIFO and of the high-priority VC's, a multiple of 32 "
              "(entering a bubble VC takes room for two full-sized packets)"),
      int_key("bgl", "paths", bg, &G::paths, 1, 4,
              "transfer buses from each receiver to the senders: packets a receiver may be "
              "forwarding at once (Figure 2 compares 1, 2 and 4)"),
      int_key("bgl", "pipeline_delay", bg, &G::pipeline_delay, 0, 64,
              "byte times from a packet's first byte arriving to its first arbitration (the "
              "receiver's eight-stage input pipeline); each hop also costs topology.link_delay"),
      int_key("bgl", "trailer_bytes", bg, &G::trailer_bytes, 0, 16,
              "link bytes after each data packet (24-bit CRC and the valid byte)"),
      int_key("bgl", "gap_bytes", bg, &G::gap_bytes, 0, 16,
              "idle bytes between packets on a link (they keep the links trained)"),
      int_key("bgl", "ack_bytes", bg, &G::ack_bytes, 1, 32,
              "bytes of a token-ack or ack-only packet; with trailer and gap a 256-byte packet "
              "and its acknowledgement hold a link for 270 byte times"),
      int_key("bgl", "packet_overhead", bg, &G::packet_overhead, 0, 31,
              "bytes of each packet that are not payload (header and software's; 16 gives the "
              "paper's 240 payload bytes in a 256-byte packet), for payload_util"),
      int_key("bgl", "injection_fifos", bg, &G::injection_fifos, 1, 6,
              "normal-priority injection FIFOs per node; the processor fills them in turn, a "
              "packet into the next FIFO as soon as it has room"),
      int_key("bgl", "injection_fifo_bytes", bg, &G::injection_fifo_bytes, 256, 8192,
              "bytes of each injection FIFO, a multiple of 32"),
      bool_key("bgl", "infinite_injection_fifos", bg, &G::infinite_injection_fifos,
               "the paper's simulator's injection FIFOs: no byte limit, each created packet "
               "placed in its FIFO at once (up to 255 packets a FIFO, beyond which the "
               "processor's backlog holds them in order); bgl.injection_fifo_bytes then only "
               "scales the two-bit fullness that SLQ compares"),
      int_list_key("bgl", "dead_nodes", bg, &G::dead_nodes, 0, 8, 0, (1 << 20) - 1,
                   "nodes that are down (numbers, x fastest): they send, receive and forward "
                   "nothing; software sets each packet's hint bits (which way round each ring) "
                   "and its deterministic bit so that no path it may take enters one, fewest hops "
                   "first; a pair no such choice connects goes in two legs through an "
                   "intermediate node within two hops of either end, whose software re-injects it "
                   "(results relayed_packets, relayed_pairs); packets to a dead node or to one "
                   "neither reaches are not sent (result unroutable_packets, counted lost; "
                   "unreachable_pairs counts the pairs)"),
      int_list_key("bgl", "dead_links", bg, &G::dead_links, 0, 2 * 8, 0, (1 << 20) - 1,
                   "links that are down, as (node, dimension) pairs, up to 8: the link from that "
                   "node to its + neighbour in that dimension carries nothing either way; "
                   "software's hint bits avoid them as they avoid bgl.dead_nodes"),
      enum_key("bgl", "bubble_rule", bg, &G::bubble_rule, {"fixed", "original"},
               "escape VC token accounting: fixed (each packet on a bubble VC counts as "
               "full-sized, the paper's correction) or original (actual size: free space can "
               "fragment over a ring and deadlock)"),
      enum_key("bgl", "escape_vcs", bg, &G::escape_vcs, {"bubble", "dateline_pair"},
               "the escape VC architecture (the paper's Figures 7-9): bubble (one bubble escape "
               "VC per link, BG/L's) or dateline_pair (two escape VCs per link, the lower before "
               "a packet crosses its dimension's dateline, the wrap-round link from the maximum "
               "coordinate, the higher after; at most 3 dynamic VCs)"),
      enum_key("bgl", "dateline_uncrossed", bg, &G::dateline_uncrossed, {"lower", "higher"},
               "with bgl.escape_vcs = dateline_pair, the escape VC of a packet whose route never "
               "crosses its dimension's dateline: lower (the paper's words: it has not crossed, "
               "and only crossed packets take the higher) or higher (grouped with the crossed "
               "packets, as in Dally and Seitz's pair)"),
      enum_key("bgl", "escape_order", bg, &G::escape_order, {"dimension", "direction"},
               "the escape VCs' (and deterministic packets') route: dimension order (x, then y, "
               "then z; BG/L's) or direction order (x+ y+ z+ x- y- z-, the Cray T3E's)"),
      bool_key("bgl", "jsq", bg, &G::jsq,
               "phase 1: a dynamic packet takes the available direction and VC with the most "
               "downstream tokens (join the shortest queue), else one at random"),
      float_key("bgl", "slq_fraction", bg, &G::slq_fraction, 0.0, 1.0,
                "phases 2 and 3: fraction of cycles that serve the longest queue (by two-bit "
                "fullness); the others choose at random (0: the paper's random base policy)"),
      float_key("bgl", "in_network_fraction", bg, &G::in_network_fraction, 0.0, 1.0,
                "phase 3: fraction of cycles on which senders favour packets already in the "
                "network over injection"),
      float_key("bgl", "priority_fraction", bg, &G::priority_fraction, 0.0, 1.0,
                "fraction of packets the processors send as high priority (drawn per packet): "
                "into the two high-priority injection FIFOs, on the high-priority VC in dimension "
                "order, first in every arbitration, into the high-priority reception FIFOs; "
                "results add priority_network_latency_mean"),
      bool_key("bgl", "bypass", bg, &G::bypass,
               "receivers' bypass channels: a packet arriving into an idle VC FIFO flows through "
               "on the bypass while its tail arrives, and in phase 2 a bypass request has the "
               "lowest priority unless it is high priority (false: it competes as a buffered "
               "packet)"),
      enum_key("bgl", "half_way", bg, &G::half_way, {"coordinate", "node", "plus"},
               "which way a packet goes half way round a ring of even size (software's setting "
               "of the hint bits' cut-off registers): coordinate (+ from an even coordinate in "
               "that dimension, - from an odd one: balanced under uniform and alltoall traffic), "
               "node (+ from a node whose coordinates sum to an even number: balanced also into "
               "a hot spot) or plus (always +)"),
      bool_key("bgl", "deterministic", bg, &G::deterministic,
               "route every packet deterministically: dimension order (x, y, z) on the bubble "
               "VC only"),
      int_key("bgl", "retransmission_packets", bg, &G::retransmission_packets, 0, 128,
              "the link-level protocol: packets each sender keeps until acknowledged (its "
              "retransmission FIFO; a full FIFO stops the sender), the receiver accepting only "
              "the next in sequence with a good CRC, go-back-N after a time-out, link-level "
              "CRCs compared at the end; results add link_errors, retransmissions, "
              "link_crc_mismatches. 0: not modelled (no errors)"),
      int_key("bgl", "retransmit_timeout", bg, &G::retransmit_timeout, 1, 1ll << 20,
              "byte times a sender waits for an acknowledgement of its oldest unacknowledged "
              "packet before sending it and those after it again (our assumption: the paper "
              "gives no figure; a full packet is acknowledged within about 600)"),
      float_key("bgl", "link_error_rate", bg, &G::link_error_rate, 0.0, 0.5,
                "probability that one crossing of a link corrupts a data packet (its CRC check "
                "fails and the receiver drops it); needs bgl.retransmission_packets > 0"),
      int_key("run", "warmup", run, &U::warmup, 0, 1ll << 30, "cycles before measuring"),
      bool_key("run", "warmup_auto", run, &U::warmup_auto,
               "detect the end of warm-up: repeat warm-up periods of run.warmup cycles until "
               "accepted throughput and mean latency change by under 2% and 5% (at most 20)"),
      int_key("run", "measure", run, &U::measure, 1, 1ll << 30,
              "measurement window: packets created in it are tracked to delivery"),
      int_key("run", "drain", run, &U::drain, 0, 1ll << 30,
              "at most this many cycles after the window to deliver the tracked packets"),
      int_key("run", "seed", run, &U::seed, 0, (1ll << 62), "random seed", true),
      enum_key("run", "backend", run, &U::backend, {"auto", "cpu", "cuda"},
               "auto takes CUDA when a GPU is present and the batch has at least "
               "run.auto_cuda_routers routers per CPU thread, else the CPU"),
      int_key("run", "auto_cuda_routers", run, &U::auto_cuda_routers, -1, 1ll << 40,
              "auto: routers per CPU thread from which a batch runs faster on the GPU; -1: the "
              "family's, measured as an H100's cycle time (flat up to ~16,000 routers) against "
              "one CPU core: vc 400 (~25 us against 11-15 M router-cycles/s), bgl 500, metro "
              "250, sconnect 200, t3e 200 (79 us against 2.8 M); 0: always the GPU"),
      int_key("run", "threads", run, &U::threads, 0, 1024, "CPU threads (0: all cores)"),
      bool_key("run", "debug", run, &U::debug,
               "check invariants after every cycle and stop at the first violation"),
      bool_key("run", "fuse_phases", run, &U::fuse_phases,
               "run all phases of a router in one parallel step per cycle (identical results, "
               "fewer synchronisations) instead of one step per phase"),
      enum_key("run", "schedule", run, &U::schedule, {"auto", "launch", "block", "grid"},
               "how the backend runs the cycles between host events (identical results): "
               "launch, one parallel step (a GPU launch) per cycle; block, a group of threads "
               "per instance (a GPU thread block) running many cycles with a barrier between "
               "them; grid, one group over the whole batch (a cooperative GPU grid, a grid-wide "
               "sync per cycle); auto, the CPU's instance-by-instance stages or CUDA's launch"),
      int_key("run", "cycles_per_launch", run, &U::cycles_per_launch, 0, 1ll << 30,
              "block and grid schedules: cycles one launch runs at most (0: every cycle up to "
              "the next host event: a window edge, a drain or watchdog check, a fault)"),
      int_key("run", "block_threads", run, &U::block_threads, 0, 1024,
              "block and grid schedules: threads per GPU block (0: an instance's elements "
              "rounded up to a warp, at most 1,024, for block; 128 for grid)"),
      enum_key("run", "block_order", run, &U::block_order, {"forward", "reversed", "shuffled"},
               "block and grid schedules on the CPU: the order in which a block's threads run "
               "their elements (a check that the order changes nothing)"),
      enum_key("run", "hot_state", run, &U::hot_state, {"global", "shared"},
               "block schedule: where the arrays a family's cycle touches every cycle live during "
               "a launch: global memory, or copied into the block's shared memory at its start "
               "and back at its end (the flit buffers stay in global memory; families without "
               "a list of them, global)"),
      int_key("run", "watchdog", run, &U::watchdog, 0, 1ll << 30,
              "report a deadlock after this many cycles without a flit moving (0: off)"),
      float_key("run", "latency_threshold", run, &U::latency_threshold, 1.0, 1e9,
                "mean packet latency above which a point is flagged saturated"),
  };
}

}  // namespace

const std::vector<KeyInfo>& schema() {
  static const std::vector<KeyInfo> s = make_schema();
  return s;
}

const char* type_name(ValueType t) {
  switch (t) {
    case ValueType::kBool:
      return "bool";
    case ValueType::kInt:
      return "int";
    case ValueType::kFloat:
      return "float";
    case ValueType::kString:
      return "str";
    case ValueType::kIntList:
      return "int_list";
    case ValueType::kFloatList:
      return "float_list";
  }
  return "?";
}

std::string to_string(const Value& v) {
  std::ostringstream o;
  struct {
    std::ostringstream& o;
    void operator()(bool b) { o << (b ? "true" : "false"); }
    void operator()(int64_t i) { o << i; }
    void operator()(double d) { o << d; }
    void operator()(const std::string& s) { o << '"' << escaped(s) << '"'; }
    void operator()(const std::vector<int64_t>& xs) {
      o << '[';
      for (size_t i = 0; i < xs.size(); ++i) o << (i ? ", " : "") << xs[i];
      o << ']';
    }
    void operator()(const std::vector<double>& xs) {
      o << '[';
      for (size_t i = 0; i < xs.size(); ++i) o << (i ? ", " : "") << xs[i];
      o << ']';
    }
  } visit{o};
  std::visit(visit, v);
  return o.str();
}

std::string escaped(const std::string& s) {
  std::string out;
  for (const char ch : s) {
    const auto u = static_cast<unsigned char>(ch);
    if (u >= 0x20 && u != 0x7f) {
      out += ch;
    } else {
      const char hex[] = "0123456789abcdef";
      out += {'\\', 'x', hex[u >> 4], hex[u & 15]};
    }
  }
  return out;
}

namespace {
std::vector<std::string> section_names() {
  std::vector<std::string> sections;
  for (const KeyInfo& k : schema())
    if (sections.empty() || sections.back() != k.section) sections.push_back(k.section);
  return sections;
}
}  // namespace

void check_section(const std::string& section) {
  const std::vector<std::string> sections = section_names();
  if (std::find(sections.begin(), sections.end(), section) == sections.end())
    throw ConfigError("unknown section [" + escaped(section) + "]: allowed " + join(sections));
}

const KeyInfo& find_key(const std::string& section, const std::string& name) {
  check_section(section);
  std::vector<std::string> names;
  for (const KeyInfo& k : schema()) {
    if (k.section == section && k.name == name) return k;
    if (k.section == section) names.push_back(k.name);
  }
  throw ConfigError("unknown key " + section + "." + escaped(name) + ": allowed " + join(names));
}

void set_key(Config& c, const std::string& section, const std::string& name, const Value& v) {
  find_key(section, name).set(c, v);
}

namespace {
bool pow2(int64_t n) {
  return n > 0 && (n & (n - 1)) == 0;
}

// Every size a source may draw (traffic.packet_sizes, else traffic.packet_size) must pass `ok`;
// else the error names the key, its value and `allowed`.
template <class Ok>
void check_packet_sizes(const TrafficConfig& f, Ok ok, const std::string& allowed) {
  const bool one = f.packet_sizes.empty();
  const std::vector<int64_t> sizes = one ? std::vector<int64_t>{f.packet_size} : f.packet_sizes;
  for (int64_t b : sizes)
    if (!ok(b))
      throw ConfigError((one ? "traffic.packet_size = " + std::to_string(b)
                             : "traffic.packet_sizes = " + to_string(sizes)) +
                        ": allowed " + allowed);
}

// S-Connect moves fixed-length messages: a packet is one message, one slot of a channel, or a
// quad-message of 4 (kernels/sconnect/quad.hpp).
void validate_sconnect(const Config& c) {
  const auto& f = c.traffic;
  const auto& s = c.sconnect;
  if (c.topology.kind == "crossbar")
    throw ConfigError(
        "topology.kind = \"crossbar\": allowed for router.family = \"sconnect\" "
        "mesh, torus and the graph kinds");
  bool quads = false;
  check_packet_sizes(
      f,
      [&quads](int64_t b) {
        quads |= b == 4;
        return b == 1 || b == 4;
      },
      "only 1 (a message: one slot) or 4 (a quad-message) for router.family = \"sconnect\"");
  if (f.request_reply)
    throw ConfigError(
        "traffic.request_reply = true: allowed only false for router.family = "
        "\"sconnect\" (use traffic.priority_weights for message classes)");
  if (static_cast<int64_t>(f.priority_weights.size()) > s.priorities)
    throw ConfigError("traffic.priority_weights = " + to_string(f.priority_weights) +
                      ": allowed at most sconnect.priorities = " + std::to_string(s.priorities) +
                      " entries");
  double wsum = 0;
  for (double w : f.priority_weights) wsum += w;
  if (!f.priority_weights.empty() && !(wsum > 0 && std::isfinite(wsum)))
    throw ConfigError("traffic.priority_weights = " + to_string(f.priority_weights) +
                      ": allowed weights with a positive, finite sum");
  const int64_t reserve = sconnect_reserve(s), reserved = reserve * s.priorities * 3;
  const std::string reserve_is = "sconnect.reserve = " + std::to_string(s.reserve) +
                                 (s.reserve < 0 ? " (here " + std::to_string(reserve) + ")" : "");
  if (reserved >= s.buffers)
    throw ConfigError(reserve_is + ": allowed reserve x priorities x 3 classes (here " +
                      std::to_string(reserved) +
                      ") below sconnect.buffers = " + std::to_string(s.buffers));
  // A train takes 4 buffers at once: a class whose reserve holds less than a whole one can be
  // shut out for good by the others' messages, which wait on it in turn (a deadlock).
  if (quads && reserve < 4)
    throw ConfigError(reserve_is +
                      ": allowed at least 4 with quad-messages (traffic.packet_size 4): each "
                      "class's reserve must hold a whole quad, or quads can deadlock");
  if (!s.noisy_channels.empty()) sconnect::check_noisy_channels(c, build_topology(c.topology));
}

// The traffic pattern over `n` sources and destinations (`what` names them in errors).
void check_pattern(const TrafficConfig& f, int64_t n, const std::string& what) {
  const std::string& p = f.pattern;
  const std::string here = ", here " + what + " = " + std::to_string(n);
  if ((p == "transpose" || p == "bitcomp" || p == "bitrev" || p == "shuffle" || p == "fft") &&
      !pow2(n))
    throw ConfigError("traffic.pattern = \"" + p + "\": allowed only when the number of " + what +
                      " is a power of two" + here);
  if (p == "transpose") {
    int bits = 0;
    while ((1ll << bits) < n) ++bits;
    if (bits % 2)
      throw ConfigError("traffic.pattern = \"transpose\": allowed only when log2(" + what +
                        ") is even" + here);
  }
  if (p == "hotspot") {
    if (f.hotspot_nodes.empty())
      throw ConfigError("traffic.hotspot_nodes = []: allowed 1 to 8 node numbers for hotspot");
    for (int64_t h : f.hotspot_nodes)
      if (h >= n)
        throw ConfigError("traffic.hotspot_nodes = " + to_string(f.hotspot_nodes) +
                          ": allowed numbers below " + std::to_string(n) + " (" + what + ")");
  }
}

// A hot region is a box of a mesh's or torus's nodes.
void check_hot_region(const Config& c) {
  const std::vector<int64_t>& h = c.traffic.hot_region;
  const std::vector<int64_t>& k = c.topology.radix;
  const std::string key = "traffic.hot_region = " + to_string(h);
  if ((c.router.family != "vc" && c.router.family != "bgl") ||
      (c.topology.kind != "torus" && c.topology.kind != "mesh"))
    throw ConfigError("traffic.pattern = \"" + c.traffic.pattern +
                      "\": allowed only on a mesh or torus of router.family vc or bgl, here " +
                      c.topology.kind + " of " + c.router.family);
  if (h.empty()) return;
  if (h.size() != 2 * k.size())
    throw ConfigError(key + ": allowed " + std::to_string(2 * k.size()) +
                      " integers (the first coordinate in each dimension, then the extent)");
  for (size_t d = 0; d < k.size(); ++d)
    if (h[k.size() + d] < 1 || h[d] + h[k.size() + d] > k[d])
      throw ConfigError(key + ": dimension " + std::to_string(d) + " spans " +
                        std::to_string(h[d]) + " + " + std::to_string(h[k.size() + d]) +
                        ", allowed an extent of at least 1 within topology.radix[" +
                        std::to_string(d) + "] = " + std::to_string(k[d]));
  bool whole = true;
  for (size_t d = 0; d < k.size(); ++d) whole &= h[k.size() + d] == k[d];
  if (whole && c.traffic.pattern == "gather")
    throw ConfigError(key +
                      ": allowed with traffic.pattern = \"gather\" a region short of the "
                      "whole network (the nodes outside it are the senders)");
}

// A finite workload (alltoall, gather) is a backlog of packets created one a cycle from cycle 0:
// each source creates them all and never another (traffic_params.cpp), on the families whose
// sources it was built and tested with.
void check_alltoall(const Config& c, int64_t nodes) {
  const TrafficConfig& f = c.traffic;
  const std::string a2a = ": allowed with traffic.pattern = \"" + f.pattern + "\" only ";
  if (c.router.family != "vc" && c.router.family != "bgl")
    throw ConfigError("router.family = \"" + c.router.family + "\"" + a2a + "vc or bgl");
  if (f.injection != "bernoulli")
    throw ConfigError("traffic.injection = \"" + f.injection + "\"" + a2a + "bernoulli");
  if (f.max_packets != 0)
    throw ConfigError("traffic.max_packets = " + std::to_string(f.max_packets) + a2a +
                      "0 (the workload sets it)");
  if (f.sender_every != 1)
    throw ConfigError("traffic.sender_every = " + std::to_string(f.sender_every) + a2a + "1");
  if (f.source_queue != 0)
    throw ConfigError("traffic.source_queue = " + std::to_string(f.source_queue) + a2a +
                      "0 (a bounded queue would refuse packets of the backlog)");
  if (f.request_reply) throw ConfigError("traffic.request_reply = true" + a2a + "false");
  if (f.alltoall_packets * (nodes - 1) >= (1ll << 31))
    throw ConfigError("traffic.alltoall_packets = " + std::to_string(f.alltoall_packets) +
                      ": allowed below " + std::to_string((1ll << 31) / (nodes - 1)) +
                      " packets per pair on " + std::to_string(nodes) + " nodes");
}

// Failed links and nodes name existing ones, and tables of one entry per PE route around them.
void validate_t3e_faults(const Config& c, int64_t nodes) {
  const auto& e = c.t3e;
  const auto& k = c.topology.radix;
  auto check = [&](const char* key, const std::vector<int64_t>& xs, size_t group) {
    const std::string name = std::string("t3e.") + key;
    if (xs.size() % group)
      throw ConfigError(name + " = " + to_string(xs) + ": allowed groups of " +
                        std::to_string(group) + " integers (x, y, z" +
                        (group == 4 ? ", dimension)" : ")"));
    for (size_t i = 0; i < xs.size(); i += group)
      for (size_t d = 0; d < group; ++d) {
        const int64_t bound = d < 3 ? k[d] : 3;
        if (xs[i + d] >= bound || (d == 3 && k[static_cast<size_t>(xs[i + d])] == 1))
          throw ConfigError(
              name + " = " + to_string(xs) + ": group " + std::to_string(i / group) +
              (d < 3 ? " has " + std::string(1, "xyz"[d]) + " = " + std::to_string(xs[i + d]) +
                           ", allowed below topology.radix[" + std::to_string(d) +
                           "] = " + std::to_string(k[d])
                     : " names dimension " + std::to_string(xs[i + d]) +
                           ", allowed a dimension of more than one node (0 X, 1 Y, 2 Z)"));
      }
  };
  check("failed_links", e.failed_links, 4);
  check("failed_nodes", e.failed_nodes, 3);
  if (e.failed_links.empty() && e.failed_nodes.empty()) return;
  if (t3e::lut_mode(e.lut_mode, static_cast<uint32_t>(nodes)) != t3e::kMode0)
    throw ConfigError("t3e.lut_mode = \"" + e.lut_mode +
                      "\": allowed with t3e.failed_links or t3e.failed_nodes only mode0 (or "
                      "auto up to 544 PEs): rerouting needs an R_NET_LUT entry per PE; here " +
                      std::to_string(nodes) + " PEs");
}

// Partitions lie inside the logical PEs that are no hot spares and do not overlap; the traffic
// pattern runs over each one's virtual PEs.
void validate_t3e_partitions(const Config& c, int64_t pes) {
  const auto& e = c.t3e;
  const std::string parts = "t3e.partitions = " + to_string(e.partitions);
  if (e.hot_spares >= pes)
    throw ConfigError("t3e.hot_spares = " + std::to_string(e.hot_spares) +
                      ": allowed fewer than the PEs, here " + std::to_string(pes));
  const int64_t usable = pes - e.hot_spares;
  if (e.partitions.size() % 2)
    throw ConfigError(parts + ": allowed pairs of integers (base logical PE, virtual PE limit)");
  std::vector<std::pair<int64_t, int64_t>> spans;  // [first, last] logical PEs
  for (size_t i = 0; i < e.partitions.size(); i += 2)
    spans.push_back({e.partitions[i], e.partitions[i] + e.partitions[i + 1]});
  if (spans.empty()) spans.push_back({0, usable - 1});
  for (size_t i = 0; i < spans.size(); ++i) {
    const std::string which = "partition " + std::to_string(i);
    if (spans[i].second >= usable)
      throw ConfigError(parts + ": " + which + " reaches logical PE " +
                        std::to_string(spans[i].second) + ", allowed up to " +
                        std::to_string(usable - 1) + " (" + std::to_string(pes) + " PEs less " +
                        std::to_string(e.hot_spares) + " hot spares)");
    for (size_t j = 0; j < i; ++j)
      if (spans[i].first <= spans[j].second && spans[j].first <= spans[i].second)
        throw ConfigError(parts + ": " + which + " overlaps partition " + std::to_string(j) +
                          ", allowed partitions with no logical PE in common");
    const int64_t size = spans[i].second - spans[i].first + 1;
    const bool whole = size == c.topology.radix[0] * c.topology.radix[1] * c.topology.radix[2];
    if (c.traffic.pattern == "randperm" && !whole)
      throw ConfigError(
          "traffic.pattern = \"randperm\": allowed on the T3E only with one "
          "partition of every PE of a full torus, here " +
          which + " has " + std::to_string(size) + " PEs");
    check_pattern(c.traffic, size, "PEs of " + which);
  }
}

// A partial plane fits in the last Z plane and leaves it partial; its tables are one entry
// per PE, and failed nodes are installed ones.
void validate_t3e_partial_plane(const Config& c) {
  const auto& pp = c.t3e.partial_plane;
  const auto& k = c.topology.radix;
  if (pp.empty()) return;
  const std::string key = "t3e.partial_plane = " + to_string(pp);
  if (pp.size() != 2)
    throw ConfigError(key + ": allowed [nx, ny], the partial plane's nodes in X and in Y");
  if (k[2] < 2)
    throw ConfigError(
        key + ": allowed only with at least 2 Z planes, here topology.radix = " + to_string(k));
  for (size_t d = 0; d < 2; ++d)
    if (pp[d] > k[d])
      throw ConfigError(key + ": allowed " + std::string(1, "xy"[d]) + " up to topology.radix[" +
                        std::to_string(d) + "] = " + std::to_string(k[d]));
  if (pp[0] * pp[1] == k[0] * k[1])
    throw ConfigError(key + ": allowed fewer nodes than a full plane (" +
                      std::to_string(k[0] * k[1]) + "); a full last plane is topology.radix");
  const uint32_t pes = t3e::machine_pes(c);
  if (t3e::lut_mode(c.t3e.lut_mode, pes) != t3e::kMode0)
    throw ConfigError("t3e.lut_mode = \"" + c.t3e.lut_mode +
                      "\": allowed with t3e.partial_plane only mode0 (or auto up to 544 PEs): "
                      "its routes need an R_NET_LUT entry per PE; here " +
                      std::to_string(pes) + " PEs");
  const auto& fn = c.t3e.failed_nodes;
  for (size_t i = 0; i + 2 < fn.size(); i += 3)
    if (fn[i + 2] == k[2] - 1 && (fn[i] >= pp[0] || fn[i + 1] >= pp[1]))
      throw ConfigError("t3e.failed_nodes = " + to_string(fn) + ": group " + std::to_string(i / 3) +
                        " names an empty slot of " + key + ", allowed installed nodes");
}

// The T3E is a 3-D torus of one PE per router, rings of at most 32 nodes (5-bit addresses).
// Blue Gene/L: a torus of one to three dimensions, packets of whole 32-byte chunks.
void validate_bgl(const Config& c) {
  const auto& t = c.topology;
  const auto& f = c.traffic;
  const auto& g = c.bgl;
  if (t.kind != "torus" || t.radix.size() > 3)
    throw ConfigError("topology.kind = \"" + t.kind + "\", topology.radix = " + to_string(t.radix) +
                      ": allowed for router.family = \"bgl\" only a torus of 1 to 3 dimensions");
  check_packet_sizes(
      f, [](int64_t b) { return b % 32 == 0 && b >= 32 && b <= 256; },
      "for router.family = \"bgl\" bytes in 1 to 8 chunks of 32 (32, 64, ..., 256)");
  for (auto [key, v] : {std::pair{"bgl.vc_bytes", g.vc_bytes},
                        {"bgl.escape_bytes", g.escape_bytes},
                        {"bgl.injection_fifo_bytes", g.injection_fifo_bytes}})
    if (v % 32 != 0)
      throw ConfigError(std::string(key) + " = " + std::to_string(v) +
                        ": allowed a multiple of 32 (whole chunks)");
  if (f.request_reply)
    throw ConfigError(
        "traffic.request_reply = true: allowed only false for router.family = "
        "\"bgl\"");
  const bool line = f.pattern == "linefill", plane = f.pattern == "planefill";
  const auto broadcast_dimension = [&](const char* key, int64_t dim) {
    const size_t d = static_cast<size_t>(dim);
    if (d < t.radix.size() && t.radix[d] >= 2) return;
    throw ConfigError("traffic." + std::string(key) + " = " + std::to_string(dim) +
                      ", topology.radix = " + to_string(t.radix) +
                      ": allowed with traffic.pattern = \"" + f.pattern +
                      "\" a dimension of the torus of at least 2 nodes (a broadcast line)");
  };
  if (line || plane) broadcast_dimension("line_dimension", f.line_dimension);
  if (plane) broadcast_dimension("turn_dimension", f.turn_dimension);
  if (plane && f.turn_dimension == f.line_dimension)
    throw ConfigError("traffic.turn_dimension = " + std::to_string(f.turn_dimension) +
                      ": allowed with traffic.pattern = \"planefill\" a dimension other than "
                      "traffic.line_dimension (" +
                      std::to_string(f.line_dimension) + ")");
  const auto nodes = static_cast<int64_t>(topology_size(t).nodes);
  for (size_t i = 0; i < g.dead_nodes.size(); ++i)
    if (g.dead_nodes[i] >= nodes ||
        std::find(g.dead_nodes.begin(), g.dead_nodes.begin() + static_cast<std::ptrdiff_t>(i),
                  g.dead_nodes[i]) != g.dead_nodes.begin() + static_cast<std::ptrdiff_t>(i))
      throw ConfigError("bgl.dead_nodes = " + to_string(g.dead_nodes) +
                        ": allowed distinct node numbers below " + std::to_string(nodes) +
                        " (the torus's nodes)");
  check_pairs(
      "bgl.dead_links", g.dead_links, "(node, dimension)",
      [&](int64_t node, int64_t dim) {
        return node < nodes && dim < static_cast<int64_t>(t.radix.size()) &&
               t.radix[static_cast<size_t>(dim)] >= 2;
      },
      "a node below " + std::to_string(nodes) + " and a dimension of more than one node below " +
          std::to_string(t.radix.size()));
  for (size_t i = 0; i < g.dead_links.size(); i += 2) {
    for (size_t j = 0; j < i; j += 2)
      if (g.dead_links[j] == g.dead_links[i] && g.dead_links[j + 1] == g.dead_links[i + 1])
        throw ConfigError("bgl.dead_links = " + to_string(g.dead_links) +
                          ": allowed distinct links; pair " + std::to_string(i / 2) +
                          " repeats pair " + std::to_string(j / 2));
  }
  for (const auto* dead : {&g.dead_nodes, &g.dead_links})
    if (!dead->empty() && (line || plane || finite_workload(c)))
      throw ConfigError(std::string(dead == &g.dead_nodes ? "bgl.dead_nodes" : "bgl.dead_links") +
                        " = " + to_string(*dead) + " with traffic.pattern = \"" + f.pattern +
                        "\": allowed only with point-to-point patterns that run for a window "
                        "(broadcasts would cross them; alltoall and gather wait for every pair)");
  if (g.escape_vcs == "dateline_pair" && g.dynamic_vcs > 3)
    throw ConfigError("bgl.dynamic_vcs = " + std::to_string(g.dynamic_vcs) +
                      " with bgl.escape_vcs = \"dateline_pair\": allowed 1 to 3 (six VCs a link: "
                      "the dynamic ones, the pair and the high-priority VC)");
  if (g.link_error_rate > 0 && g.retransmission_packets == 0)
    throw ConfigError("bgl.link_error_rate = " + std::to_string(g.link_error_rate) +
                      " with bgl.retransmission_packets = 0: allowed only with the link-level "
                      "protocol modelled (bgl.retransmission_packets in [1, 128])");
}

void validate_t3e(const Config& c) {
  const auto& t = c.topology;
  const auto& f = c.traffic;
  const auto& e = c.t3e;
  if (t.kind != "torus" || t.radix.size() != 3)
    throw ConfigError("topology.kind = \"" + t.kind + "\", topology.radix = " + to_string(t.radix) +
                      ": allowed for router.family = \"t3e\" a torus of 3 dimensions");
  for (int64_t k : t.radix)
    if (k > 32)
      throw ConfigError("topology.radix = " + to_string(t.radix) +
                        ": allowed at most 32 nodes per ring for router.family = \"t3e\"");
  if (f.request_reply || f.packet_size != 1 || !f.packet_sizes.empty())
    throw ConfigError(
        "traffic.request_reply, traffic.packet_size, traffic.packet_sizes: allowed only their "
        "defaults for router.family = \"t3e\" (every packet is a request of "
        "t3e.packet_type, answered by its response)");
  if (e.fall_through_turn < e.fall_through_straight)
    throw ConfigError("t3e.fall_through_turn = " + std::to_string(e.fall_through_turn) +
                      ": allowed at least t3e.fall_through_straight = " +
                      std::to_string(e.fall_through_straight));
  if (e.end_point <= e.fall_through_turn)
    throw ConfigError(
        "t3e.end_point = " + std::to_string(e.end_point) +
        ": allowed above t3e.fall_through_turn = " + std::to_string(e.fall_through_turn) +
        " (the PE's lookup and formatting take the difference)");
  if (e.response_queue < e.pe_buffer_depth)
    throw ConfigError(
        "t3e.response_queue = " + std::to_string(e.response_queue) +
        ": allowed at least t3e.pe_buffer_depth = " + std::to_string(e.pe_buffer_depth) +
        " (a slot for every request flit the router may send the PE)");
  validate_t3e_partial_plane(c);
  const int64_t nodes = t3e::machine_pes(c);
  const int64_t limit = e.lut_mode == "mode0"                            ? 544
                        : e.lut_mode == "mode1" || e.lut_mode == "mode2" ? 2176
                                                                         : 0;
  if (limit && nodes > limit)
    throw ConfigError("t3e.lut_mode = \"" + e.lut_mode + "\": allowed for at most " +
                      std::to_string(limit) + " PEs, here " + std::to_string(nodes));
  // Mode 3 gives every packet a PE creates R_LUT_OVERRIDE's one tag (manual, "R_LUT_OVERRIDE
  // Register"): every request would go to one PE and every response there too.
  if (e.lut_mode == "mode3")
    throw ConfigError(
        "t3e.lut_mode = \"mode3\": allowed auto, mode0, mode1, mode2 or computed for traffic: "
        "mode 3 routes every packet a PE creates by R_LUT_OVERRIDE's one routing tag, whatever "
        "its destination (software's way round an incomplete R_NET_LUT), so it cannot carry "
        "requests to, nor responses from, more than one PE");
  validate_t3e_faults(c, nodes);
  validate_t3e_partitions(c, nodes);
  // Modes 1 and 2 index R_NET_LUT by logical PEs in 2x2 blocks: the registers refuse a
  // numbering that is not (t3e_registers.cpp).
  if (e.lut_mode == "mode1" || e.lut_mode == "mode2")
    t3e::make_registers(c, t3e::machine_topology(c));
  if (!e.packet_mix.empty()) {
    double sum = 0;
    for (double w : e.packet_mix) sum += w < 0 ? -1e300 : w;
    if (e.packet_mix.size() != t3e::kTypes || !(sum > 0 && std::isfinite(sum)))
      throw ConfigError(
          "t3e.packet_mix = " + to_string(e.packet_mix) +
          ": allowed four weights >= 0, not all 0, with a finite sum (single-word Gets, vector "
          "Gets, single-word Puts, vector Puts), or none");
  }
}
}  // namespace

TopologySize validate_topology(const TopologyConfig& t) {
  const bool crossbar = t.kind == "crossbar", graph = is_graph_kind(t.kind);
  if (!t.dim_link_delay.empty() && (crossbar || graph || t.dim_link_delay.size() != t.radix.size()))
    throw ConfigError("topology.dim_link_delay = " + to_string(t.dim_link_delay) +
                      ": allowed an empty list or one delay per dimension of topology.radix " +
                      to_string(t.radix) + " (meshes and tori)");
  if (crossbar && (t.radix.size() != 1 || t.radix[0] > 16))
    throw ConfigError("topology.radix = " + to_string(t.radix) +
                      ": allowed for a crossbar a single entry, the number of ports (2 to 16)");
  if (!graph && t.link_delay > 64)
    throw ConfigError("topology.link_delay = " + std::to_string(t.link_delay) +
                      ": allowed at most 64 for a " + t.kind + " (up to 255 for the graph kinds)");
  if (!graph && t.dual_tic)
    throw ConfigError("topology.dual_tic = true: allowed only for the graph kinds, not " + t.kind +
                      " (hypercube, random_regular, graph)");
  if (t.kind != "graph" && (!t.edges.empty() || !t.edge_file.empty()))
    throw ConfigError((t.edges.empty() ? "topology.edge_file = " + to_string(Value(t.edge_file))
                                       : std::string("topology.edges")) +
                      ": allowed only for topology.kind = \"graph\", here \"" + t.kind + "\"");
  if (graph || is_multistage_kind(t.kind))
    build_topology(t);  // the builders refuse what they
                        // cannot build
  const TopologySize size = topology_size(t);
  if (size.nodes > (1ull << 30))
    throw ConfigError("topology.radix = " + to_string(t.radix) + ": allowed at most 2^30 nodes");
  return size;
}

double offered_limit(const Config& c) {
  const auto& f = c.traffic;
  // Offered load counts every flit: with request-reply (and on the T3E), each request brings
  // its reply.
  double flits = static_cast<double>(f.packet_size), wsum = 0, m = 0;
  const size_t n = std::min(f.packet_sizes.size(), f.packet_size_weights.size());
  for (size_t i = 0; i < n; ++i) wsum += f.packet_size_weights[i];
  // Each weight's share first: weights near the largest double would overflow their products.
  for (size_t i = 0; i < n; ++i)
    m += f.packet_size_weights[i] / wsum * static_cast<double>(f.packet_sizes[i]);
  if (wsum > 0) flits = m;
  if (c.router.family == "t3e")
    flits = t3e::mean_flits(t3e::packet_mix(c.t3e.packet_type, c.t3e.packet_mix));
  else if (f.request_reply)
    flits += static_cast<double>(f.reply_size);
  if (f.injection == "onoff" && f.burst_alpha > 0)
    flits *= f.burst_alpha / (f.burst_alpha + f.burst_beta);
  return std::min(flits, kMaxOffered);
}

std::string KeyInfo::family() const {
  if (section == "router") return name == "family" ? "" : "vc";
  return section == "topology" || section == "traffic" || section == "run" ? "" : section;
}

void validate(const Config& c) {
  // Every key's own check first: a Config filled in from C++ has not been through set_key.
  Config checked = c;
  for (const KeyInfo& k : schema()) k.set(checked, k.get(c));
  // A key only another family reads would change nothing: refused, so that no run (or sweep
  // row) claims a setting it did not have.
  const Config defaults;
  for (const KeyInfo& k : schema()) {
    const std::string reader = k.family();
    if (!reader.empty() && reader != c.router.family && k.get(c) != k.get(defaults))
      throw ConfigError(k.key() + " = " + to_string(k.get(c)) + ": allowed only its default " +
                        to_string(k.get(defaults)) + " for router.family = \"" + c.router.family +
                        "\" (only router.family = \"" + reader + "\" reads it)");
  }
  const auto& t = c.topology;
  const auto& r = c.router;
  const auto& f = c.traffic;
  const bool crossbar = t.kind == "crossbar", torus = t.kind == "torus";
  const TopologySize size = validate_topology(t);
  for (int64_t k : t.radix)
    if (k < 2 && r.family != "t3e")
      throw ConfigError("topology.radix = " + to_string(t.radix) +
                        ": allowed at least 2 per dimension (1 only for router.family = t3e)");
  if (r.family == "vc" && is_graph_kind(t.kind))
    throw ConfigError("topology.kind = \"" + t.kind +
                      "\": allowed only mesh, torus, crossbar for router.family = vc");
  const int64_t nodes = static_cast<int64_t>(size.nodes);
  const int64_t ports = static_cast<int64_t>(size.ports);
  if ((r.family == "metro") != is_multistage_kind(t.kind))
    throw ConfigError("topology.kind = \"" + t.kind + "\": allowed " +
                      (r.family == "metro"
                           ? "only multibutterfly or fat_tree for router.family = metro"
                           : "multibutterfly and fat_tree only for router.family = metro") +
                      ", here router.family = " + r.family);
  if (r.family == "bgl") validate_bgl(c);  // before the router section's checks: not its keys
  if (r.family == "vc" && ports * r.vcs > kMaxPortVcs)
    throw ConfigError("router.vcs = " + std::to_string(r.vcs) + ": allowed at most " +
                      std::to_string(kMaxPortVcs / ports) + " for routers of " +
                      std::to_string(ports) +
                      " ports (ports x vcs <= " + std::to_string(kMaxPortVcs) + ")");
  if (crossbar && r.routing != "dor")
    throw ConfigError("router.routing = \"" + r.routing + "\": allowed for a crossbar: dor");
  // With request-reply traffic each of the two message classes has half of the VCs.
  const int64_t classes = f.request_reply ? 2 : 1, width = r.vcs / classes;
  const std::string per =
      f.request_reply ? " per message class (request-reply halves the VCs)" : "";
  if (f.request_reply && r.vcs % 2)
    throw ConfigError("router.vcs = " + std::to_string(r.vcs) +
                      ": allowed with traffic.request_reply an even number (half for requests, "
                      "half for replies)");
  if (!r.dateline && r.routing != "dor")
    throw ConfigError("router.dateline = false: allowed only with router.routing = \"dor\" (" +
                      r.routing + " keeps its dateline escape classes)");
  if (r.routing == "dor" && torus && r.dateline && (width < 2 || width % 2))
    throw ConfigError("router.vcs = " + std::to_string(r.vcs) +
                      ": allowed for torus dimension-order routing an even number >= 2" + per +
                      " (two dateline classes)");
  if (r.routing == "min_adaptive" && width < (torus ? 3 : 2))
    throw ConfigError("router.vcs = " + std::to_string(r.vcs) + ": allowed for min_adaptive on a " +
                      t.kind + " at least " +
                      (torus ? "3 (2 escape + 1 adaptive)" : "2 (1 escape + 1 adaptive)") + per);
  if (f.request_reply && f.reply_queue < width * r.vc_depth)
    throw ConfigError("traffic.reply_queue = " + std::to_string(f.reply_queue) +
                      ": allowed at least " + std::to_string(width * r.vc_depth) +
                      " (vcs/2 x vc_depth: a slot for every request flit a router may send)");
  if (r.family == "sconnect") validate_sconnect(c);
  if (r.family == "t3e") validate_t3e(c);
  for (int64_t x : c.metro.failed_routers)
    if (r.family == "metro" && x >= static_cast<int64_t>(size.routers))
      throw ConfigError("metro.failed_routers = " + to_string(c.metro.failed_routers) +
                        ": allowed router numbers below " + std::to_string(size.routers) +
                        " (the network's routers)");
  if (r.family == "metro") metro::check_network_keys(c, build_topology(t));
  if (r.family != "sconnect" && !f.priority_weights.empty())
    throw ConfigError("traffic.priority_weights = " + to_string(f.priority_weights) +
                      ": allowed only [] for router.family = \"" + r.family + "\"");
  // Packet sizes.
  if (f.packet_sizes.size() != f.packet_size_weights.size())
    throw ConfigError("traffic.packet_size_weights = " + to_string(f.packet_size_weights) +
                      ": allowed one weight per entry of traffic.packet_sizes " +
                      to_string(f.packet_sizes));
  double max_size = static_cast<double>(f.packet_size), wsum = 0;
  if (!f.packet_sizes.empty()) {
    max_size = 0;
    for (size_t i = 0; i < f.packet_sizes.size(); ++i) {
      wsum += f.packet_size_weights[i];
      max_size = std::max(max_size, static_cast<double>(f.packet_sizes[i]));
    }
    if (!(wsum > 0 && std::isfinite(wsum)))
      throw ConfigError("traffic.packet_size_weights = " + to_string(f.packet_size_weights) +
                        ": allowed weights with a positive, finite sum");
  }
  if (f.request_reply) max_size = std::max(max_size, static_cast<double>(f.reply_size));
  if (r.routing == "min_adaptive" && max_size > r.vc_depth)
    throw ConfigError("router.vc_depth = " + std::to_string(r.vc_depth) +
                      ": allowed for min_adaptive at least the largest packet (" +
                      std::to_string(static_cast<int64_t>(max_size)) +
                      " flits): an adaptive VC is entered only with room for the whole packet");
  if (r.flow_control == "vct" && max_size > r.vc_depth)
    throw ConfigError("router.vc_depth = " + std::to_string(r.vc_depth) +
                      ": allowed for virtual cut-through at least the largest packet (" +
                      std::to_string(static_cast<int64_t>(max_size)) + " flits)");
  if ((f.pattern == "linefill" || f.pattern == "planefill") && c.router.family != "bgl")
    throw ConfigError("traffic.pattern = \"" + f.pattern +
                      "\": allowed only for router.family = \"bgl\" (the row broadcast's "
                      "deposit bit), here \"" +
                      c.router.family + "\"");
  if (f.pattern == "hotregion" || f.pattern == "gather") check_hot_region(c);
  if (finite_workload(c)) return check_alltoall(c, nodes);
  if (f.injection == "onoff" && !(f.burst_alpha > 0))
    throw ConfigError("traffic.burst_alpha = " + num(f.burst_alpha) + ": allowed > 0 for onoff");
  const double limit = offered_limit(c);
  if (f.offered > limit)
    throw ConfigError("traffic.offered = " + num(f.offered) +
                      ": allowed at most one packet per node per cycle" +
                      (f.injection == "onoff" ? std::string(" while on") : std::string("")) +
                      ", here offered <= " + num(limit));
  // Patterns (the T3E's run over each partition's PEs: validate_t3e).
  if (r.family != "t3e") check_pattern(f, nodes, "nodes");
}

void check_tuples(const std::string& key, const std::vector<int64_t>& xs, size_t n,
                  const char* names, const std::function<bool(const int64_t*)>& ok,
                  const std::string& allowed) {
  const std::string what = n == 2 ? "pair" : "triple";
  if (xs.size() % n)
    throw ConfigError(
        key + " = " + to_string(xs) + ": allowed " + names + " " + what +
        "s: " + (n == 2 ? std::string("an even number of") : "a multiple of " + std::to_string(n)) +
        " integers");
  for (size_t i = 0; i < xs.size(); i += n)
    if (!ok(&xs[i])) {
      std::string one;
      for (size_t k = 0; k < n; ++k) one += (k ? ", " : "") + std::to_string(xs[i + k]);
      throw ConfigError(key + " = " + to_string(xs) + ": " + what + " " + std::to_string(i / n) +
                        " is (" + one + "), allowed " + allowed);
    }
}

void check_pairs(const std::string& key, const std::vector<int64_t>& xs, const char* names,
                 const std::function<bool(int64_t, int64_t)>& ok, const std::string& allowed) {
  check_tuples(
      key, xs, 2, names, [&](const int64_t* x) { return ok(x[0], x[1]); }, allowed);
}

void check_same_batch(const std::vector<Config>& cs) {
  for (size_t i = 1; i < cs.size(); ++i) {
    // The run loop measures a batch of finite workloads (alltoall, gather) as a whole: no
    // instance of another pattern in it.
    if (finite_workload(cs[i]) != finite_workload(cs[0]))
      throw ConfigError("traffic.pattern = \"" + cs[i].traffic.pattern + "\" in instance " +
                        std::to_string(i) + ": allowed only " +
                        (finite_workload(cs[0]) ? "alltoall or gather"
                                                : "patterns other than alltoall and gather") +
                        " (instance 0 has \"" + cs[0].traffic.pattern + "\")");
    for (const KeyInfo& k : schema()) {
      if (k.per_instance) continue;
      if (k.get(cs[i]) != k.get(cs[0]))
        throw ConfigError(k.key() + " = " + to_string(k.get(cs[i])) + " in instance " +
                          std::to_string(i) + ": allowed only " + to_string(k.get(cs[0])) +
                          " (every instance of a batch shares " + k.key() + ")");
    }
  }
}

}  // namespace ls
