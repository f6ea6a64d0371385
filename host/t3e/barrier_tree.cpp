#include "barrier_tree.hpp"

#include <map>
#include <string>

#include "../../kernels/t3e/bsu_register.hpp"
#include "../../kernels/t3e/routing_tag.hpp"
#include "../config/config.hpp"

namespace ls::t3e {

std::vector<uint32_t> barrier_tree(const std::vector<uint32_t>& pwho, const uint32_t radix[3],
                                   const std::vector<uint32_t>& members, uint32_t root) {
  const uint32_t R = static_cast<uint32_t>(pwho.size());
  if (root >= R)
    throw ConfigError("barrier tree root = " + std::to_string(root) + ": allowed a router 0.." +
                      std::to_string(R - 1));
  std::map<uint32_t, uint32_t> at;  // R_PWHO -> router
  for (uint32_t r = 0; r < R; ++r) at[pwho[r]] = r;
  // parent_dir[r]: the direction from r to its parent (kDirections at the root).
  std::vector<uint32_t> parent(R, R), parent_dir(R, kDirections);
  const uint32_t home = pwho[root];
  for (uint32_t r = 0; r < R; ++r) {
    if (r == root) continue;
    uint32_t d = 3;
    while (d-- > 0 && pwho_coord(pwho[r], d) == pwho_coord(home, d)) {
    }
    const uint32_t k = radix[d], c = pwho_coord(pwho[r], d);
    const uint32_t ahead = (pwho_coord(home, d) + k - c) % k;  // hops the + way
    const bool plus = ahead <= k - ahead;
    uint32_t q[3] = {pwho_coord(pwho[r], 0), pwho_coord(pwho[r], 1), pwho_coord(pwho[r], 2)};
    q[d] = plus ? (c + 1) % k : (c + k - 1) % k;
    parent[r] = at.at(make_pwho(q[0], q[1], q[2]));
    parent_dir[r] = plus ? d : d + 3;
  }
  std::vector<uint32_t> children(R, 0);
  std::vector<bool> in(R, false);
  auto join = [&](uint32_t r) {  // r and the path from it to the root join the tree
    for (; !in[r] && r != root; r = parent[r]) {
      in[r] = true;
      children[parent[r]] |= 1u << BsuReg::link_of_dir((parent_dir[r] + 3) % kDirections);
    }
    in[root] = true;
  };
  if (members.empty()) {
    for (uint32_t r = 0; r < R; ++r) {
      children[r] |= 1u << kBsuPe;
      join(r);
    }
  } else {
    for (uint32_t r : members) {
      if (r >= R)
        throw ConfigError("barrier tree member = " + std::to_string(r) + ": allowed a router 0.." +
                          std::to_string(R - 1));
      children[r] |= 1u << kBsuPe;
      join(r);
    }
  }
  std::vector<uint32_t> w(R, 0);
  for (uint32_t r = 0; r < R; ++r)
    if (in[r]) w[r] = BsuReg::make(children[r], r == root ? BsuReg::kNoParent : parent_dir[r]);
  return w;
}

}  // namespace ls::t3e
