// Fat trees of dilated crossbars, METRO's second kind of multistage network (paper, section 2:
// "Fat-Tree networks [17] [14] are another class of multistage, multipath networks which can be
// built using METRO routing components"; the construction schemes of its reference [7] are not
// in the seed, so this one is ours). METRO routers pass connections one way, forward to
// backward ports, so each level of the tree has an up half and a down half:
//   - level s (0 the root, topology.radix[s] = k_s children a node, the root's first) is a set
//     of subtrees, one a group of routers;
//   - an up router (levels 1 and below) has two directions of d_s ports: 0 turns down into the
//     down routers of its own subtree, taken when the destination is in the subtree, and 1
//     goes up into the up routers of the parent subtree (the root's down routers from level 1);
//   - a down router splits its subtree's destinations k_s ways, as a multibutterfly's stage
//     does, into the down routers of its children, or at the last level into the endpoints.
// A connection climbs only as far as the smallest subtree holding both endpoints, and crosses
// 2 (levels - s) routers if it turns at level s (2 levels - 1 through the root). With W wires
// between a subtree and its parent, a level-s subtree's up routers take k_s W_{s+1} wires from
// its children and send half of them up: W_s = k_s W_{s+1} / 2, so the tree's channels
// double a level for k = 4 and hold for k = 2. Endpoints (W = topology.endpoint_ports) enter
// the up routers of the last level and leave its down routers. Layers are numbered in the
// order a connection crosses them: the up routers from the last level to level 1, then the
// down routers from the root.
#include "../config/schema.hpp"
#include "topology.hpp"

namespace ls {

std::vector<Stage> fat_tree_stages(const TopologyConfig& c) {
  const auto& k = c.radix;
  const uint32_t S = static_cast<uint32_t>(k.size());
  std::vector<uint32_t> d(S, 1), up(S, 0), down(S, 0);
  for (uint32_t s = 0; s < S && !c.dilation.empty(); ++s)
    d[s] = static_cast<uint32_t>(c.dilation[s]);
  const auto refuse = [&](uint32_t s, const std::string& why) {
    return ConfigError(
        "topology.endpoint_ports = " + std::to_string(c.endpoint_ports) +
        ", topology.radix = " + to_string(k) + ", topology.dilation = " + to_string(c.dilation) +
        ": allowed for a fat tree only when " + why + " at level " + std::to_string(s));
  };
  // W: the wires between a level-s subtree and its parent, from the endpoints up.
  uint64_t W = static_cast<uint64_t>(c.endpoint_ports);
  for (uint32_t s = S; s-- > 0;) {
    if (W % d[s] != 0)
      throw refuse(s, "the " + std::to_string(W) + " wires into each child fill whole sets of " +
                          std::to_string(d[s]) + " dilated ports");
    down[s] = static_cast<uint32_t>(W / d[s]);
    if (s == 0) break;
    const uint64_t in = static_cast<uint64_t>(k[s]) * W;  // into a subtree's up routers
    if (in % (2 * d[s]) != 0)
      throw refuse(s, "the up routers' " + std::to_string(in) +
                          " wires from their children fill whole routers of " +
                          std::to_string(2 * d[s]) + " forward ports");
    up[s] = static_cast<uint32_t>(in / (2 * d[s]));
    W = uint64_t{up[s]} * d[s];
  }
  std::vector<uint64_t> groups(S, 1), span(S + 1, 1);  // subtrees at level s, their leaves
  for (uint32_t s = 1; s < S; ++s) groups[s] = groups[s - 1] * static_cast<uint64_t>(k[s - 1]);
  for (uint32_t s = S; s-- > 0;) span[s] = span[s + 1] * static_cast<uint64_t>(k[s]);
  std::vector<Stage> out;
  uint32_t first = 0;
  const auto add = [&](Stage st) {
    st.first = first;
    first += st.routers;
    out.push_back(st);
  };
  for (uint32_t s = S - 1; s >= 1 && s < S; --s) {
    Stage st{
        2,      d[s], static_cast<uint32_t>(groups[s] * up[s]), 0, static_cast<uint32_t>(groups[s]),
        span[s]};
    st.up = true;
    st.turn = (S - 1) + s;
    add(st);
  }
  for (uint32_t s = 0; s < S; ++s)
    add(Stage{static_cast<uint32_t>(k[s]), d[s], static_cast<uint32_t>(groups[s] * down[s]), 0,
              static_cast<uint32_t>(groups[s]), span[s + 1]});
  return out;
}

}  // namespace ls
