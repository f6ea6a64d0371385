// Set-up of a Blue Gene/L batch on the host, once: the parameter block and the links as the
// kernels read them (each direction's far end: router and receiver, and its delay).
#pragma once
#include <vector>

#include "../../kernels/bgl/bgl_state.hpp"
#include "../config/config.hpp"
#include "../topology/topology.hpp"

namespace ls::bgl {

BglParams make_params(const Config& c, const Topology& t);

// Router r's direction d (topology port d + 1) leads to far[r * dirs + d] = router * dirs +
// the receiver there (-1 none), a link of delay[r * dirs + d] byte times.
struct Wiring {
  std::vector<int32_t> far;
  std::vector<uint8_t> delay;
};
Wiring make_wiring(const BglParams& p, const Topology& t);

// Software's routes around the dead nodes (kernels/bgl/dead_nodes.hpp) over every ordered pair
// of live nodes: how many no choice of hint bits reaches, and how many must go deterministically.
// Networks of more than kMaxReachNodes nodes are not counted (-1): the count is quadratic.
struct Reach {
  int64_t unreachable = 0, deterministic = 0, relayed = 0;
};
constexpr uint32_t kMaxReachNodes = 4096;
Reach dead_node_reach(const BglParams& p);

}  // namespace ls::bgl
