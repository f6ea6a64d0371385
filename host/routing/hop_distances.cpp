// Shortest paths in hops between all routers: a breadth-first search from each.
#include "routing_table.hpp"

namespace ls {

std::vector<uint16_t> hop_distances(const Topology& t) {
  const uint32_t R = t.routers, P = t.ports;
  std::vector<uint16_t> dist(size_t{R} * R, 0xFFFF);
  std::vector<uint32_t> queue(R);
  for (uint32_t s = 0; s < R; ++s) {
    uint16_t* d = &dist[size_t{s} * R];
    d[s] = 0;
    queue[0] = s;
    for (uint32_t head = 0, tail = 1; head < tail; ++head) {
      const uint32_t r = queue[head];
      for (uint32_t p = 1; p < P; ++p) {
        const int32_t peer = t.peer[r * P + p];
        if (peer < 0) continue;
        const uint32_t n = static_cast<uint32_t>(peer) / P;
        if (d[n] != 0xFFFF) continue;
        d[n] = static_cast<uint16_t>(d[r] + 1);
        queue[tail++] = n;
      }
    }
  }
  return dist;
}

}  // namespace ls
