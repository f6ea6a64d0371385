// The channel module (CM, section 3.2), receiving side: each channel is a conveyor belt with a
// fixed number of slots, each holding one message, and the receiver answers every slot with a
// piggybacked acknowledgement on the reverse channel. A message the receiver has no buffer for
// (reservation included), or that arrived corrupted, is refused; the sender keeps every message it
// sent locked in its buffer (in the pool, or in the channel's store: sconnect.unacknowledged)
// until the acknowledgement tells it the transfer succeeded (the buffer is freed) or failed (the
// message goes through a routing cycle again and is inserted at the head of its new queue, its age
// field incremented).
//
// Each slot runs its own 1-bit window: a message carries its engine's sequence bit, which the
// receiving engine expects to alternate. A corrupted acknowledgement leaves the sender not
// knowing whether the message got in, so it sends it again in the same slot with the same bit;
// a receiver that had taken it sees the old bit, discards the duplicate and acknowledges again.
// Nothing is dropped or duplicated. Late abort (a cut-through message whose incoming copy turns
// out corrupted is annihilated downstream) needs no slot here: the check happens on arrival,
// before the message may leave.
#pragma once
#include "../common/belt.hpp"
#include "../common/rng.hpp"
#include "../common/tile.hpp"
#include "../common/violation.hpp"
#include "monitor.hpp"
#include "quad.hpp"
#include "routing.hpp"

namespace ls::sconnect {

struct ChannelModule {
  const SconnectView& v;
  uint64_t e;
  uint32_t inst, r;

  LS_HD BufferPool pool() const { return {v, e}; }

  // A message of this router's, in buffer b, waits to leave: in the TIC's queue for it (at the
  // head when requeued), or in the pool with its options (Figure 4), or in the host's queue. It
  // may leave this very cycle when bypass is on (a message for an idle channel cuts through),
  // else from the next.
  LS_HD void enqueue(uint32_t b, bool requeued, uint32_t failed) const {
    const uint64_t k = v.lay.buf(e, b);
    v.s.buf_ready[k] = static_cast<uint32_t>(v.t) + (v.prm.bypass || requeued ? 0u : 1u);
    const Message& m = v.s.pool[k];
    if (v.prm.assignment != Assignment::kTic && !for_host(v, r, m)) {
      v.s.buf_state[k] = kBufPool;
      v.s.buf_opts[k] = is_control(m) ? 1u << control_port(m) : options(v, e, m.dest, failed);
      return;
    }
    const uint32_t q = choose_queue(pool(), r, v.s.pool[k], failed);
    if (requeued)
      pool().push_head(q, b);
    else
      pool().push_tail(q, b);
  }

  // Whether the slot this cycle's message or acknowledgement on port p travels in is corrupted
  // (at that channel's rate: channel_error_threshold);
  // `which` tells the two apart (a draw per slot and direction: a pure function of the cycle and
  // of the router's place in its own network, not in the batch, so an instance runs alike alone
  // or in any batch).
  LS_HD LS_FORCEINLINE bool hit(uint32_t p, uint32_t which) const {
    const uint32_t threshold = v.s.error_threshold[e * v.lay.ports + p];
    if (threshold == 0) return false;
    const Draw d = philox_draw(v.traffic[uint64_t{inst} * kPriorities].seed, v.t,
                               uint64_t{r} * v.lay.ports + p, kStreamError);
    return d.w[which] < threshold;
  }
  // The protocol engine of port p that this cycle's slot belongs to.
  LS_HD uint64_t engine(uint32_t p) const {
    return v.lay.engine(e, p, v.t % (2u * v.topo.delay[uint64_t{r} * v.lay.ports + p]));
  }
  // The belt slot, at the far end of port p, of what this router sends on it this cycle (a
  // message, or the answer to one): the far router's column of the slot arriving a channel
  // delay from now.
  LS_HD uint64_t far_slot(uint32_t p) const {
    const uint64_t rp = uint64_t{r} * v.lay.ports + p;
    const uint32_t peer = static_cast<uint32_t>(v.topo.peer[rp]);
    return v.lay.slot(uint64_t{inst} * v.lay.routers + peer / v.lay.ports,
                      belt_arrival_slot(v.now, v.topo.delay[rp], v.lay.slots), peer % v.lay.ports);
  }
  LS_HD void count(uint32_t* counter, uint32_t p) const {
    if (v.win.contains(v.t)) counter[v.lay.port(e, p)] += 1;
  }

  // The message in buffer b was refused: it goes through a routing cycle again, preferring
  // another channel, to the head of its new queue, one failure older.
  LS_HD void reject(uint32_t b, uint32_t p) const {
    const uint64_t k = v.lay.buf(e, b);
    count(v.s.rejected, p);
    perf_event(v, e, kEvRejected);
    v.s.pool[k].meta = MessageMeta::aged(v.s.pool[k].meta);
    pool().returned(b);
    enqueue(b, true, p);
  }

  // What an acknowledgement on port p leaves for the router's pool and queues (settle): [0..5] a
  // buffer, [6] it is freed, [7] it was refused (it goes through a routing cycle again), [8] an
  // error was counted (kEvErrors), [9] its quad was split (a violation); 0 nothing.
  static constexpr uint32_t kFreed = 64, kRefusedDownstream = 128, kErrorEvent = 256,
                            kSplitQuad = 512;

  // The acknowledgement arriving on port p this cycle for what the router sent: the port's own
  // state (its protocol engine, its resend slot, its quad train) now; what it does to the pool
  // and queues, shared by every port, in the returned word. A corrupted one leaves the outcome
  // unknown: the message goes again in its slot, and stays there (a report of a corrupted
  // arrival included) until a clean answer says whether the receiver has it.
  LS_HD LS_FORCEINLINE uint32_t ack(uint32_t p) const {
    const uint64_t at = v.lay.slot(e, v.now, p);
    const int16_t a = v.s.ack_belt[at];
    if (a == kNoAck) return 0;
    v.s.ack_belt[at] = kNoAck;
    const uint32_t b = Ack::sbuf(a);
    uint8_t& tx = v.s.tx_seq[engine(p)];
    // A corrupted quad part whose receiver holds its buffers goes again in its slot too.
    if (Ack::is(a, Ack::kCorrupt) ||
        (Ack::is(a, Ack::kError) && ((tx & kUnsure) || Ack::is(a, Ack::kHeld)))) {
      v.s.resend[v.lay.port(e, p)] = static_cast<uint8_t>(b);
      if (!Ack::is(a, Ack::kCorrupt)) return 0;
      count(v.s.errors, p);
      tx |= kUnsure;
      return kErrorEvent;
    }
    tx &= kSeqBit;
    const bool ok = Ack::is(a, Ack::kOk);
    if (ok) tx ^= kSeqBit;
    uint32_t out = ok ? kFreed | b : 0u;
    if (Ack::is(a, Ack::kQuad)) {
      if (!ok) v.s.buf_state[v.lay.buf(e, b)] = kBufPart;
      bool split = false;
      const uint32_t head = QuadTrain{v, e}.answer(p, ok, split);
      if (split) out |= kSplitQuad | b;
      if (head != kNil) out |= kRefusedDownstream | head;  // never with ok: all were refused
    } else if (!ok) {
      out |= kRefusedDownstream | b;
    }
    return out;
  }
  // The pool's and queues' part of port p's acknowledgement, in port order.
  LS_HD LS_FORCEINLINE void settle(uint32_t p, uint32_t out) const {
    if (out & kErrorEvent) perf_event(v, e, kEvErrors);
    const uint32_t b = out & 63u;
    if (out & kFreed) {
      pool().release(b);
      v.s.last_move[e] = static_cast<uint32_t>(v.t);
    }
    if (out & kSplitQuad) record_violation(v.s.viol, v.s.viol_info, e, kViolQuad, v.t, p, 0, b);
    if (out & kRefusedDownstream) reject(b, p);
  }

  // Acknowledgements arriving this cycle for what the router sent.
  LS_HD void receive_acks() const {
    for (uint32_t p = 1; p < v.lay.ports; ++p)
      if (const uint32_t out = ack(p)) settle(p, out);
  }

  // A new part of a quad-message arriving on port p (quad.hpp): whether it is accepted. The head
  // takes buffers for the whole train or is refused; the other parts go into them, and the quad
  // is routed once all are in.
  LS_HD bool receive_part(uint32_t p, Message m) const {
    const QuadTrain quad{v, e};
    m.meta = MessageMeta::with_hop(m.meta);
    uint32_t done = kNil;
    if (MessageMeta::part(m.meta) == 0) {
      const uint32_t cls = class_of(v, e, r, m);
      if (MessageMeta::resent(m.meta) || quad.held(p) || !pool().can_take(cls, kQuadParts)) {
        perf_event(v, e, kEvRefused);
        return false;
      }
      quad.hold(p, quad.take(cls, m, false));
    } else if (quad.held(p)) {
      done = quad.fill(p, m);
    } else {  // its head was refused
      perf_event(v, e, kEvRefused);
      return false;
    }
    if (done != kNil) enqueue(done, false, 0);
    v.s.last_move[e] = static_cast<uint32_t>(v.t);
    perf_event(v, e, kEvAccepted);
    return true;
  }

  // Where port p's arrival this cycle lies: its belt slot and its slot's protocol engine.
  struct Arriving {
    uint64_t at, engine;
  };
  LS_HD Arriving arriving(uint32_t p) const { return {v.lay.slot(e, v.now, p), engine(p)}; }

  // A message arriving on port p this cycle, as its port sees it: none, corrupted, a duplicate
  // of one taken already, or new (to be taken into the pool or refused: take()).
  enum Arrival : uint32_t { kNone, kCorrupted, kDuplicate, kNew };
  LS_HD LS_FORCEINLINE uint32_t arrive(uint32_t p, const Arriving& a) const {
    const uint64_t at = a.at;
    if (!v.s.msg_valid[at]) return kNone;
    v.s.msg_valid[at] = 0;
    const uint32_t meta = v.s.msg_belt[at].meta;
    if (MessageMeta::corrupt(meta)) {
      count(v.s.errors, p);
      return kCorrupted;
    }
    if (MessageMeta::seq(meta) != v.s.rx_seq[a.engine]) {
      count(v.s.duplicates, p);
      return kDuplicate;
    }
    return kNew;
  }
  // The pool's part of port p's arrival, in port order: a new message is taken into the pool and
  // routed, or refused (no buffer). Returns whether it was taken.
  LS_HD LS_FORCEINLINE bool take(uint32_t p, const Arriving& a, uint32_t arrival) const {
    if (arrival != kNew) {
      perf_event(v, e, arrival == kCorrupted ? kEvErrors : kEvDuplicates);
      return false;
    }
    Message m = v.s.msg_belt[a.at];
    if (MessageMeta::quad(m.meta)) return receive_part(p, m);
    m.meta = MessageMeta::with_hop(m.meta);
    const bool execute = is_control(m) && control_arrive(v, e, r, m, p);
    const uint32_t cls = class_of(v, e, r, m);
    if (!pool().can_take(cls)) {
      perf_event(v, e, kEvRefused);
      return false;
    }
    if (execute) control_execute(v, e, r, m);
    enqueue(pool().take(cls, m), false, 0);
    v.s.last_move[e] = static_cast<uint32_t>(v.t);
    perf_event(v, e, kEvAccepted);
    return true;
  }
  // Port p's answer to its arrival, back to the sender on the reverse channel, arriving as far in
  // the future as the message took to come: taken (or a duplicate of one taken already:
  // acknowledged again), or refused (no buffer, or corrupted).
  LS_HD LS_FORCEINLINE void answer(uint32_t p, const Arriving& a, uint32_t arrival,
                                   bool taken) const {
    const uint32_t meta = v.s.msg_belt[a.at].meta;
    uint8_t& rx = v.s.rx_seq[a.engine];
    const bool quad = MessageMeta::quad(meta);
    uint32_t bits = MessageMeta::seq(meta) != rx ? Ack::kOwned : 0u;
    if (arrival == kCorrupted) {
      bits |= Ack::kError;
      if (quad && MessageMeta::part(meta) != 0 && QuadTrain{v, e}.held(p)) bits |= Ack::kHeld;
    } else if (arrival == kDuplicate) {
      bits |= Ack::kOk;
    } else if (taken) {
      rx ^= 1u;
      bits |= Ack::kOk | Ack::kOwned;
    }
    if (hit(p, 1)) bits |= Ack::kCorrupt;
    if (quad) bits |= Ack::kQuad;
    v.s.ack_belt[far_slot(p)] = Ack::make(MessageMeta::sbuf(meta), bits);
  }

  // Messages arriving this cycle: each is taken into the pool and routed, or refused (no buffer,
  // or corrupted), or discarded as a duplicate of one taken already (acknowledged again).
  LS_HD void receive_messages() const {
    for (uint32_t p = 1; p < v.lay.ports; ++p) {
      const Arriving a = arriving(p);
      if (const uint32_t arrival = arrive(p, a)) answer(p, a, arrival, take(p, a, arrival));
    }
  }

  // Both on a tile of lanes (run.lanes = "tile"): each port's own part a port a lane, what the
  // ports leave for the pool and queues gathered and done on one lane in port order, as the
  // loops above do it (a port's own part touches nothing another port's or the pool's does).
  template <class Tile>
  LS_HD void lanes(const Tile& t) const {
    // A port's acknowledgement (10 bits) above its arrival (2 bits).
    using Fields = FoldFields<12, kMaxPorts>;
    const Fields found = t.fold_or(v.lay.ports, [&](uint32_t p) {
      return p ? Fields::at(p, ack(p) << 2 | arrive(p, arriving(p))) : Fields{};
    });
    const uint32_t taken = t.single([&] {
      for (uint32_t p = 1; p < v.lay.ports; ++p)
        if (const uint32_t out = found[p] >> 2) settle(p, out);
      uint32_t in = 0;
      for (uint32_t p = 1; p < v.lay.ports; ++p)
        if (const uint32_t arrival = found[p] & 3u)
          in |= static_cast<uint32_t>(take(p, arriving(p), arrival)) << p;
      return in;
    });
    t.each(v.lay.ports, [&](uint32_t p) {
      if (const uint32_t arrival = p ? found[p] & 3u : 0u)
        answer(p, arriving(p), arrival, taken >> p & 1u);
    });
  }
};

}  // namespace ls::sconnect
