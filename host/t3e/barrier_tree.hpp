// Spanning trees for the virtual barrier/eureka networks (paper section 6): the BSU register of
// every router for one BSU, as software would load them for a set of participating PEs.
#pragma once
#include <cstdint>
#include <vector>

namespace ls::t3e {

// A tree over the PEs of `members` (routers; empty: every router), rooted at router `root`,
// given each router's R_PWHO and the torus radix. A router's parent is its neighbour one hop
// nearer the root in the highest dimension where they differ (Z, then Y, then X; the shorter
// way round, + on a tie), so a member's depth is its torus distance from the root; routers with
// no member below them are left out (register 0). Returns the register words [routers]
// (bsu_register.hpp).
std::vector<uint32_t> barrier_tree(const std::vector<uint32_t>& pwho, const uint32_t radix[3],
                                   const std::vector<uint32_t>& members, uint32_t root);

}  // namespace ls::t3e
