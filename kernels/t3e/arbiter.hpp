// The router core's arbitration (paper section 7), one router per call:
//  1. Each input chooses one of its VCs to request (round-robin among VCs holding flits); the
//     VC keeps the right until it fails to win its output VC, bubbles, completes or is blocked.
//  2. A packet at the front asks for the deterministic VC of its route and, if adaptive, the
//     adaptive VC of the highest-ordered unsatisfied direction (route.hpp). A packet already
//     on its way asks for the output it holds.
//  3. Output VCs are won: a deterministic one remembers who asked (a requester keeps its claim
//     after losing its turn to request), round-robin; the adaptive one goes round-robin to a
//     current requester whose whole packet fits in the downstream adaptive buffer (section 5;
//     t3e.adaptive_admission may ask instead for an empty buffer, Duato's rule, or one slot).
//  4. Each physical output goes to one of its VCs, round-robin, the adaptive VC last unless its
//     packet has started; the winner keeps it until its packet bubbles, completes or blocks.
//  5. An input that won both its outputs flows on the adaptive one, unless both are the same
//     physical output (then the deterministic VC); the VC it did not take is released.
// A flit going straight through leaves on the fast path (fall_through_straight) when the
// arbiter has not ruled it out: no other input asks for the output and nothing sent through
// the crossbar is still ahead of it; otherwise through the crossbar (fall_through_turn), and to
// the PE after end_point clocks.
#pragma once
#include "../common/belt.hpp"
#include "../common/byte_words.hpp"
#include "../common/round_robin.hpp"
#include "channel_control.hpp"
#include "route.hpp"

namespace ls::t3e {

struct Request {
  int8_t vc;       // the requesting VC of the input, -1 none
  int8_t port;     // continuing packet: the output it holds; head: the deterministic output
  uint8_t out_vc;  // ... and VC there
  int8_t ad_port;  // head: the adaptive output it also asks for, -1 none
  uint32_t tag;    // head: the tag it leaves with; none: a stopped head's stop_note, or 0
};
LS_HD LS_FORCEINLINE Request operator|(const Request& a, const Request& b) {
  return {static_cast<int8_t>(a.vc | b.vc), static_cast<int8_t>(a.port | b.port),
          static_cast<uint8_t>(a.out_vc | b.out_vc), static_cast<int8_t>(a.ad_port | b.ad_port),
          a.tag | b.tag};
}
constexpr Request kNoRequest{kNone, kNone, 0, kNone, 0};

// Every input's request, gathered to every lane of a tile (each lane fills its input's entry;
// the others are zero, so the OR of the lanes' is every lane's own).
struct Requests {
  Request q[kPorts];
  LS_HD Requests operator|(const Requests& o) const {
    Requests x;
    for (uint32_t p = 0; p < kPorts; ++p) x.q[p] = q[p] | o.q[p];
    return x;
  }
};

// What step 2's requests ask of the outputs: the inputs with a request, the outputs asked for,
// how many inputs ask for each, and the input VCs asking for each output's adaptive VC.
struct Asks {
  uint32_t asking, asked;
  uint32_t askers[kPorts];
  uint64_t adaptive[kPorts];
  LS_HD LS_FORCEINLINE void add(uint32_t p, const Request& q) {
    if (q.vc < 0) return;
    asking |= 1u << p;
    askers[q.port] += 1;
    asked |= 1u << q.port;
    if (q.ad_port >= 0) {
      const uint32_t a = static_cast<uint32_t>(q.ad_port);
      adaptive[a] |= uint64_t{1} << (p * kVcs + static_cast<uint32_t>(q.vc));
      askers[a] += a != static_cast<uint32_t>(q.port);
      asked |= 1u << a;
    }
  }
};

// How step 5 went for an input: it sent on the adaptive VC or the deterministic one, and the
// flit it sent was a head.
constexpr uint32_t kFlowAdaptive = 1, kFlowDeterministic = 2, kFlowHead = 4, kFlowBits = 3;

struct Arbiter {
  const T3eView& v;
  uint64_t e;
  uint32_t inst, r;
  uint32_t taken;  // outputs a barrier or special packet takes this clock

  // Router e's slices of the arrays the arbiter reads and writes: per VC [port * kVcs + vc]
  // (ivc()), per port [port], the buffers [port * port_slots + slot] (front()). Taken once,
  // into the arbiter, which every router's clock builds anew and inlines whole, so the byte
  // stores cannot alias them and no index is recomputed from e.
  uint8_t *ivc_count, *ivc_head, *ivc_out_vc, *ovc_credits, *ovc_rr, *ovc_started;
  int8_t *ivc_out, *ovc_owner;
  uint64_t* ovc_requests;
  int8_t *in_sel, *out_hold;
  uint8_t *in_rr, *out_rr;
  uint32_t *out_last, *out_flits, *out_adaptive;
  Flit* buf;
  T3eLayout lay;
  uint32_t port_slots;
  uint64_t fresh;        // input VCs whose one flit is still on the belt (receive())
  const Flit* arriving;  // router e's belt row of this clock

  LS_HD LS_FORCEINLINE Arbiter(const T3eView& view, uint64_t router, uint32_t instance,
                               uint32_t number, uint32_t outputs_taken, uint64_t fresh_vcs = 0)
      : v(view),
        e(router),
        inst(instance),
        r(number),
        taken(outputs_taken),
        lay(view.lay),
        port_slots(view.lay.port_slots()),
        fresh(fresh_vcs),
        arriving(view.s.in_belt + view.lay.row(router, view.now)) {
    const T3eState& s = v.s;
    const uint64_t vcs = v.lay.vc(e, 0, 0), ports = v.lay.port(e, 0);
    ivc_count = s.ivc_count + vcs;
    ivc_head = s.ivc_head + vcs;
    ivc_out_vc = s.ivc_out_vc + vcs;
    ovc_credits = s.ovc_credits + vcs;
    ovc_rr = s.ovc_rr + vcs;
    ovc_started = s.ovc_started + vcs;
    ivc_out = s.ivc_out + vcs;
    ovc_owner = s.ovc_owner + vcs;
    ovc_requests = s.ovc_requests + vcs;
    in_sel = s.in_sel + ports;
    out_hold = s.out_hold + ports;
    in_rr = s.in_rr + ports;
    out_rr = s.out_rr + ports;
    out_last = s.out_last + ports;
    out_flits = s.out_flits + ports;
    out_adaptive = s.out_adaptive + ports;
    buf = s.buf + v.lay.slot(e, 0, 0, 0);
  }

  LS_HD static uint32_t ivc(uint32_t p, uint32_t vc) { return p * kVcs + vc; }
  // Whether output o is one of `outputs` (all of them: no test, once inlined).
  LS_HD static bool among(uint32_t outputs, uint32_t o) {
    return outputs == kPortMask || (outputs >> o & 1u);
  }

  // Step 1: the VC of input p that may request this cycle, -1 none; `holding`: its VCs that
  // hold flits (bit vc).
  LS_HD LS_FORCEINLINE int select(uint32_t p, uint32_t holding) const {
    int sel = in_sel[p];
    if (sel >= 0 && !(holding >> sel & 1u)) {
      lose(p, static_cast<uint32_t>(sel));  // empty, or its packet bubbled
      sel = kNone;
    }
    if (sel >= 0) return sel;
    if (!holding) return kNone;
    sel = static_cast<int>(rr_first(holding, in_rr[p]));
    in_sel[p] = static_cast<int8_t>(sel);
    return sel;
  }
  // Input p's VC gives up the right to request; the next VC in turn gets it.
  LS_HD LS_FORCEINLINE void lose(uint32_t p, uint32_t vc) const {
    in_sel[p] = kNone;
    in_rr[p] = static_cast<uint8_t>(next_mod(vc, kVcs));
  }

  // The flit at the front of input VC (p, vc): in its buffer, or still on the belt.
  LS_HD LS_FORCEINLINE const Flit& front(uint32_t p, uint32_t vc) const {
    return fresh >> ivc(p, vc) & 1u ? arriving[p]
                                    : buf[p * port_slots + vc * lay.depth + ivc_head[ivc(p, vc)]];
  }

  // Step 2 for input p, whose VCs in `holding` hold flits. With `claim` a head claims the
  // deterministic VC it asks for and a stopped head's error is recorded here; without, note()
  // does both later (lanes()).
  template <bool claim>
  LS_HD LS_FORCEINLINE Request request(uint32_t p, uint32_t holding) const {
    Request q = kNoRequest;
    const int sel = select(p, holding);
    if (sel < 0) return q;
    const uint32_t vc = static_cast<uint32_t>(sel);
    const uint32_t iv = ivc(p, vc);
    const int8_t held = ivc_out[iv];
    if (held >= 0) {  // on its way: the next flit, if the output VC has room
      const uint8_t ovc = ivc_out_vc[iv];
      if (ovc_credits[ivc(static_cast<uint32_t>(held), ovc)] == 0) {
        lose(p, vc);  // the output VC is blocked
        return q;
      }
      q.vc = static_cast<int8_t>(vc);
      q.port = held;
      q.out_vc = ovc;
      return q;
    }
    const Flit& f = front(p, vc);
    const Route rt = Router{v, e, r}.route<claim>(f, p, vc);
    if (rt.det_port < 0) {  // stopped: a configuration error
      lose(p, vc);
      if (!claim) q.tag = rt.tag;
      return q;
    }
    q.vc = static_cast<int8_t>(vc);
    q.port = rt.det_port;
    q.out_vc = rt.det_vc;
    q.tag = rt.tag;
    if (claim)
      ovc_requests[ivc(static_cast<uint32_t>(rt.det_port), rt.det_vc)] |= uint64_t{1}
                                                                          << (p * kVcs + vc);
    if (rt.ad_port >= 0) {
      const uint32_t ov = ivc(static_cast<uint32_t>(rt.ad_port), kAdaptiveVc);
      // t3e.adaptive_admission: room for the whole packet, an empty buffer, or one slot.
      const uint32_t room = v.prm.admission == kAdmitPacket  ? FlitMeta::size(f.meta)
                            : v.prm.admission == kAdmitEmpty ? lay.adaptive_depth
                                                             : 1u;
      if (ovc_owner[ov] < 0 && ovc_credits[ov] >= room) q.ad_port = rt.ad_port;
    }
    return q;
  }

  // Input p's request q claims the deterministic VC it asks for (a head's, if that VC is on one
  // of `outputs`); a stopped head's error is recorded.
  LS_HD LS_FORCEINLINE void note(uint32_t p, const Request& q, uint32_t outputs) const {
    if (q.vc < 0) {
      if (q.tag) record_stop(v, e, p, q.tag);
      return;
    }
    const uint32_t vc = static_cast<uint32_t>(q.vc), o = static_cast<uint32_t>(q.port);
    if (among(outputs, o) && ivc_out[ivc(p, vc)] < 0)
      ovc_requests[ivc(o, q.out_vc)] |= uint64_t{1} << (p * kVcs + vc);
  }

  // Returns the input VCs that sent a flit (bit port * kVcs + vc).
  LS_HD LS_FORCEINLINE uint64_t operator()() const {
    // Only the inputs that hold flits or have a VC with the right to request have anything to
    // do, and only the outputs some input asks for this clock.
    const uint64_t holding = nonzero_bytes<kPortVcs>(ivc_count);
    uint32_t visit = nonnegative_bytes<kPorts>(in_sel);
    for (uint32_t p = 0; p < kPorts; ++p)
      visit |= uint32_t{(holding >> (p * kVcs) & 31u) != 0} << p;
    Request req[kPorts];
    Asks a;
    a.asking = a.asked = 0;
    for (uint32_t p = 0; p < kPorts; ++p) {
      req[p] = kNoRequest;
      a.askers[p] = 0;
      a.adaptive[p] = 0;
    }
    for (uint32_t m = visit; m; m &= m - 1) {
      const uint32_t p = lowest_bit(m);
      const Request q = request<true>(p, static_cast<uint32_t>(holding >> (p * kVcs)) & 31u);
      req[p] = q;
      a.add(p, q);
    }
    // Steps 3 and 4 where some input asks this clock: the output's VCs are fought over, then
    // (unless a barrier or special packet takes it) the output itself. Each step of an output
    // touches only that output's state, so one pass over the outputs does both.
    int8_t won[kPorts];
    for (uint32_t o = 0; o < kPorts; ++o) won[o] = kNone;
    for (uint32_t m = a.asked; m; m &= m - 1) {
      const uint32_t o = lowest_bit(m);
      grant(o, a.adaptive[o]);
      if (!(taken >> o & 1u)) won[o] = contend(o, req);
    }
    // Step 5: inputs flow.
    uint64_t sent = 0;
    for (uint32_t m = a.asking; m; m &= m - 1) {
      const uint32_t p = lowest_bit(m);
      const uint32_t how = flow(p, req[p], won, a.askers);
      forget(p, req[p], how, kPortMask);
      if (how) sent |= uint64_t{1} << (p * kVcs + static_cast<uint32_t>(req[p].vc));
    }
    return sent;
  }

  // The same on a tile of lanes (RouterCycle::tile), settle() included: requests an input a lane,
  // gathered to every lane; steps 3 and 4 an output a lane, each noting first the requests for
  // its output's VCs; step 5 an input a lane; then an output a lane forgets the requests that
  // step 5 satisfied on its VCs while the input of the same number settles its flit.
  template <class Tile>
  LS_HD uint64_t lanes(const Tile& t) const {
    const uint64_t holding = nonzero_bytes<kPortVcs>(ivc_count);
    const Requests g = t.fold_or(kPorts, [&](uint32_t p) {
      Requests x{};
      const uint32_t mine = static_cast<uint32_t>(holding >> (p * kVcs)) & 31u;
      x.q[p] = in_sel[p] >= 0 || mine ? request<false>(p, mine) : kNoRequest;
      return x;
    });
    Asks a{0, 0, {}, {}};
    uint32_t stopped = 0;
    for (uint32_t p = 0; p < kPorts; ++p) {
      a.add(p, g.q[p]);
      stopped |= uint32_t{g.q[p].vc < 0 && g.q[p].tag != 0} << p;
    }
    if (stopped)
      t.single([&] {
        for (uint32_t m = stopped; m; m &= m - 1) note(lowest_bit(m), g.q[lowest_bit(m)], 0);
      });
    // won[o] + 1 in four bits an output.
    const uint32_t wins = t.fold_or(kPorts, [&](uint32_t o) -> uint32_t {
      for (uint32_t m = a.asking; m; m &= m - 1) note(lowest_bit(m), g.q[lowest_bit(m)], 1u << o);
      if (!(a.asked >> o & 1u)) return 0;
      grant(o, a.adaptive[o]);
      return taken >> o & 1u ? 0u : static_cast<uint32_t>(contend(o, g.q) + 1) << (4 * o);
    });
    int8_t won[kPorts];
    for (uint32_t o = 0; o < kPorts; ++o) won[o] = static_cast<int8_t>((wins >> (4 * o) & 15u) - 1);
    const uint32_t flows = t.fold_or(kPorts, [&](uint32_t p) -> uint32_t {
      return a.asking >> p & 1u ? flow(p, g.q[p], won, a.askers) << (kFlowBits * p) : 0u;
    });
    uint64_t sent = 0;
    for (uint32_t m = a.asking; m; m &= m - 1) {
      const uint32_t p = lowest_bit(m);
      if (flows >> (kFlowBits * p) & 7u)
        sent |= uint64_t{1} << (p * kVcs + static_cast<uint32_t>(g.q[p].vc));
    }
    const uint64_t stay = fresh & ~sent;
    t.each(kPorts, [&](uint32_t k) {
      for (uint32_t m = a.asking; m; m &= m - 1) {
        const uint32_t p = lowest_bit(m);
        forget(p, g.q[p], flows >> (kFlowBits * p) & 7u, 1u << k);
      }
      const uint32_t mine = static_cast<uint32_t>(stay >> (k * kVcs)) & 31u;  // one VC at most
      if (mine) settle_vc(k, lowest_bit(mine));
    });
    return sent;
  }

  // After step 5: the flits receive() left on the belt that did not leave go into their
  // buffers (`stay`: those VCs). Nothing writes a router's belt row of this clock.
  LS_HD LS_FORCEINLINE void settle(uint64_t stay) const {
    for (uint64_t m = stay; m; m &= m - 1) {
      const uint32_t k = lowest_bit64(m);
      settle_vc(k / kVcs, k % kVcs);
    }
  }
  LS_HD LS_FORCEINLINE void settle_vc(uint32_t p, uint32_t vc) const {
    buf[p * port_slots + vc * lay.depth + ivc_head[ivc(p, vc)]] = arriving[p];
  }

  // Step 5 for input p and its request q: returns how it went (kFlow* bits, 0: it sent nothing).
  LS_HD LS_FORCEINLINE uint32_t flow(uint32_t p, const Request& q, const int8_t* won,
                                     const uint32_t* askers) const {
    const uint32_t vc = static_cast<uint32_t>(q.vc), me = p * kVcs + vc;
    const uint32_t det = static_cast<uint32_t>(q.port);
    const bool got_d = won[det] == static_cast<int8_t>(q.out_vc) &&
                       ovc_owner[ivc(det, q.out_vc)] == static_cast<int8_t>(me);
    // No branch on the adaptive request (random): an absent one reads output 0's entries.
    const uint32_t a = q.ad_port >= 0 ? static_cast<uint32_t>(q.ad_port) : 0u;
    const bool got_a = (q.ad_port >= 0) & (won[a] == static_cast<int8_t>(kAdaptiveVc)) &
                       (ovc_owner[ivc(a, kAdaptiveVc)] == static_cast<int8_t>(me));
    const bool head = ivc_out[ivc(p, vc)] < 0;
    const bool adaptive = got_a && (!got_d || q.ad_port != q.port);
    if (q.ad_port >= 0 && !adaptive &&
        ovc_owner[ivc(static_cast<uint32_t>(q.ad_port), kAdaptiveVc)] == static_cast<int8_t>(me))
      ovc_owner[ivc(static_cast<uint32_t>(q.ad_port), kAdaptiveVc)] = kNone;
    if (adaptive) {
      // The deterministic VC asked for is released (forget() tells it, so it can serve its
      // other suitors).
      const uint32_t k = ivc(det, q.out_vc);
      if (ovc_owner[k] == static_cast<int8_t>(me)) ovc_owner[k] = kNone;
      return kFlowAdaptive |
             send(p, vc, static_cast<uint32_t>(q.ad_port), kAdaptiveVc, q.tag, askers);
    }
    if (got_d) return kFlowDeterministic | send(p, vc, det, q.out_vc, head ? q.tag : 0, askers);
    if (head && (ovc_owner[ivc(det, q.out_vc)] != static_cast<int8_t>(me) ||
                 ovc_credits[ivc(det, q.out_vc)] == 0))
      lose(p, vc);  // it failed to win an output VC, or the one it won is blocked
    return 0;
  }

  // The requests that input p's step 5 (`how`) satisfied, on the VCs of `outputs`: a packet
  // that went adaptive no longer asks for its deterministic VC, and a head that left no longer
  // asks for the VC it left on.
  LS_HD LS_FORCEINLINE void forget(uint32_t p, const Request& q, uint32_t how,
                                   uint32_t outputs) const {
    const uint64_t me = uint64_t{1} << (p * kVcs + static_cast<uint32_t>(q.vc));
    const uint32_t det = static_cast<uint32_t>(q.port);
    if ((how & (kFlowAdaptive | kFlowHead)) && among(outputs, det))
      ovc_requests[ivc(det, q.out_vc)] &= ~me;
    if ((how & kFlowAdaptive) && (how & kFlowHead) &&
        among(outputs, static_cast<uint32_t>(q.ad_port)))
      ovc_requests[ivc(static_cast<uint32_t>(q.ad_port), kAdaptiveVc)] &= ~me;
  }

  // Step 3 for output o: each free output VC goes round-robin to an input VC that wants it. A
  // deterministic VC remembers who asked (ovc_requests, set by request() and kept when the
  // asker loses its turn to request), so those fight along with the ones asking now; the
  // adaptive VC goes to one of the input VCs asking for it now (`adaptive`), whose whole packets
  // fit (request() checked it).
  LS_HD LS_FORCEINLINE void grant(uint32_t o, uint64_t adaptive) const {
    const uint32_t k0 = ivc(o, 0), owned = nonnegative_bytes<kVcs>(ovc_owner + k0);
    // The deterministic VCs someone asked for, now or before.
    const uint32_t asked = nonzero_words<kAdaptiveVc>(ovc_requests + k0);
    for (uint32_t m = asked & ~owned; m; m &= m - 1) {
      const uint32_t k = k0 + lowest_bit(m);
      award(k, ovc_requests[k]);
    }
    if (!(owned >> kAdaptiveVc & 1u) && adaptive) award(ivc(o, kAdaptiveVc), adaptive);
  }
  // Free output VC k goes round-robin to one of the input VCs in `wanting` (non-empty).
  LS_HD LS_FORCEINLINE void award(uint32_t k, uint64_t wanting) const {
    const uint32_t w = rr_first(wanting, ovc_rr[k]);
    ovc_owner[k] = static_cast<int8_t>(w);
    ovc_rr[k] = static_cast<uint8_t>(next_mod(w, kPortVcs));
  }

  // Step 4 for output o: the VC that wins it this cycle, -1 none. A contender is an output VC
  // whose owner is its input's requesting VC, asking for it, with a credit.
  LS_HD LS_FORCEINLINE int8_t contend(uint32_t o, const Request* req) const {
    const uint32_t k0 = ivc(o, 0);
    const uint32_t ready = nonnegative_bytes<kVcs>(ovc_owner + k0) &
                           static_cast<uint32_t>(nonzero_bytes<kVcs>(ovc_credits + k0));
    uint32_t contenders = 0;
    for (uint32_t m = ready; m; m &= m - 1) {
      const uint32_t ov = lowest_bit(m), w = static_cast<uint32_t>(ovc_owner[k0 + ov]);
      const Request& q = req[w / kVcs];
      const bool asks = q.vc == static_cast<int8_t>(w % kVcs) &&
                        ((q.port == static_cast<int8_t>(o) && q.out_vc == ov) ||
                         (ov == kAdaptiveVc && q.ad_port == static_cast<int8_t>(o)));
      contenders |= uint32_t{asks} << ov;
    }
    const int8_t hold = out_hold[o];
    if ((hold >= 0) & (contenders >> (hold & 7) & 1u)) return hold;
    if (!contenders) return kNone;
    // The adaptive VC has the lowest priority unless its packet has started.
    const uint32_t quiet =
        ovc_started[ivc(o, kAdaptiveVc)] ? 0u : (contenders & ~(1u << kAdaptiveVc));
    const uint32_t pick = rr_first(quiet ? quiet : contenders, out_rr[o]);
    out_rr[o] = static_cast<uint8_t>(next_mod(pick, kVcs));
    return static_cast<int8_t>(pick);
  }

  // Input VC (p, vc) sends its front flit on output VC (o, ov); kFlowHead if it was a head.
  LS_HD LS_FORCEINLINE uint32_t send(uint32_t p, uint32_t vc, uint32_t o, uint32_t ov, uint32_t tag,
                                     const uint32_t* askers) const {
    const T3eLayout& L = lay;
    const uint32_t iv = ivc(p, vc), ok = ivc(o, ov);
    Flit f = front(p, vc);
    ivc_head[iv] = static_cast<uint8_t>(next_mod(ivc_head[iv], L.capacity(vc)));
    ivc_count[iv] -= 1;
    ovc_credits[ok] -= 1;
    const bool head = FlitMeta::head(f.meta), tail = FlitMeta::tail(f.meta);
    credit_upstream(v, e, r, p, vc);
    f.meta = FlitMeta::with_vc(f.meta, ov);
    if (head) flit_tag(f) = tag;
    // The flit's delay: to the PE end_point clocks; on a link the fast path's or the turn's. Its
    // far end is the next router's input, or this router's PE column (far_ends).
    uint32_t d = v.prm.end_point;
    if (o != kPePort) {
      f.meta = FlitMeta::with_hop(f.meta);
      const uint32_t dir_o = v.s.port_dir[e * kPorts + o];
      const bool straight = (p != kPePort) & (opposite(v.s.port_dir[e * kPorts + p]) == dir_o);
      const uint32_t now = static_cast<uint32_t>(v.t);
      const bool fast = straight & !(v.s.chan[e * 8 + dir_o] & kNoFast) & (askers[o] == 1) &
                        (static_cast<int32_t>(out_last[o] - (now + v.prm.straight)) < 0);
      d = v.prm.turn - ((v.prm.turn - v.prm.straight) & (0u - fast));  // no branch
      out_last[o] = now + d;
      if (v.win.contains(v.t)) {
        out_flits[o] += 1;
        if (ov == kAdaptiveVc) out_adaptive[o] += 1;
      }
    }
    const uint64_t b =
        L.far_end(e, r, v.topo.far_end[r * kPorts + o], belt_arrival_slot(v.now, d, L.slots));
    v.s.in_belt[b] = f;
    v.s.in_valid[b] = 1;
    if (head) {
      ivc_out[iv] = static_cast<int8_t>(o);
      ivc_out_vc[iv] = static_cast<uint8_t>(ov);
      ovc_started[ok] = 1;
    }
    if (tail) {
      ivc_out[iv] = kNone;
      ovc_owner[ok] = kNone;
      ovc_started[ok] = 0;
      out_hold[o] = kNone;
      lose(p, vc);  // the packet completed
    } else {
      out_hold[o] = static_cast<int8_t>(ov);
    }
    return head ? kFlowHead : 0u;
  }
};

}  // namespace ls::t3e
