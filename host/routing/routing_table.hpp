// Destination-indexed routing tables for any topology, built and checked on the host (the
// S-Connect router's, seed 004 sections 2.2-2.4 and 3.1; any family that routes by table may use
// them). An entry per (router, destination node): the network ports a message may leave on and
// the virtual channel it leaves on. The arrays are flat, router-major, so a router's entries are
// one row; the kernels index [router * nodes + destination].
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "../topology/topology.hpp"

namespace ls {

struct RoutingTable {
  uint32_t routers = 0, ports = 0, nodes = 0;
  // [router, dest]: bit p set: the message may leave on network port p (p >= 1); 0 at the
  // destination's own router, which delivers to the terminal.
  std::vector<uint32_t> port_mask;
  std::vector<uint8_t> vc;  // [router, dest]: the VC (0 or 1) it leaves this router on
  // [router] the resource order the table was built with (build_routing_table; the root
  // highest): a hop off the table from n to n' keeps the buffer classes acyclic when it is one the
  // order allows (VC 0 to VC 0 upwards, VC 1 to VC 1 downwards, VC 0 to VC 1 anywhere).
  std::vector<uint32_t> rank;
  size_t at(uint32_t router, uint32_t dest) const { return size_t{router} * nodes + dest; }
};

// Over the (router, destination) pairs whose router is not the destination's.
struct RoutingStats {
  double minimal = 0;          // fraction whose every permitted route is a shortest path
  double stretch = 0;          // mean of (routed hops / shortest hops)
  double options = 0;          // mean permitted ports
  double minimal_options = 0;  // mean ports on some shortest path (all a minimal router could use)
  uint32_t root = 0;           // the router whose BFS order the table's resource order is
  // The busiest channel's load under uniform traffic, each router splitting what it forwards
  // evenly over the ports its table permits, per unit of offered load per node: the table's
  // saturation bound is its inverse.
  double max_channel_load = 0;
  bool natural_order = false;  // the order is the routers' numbering, not grown from a root
};

// Hop counts between routers over the network links, [router, router]; 0xFFFF unreachable.
std::vector<uint16_t> hop_distances(const Topology& t);

// Throws ConfigError when a table of routers x destinations entries would pass 2^26 (a family
// that routes by table checks it in validate(), before any allocation; the builder again).
void check_table_size(uint64_t routers, uint64_t nodes);

// A complete, deadlock-free table by resource ordering (resource_order.cpp). The order is grown
// from a root; of the `roots` most central routers (fewer for large networks) the root whose order
// keeps the most pairs minimal is kept. Throws ConfigError for more than 2^26 entries.
RoutingTable build_routing_table(const Topology& t, RoutingStats* stats = nullptr,
                                 uint32_t roots = 16);

// What is wrong with any table (table_check.cpp): entries that permit no port or ports without a
// link, routes that loop or do not reach the destination, and a cycle of the buffer-class
// dependency graph, printed as (router, VC) classes with the destinations that make each edge.
// Empty when the table is complete and deadlock-free.
std::vector<std::string> check_routing_table(const Topology& t, const RoutingTable& table);

}  // namespace ls
