// One network cycle (one byte time) of a Blue Gene/L torus router: links in (heads into VC
// FIFOs, tokens back to senders), tokens freed as bytes leave the FIFOs, reception, the
// processor's injection, and the three arbitration phases (jsq_request, receiver_arbiter,
// sender_arbiter) whose grants start packets on links and buses. A router writes only its own
// state and the belt slots its links enter, so all routers of a batch run as one parallel step.
#pragma once
#include "jsq_request.hpp"
#include "link.hpp"
#include "processor_interface.hpp"
#include "receiver_arbiter.hpp"
#include "sender_arbiter.hpp"

namespace ls::bgl {

struct Router {
  const BglView& v;
  const Node& n;

  // A router that did nothing in a cycle sleeps until its next timer (a link, path or bus
  // freeing, a chunk leaving, a head's pipeline, a tail arriving, its source's next packet) or an
  // arrival: until then nothing it could decide has changed, so it would decide nothing again.
  LS_HD LS_GPU_INLINE void cycle() const {
    const Link link{v, n};
    const ProcessorInterface pi{v, n};
    if (v.prm.dead.links != 0) dead_links();
    bool acted = link.receive();
    if (v.prm.dead.count != 0 && v.prm.dead.contains(n.r)) {  // down: software sends it nothing
      if (acted) record_violation(v.s.viol, v.s.viol_info, n.e, kViolDeadNode, v.t, 0, 0, 0);
      return;
    }
    if (v.t < v.s.wake[n.e] && !acted) return;
    acted |= link.drain();
    acted |= link.time_outs();
    acted |= pi.reception();
    acted |= pi.generate();
    acted |= pi.load();
    acted |= arbitrate(link, pi);
    v.s.wake[n.e] = acted ? static_cast<uint32_t>(v.t) + 1 : next_timer();
  }

  // The same cycle on a tile of lanes (run.lanes = "tile", kernels/common/tile.hpp): heads in, a
  // receiver a lane, while the token-acks (each judging what it frees over every head) go one
  // after another on one lane; the FIFOs' draining and the time-outs a direction a lane; the
  // processor interface on one lane; phases 1 and 2 a receiver or an injection FIFO a lane (the
  // requests gathered to every lane); the reception buses and phase 3 on one lane.
  template <class Tile>
  LS_HD LS_GPU_INLINE void tile(const Tile& t) const {
    const BglLayout& L = v.lay;
    const Link link{v, n};
    const ProcessorInterface pi{v, n};
    if (v.prm.dead.links != 0) t.single([&]() LS_INLINE_LAMBDA { dead_links(); });
    uint32_t acted =
        t.fold_or(L.dirs, [&](uint32_t d) LS_INLINE_LAMBDA -> uint32_t { return link.head_in(d); });
    acted |= t.single([&]() LS_INLINE_LAMBDA -> uint32_t {
      bool got = false;
      for (uint32_t d = 0; d < L.dirs; ++d) got |= link.token_ack_in(d);
      return got;
    });
    if (v.prm.dead.count != 0 && v.prm.dead.contains(n.r)) {
      if (acted)
        t.single([&]() LS_INLINE_LAMBDA {
          record_violation(v.s.viol, v.s.viol_info, n.e, kViolDeadNode, v.t, 0, 0, 0);
        });
      return;
    }
    if (v.t < v.s.wake[n.e] && !acted) return;
    const Retransmission rt{v, n};
    acted |= t.fold_or(L.dirs, [&](uint32_t d) LS_INLINE_LAMBDA -> uint32_t {
      const bool freed = link.drain(d);
      return freed | (rt.on() && rt.time_out(L.port(n.e, d)));
    });
    acted |= t.single([&]() LS_INLINE_LAMBDA -> uint32_t {
      bool any = pi.reception();
      any |= pi.generate();
      any |= pi.load();
      return any;
    });
    const JsqRequest jsq{v, n};
    const Presentation g = t.fold_or(L.dirs + L.fifos, [&](uint32_t k) LS_INLINE_LAMBDA {
      Presentation x{};
      if (k < L.dirs) {
        x.set(k, receiver(k, jsq));
      } else {
        const Request q = injection(k - L.dirs, jsq);
        x.inj_dir[k - L.dirs] = q.dir;
        x.inj_vc[k - L.dirs] = q.vc;
      }
      return x;
    });
    Presented rx[kMaxDirs];
    Request inj[kMaxFifos];
    bool held = false;
    for (uint32_t d = 0; d < L.dirs; ++d) {
      rx[d] = g.rx(d);
      held |= rx[d].held != 0;
    }
    for (uint32_t f = 0; f < L.fifos; ++f) inj[f] = {g.inj_dir[f], g.inj_vc[f]};
    t.single([&]() LS_INLINE_LAMBDA {
      const bool any = grant(rx, inj, link, pi) || held;
      v.s.wake[n.e] = acted || any ? static_cast<uint32_t>(v.t) + 1 : next_timer();
    });
  }

  // Nothing crosses a dead link: software's hint bits keep packets off it, and a link that
  // carried no packet owes no token-ack, so anything arriving over one is a violation.
  LS_HD void dead_links() const {
    for (uint32_t d = 0; d < v.lay.dirs; ++d) {
      const uint64_t b = v.lay.belt(n.e, v.now, d);
      if ((v.s.belt_valid[b] || v.s.tok_valid[b]) && link_down(v.prm.shape, v.prm.dead, n.r, d))
        record_violation(v.s.viol, v.s.viol_info, n.e, kViolDeadLink, v.t, d, 0, 0);
    }
  }

  LS_HD LS_FORCEINLINE uint32_t next_timer() const {
    const BglLayout& L = v.lay;
    const uint32_t t = static_cast<uint32_t>(v.t);
    uint32_t w = 0xFFFFFFFFu;
    const auto at = [&](uint32_t c) {
      if (c > t && c < w) w = c;
    };
    at(v.src.gen_next[n.e]);
    if (v.prm.injection_gap != 0 && v.src.queued[n.e] != 0) {  // a paced backlog's next turn
      const uint64_t turn = ProcessorInterface{v, n}.paced_from(v.src.seq[n.e]);
      at(turn < 0xFFFFFFFFu ? static_cast<uint32_t>(turn) : 0xFFFFFFFFu);
    }
    const Retransmission rt{v, n};
    for (uint32_t d = 0; d < L.dirs; ++d) {
      const uint64_t p = L.port(n.e, d);
      at(v.s.link_free[p]);
      if (rt.on() && v.s.tx_acked[p] != v.s.tx_seq[p]) at(rt.deadline(p));
      at(v.s.rx_tail[p]);
      for (uint32_t hp = 0; hp < 2; ++hp)
        if (v.s.recv_busy[L.bus(n.e, d, hp)]) at(v.s.recv_free[L.bus(n.e, d, hp)]);
      for (uint32_t k = 0; k < L.paths; ++k) at(v.s.path_free[L.path(n.e, d, k)]);
      for (uint32_t vc = 0; vc < L.vcs; ++vc) {
        const uint64_t q = L.vc(n.e, d, vc);
        if (v.s.drain_left[q]) at(v.s.drain_next[q]);
        if (v.s.count[q]) at(ready_at(fifo_head(q)));
      }
    }
    for (uint32_t f = 0; f < L.fifos; ++f) {
      const uint64_t fx = L.fifo(n.e, f);
      if (v.s.inj_count[fx]) at(ready_at(v.s.inj[L.fifo_slot(fx, v.s.inj_head[fx])]));
    }
    return w;
  }

  LS_HD const Flit& fifo_head(uint64_t q) const { return v.s.fifo[v.lay.slot(q, v.s.head[q])]; }

  // Whether it started anything (a packet, a token-ack).
  LS_HD bool arbitrate(const Link& link, const ProcessorInterface& pi) const {
    const BglLayout& L = v.lay;
    const JsqRequest jsq{v, n};
    Presented rx[kMaxDirs];
    bool held = false;  // a receiver's request held back by the arbitration gap
    for (uint32_t d = 0; d < L.dirs; ++d) {
      rx[d] = receiver(d, jsq);
      held |= rx[d].held != 0;
    }
    Request inj[kMaxFifos];
    for (uint32_t f = 0; f < L.fifos; ++f) inj[f] = injection(f, jsq);
    return grant(rx, inj, link, pi) || held;  // a request held back is made in the next cycle
  }

  // Phases 1 and 2 for receiver d: the VC whose request it presents, and that request.
  struct Presented {
    uint8_t win;   // the VC, or kNoRequest
    Request req;   // its phase-1 request
    uint8_t held;  // 1: a request held back by the arbitration gap
  };
  // What phases 1 and 2 present, gathered to every lane of a tile: a lane fills the entries of
  // its receiver or FIFO, the others stay zero, so the OR of the lanes' is every lane's own. Plain
  // bytes: a fold starts from a value-initialised one, which must be all zero.
  struct Presentation {
    uint8_t win[kMaxDirs], dir[kMaxDirs], vc[kMaxDirs], held[kMaxDirs];
    uint8_t inj_dir[kMaxFifos], inj_vc[kMaxFifos];
    LS_HD void set(uint32_t d, const Presented& p) {
      win[d] = p.win;
      dir[d] = p.req.dir;
      vc[d] = p.req.vc;
      held[d] = p.held;
    }
    LS_HD Presented rx(uint32_t d) const { return {win[d], {dir[d], vc[d]}, held[d]}; }
    LS_HD Presentation operator|(const Presentation& o) const {
      Presentation x;
      for (uint32_t d = 0; d < kMaxDirs; ++d) {
        x.win[d] = static_cast<uint8_t>(win[d] | o.win[d]);
        x.dir[d] = static_cast<uint8_t>(dir[d] | o.dir[d]);
        x.vc[d] = static_cast<uint8_t>(vc[d] | o.vc[d]);
        x.held[d] = static_cast<uint8_t>(held[d] | o.held[d]);
      }
      for (uint32_t f = 0; f < kMaxFifos; ++f) {
        x.inj_dir[f] = static_cast<uint8_t>(inj_dir[f] | o.inj_dir[f]);
        x.inj_vc[f] = static_cast<uint8_t>(inj_vc[f] | o.inj_vc[f]);
      }
      return x;
    }
  };
  LS_HD LS_FORCEINLINE Presented receiver(uint32_t d, const JsqRequest& jsq) const {
    const BglLayout& L = v.lay;
    const uint32_t t = static_cast<uint32_t>(v.t);
    // Every entry is set in the loop: nvcc 13.0 left rows 1.. of an array of these zero, not
    // default-initialised (a request to sender 0), on an H100.
    Request req[kMaxVcs];
    bool path = false;
    for (uint32_t k = 0; k < L.paths; ++k) path |= v.s.path_free[L.path(n.e, d, k)] <= t;
    const uint32_t recv =
        (v.s.recv_busy[L.bus(n.e, d, 0)] ? 0u : 1u) | (v.s.recv_busy[L.bus(n.e, d, 1)] ? 0u : 2u);
    uint32_t bypass = 0;
    bool waiting = false;  // a head ready to ask
    for (uint32_t w = 0; w < L.vcs; ++w) {
      req[w] = Request{};
      const uint64_t q = L.vc(n.e, d, w);
      if (v.s.count[q] == 0 || v.s.drain_left[q] != 0 || ready_at(fifo_head(q)) > t) continue;
      waiting = true;
      req[w] = jsq(fifo_head(q), d, w, path, recv, d * kMaxVcs + w);
      if (t < bypass_until(fifo_head(q))) bypass |= 1u << w;
    }
    uint32_t win = ReceiverArbiter{v, n}(d, req, bypass);
    const bool held = v.prm.arbitration_gap && arbitration_gap(d, waiting && path, win);
    return {static_cast<uint8_t>(win), win == kNoRequest ? Request{} : req[win],
            static_cast<uint8_t>(held)};
  }

  // Phase 1 for injection FIFO f's head.
  LS_HD LS_FORCEINLINE Request injection(uint32_t f, const JsqRequest& jsq) const {
    const BglLayout& L = v.lay;
    const uint64_t fx = L.fifo(n.e, f);
    if (v.s.inj_count[fx] == 0) return Request{};
    const Flit& h = v.s.inj[L.fifo_slot(fx, v.s.inj_head[fx])];
    return ready_at(h) <= v.t ? jsq(h, kMaxDirs, 0, true, 0, 48 + f) : Request{};
  }

  // The receivers' requests for reception, then phase 3: each free sender sends a token-ack if
  // one is due, else the next packet to send again if it is going back, else grants one of the
  // requests the receivers (rx) and injection FIFOs (inj) present to it. Whether it started any.
  LS_HD LS_FORCEINLINE bool grant(const Presented* rx, const Request* inj, const Link& link,
                                  const ProcessorInterface& pi) const {
    const BglLayout& L = v.lay;
    const uint32_t t = static_cast<uint32_t>(v.t);
    bool acted = false;
    // Reception needs no sender: the receiver's own bus.
    for (uint32_t d = 0; d < L.dirs; ++d)
      if (rx[d].win != kNoRequest && rx[d].req.dir == kReception) {
        pi.receive(d, pop(d, rx[d].win, link));
        acted = true;
      }
    const Retransmission rt{v, n};
    for (uint32_t s = 0; s < L.dirs; ++s) {
      if (v.s.link_free[L.port(n.e, s)] > t) continue;
      if (link.token_ack_due(s)) {
        link.send_token_ack(s);
        acted = true;
        continue;
      }
      if (rt.going_back(L.port(n.e, s))) {
        link.resend(s);
        acted = true;
        continue;
      }
      Requester r[kMaxDirs + kMaxFifos];
      uint8_t vc[kMaxDirs + kMaxFifos];
      uint32_t count = 0;
      for (uint32_t d = 0; d < L.dirs; ++d) {
        if (rx[d].win == kNoRequest || rx[d].req.dir != s) continue;
        const uint64_t q = L.vc(n.e, d, rx[d].win);
        r[count] = {static_cast<uint8_t>(d),
                    static_cast<uint8_t>(range4(v.s.used[q], capacity(v.prm, rx[d].win))),
                    Packet::high_priority(fifo_head(q).meta)};
        vc[count++] = rx[d].req.vc;
      }
      for (uint32_t f = 0; f < L.fifos; ++f) {
        if (inj[f].dir != s) continue;
        const uint64_t fx = L.fifo(n.e, f);
        r[count] = {static_cast<uint8_t>(kMaxDirs + f),
                    static_cast<uint8_t>(range4(v.s.inj_used[fx], v.prm.fifo_chunks)),
                    Packet::high_priority(v.s.inj[L.fifo_slot(fx, v.s.inj_head[fx])].meta)};
        vc[count++] = inj[f].vc;
      }
      if (count == 0) continue;
      acted = true;
      const uint32_t i = SenderArbiter{v, n}(s, r, count);
      if (r[i].injection()) {
        link.send_packet(s, pi.take(r[i].from - kMaxDirs), vc[i]);
      } else {
        const uint32_t d = r[i].from;
        const Flit f = pop(d, rx[d].win, link);
        if (Packet::deposit(f.meta)) pi.receive(d, f);  // the copy for this node
        for (uint32_t k = 0; k < L.paths; ++k) {
          const uint64_t pk = L.path(n.e, d, k);
          if (v.s.path_free[pk] > t) continue;
          v.s.path_free[pk] = t + packet_bytes(Packet::chunks(f.meta));
          break;
        }
        link.send_packet(s, f, vc[i]);
      }
    }
    return acted;
  }

  // bgl.arbitration_gap (paper, "Performance verification": "a one-cycle gap in the arbitration
  // pipeline of the receivers could occur when all possible outgoing links and VCs were busy"):
  // receiver d presents no request in a cycle after one in which it was wholly blocked (a head
  // ready to ask, a path free, and no (direction, VC) pair or reception bus any head may ask
  // for available), so a sender freed in that cycle does not hear it and may grant an
  // injection FIFO. `ready` (a head ready to ask and a path free) and `win` are this cycle's
  // phases 1 and 2 as the fixed hardware has them. The array `blocked` holds the verdict of
  // the receiver's last arbitration, which is the previous cycle's: a router skips cycles only
  // while nothing it decides on changes (cycle()), and never the cycle after a request held
  // back (the return value: whether it held one back).
  LS_HD bool arbitration_gap(uint32_t d, bool ready, uint32_t& win) const {
    uint8_t& blocked = v.s.blocked[v.lay.port(n.e, d)];
    const bool gap = blocked != 0;
    blocked = ready && win == kNoRequest ? 1 : 0;
    if (!gap || win == kNoRequest) return false;
    win = kNoRequest;
    return true;
  }

  // The head packet of receiver d's VC w starts leaving its FIFO.
  LS_HD Flit pop(uint32_t d, uint32_t w, const Link& link) const {
    const uint64_t q = v.lay.vc(n.e, d, w);
    const Flit f = fifo_head(q);
    v.s.head[q] = static_cast<uint8_t>(next_mod(v.s.head[q], v.lay.ring));
    v.s.count[q] -= 1;
    link.start_drain(q, w, Packet::chunks(f.meta));
    return f;
  }
};

// The cycle functor: one router per element.
struct BglCycle {
  BglView v;

  LS_HD LS_GPU_INLINE void operator()(uint64_t e) const {
    const Node n{e, static_cast<uint32_t>(e / v.lay.routers),
                 static_cast<uint32_t>(e % v.lay.routers)};
    Router{v, n}.cycle();
  }
  // The routers [e0, e1) of one instance, on one CPU thread (CpuExec::run_cycles).
  void range(uint64_t e0, uint64_t e1) const {
    for (uint64_t e = e0; e < e1; ++e) (*this)(e);
  }
  // Router e's cycle on a tile of lanes (run.lanes = "tile"): Router::tile.
  static constexpr bool kLaneForm = true;
  template <class Tile>
  LS_HD LS_GPU_INLINE void tile(const Tile& t, uint64_t e) const {
    const Node n{e, static_cast<uint32_t>(e / v.lay.routers),
                 static_cast<uint32_t>(e % v.lay.routers)};
    Router{v, n}.tile(t);
  }
};

}  // namespace ls::bgl
