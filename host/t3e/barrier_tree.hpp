// Spanning trees for the virtual barrier/eureka networks (paper section 6): the BSU register of
// every router for one BSU, as software would load them for a set of participating PEs.
#pragma once
#include <cstdint>
#include <vector>

namespace ls::t3e {

// A tree over the PEs of `members` (routers), rooted at router `root`, given the router each
// router's link in each direction leads to (`next`, [routers, 6], -1 none: neighbours()). A
// router's parent is its neighbour one hop nearer the root, the highest dimension first (Z, then
// Y, then X; + before -), so a member's depth is its distance from the root, and on a full torus
// the parent is the neighbour in the highest dimension where they differ, the shorter way round
// (+ on a tie). Routers with no member below them are left out (register 0). Returns the
// register words [routers] (bsu_register.hpp).
std::vector<uint32_t> barrier_tree(const std::vector<int32_t>& next,
                                   const std::vector<uint32_t>& members, uint32_t root);

}  // namespace ls::t3e
