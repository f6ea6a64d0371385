// The routing decision (sections 2.2, 3): the destination-indexed routing table gives the
// permissible outbound channels and the virtual channel to leave on, and a message refused
// downstream prefers another channel than the one that failed. The TIC assigns a message to the
// queue of the permissible channel with the fewest pending messages, in a fixed order on ties
// ("the transmitter work assignment proceeds in a fixed order"); Figure 4's assignment keeps it
// in the pool with its options until a transmitter takes it (assignment.hpp).
#pragma once
#include "buffer_pool.hpp"
#include "control.hpp"

namespace ls::sconnect {

// Whether router r is the destination's: the message goes to the host.
LS_HD inline bool for_host(const SconnectView& v, uint32_t r, uint32_t dest) {
  return v.topo.router_node[r] == static_cast<int32_t>(dest);
}

// Router element e's routing table entry for node `dest` (its own table: control messages may
// rewrite it).
LS_HD inline uint64_t entry(const SconnectView& v, uint64_t e, uint32_t dest) {
  return e * v.lay.nodes + dest;
}

// The buffer class a message for node `dest` takes at router r (element e): the host's when r is
// its destination, else the VC the table says it leaves r on.
LS_HD inline uint32_t message_class(const SconnectView& v, uint64_t e, uint32_t r, uint32_t dest,
                                    uint32_t prio) {
  const uint32_t kind = for_host(v, r, dest) ? kHostKind : v.s.route_vc[entry(v, e, dest)];
  return prio * kKinds + kind;
}

// The channels a message for `dest` may leave router element e on: the table's that are
// enabled (all of the table's while none is: the message waits for one), less `failed` (the one
// that just refused it, 0 for none) while others remain.
LS_HD inline uint32_t options(const SconnectView& v, uint64_t e, uint32_t dest, uint32_t failed) {
  uint32_t mask = v.s.port_mask[entry(v, e, dest)];
  if (mask & v.s.channels_on[e]) mask &= v.s.channels_on[e];
  return failed && (mask & ~(1u << failed)) ? mask & ~(1u << failed) : mask;
}

// The buffer class message m takes at router r (element e): a control message's is VC 0's, or
// the host's when it is home.
LS_HD inline uint32_t class_of(const SconnectView& v, uint64_t e, uint32_t r, const Message& m) {
  const uint32_t prio = MessageMeta::prio(m.meta);
  if (is_control(m)) return prio * kKinds + (control_home(m) ? kHostKind : 0u);
  return message_class(v, e, r, m.dest, prio);
}

// Whether message m leaves the network at router r, to its host.
LS_HD inline bool for_host(const SconnectView& v, uint32_t r, const Message& m) {
  return is_control(m) ? control_home(m) : for_host(v, r, m.dest);
}

// The TIC's queue for message m at router r; `failed` as for options(). A control message's
// route names its channel.
LS_HD inline uint32_t choose_queue(const BufferPool& pool, uint32_t r, const Message& m,
                                   uint32_t failed) {
  const SconnectView& v = pool.v;
  const uint32_t prio = MessageMeta::prio(m.meta);
  if (for_host(v, r, m)) return SconnectLayout::queue(0, prio, 0);
  if (is_control(m)) return SconnectLayout::queue(control_port(m), prio, 0);
  const uint32_t mask = options(v, pool.e, m.dest, failed);
  uint32_t best = 0, fewest = 0xFFFFFFFFu;
  for (uint32_t p = 1; p < v.lay.ports; ++p) {
    if (!(mask >> p & 1u)) continue;
    const uint32_t n = pool.pending(p);
    if (n < fewest) {
      fewest = n;
      best = p;
    }
  }
  return SconnectLayout::queue(best, prio, v.s.route_vc[entry(v, pool.e, m.dest)]);
}

}  // namespace ls::sconnect
