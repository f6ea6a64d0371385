// The graph kinds' builders: hypercube, random regular graph, edge lists (topology.edges and
// edge files), dual-TIC nodes, and every configuration they refuse, with its message.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <set>

#include "graph_helpers.hpp"
#include "host/config/schema.hpp"
#include "host/topology/topology.hpp"

using namespace ls;
using test::config_error_of;

namespace {

// Links as (router, port) pairs; checks that the peer table is symmetric on the way.
std::vector<std::pair<uint32_t, uint32_t>> links_of(const Topology& t) {
  std::vector<std::pair<uint32_t, uint32_t>> out;
  for (uint32_t i = 0; i < t.routers * t.ports; ++i) {
    const int32_t j = t.peer[i];
    if (j < 0) continue;
    EXPECT_EQ(t.peer[j], static_cast<int32_t>(i)) << "peer table not symmetric at " << i;
    EXPECT_EQ(t.link_delay[j], t.link_delay[i]) << "delays differ at the two ends of " << i;
    EXPECT_NE(i % t.ports, 0u) << "a link on the terminal port";
    if (static_cast<int32_t>(i) < j)
      out.push_back({i / t.ports, static_cast<uint32_t>(j) / t.ports});
  }
  return out;
}

std::vector<uint32_t> degrees(const Topology& t) {
  std::vector<uint32_t> d(t.routers, 0);
  for (auto [a, b] : links_of(t)) ++d[a], ++d[b];
  return d;
}

// A file in a fresh temporary directory, removed with the object.
struct TempFile {
  std::string path;
  explicit TempFile(const std::string& text) {
    char dir[] = "/tmp/lockstep_graphXXXXXX";
    path = std::string(mkdtemp(dir)) + "/edges.txt";
    std::ofstream(path) << text;
  }
  ~TempFile() {
    std::remove(path.c_str());
    rmdir(path.substr(0, path.rfind('/')).c_str());
  }
};

void expect_message(const std::string& m, std::initializer_list<const char*> parts) {
  EXPECT_FALSE(m.empty()) << "no ConfigError";
  for (const char* p : parts)
    EXPECT_NE(m.find(p), std::string::npos) << "'" << p << "' not in: " << m;
}

void expect_refused(const TopologyConfig& c, std::initializer_list<const char*> parts) {
  expect_message(config_error_of([&] { build_topology(c); }), parts);
}

}  // namespace

TEST(GraphTopology, HypercubeLinksNodeToNodeXorTwoToTheDimensionOnPortOnePlusDimension) {
  TopologyConfig c = test::hypercube(4);
  c.link_delay = 3;
  c.terminal_delay = 2;
  const Topology t = build_topology(c);
  EXPECT_EQ(t.routers, 16u);
  EXPECT_EQ(t.nodes, 16u);
  EXPECT_EQ(t.ports, 5u);
  EXPECT_EQ(links_of(t).size(), 32u);
  for (uint32_t r = 0; r < 16; ++r) {
    EXPECT_EQ(t.node_router[r], static_cast<int32_t>(r));
    EXPECT_EQ(t.port_node[r * 5], static_cast<int32_t>(r));
    EXPECT_EQ(t.link_delay[r * 5], 2);
    for (uint32_t k = 0; k < 4; ++k) {
      EXPECT_EQ(t.peer[r * 5 + 1 + k], static_cast<int32_t>((r ^ (1u << k)) * 5 + 1 + k));
      EXPECT_EQ(t.link_delay[r * 5 + 1 + k], 3);
    }
  }
  // A 1-D shape of the nodes, so the traffic patterns work.
  EXPECT_EQ(t.shape.ndims, 1u);
  EXPECT_EQ(t.shape.nodes, 16u);
  EXPECT_EQ(t.shape.bits, 4u);
}

TEST(GraphTopology, FewerChannelsThanPortsLeavePortsUnconnected) {
  const Topology t = build_topology(test::hypercube(2, 6));
  EXPECT_EQ(t.ports, 7u);
  for (uint32_t r = 0; r < 4; ++r)
    for (uint32_t p = 3; p < 7; ++p) EXPECT_EQ(t.peer[r * 7 + p], -1);
}

TEST(GraphTopology, AHypercubeOfMoreDimensionsThanPortsIsRefusedNamingTheRouter) {
  expect_refused(test::hypercube(6), {"topology.max_ports = 4", "router 0 has degree 6"});
  EXPECT_EQ(build_topology(test::hypercube(6, 6)).routers, 64u);
}

TEST(GraphTopology, DualTicNodesAreTwoRoutersJoinedOnTheirLastPort) {
  // Paper Figure 9: two TICs of 4 channels make a node of 8; a 64-node hypercube needs 6.
  const Topology t = build_topology(test::hypercube(6, 4, true));
  EXPECT_EQ(t.nodes, 64u);
  EXPECT_EQ(t.routers, 128u);
  EXPECT_EQ(t.ports, 6u);  // terminal, 4 channels, the link to the twin
  EXPECT_EQ(links_of(t).size(), 64u * 6 / 2 + 64);
  const std::vector<uint32_t> d = degrees(t);
  for (uint32_t n = 0; n < 64; ++n) {
    const uint32_t a = 2 * n, b = a + 1;
    EXPECT_EQ(t.node_router[n], static_cast<int32_t>(a));
    EXPECT_EQ(t.port_node[a * 6], static_cast<int32_t>(n));
    EXPECT_EQ(t.port_node[b * 6], -1);  // the host is on the first
    EXPECT_EQ(t.peer[a * 6 + 5], static_cast<int32_t>(b * 6 + 5));
    EXPECT_EQ(t.link_delay[a * 6 + 5], 1);
    EXPECT_EQ(d[a], 4u);  // 3 channels (dimensions 0, 2, 4) and the twin
    EXPECT_EQ(d[b], 4u);  // dimensions 1, 3, 5 and the twin
    // Channel k of the node: router a + k % 2, port 1 + k / 2; its far end is the neighbour's
    // same channel.
    for (uint32_t k = 0; k < 6; ++k) {
      const uint32_t m = n ^ (1u << k);
      EXPECT_EQ(t.peer[(a + k % 2) * 6 + 1 + k / 2],
                static_cast<int32_t>((2 * m + k % 2) * 6 + 1 + k / 2));
    }
  }
  expect_refused(test::hypercube(9, 4, true), {"topology.max_ports = 4", "node 0 (routers 0 and 1)",
                                               "degree 9", "8 per dual-TIC node"});
}

TEST(GraphTopology, RandomRegularGraphsAreSimpleConnectedAndRegular) {
  for (auto [n, k] : {std::pair{16, 3}, {64, 4}, {256, 4}, {100, 7}, {16, 15}, {50, 2}})
    for (int64_t seed : {1, 2, 3}) {
      TopologyConfig c = test::random_regular(n, k, seed);
      const Topology t = build_topology(c);
      ASSERT_EQ(t.routers, static_cast<uint32_t>(n));
      const auto links = links_of(t);
      EXPECT_EQ(links.size(), static_cast<size_t>(n * k / 2));
      std::set<std::pair<uint32_t, uint32_t>> distinct;
      for (auto [a, b] : links) {
        EXPECT_NE(a, b) << "self-loop";
        distinct.insert({std::min(a, b), std::max(a, b)});
      }
      EXPECT_EQ(distinct.size(), links.size()) << "parallel links, n=" << n << " k=" << k;
      for (uint32_t d : degrees(t)) EXPECT_EQ(d, static_cast<uint32_t>(k));
      // (connectivity: build_graph refuses a graph that is not connected)
    }
}

TEST(GraphTopology, RandomRegularGraphIsAFunctionOfItsSeed) {
  const Topology a = build_topology(test::random_regular(64, 4, 11));
  EXPECT_EQ(a.peer, build_topology(test::random_regular(64, 4, 11)).peer);
  EXPECT_NE(a.peer, build_topology(test::random_regular(64, 4, 12)).peer);
  // The same graph on every machine: our own generator, pinned here.
  const auto links = links_of(build_topology(test::random_regular(8, 3, 7)));
  std::string s;
  for (auto [x, y] : links) s += std::to_string(x) + "-" + std::to_string(y) + " ";
  EXPECT_EQ(s, "0-2 0-3 0-4 1-2 1-5 1-7 2-7 3-5 3-6 4-6 4-7 5-6 ");
}

TEST(GraphTopology, ImpossibleRandomRegularGraphsAreRefused) {
  expect_refused(test::random_regular(7, 3, 1), {"topology.degree = 3", "nodes x degree is even"});
  expect_refused(test::random_regular(8, 8, 1),
                 {"topology.degree = 8", "below topology.nodes = 8"});
  expect_refused(test::random_regular(8, 1, 1), {"topology.degree = 1", "never connected"});
  EXPECT_EQ(build_topology(test::random_regular(2, 1, 1)).routers, 2u);
  TopologyConfig c = test::random_regular(16, 5, 1);
  c.max_ports = 4;
  expect_refused(c, {"topology.max_ports = 4", "has degree 5"});
}

TEST(GraphTopology, EdgeListsGiveNodesLinksAndPerLinkDelays) {
  TopologyConfig c = test::edge_list({0, 1, 1, 1, 2, 7, 2, 0, 200, 2, 3, 1});
  c.link_delay = 9;  // every edge has its own
  const Topology t = build_topology(c);
  EXPECT_EQ(t.nodes, 4u);
  EXPECT_EQ(t.routers, 4u);
  EXPECT_EQ(t.ports, 5u);
  EXPECT_EQ(degrees(t), (std::vector<uint32_t>{2, 2, 3, 1}));
  // Channels in the order of the list: node 2's are 1 (port 1), 0 (port 2), 3 (port 3).
  EXPECT_EQ(t.peer[2 * 5 + 1], 1 * 5 + 2);
  EXPECT_EQ(t.link_delay[2 * 5 + 1], 7);
  EXPECT_EQ(t.peer[2 * 5 + 2], 0 * 5 + 2);
  EXPECT_EQ(t.link_delay[2 * 5 + 2], 200);
  EXPECT_EQ(t.peer[2 * 5 + 3], 3 * 5 + 1);
  EXPECT_EQ(t.shape.bits, 2u);
}

TEST(GraphTopology, EdgeListsThatAreNotSimpleConnectedGraphsAreRefused) {
  expect_refused(test::edge_list({0, 1, 1, 1, 1, 2}),
                 {"topology.edges[3..5] = [1, 1, 2]", "no self-loops"});
  expect_refused(
      test::edge_list({0, 1, 1, 1, 2, 1, 1, 0, 3}),
      {"topology.edges[6..8] = [1, 0, 3]", "each link once", "topology.edges[0..2] = [0, 1, 1]"});
  expect_refused(
      test::edge_list({0, 1, 1, 2, 3, 1, 3, 4, 1}),
      {"topology.edges", "allowed only a connected graph", "node(s) 2, 3, 4 cannot be reached"});
  expect_refused(test::edge_list({0, 1, 1, 0, 2}),
                 {"topology.edges = [0, 1, 1, 0, 2]", "divisible by 3"});
  expect_refused(test::edge_list({0, 1, 0}),
                 {"topology.edges[0..2] = [0, 1, 0]", "delay of 1 to 255"});
  expect_refused(test::edge_list({0, 1, 256}), {"delay of 1 to 255"});
  expect_refused(test::edge_list({0, 70000, 1}), {"[0, 70000, 1]", "node ids 0 to 65535"});
  expect_refused(test::edge_list({}), {"topology.edges = []", "at least one link"});
  // A star of 5 on routers of 4 channels.
  expect_refused(test::edge_list({0, 1, 1, 0, 2, 1, 0, 3, 1, 0, 4, 1, 0, 5, 1}),
                 {"topology.max_ports = 4", "router 0 has degree 5"});
}

TEST(GraphTopology, EdgeFilesTakeCommentsBlankLinesAndDefaultDelays) {
  TempFile f(
      "# a triangle and a tail\n"
      "0 1\n"
      "\n"
      "1 2 5   # a slow link\n"
      "  2 0\n"
      "2 3 12\n");
  TopologyConfig c;
  c.kind = "graph";
  c.edge_file = f.path;
  c.link_delay = 4;
  const Topology t = build_topology(c);
  EXPECT_EQ(t.nodes, 4u);
  EXPECT_EQ(links_of(t).size(), 4u);
  EXPECT_EQ(t.link_delay[0 * 5 + 1], 4);   // 0 1: link_delay
  EXPECT_EQ(t.link_delay[1 * 5 + 2], 5);   // 1 2 5
  EXPECT_EQ(t.link_delay[2 * 5 + 3], 12);  // 2 3 12
}

TEST(GraphTopology, BadEdgeFilesNameTheFileLineAndWhatIsWrong) {
  auto refused = [](const std::string& text, std::initializer_list<const char*> parts) {
    TempFile f(text);
    TopologyConfig c;
    c.kind = "graph";
    c.edge_file = f.path;
    expect_refused(c, parts);
    expect_message(config_error_of([&] { build_topology(c); }),
                   {("topology.edge_file = \"" + f.path + "\"").c_str()});
  };
  refused("0 1\n1 x\n", {"line 2 = \"1 x\"", "allowed \"a b [delay]\""});
  refused("0 1\n1\n", {"line 2 = \"1\""});
  refused("0 1 1 1\n", {"line 1"});
  refused("0 -1\n", {"line 1"});
  refused("# nothing\n\n", {"has no links"});
  refused("0 1\n1 1\n", {"line 2 = \"1 1 1\"", "no self-loops"});
  refused("0 1\n1 0 3\n", {"line 2 = \"1 0 3\"", "each link once", "line 1"});
  refused("0 1\n1 99999\n", {"line 2", "node ids 0 to 65535"});
  refused("0 1\n1 2 0\n", {"line 2", "delay of 1 to 255"});
  refused("0 1\n2 3\n", {"connected", "node(s) 2, 3"});
  TopologyConfig c;
  c.kind = "graph";
  c.edge_file = "/nonexistent/edges.txt";
  expect_refused(c, {"topology.edge_file = \"/nonexistent/edges.txt\"", "cannot be read"});
  c.edges = {0, 1, 1};
  expect_refused(c, {"topology.edge_file", "only with topology.edges = []"});
  // A line's control characters are printed escaped: a NUL would end the message.
  refused(std::string("0 1\n1 \0 2\n", 11), {"line 2 = \"1 \\x00 2\"", "allowed"});
}

TEST(GraphTopology, EdgeFilesThatAreNoRegularFilesAreRefusedUnread) {
  // A FIFO would block the reader for ever, /dev/zero be read until memory runs out.
  char dir[] = "/tmp/lockstep_edges_XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  const std::string fifo = std::string(dir) + "/links";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  TopologyConfig c;
  c.kind = "graph";
  for (const auto& [path, what] : {std::pair<std::string, const char*>{fifo, "a FIFO"},
                                   {"/dev/zero", "a device"},
                                   {dir, "a directory"}}) {
    c.edge_file = path;
    expect_refused(c, {("topology.edge_file = \"" + path + "\": is no regular file").c_str(), what,
                       "allowed a readable text file"});
  }
  unlink(fifo.c_str());
  rmdir(dir);
}

TEST(GraphTopology, SizeWithoutBuildingMatchesTheBuiltTopology) {
  TopologyConfig dual = test::random_regular(32, 6, 3);
  dual.max_ports = 3;
  dual.dual_tic = true;
  TopologyConfig crossbar = test::cube("crossbar", {8});
  for (const TopologyConfig& c :
       {test::cube("mesh", {4, 3}), test::cube("torus", {3, 3, 3}), crossbar, test::hypercube(5, 5),
        test::random_regular(20, 3, 1), test::ring(9), dual}) {
    const Topology t = build_topology(c);
    const TopologySize s = topology_size(c);
    EXPECT_EQ(s.routers, t.routers) << c.kind;
    EXPECT_EQ(s.nodes, t.nodes) << c.kind;
    EXPECT_EQ(s.ports, t.ports) << c.kind;
  }
}

TEST(GraphTopology, ValidateChecksTheGraphAndKeepsTheVcFamilyOnCubes) {
  Config c;
  c.topology = test::hypercube(4);
  expect_message(config_error_of([&] { validate(c); }),
                 {"topology.kind = \"hypercube\": allowed only mesh, torus, crossbar for "
                  "router.family = vc"});
  c.topology = test::edge_list({0, 0, 1});
  expect_message(config_error_of([&] { validate(c); }), {"no self-loops"});  // graph first
  EXPECT_EQ(validate_topology(test::ring(5)).nodes, 5u);
  // Delays up to 255 on graphs; meshes and tori keep their 64.
  TopologyConfig slow = test::ring(4);
  slow.link_delay = 255;
  EXPECT_NO_THROW(validate_topology(slow));
  c = Config{};
  c.topology.link_delay = 65;
  expect_message(config_error_of([&] { validate(c); }),
                 {"topology.link_delay = 65", "at most 64 for a torus"});
  expect_message(
      config_error_of([&] { set_key(c, "topology", "link_delay", Value(int64_t{256})); }),
      {"topology.link_delay = 256", "[1, 255]"});
  c = Config{};
  c.topology.dual_tic = true;
  expect_message(config_error_of([&] { validate(c); }),
                 {"topology.dual_tic = true", "graph kinds"});
  c = Config{};
  c.topology.edges = {0, 1, 1};
  expect_message(config_error_of([&] { validate(c); }),
                 {"topology.edges", "only for topology.kind = \"graph\""});
}

TEST(GraphTopology, NewKeysAreInTheSchema) {
  Config c;
  set_key(c, "topology", "kind", Value(std::string("random_regular")));
  set_key(c, "topology", "nodes", Value(int64_t{32}));
  set_key(c, "topology", "degree", Value(int64_t{3}));
  set_key(c, "topology", "graph_seed", Value(int64_t{5}));
  set_key(c, "topology", "max_ports", Value(int64_t{3}));
  set_key(c, "topology", "dual_tic", Value(true));
  set_key(c, "topology", "edge_file", Value(std::string("")));
  set_key(c, "topology", "edges", Value(std::vector<int64_t>{}));
  set_key(c, "topology", "dimension", Value(int64_t{16}));
  EXPECT_EQ(validate_topology(c.topology).routers, 64u);
  expect_message(config_error_of([&] { set_key(c, "topology", "max_ports", Value(int64_t{16})); }),
                 {"topology.max_ports = 16", "[1, 15]"});
  expect_message(config_error_of([&] { set_key(c, "topology", "dimension", Value(int64_t{17})); }),
                 {"topology.dimension = 17", "[1, 16]"});
  expect_message(config_error_of([&] { set_key(c, "topology", "edge_file", Value(int64_t{3})); }),
                 {"topology.edge_file = 3"});
}
