// The transmitters (sections 2.2, 3): each outbound channel sends at most one message per
// routing cycle, into the slot entering its belt; the message stays locked in its buffer until
// acknowledged (in the pool, or with sconnect.unacknowledged = "channel" in its channel's store,
// outside the pool's size: BufferPool::sent_out). With the TIC's assignment, queues are served in
// strict priority order (no lower priority while a higher one has a message ready) and, within a
// priority, the two virtual channels fairly (alternating when both have traffic; either takes the
// whole channel when the other has none). With Figure 4's, the pool's waiting messages are matched
// to transmitters (assignment.hpp); when the pool is nearly full, the excess goes to a random
// neighbour, off the routing table (step 4), so that the next cycle's arrivals find buffers. The
// optimal assignment replaces Figure 4's steps 1 and 2 by a maximum matching and keeps steps 3 and
// 4. A channel sending a quad-message's train sends its next part before anything new (quad.hpp).
#pragma once
#include "../common/rng.hpp"
#include "assignment.hpp"
#include "channel_module.hpp"

namespace ls::sconnect {

// The pool's waiting messages as Figure 4's candidates (assignment.hpp).
struct PoolCandidates {
  const SconnectView& v;
  uint64_t e;
  uint32_t quad_ports;  // the channels that may start a quad-message's train
  // The channels b may leave on now, on the table or off it.
  LS_HD uint32_t usable(uint32_t b) const { return QuadTrain{v, e}.is_head(b) ? quad_ports : ~0u; }
  LS_HD uint32_t opts(uint32_t b) const { return v.s.buf_opts[v.lay.buf(e, b)] & usable(b); }
  LS_HD uint32_t prio(uint32_t b) const {
    return MessageMeta::prio(v.s.pool[v.lay.buf(e, b)].meta);
  }
  LS_HD uint32_t age(uint32_t b) const { return MessageMeta::age(v.s.pool[v.lay.buf(e, b)].meta); }
  LS_HD uint32_t vc(uint32_t b) const {
    const Message& m = v.s.pool[v.lay.buf(e, b)];
    return is_control(m) ? 0u : v.s.route_vc[entry(v, e, m.dest)];
  }
};

struct Transmitter {
  const SconnectView& v;
  uint64_t e;
  uint32_t inst, r;

  // Whether queue q's head may leave on channel p this cycle.
  LS_HD bool ready(uint32_t q, uint32_t p) const {
    const uint64_t qi = v.lay.q(e, q);
    if (v.s.q_count[qi] == 0) return false;
    const uint32_t b = v.s.q_head[qi];
    return v.s.buf_ready[v.lay.buf(e, b)] <= static_cast<uint32_t>(v.t) &&
           (!QuadTrain{v, e}.is_head(b) || QuadTrain{v, e}.can_start(p));
  }
  // The channels that may start a quad-message's train.
  LS_HD uint32_t quad_ports() const {
    uint32_t ports = 0;
    for (uint32_t p = 1; p < v.lay.ports; ++p)
      ports |= static_cast<uint32_t>(QuadTrain{v, e}.can_start(p)) << p;
    return ports;
  }

  // Channel p sends the message in buffer b on virtual channel vc, with its slot's sequence bit;
  // the slot may corrupt it on the way. A quad-message's head starts its train, unless it goes
  // `again` alone after a corrupted acknowledgement.
  LS_HD void transmit(uint32_t p, uint32_t b, uint32_t vc, bool again = false) const {
    const uint64_t k = v.lay.buf(e, b);
    v.s.buf_state[k] = kBufSent;
    v.s.buf_ready[k] =
        static_cast<uint32_t>(v.t) + 2u * v.topo.delay[uint64_t{r} * v.lay.ports + p];
    Message m = v.s.pool[k];
    const ChannelModule cm{v, e, inst, r};
    if (MessageMeta::quad(m.meta) && MessageMeta::part(m.meta) == 0) {
      if (again)
        m.meta |= MessageMeta::kResent;
      else
        QuadTrain{v, e}.start(p, b);
    }
    m.meta = MessageMeta::framed(MessageMeta::with_sbuf(MessageMeta::with_vc(m.meta, vc), b),
                                 v.s.tx_seq[cm.engine(p)] & kSeqBit, cm.hit(p, 0));
    const uint64_t at = cm.far_slot(p);
    v.s.msg_belt[at] = m;
    v.s.msg_valid[at] = 1;
    if (v.win.contains(v.t)) v.s.sent[v.lay.port(e, p)] += 1;
  }
  // Channel p sent a message this cycle: the router's counter's events.
  LS_HD void sent_event(uint32_t p) const {
    perf_event(v, e, kEvSent);
    perf_event(v, e, kEvSentOnPort + p);
  }

  // A message whose acknowledgement was corrupted goes again first, in the slot it went in
  // (ChannelModule); then the next part of a quad-message's train. Returns whether channel p
  // sent either (it is then busy this cycle).
  LS_HD LS_FORCEINLINE bool again(uint32_t p) const {
    uint8_t& again = v.s.resend[v.lay.port(e, p)];
    const bool train = again == kNil && v.s.quad_tx_next[v.lay.port(e, p)] != kNil;
    if (again == kNil && !train) return false;
    const uint32_t b = train ? QuadTrain{v, e}.pop_next(p) : again;
    transmit(p, b, MessageMeta::vc(v.s.pool[v.lay.buf(e, b)].meta), !train);
    again = kNil;
    return true;
  }

  // The TIC: channel p sends the head of its highest-priority queue that has one ready.
  // Returns whether it sent.
  LS_HD LS_FORCEINLINE bool send(uint32_t p) const {
    if (v.topo.peer[uint64_t{r} * v.lay.ports + p] < 0 || !(v.s.channels_on[e] >> p & 1u))
      return false;
    for (uint32_t prio = v.prm.priorities; prio-- > 0;) {
      const bool r0 = ready(SconnectLayout::queue(p, prio, 0), p),
                 r1 = ready(SconnectLayout::queue(p, prio, 1), p);
      if (!r0 && !r1) continue;
      uint8_t& last = v.s.tx_vc[v.lay.port(e, p)];
      const uint32_t vc = r0 && r1 ? 1u - (last >> prio & 1u) : (r1 ? 1u : 0u);
      last = static_cast<uint8_t>((last & ~(1u << prio)) | vc << prio);
      transmit(p, BufferPool{v, e}.pop(SconnectLayout::queue(p, prio, vc)), vc);
      return true;
    }
    return false;
  }

  // Figure 4 (or the optimal assignment): the waiting messages matched to the transmitters, then
  // the excess sent at random.
  LS_HD void from_pool(uint32_t busy) const {
    uint64_t waiting = 0, control = 0;
    uint32_t due = 0;  // buffers whose acknowledgement arrives next cycle
    for (uint32_t b = 0; b < v.lay.buffers; ++b) {
      const uint64_t k = v.lay.buf(e, b);
      const bool w = v.s.buf_state[k] == kBufPool && v.s.buf_ready[k] <= static_cast<uint32_t>(v.t);
      waiting |= static_cast<uint64_t>(w) << b;
      control |= static_cast<uint64_t>(w && is_control(v.s.pool[k])) << b;
      due += v.s.buf_state[k] == kBufSent && v.s.buf_ready[k] == static_cast<uint32_t>(v.t) + 1u;
    }
    uint32_t links = 0;
    for (uint32_t p = 1; p < v.lay.ports; ++p)
      links |= static_cast<uint32_t>(v.topo.peer[uint64_t{r} * v.lay.ports + p] >= 0) << p;
    links &= v.s.channels_on[e] & ~busy;
    const PoolCandidates c{v, e, quad_ports()};
    uint8_t choice[kMaxTransmitters];
    uint32_t last_vc1 = 0;  // bit 0 of tx_vc: the VC a transmitter sent last
    for (uint32_t p = 1; p < v.lay.ports; ++p) last_vc1 |= (v.s.tx_vc[v.lay.port(e, p)] & 1u) << p;
    waiting &= ~(v.prm.assignment == Assignment::kOptimal
                     ? assign_optimal(c, waiting, links, last_vc1, choice)
                     : assign_near_optimal(c, waiting, links, last_vc1, choice));
    uint32_t idle = links;
    for (uint32_t p = 1; p < v.lay.ports; ++p)
      if (choice[p] != kNoMessage) {
        const uint32_t vc = c.vc(choice[p]);
        transmit(p, choice[p], vc);
        sent_event(p);
        v.s.tx_vc[v.lay.port(e, p)] = static_cast<uint8_t>(vc);
        idle &= ~(1u << p);
      }
    // Steps 3 and 4: the pool keeps what it can while still taking a message on every channel
    // next cycle; the excess, the lowest-ranked messages, leave on idle channels at random, to
    // neighbours the resource order allows (so no cycle of buffer classes can form). Control
    // messages keep to their routes. Next cycle's arrivals will also find the buffers of the
    // messages whose acknowledgements arrive before them (counted as if accepted): without
    // these, a pool of 10 on a hypercube kept 6 buffers locked and misrouted from 0.7 offered.
    // With the channels' stores apart (sent_apart) the pool holds only unsent messages: Figure
    // 4's pool of 10, "one for each channel plus 4 spares".
    waiting &= ~control;
    BufferPool{v, e}.sent_out();
    const uint32_t free = BufferPool{v, e}.room() + (v.prm.sent_apart ? 0u : due),
                   arriving = popcount32(links | busy);
    uint32_t excess = arriving > free ? arriving - free : 0;
    const Draw d = philox_draw(v.traffic[uint64_t{inst} * kPriorities].seed, v.t, r, kStreamRoute);
    for (uint32_t k = 0; excess > 0 && waiting && idle; ++k) {
      uint32_t worst = lowest_bit64(waiting);
      for (uint64_t w = waiting; w; w &= w - 1)
        if (ranks_before(c, worst, lowest_bit64(w))) worst = lowest_bit64(w);
      waiting &= ~(uint64_t{1} << worst);
      const uint32_t allowed =
          idle & c.usable(worst) &
          v.topo.excess_ports[uint64_t{r} * v.lay.nodes + v.s.pool[v.lay.buf(e, worst)].dest];
      if (!allowed) continue;
      uint32_t p = lowest_bit(allowed);
      for (uint32_t skip = d.w[k % 4] % popcount32(allowed); skip; --skip)
        p = lowest_bit(allowed & ~((2u << p) - 1));
      transmit(p, worst, c.vc(worst));
      sent_event(p);
      if (v.win.contains(v.t)) v.s.misrouted[v.lay.port(e, p)] += 1;
      perf_event(v, e, kEvMisrouted);
      idle &= ~(1u << p);
      --excess;
    }
  }

  // Channel p's part of the cycle: what it sends again, else (with the TIC's assignment, which
  // gives each channel its own queues) what it sends anew. Returns whether it sent.
  LS_HD LS_FORCEINLINE bool channel(uint32_t p) const {
    return again(p) || (v.prm.assignment == Assignment::kTic && send(p));
  }
  LS_HD void operator()() const {
    uint32_t busy = 0;
    for (uint32_t p = 1; p < v.lay.ports; ++p)
      if (channel(p)) {
        sent_event(p);
        busy |= 1u << p;
      }
    if (v.prm.assignment != Assignment::kTic) from_pool(busy);
    BufferPool{v, e}.sent_out();
  }
  // The same on a tile of lanes: the channels a port a lane (each touches only its own queues,
  // train and slot, and the buffer it sends), then the counter and Figure 4's assignment, which
  // matches the whole pool to the channels, on one lane.
  template <class Tile>
  LS_HD void lanes(const Tile& t) const {
    const uint32_t busy =
        t.fold_or(v.lay.ports, [&](uint32_t p) { return p && channel(p) ? 1u << p : 0u; });
    t.single([&] {
      for (uint32_t b = busy; b; b &= b - 1) sent_event(lowest_bit(b));
      if (v.prm.assignment != Assignment::kTic) from_pool(busy);
      BufferPool{v, e}.sent_out();
    });
  }
};

}  // namespace ls::sconnect
