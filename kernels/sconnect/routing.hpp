// The routing decision (sections 2.2, 3): the destination-indexed routing table gives the
// permissible outbound channels and the virtual channel to leave on; the TIC assigns a message
// to the queue of the permissible channel with the fewest pending messages, in a fixed order on
// ties ("the transmitter work assignment proceeds in a fixed order"), and a message refused
// downstream prefers another channel than the one that failed.
#pragma once
#include "buffer_pool.hpp"

namespace ls::sconnect {

// The buffer class a message for node `dest` takes at router r: the host's when r is its
// destination, else the VC the table says it leaves r on.
LS_HD inline uint32_t message_class(const SconnectView& v, uint32_t r, uint32_t dest,
                                    uint32_t prio) {
  const uint32_t kind = v.topo.router_node[r] == static_cast<int32_t>(dest)
                            ? kHostKind
                            : v.topo.route_vc[uint64_t{r} * v.lay.nodes + dest];
  return prio * kKinds + kind;
}

// The queue for message m at router r (element e); `failed` is the channel that just refused
// it, 0 for none.
LS_HD inline uint32_t choose_queue(const BufferPool& pool, uint32_t r, const Message& m,
                                   uint32_t failed) {
  const SconnectView& v = pool.v;
  const uint32_t prio = MessageMeta::prio(m.meta);
  if (v.topo.router_node[r] == static_cast<int32_t>(m.dest))
    return SconnectLayout::queue(0, prio, 0);
  const uint64_t entry = uint64_t{r} * v.lay.nodes + m.dest;
  uint32_t mask = v.topo.port_mask[entry];
  if (failed && (mask & ~(1u << failed))) mask &= ~(1u << failed);
  uint32_t best = 0, fewest = 0xFFFFFFFFu;
  for (uint32_t p = 1; p < v.lay.ports; ++p) {
    if (!(mask >> p & 1u)) continue;
    const uint32_t n = pool.pending(p);
    if (n < fewest) {
      fewest = n;
      best = p;
    }
  }
  return SconnectLayout::queue(best, prio, v.topo.route_vc[entry]);
}

}  // namespace ls::sconnect
