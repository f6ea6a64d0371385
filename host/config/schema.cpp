#include "schema.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "../topology/topology.hpp"
#include "../traffic/completion_peak.hpp"
#include "did_you_mean.hpp"
#include "family.hpp"
#include "key_builders.hpp"

namespace ls {
namespace {

using keys::join;
using keys::num;

constexpr double kMaxOffered = 64.0;  // traffic.offered's range: [0, kMaxOffered]

// The shared sections' keys and each family's, in the documented order: topology, router
// (family, then the keys of the family whose section it is), traffic, the families' own
// sections, run. A family's notes end the documentation of the shared keys they are about.
std::vector<KeyInfo> make_schema() {
  using namespace keys;
  using T = TopologyConfig;
  using R = RouterConfig;
  using F = TrafficConfig;
  using U = RunConfig;
  const auto topo = &Config::topology;
  const auto rtr = &Config::router;
  const auto trf = &Config::traffic;
  const auto run = &Config::run;
  const auto names = [](const std::function<bool(const Family&)>& has) {
    return "router.family = " + family_names(has);
  };
  std::vector<std::string> family_values;
  std::vector<std::string> family_docs;
  for (const Family* f : families()) {
    family_values.push_back(f->name);
    family_docs.push_back(f->doc);
  }
  std::string router_doc = "router model: ";
  for (size_t i = 0; i < family_docs.size(); ++i)
    router_doc += (i == 0 ? "" : i + 1 == family_docs.size() ? ", or " : ", ") + family_docs[i];
  std::string crossovers;
  for (const Family* f : families())
    crossovers +=
        (crossovers.empty() ? "" : ", ") + f->name + " " + std::to_string(f->auto_cuda_routers);
  std::vector<KeyInfo> out = {
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
                   "1 only for " +
                       names([](const Family& f) { return f.min_radix < 2; }) +
                       ", whose machines may be one node thick; "
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
      enum_key("router", "family", rtr, &R::family, family_values, router_doc),
  };
  for (const Family* f : families())
    if (f->section == "router") out.insert(out.end(), f->keys.begin(), f->keys.end());
  const std::vector<KeyInfo> traffic = {
      enum_key(
          "traffic", "pattern", trf, &F::pattern,
          {"uniform", "transpose", "bitcomp", "bitrev", "shuffle", "tornado", "neighbor", "hotspot",
           "randperm", "alltoall", "hotregion", "linefill", "gather", "planefill", "fft"},
          "destination pattern (uniform includes the source itself, as BookSim; alltoall: "
          "every node sends traffic.alltoall_packets packets to every other node, in a "
          "random order of its own, and the run ends when all are delivered; gather: the "
          "same from every node outside traffic.hot_region to every node inside it; linefill: "
          "a row broadcast (" +
              names([](const Family& f) { return f.broadcasts; }) +
              "), each packet along traffic.line_dimension to every node of its ring, half of "
              "them each way round; planefill: a broadcast to every node of the plane of "
              "traffic.line_dimension and traffic.turn_dimension, "
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
              "(gather: the links entering the region) need over the time taken (" +
                  names([](const Family& f) { return f.finite_workloads; }) + ")",
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
      int_key("traffic", "packet_size", trf, &F::packet_size, 1, 65535, "flits per packet", true),
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
               "replies use separate halves of the VCs (two message classes)"),
      int_key("traffic", "reply_size", trf, &F::reply_size, 1, 32767,
              "request-reply: flits per reply", true),
      int_key("traffic", "reply_queue", trf, &F::reply_queue, 1, 65535,
              "request-reply: replies a terminal can hold; while full it stops taking requests "
              "(at least vcs/2 x vc_depth)"),
      float_list_key(
          "traffic", "priority_weights", trf, &F::priority_weights, 4,
          "the offered load split over message priorities 0, 1, ... in these proportions, "
          "each priority a source queue of its own at the host (empty: all priority 0; " +
              names([](const Family& f) { return f.priorities; }) + " only)",
          true),
  };
  out.insert(out.end(), traffic.begin(), traffic.end());
  for (const Family* f : families())
    if (f->section != "router") out.insert(out.end(), f->keys.begin(), f->keys.end());
  const std::vector<KeyInfo> runs = {
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
              "one CPU core: " +
                  crossovers + "; 0: always the GPU"),
      int_key("run", "threads", run, &U::threads, 0, 1024,
              "CPU threads (0: all cores, a single network split over them running on one while "
              "that is faster, as when another process holds a core)"),
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
               "sync per cycle); auto, the CPU's instance-by-instance stages, or on CUDA block for "
               "instances of up to 256 elements and large batches, else launch"),
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
      enum_key("run", "block_view", run, &U::block_view, {"shared", "parameter"},
               "block schedule: where a GPU block reads the cycle's view (its parameters and "
               "state pointers) during a launch: a copy in the block's shared memory, or the "
               "kernel's parameter, where the compiler knows the state is in global memory "
               "(docs/performance.md, 'Where the block schedule reads its view'); with "
               "run.hot_state = shared, shared only; identical results"),
      enum_key("run", "lanes", run, &U::lanes, {"auto", "one", "tile"},
               "launch, block and grid schedules: threads an element's cycle runs on: one, or a "
               "tile of 16 (a GPU warp's half) over which a family with a lane form spreads a "
               "router's ports and VCs (docs/architecture.md names them; the others run their "
               "cycle on the tile's first lane); auto: one on the CPU, on CUDA a tile under "
               "launch for batches of at most 1,024 elements (with run.schedule = auto too: "
               "launch, unless run.hot_state = shared keeps it to block), as an H100 measured "
               "fastest, and a tile with run.roles; identical results"),
      bool_key("run", "roles", run, &U::roles,
               "launch and block schedules, a family with a role form: the stages a router "
               "runs on one lane (its terminals or its PE) each on a thread of its own, in "
               "warps after the routers' (their tiles, or one lane each with run.lanes = one), "
               "so the two run side by side "
               "(docs/performance.md, 'Roles on warps of their own'); identical results"),
      int_key("run", "watchdog", run, &U::watchdog, 0, 1ll << 30,
              "report a deadlock after this many cycles without a flit moving (0: off)"),
      float_key("run", "latency_threshold", run, &U::latency_threshold, 1.0, 1e9,
                "mean packet latency above which a point is flagged saturated"),
  };
  out.insert(out.end(), runs.begin(), runs.end());
  for (const Family* f : families())
    for (const auto& note : f->notes) {
      const std::string& key = note.first;  // not a structured binding: lambdas capture it
      auto k =
          std::find_if(out.begin(), out.end(), [&](const KeyInfo& x) { return x.key() == key; });
      if (k == out.end()) throw std::logic_error("family " + f->name + " notes unknown key " + key);
      k->doc += "; " + f->name + ": " + note.second;
    }
  return out;
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
  if (std::find(sections.begin(), sections.end(), section) != sections.end()) return;
  const std::string near = closest_name(section, sections);
  throw ConfigError("unknown section [" + escaped(section) + "]" +
                    (near.empty() ? "" : " (did you mean [" + near + "]?)") + ": allowed " +
                    join(sections));
}

const KeyInfo& find_key(const std::string& section, const std::string& name) {
  check_section(section);
  std::vector<std::string> names, elsewhere;  // the section's names; the name in other sections
  for (const KeyInfo& k : schema()) {
    if (k.section == section && k.name == name) return k;
    if (k.section == section) names.push_back(k.name);
    if (k.name == name) elsewhere.push_back(k.key());
  }
  // A key written in the wrong section is named where it is; a misspelt one by its neighbour.
  const std::string near = closest_name(name, names);
  const std::string hint = !elsewhere.empty() ? " (did you mean " + join(elsewhere) + "?)"
                           : near.empty()     ? ""
                                              : " (did you mean " + section + "." + near + "?)";
  throw ConfigError("unknown key " + section + "." + escaped(name) + hint + ": allowed " +
                    join(names));
}

void set_key(Config& c, const std::string& section, const std::string& name, const Value& v) {
  find_key(section, name).set(c, v);
}

namespace {
bool pow2(int64_t n) {
  return n > 0 && (n & (n - 1)) == 0;
}
}  // namespace

void check_packet_sizes(const TrafficConfig& f, const std::function<bool(int64_t)>& ok,
                        const std::string& allowed) {
  const bool one = f.packet_sizes.empty();
  const std::vector<int64_t> sizes = one ? std::vector<int64_t>{f.packet_size} : f.packet_sizes;
  for (int64_t b : sizes)
    if (!ok(b))
      throw ConfigError((one ? "traffic.packet_size = " + std::to_string(b)
                             : "traffic.packet_sizes = " + to_string(sizes)) +
                        ": allowed " + allowed);
}

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

namespace {

// A hot region is a box of a mesh's or torus's nodes.
void check_hot_region(const Config& c) {
  const std::vector<int64_t>& h = c.traffic.hot_region;
  const std::vector<int64_t>& k = c.topology.radix;
  const std::string key = "traffic.hot_region = " + to_string(h);
  if (!family(c.router.family).hot_regions ||
      (c.topology.kind != "torus" && c.topology.kind != "mesh"))
    throw ConfigError("traffic.pattern = \"" + c.traffic.pattern +
                      "\": allowed only on a mesh or torus of router.family " +
                      family_names([](const Family& f) { return f.hot_regions; }) + ", here " +
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
  if (!family(c.router.family).finite_workloads)
    throw ConfigError("router.family = \"" + c.router.family + "\"" + a2a +
                      family_names([](const Family& g) { return g.finite_workloads; }));
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
  // Offered load counts every flit: with request-reply (and in a family of requests and
  // responses, Family::packet_flits), each request brings its reply.
  double flits = mean_packet_size(f);  // validate() has checked the weights
  const Family& fam = family(c.router.family);
  if (fam.packet_flits)
    flits = fam.packet_flits(c);
  else if (f.request_reply)
    flits += static_cast<double>(f.reply_size);
  if (f.injection == "onoff" && f.burst_alpha > 0)
    flits *= f.burst_alpha / (f.burst_alpha + f.burst_beta);
  return std::min(flits, kMaxOffered);
}

std::string KeyInfo::family() const {
  if (section == "router" && name == "family") return "";
  for (const Family* f : families())
    if (f->section == section) return f->name;
  return "";
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
  const auto& f = c.traffic;
  const Family& fam = family(c.router.family);
  const TopologySize size = validate_topology(t);
  for (int64_t k : t.radix)
    if (k < fam.min_radix)
      throw ConfigError("topology.radix = " + to_string(t.radix) +
                        ": allowed at least 2 per dimension (1 only for router.family = " +
                        family_names([](const Family& g) { return g.min_radix < 2; }) + ")");
  if (is_multistage_kind(t.kind) && !fam.multistage)
    throw ConfigError("topology.kind = \"" + t.kind +
                      "\": allowed multibutterfly and fat_tree only for router.family = " +
                      family_names([](const Family& g) { return g.multistage; }) +
                      ", here router.family = " + fam.name);
  if (fam.validate) fam.validate(c, size);
  if (c.run.roles && !fam.roles)
    throw ConfigError("run.roles = true: allowed only for router.family = " +
                      family_names([](const Family& g) { return g.roles; }) +
                      " (a cycle with a role form), here \"" + fam.name + "\"");
  if (c.run.block_view == "parameter" && c.run.hot_state == "shared")
    throw ConfigError(
        "run.block_view = \"parameter\": allowed only with run.hot_state = \"global\" (the hot "
        "arrays' pointers are rebased in a copy of the view in shared memory), here \"shared\"");
  if (c.run.roles && c.run.schedule == "grid")
    throw ConfigError(
        "run.roles = true: allowed only with run.schedule = \"launch\", \"block\" or \"auto\", "
        "here \"grid\"");
  if (!fam.priorities && !f.priority_weights.empty())
    throw ConfigError("traffic.priority_weights = " + to_string(f.priority_weights) +
                      ": allowed only [] for router.family = \"" + fam.name + "\"");
  // Packet sizes.
  if (f.packet_sizes.size() != f.packet_size_weights.size())
    throw ConfigError("traffic.packet_size_weights = " + to_string(f.packet_size_weights) +
                      ": allowed one weight per entry of traffic.packet_sizes " +
                      to_string(f.packet_sizes));
  double wsum = 0;
  for (double w : f.packet_size_weights) wsum += w;
  if (!f.packet_sizes.empty() && !(wsum > 0 && std::isfinite(wsum)))
    throw ConfigError("traffic.packet_size_weights = " + to_string(f.packet_size_weights) +
                      ": allowed weights with a positive, finite sum");
  if ((f.pattern == "linefill" || f.pattern == "planefill") && !fam.broadcasts)
    throw ConfigError("traffic.pattern = \"" + f.pattern +
                      "\": allowed only for router.family = \"" +
                      family_names([](const Family& g) { return g.broadcasts; }) +
                      "\" (the row broadcast's deposit bit), here \"" + fam.name + "\"");
  if (f.pattern == "hotregion" || f.pattern == "gather") check_hot_region(c);
  const auto nodes = static_cast<int64_t>(size.nodes);
  if (finite_workload(c)) return check_alltoall(c, nodes);
  if (f.injection == "onoff" && !(f.burst_alpha > 0))
    throw ConfigError("traffic.burst_alpha = " + num(f.burst_alpha) + ": allowed > 0 for onoff");
  const double limit = offered_limit(c);
  if (f.offered > limit)
    throw ConfigError("traffic.offered = " + num(f.offered) +
                      ": allowed at most one packet per node per cycle" +
                      (f.injection == "onoff" ? std::string(" while on") : std::string("")) +
                      ", here offered <= " + num(limit));
  // Patterns (a family may run them over groups of its own: Family::own_patterns).
  if (!fam.own_patterns) check_pattern(f, nodes, "nodes");
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
