#include "belt_ends.hpp"

namespace ls {

uint32_t belt_width(const Topology& t) {
  return t.ports + t.nodes / t.routers;
}

std::vector<uint32_t> far_ends(const Topology& t, uint32_t slots) {
  // Belt columns of router r: its ports, then its terminals (nodes r * T ... r * T + T - 1).
  const uint32_t T = t.nodes / t.routers, width = belt_width(t);
  std::vector<uint32_t> f(t.peer.size(), 0);
  for (size_t rp = 0; rp < f.size(); ++rp) {
    uint32_t router = 0, column = 0;
    if (t.port_node[rp] >= 0) {
      const uint32_t n = static_cast<uint32_t>(t.port_node[rp]);
      router = n / T;
      column = t.ports + n % T;
    } else if (t.peer[rp] >= 0) {
      const uint32_t peer = static_cast<uint32_t>(t.peer[rp]);
      router = peer / t.ports;
      column = peer % t.ports;
    }
    f[rp] = router * slots * width + column;
  }
  return f;
}

}  // namespace ls
