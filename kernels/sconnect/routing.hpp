// The routing decision (sections 2.2, 3): the destination-indexed routing table gives the
// permissible outbound channels and the virtual channel to leave on, and a message refused
// downstream prefers another channel than the one that failed. The TIC assigns a message to the
// queue of the permissible channel with the fewest pending messages, in a fixed order on ties
// ("the transmitter work assignment proceeds in a fixed order"); Figure 4's assignment keeps it
// in the pool with its options until a transmitter takes it (assignment.hpp).
#pragma once
#include "buffer_pool.hpp"

namespace ls::sconnect {

// Whether router r is the destination's: the message goes to the host.
LS_HD inline bool for_host(const SconnectView& v, uint32_t r, uint32_t dest) {
  return v.topo.router_node[r] == static_cast<int32_t>(dest);
}

// The buffer class a message for node `dest` takes at router r: the host's when r is its
// destination, else the VC the table says it leaves r on.
LS_HD inline uint32_t message_class(const SconnectView& v, uint32_t r, uint32_t dest,
                                    uint32_t prio) {
  const uint32_t kind =
      for_host(v, r, dest) ? kHostKind : v.topo.route_vc[uint64_t{r} * v.lay.nodes + dest];
  return prio * kKinds + kind;
}

// The channels a message for `dest` may leave router r on: the table's, less `failed` (the one
// that just refused it, 0 for none) while others remain.
LS_HD inline uint32_t options(const SconnectView& v, uint32_t r, uint32_t dest, uint32_t failed) {
  const uint32_t mask = v.topo.port_mask[uint64_t{r} * v.lay.nodes + dest];
  return failed && (mask & ~(1u << failed)) ? mask & ~(1u << failed) : mask;
}

// Whether a message for `dest` at router r may go to neighbour n off the routing table without
// a cycle of buffer classes: n delivers it, or the hop is one the table's resource order allows
// (VC 0 to VC 0 upwards, VC 1 to VC 1 downwards, VC 0 to VC 1 anywhere).
LS_HD inline bool order_allows(const SconnectView& v, uint32_t r, uint32_t n, uint32_t dest) {
  if (for_host(v, n, dest)) return true;
  const uint32_t c = v.topo.route_vc[uint64_t{r} * v.lay.nodes + dest],
                 cn = v.topo.route_vc[uint64_t{n} * v.lay.nodes + dest];
  return c == 0 ? cn == 1 || v.topo.rank[n] > v.topo.rank[r]
                : cn == 1 && v.topo.rank[n] < v.topo.rank[r];
}

// The TIC's queue for message m at router r; `failed` as for options().
LS_HD inline uint32_t choose_queue(const BufferPool& pool, uint32_t r, const Message& m,
                                   uint32_t failed) {
  const SconnectView& v = pool.v;
  const uint32_t prio = MessageMeta::prio(m.meta);
  if (for_host(v, r, m.dest)) return SconnectLayout::queue(0, prio, 0);
  const uint32_t mask = options(v, r, m.dest, failed);
  uint32_t best = 0, fewest = 0xFFFFFFFFu;
  for (uint32_t p = 1; p < v.lay.ports; ++p) {
    if (!(mask >> p & 1u)) continue;
    const uint32_t n = pool.pending(p);
    if (n < fewest) {
      fewest = n;
      best = p;
    }
  }
  return SconnectLayout::queue(best, prio, v.topo.route_vc[uint64_t{r} * v.lay.nodes + m.dest]);
}

}  // namespace ls::sconnect
