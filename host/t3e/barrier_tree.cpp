#include "barrier_tree.hpp"

#include <string>

#include "../../kernels/t3e/bsu_register.hpp"
#include "../../kernels/t3e/routing_tag.hpp"
#include "../config/config.hpp"

namespace ls::t3e {

std::vector<uint32_t> barrier_tree(const std::vector<int32_t>& next,
                                   const std::vector<uint32_t>& members, uint32_t root) {
  const uint32_t R = static_cast<uint32_t>(next.size() / kDirections);
  auto check = [&](uint32_t r, const char* what) {
    if (r >= R)
      throw ConfigError(std::string("barrier tree ") + what + " = " + std::to_string(r) +
                        ": allowed a router 0.." + std::to_string(R - 1));
  };
  check(root, "root");
  // Hops from the root over the links (breadth first).
  std::vector<uint32_t> dist(R, UINT32_MAX), queue{root};
  dist[root] = 0;
  for (size_t i = 0; i < queue.size(); ++i)
    for (uint32_t dir = 0; dir < kDirections; ++dir) {
      const int32_t n = next[queue[i] * kDirections + dir];
      if (n >= 0 && dist[static_cast<uint32_t>(n)] == UINT32_MAX) {
        dist[static_cast<uint32_t>(n)] = dist[queue[i]] + 1;
        queue.push_back(static_cast<uint32_t>(n));
      }
    }
  // parent_dir[r]: the direction from r to its parent (kDirections at the root).
  std::vector<uint32_t> parent(R, R), parent_dir(R, kDirections);
  for (uint32_t r = 0; r < R; ++r) {
    if (r == root || dist[r] == UINT32_MAX) continue;
    for (uint32_t dir : {kPlusZ, kMinusZ, kPlusY, kMinusY, kPlusX, kMinusX}) {
      const int32_t n = next[r * kDirections + dir];
      if (n >= 0 && dist[static_cast<uint32_t>(n)] + 1 == dist[r]) {
        parent[r] = static_cast<uint32_t>(n);
        parent_dir[r] = dir;
        break;
      }
    }
  }
  std::vector<uint32_t> children(R, 0);
  std::vector<bool> in(R, false);
  for (uint32_t m : members) {  // m and the path from it to the root join the tree
    check(m, "member");
    if (dist[m] == UINT32_MAX)
      throw ConfigError("barrier tree member = " + std::to_string(m) +
                        ": allowed a router linked to the root " + std::to_string(root));
    children[m] |= 1u << kBsuPe;
    for (uint32_t r = m; !in[r] && r != root; r = parent[r]) {
      in[r] = true;
      children[parent[r]] |= 1u << BsuReg::link_of_dir(opposite(parent_dir[r]));
    }
    in[root] = true;
  }
  std::vector<uint32_t> w(R, 0);
  for (uint32_t r = 0; r < R; ++r)
    if (in[r]) w[r] = BsuReg::make(children[r], r == root ? BsuReg::kNoParent : parent_dir[r]);
  return w;
}

}  // namespace ls::t3e
