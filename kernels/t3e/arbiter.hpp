// The router core's arbitration (paper section 7), one router per call:
//  1. Each input chooses one of its VCs to request (round-robin among VCs holding flits); the
//     VC keeps the right until it fails to win its output VC, bubbles, completes or is blocked.
//  2. A packet at the front asks for the deterministic VC of its route and, if adaptive, the
//     adaptive VC of the highest-ordered unsatisfied direction (route.hpp). A packet already
//     on its way asks for the output it holds.
//  3. Output VCs are won: a deterministic one remembers who asked (a requester keeps its claim
//     after losing its turn to request), round-robin; the adaptive one goes round-robin to a
//     current requester whose whole packet fits in the downstream adaptive buffer (section 5).
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
  uint32_t tag;    // head: the tag it leaves with
};

struct Arbiter {
  const T3eView& v;
  uint64_t e;
  uint32_t inst, r;
  uint32_t taken;  // outputs a barrier or special packet takes this clock

  LS_HD uint64_t ivc(uint32_t p, uint32_t vc) const { return v.lay.vc(e, p, vc); }

  // Step 1: the VC of input p that may request this cycle, -1 none; `holding`: its VCs that
  // hold flits (bit vc).
  LS_HD int select(uint32_t p, uint32_t holding) const {
    const uint64_t pi = v.lay.port(e, p);
    int sel = v.s.in_sel[pi];
    if (sel >= 0 && !(holding >> sel & 1u)) {
      lose(p, static_cast<uint32_t>(sel));  // empty, or its packet bubbled
      sel = kNone;
    }
    if (sel >= 0) return sel;
    if (!holding) return kNone;
    sel = static_cast<int>(rr_first(holding, v.s.in_rr[pi]));
    v.s.in_sel[pi] = static_cast<int8_t>(sel);
    return sel;
  }
  // Input p's VC gives up the right to request; the next VC in turn gets it.
  LS_HD void lose(uint32_t p, uint32_t vc) const {
    const uint64_t pi = v.lay.port(e, p);
    v.s.in_sel[pi] = kNone;
    v.s.in_rr[pi] = static_cast<uint8_t>(next_mod(vc, kVcs));
  }

  LS_HD const Flit& front(uint32_t p, uint32_t vc) const {
    return v.s.buf[v.lay.slot(e, p, vc, v.s.ivc_head[ivc(p, vc)])];
  }

  // Step 2 for input p, whose VCs in `holding` hold flits.
  LS_HD LS_FORCEINLINE Request request(uint32_t p, uint32_t holding) const {
    Request q{kNone, kNone, 0, kNone, 0};
    const int sel = select(p, holding);
    if (sel < 0) return q;
    const uint32_t vc = static_cast<uint32_t>(sel);
    const uint64_t iv = ivc(p, vc);
    const int8_t held = v.s.ivc_out[iv];
    if (held >= 0) {  // on its way: the next flit, if the output VC has room
      const uint8_t ovc = v.s.ivc_out_vc[iv];
      if (v.s.ovc_credits[ivc(static_cast<uint32_t>(held), ovc)] == 0) {
        lose(p, vc);  // the output VC is blocked
        return q;
      }
      q.vc = static_cast<int8_t>(vc);
      q.port = held;
      q.out_vc = ovc;
      return q;
    }
    const Flit& f = front(p, vc);
    const Route rt = Router{v, e, r}.route(f, p, vc);
    if (rt.det_port < 0) {  // stopped (a configuration error, recorded)
      lose(p, vc);
      return q;
    }
    q.vc = static_cast<int8_t>(vc);
    q.port = rt.det_port;
    q.out_vc = rt.det_vc;
    q.tag = rt.tag;
    v.s.ovc_requests[ivc(static_cast<uint32_t>(rt.det_port), rt.det_vc)] |= uint64_t{1}
                                                                            << (p * kVcs + vc);
    if (rt.ad_port >= 0) {
      const uint64_t ov = ivc(static_cast<uint32_t>(rt.ad_port), kAdaptiveVc);
      if (v.s.ovc_owner[ov] < 0 && v.s.ovc_credits[ov] >= FlitMeta::size(f.meta))
        q.ad_port = rt.ad_port;
    }
    return q;
  }

  LS_HD void operator()() const {
    // Only the inputs that hold flits or have a VC with the right to request have anything to
    // do, and only the outputs some input asks for this clock.
    const uint64_t holding = nonzero_bytes<kPortVcs>(v.s.ivc_count + ivc(0, 0));
    uint32_t visit = nonnegative_bytes<kPorts>(v.s.in_sel + v.lay.port(e, 0));
    for (uint32_t p = 0; p < kPorts; ++p)
      visit |= uint32_t{(holding >> (p * kVcs) & 31u) != 0} << p;
    Request req[kPorts];
    uint32_t askers[kPorts];
    for (uint32_t p = 0; p < kPorts; ++p) {
      req[p] = Request{kNone, kNone, 0, kNone, 0};
      askers[p] = 0;
    }
    uint32_t asking = 0, asked = 0;  // inputs with a request, outputs asked for
    for (uint32_t m = visit; m; m &= m - 1) {
      const uint32_t p = lowest_bit(m);
      const Request q = request(p, static_cast<uint32_t>(holding >> (p * kVcs)) & 31u);
      req[p] = q;
      if (q.vc < 0) continue;
      asking |= 1u << p;
      askers[q.port] += 1;
      asked |= 1u << q.port;
      if (q.ad_port >= 0 && q.ad_port != q.port) {
        askers[q.ad_port] += 1;
        asked |= 1u << q.ad_port;
      }
    }
    // Step 3: output VCs, fought over where some input asks this clock.
    for (uint32_t m = asked; m; m &= m - 1) grant(lowest_bit(m), req, asking);
    // Step 4: physical outputs.
    int8_t won[kPorts];
    for (uint32_t o = 0; o < kPorts; ++o) won[o] = kNone;
    for (uint32_t m = asked & ~taken; m; m &= m - 1) {
      const uint32_t o = lowest_bit(m);
      won[o] = contend(o, req);
    }
    // Step 5: inputs flow.
    for (uint32_t m = asking; m; m &= m - 1) {
      const uint32_t p = lowest_bit(m);
      const Request& q = req[p];
      const uint32_t vc = static_cast<uint32_t>(q.vc), me = p * kVcs + vc;
      const uint32_t det = static_cast<uint32_t>(q.port);
      const bool got_d = won[det] == static_cast<int8_t>(q.out_vc) &&
                         v.s.ovc_owner[ivc(det, q.out_vc)] == static_cast<int8_t>(me);
      const bool got_a = q.ad_port >= 0 && won[q.ad_port] == static_cast<int8_t>(kAdaptiveVc) &&
                         v.s.ovc_owner[ivc(static_cast<uint32_t>(q.ad_port), kAdaptiveVc)] ==
                             static_cast<int8_t>(me);
      const bool head = v.s.ivc_out[ivc(p, vc)] < 0;
      const bool adaptive = got_a && (!got_d || q.ad_port != q.port);
      if (q.ad_port >= 0 && !adaptive &&
          v.s.ovc_owner[ivc(static_cast<uint32_t>(q.ad_port), kAdaptiveVc)] ==
              static_cast<int8_t>(me))
        v.s.ovc_owner[ivc(static_cast<uint32_t>(q.ad_port), kAdaptiveVc)] = kNone;
      if (adaptive) {
        // The deterministic VC asked for is told, so it can serve its other suitors.
        const uint64_t k = ivc(det, q.out_vc);
        v.s.ovc_requests[k] &= ~(uint64_t{1} << me);
        if (v.s.ovc_owner[k] == static_cast<int8_t>(me)) v.s.ovc_owner[k] = kNone;
        send(p, vc, static_cast<uint32_t>(q.ad_port), kAdaptiveVc, q.tag, askers);
      } else if (got_d) {
        send(p, vc, det, q.out_vc, head ? q.tag : 0, askers);
      } else if (head && (v.s.ovc_owner[ivc(det, q.out_vc)] != static_cast<int8_t>(me) ||
                          v.s.ovc_credits[ivc(det, q.out_vc)] == 0)) {
        lose(p, vc);  // it failed to win an output VC, or the one it won is blocked
      }
    }
  }

  // Step 3 for output o: each free output VC goes round-robin to an input VC that wants it. A
  // deterministic VC remembers who asked (ovc_requests, set by request() and kept when the
  // asker loses its turn to request), so those fight along with the ones asking now; the
  // adaptive VC goes to one asking now whose whole packet fits (request() checked it).
  LS_HD void grant(uint32_t o, const Request* req, uint32_t asking) const {
    const uint32_t owned = nonnegative_bytes<kVcs>(v.s.ovc_owner + ivc(o, 0));
    for (uint32_t m = ~owned & ((1u << kAdaptiveVc) - 1); m; m &= m - 1) {
      const uint64_t k = ivc(o, lowest_bit(m));
      if (v.s.ovc_requests[k] != 0) award(k, v.s.ovc_requests[k]);
    }
    if (owned >> kAdaptiveVc & 1u) return;
    uint64_t wanting = 0;
    for (uint32_t m = asking; m; m &= m - 1) {
      const uint32_t p = lowest_bit(m);
      if (req[p].ad_port == static_cast<int8_t>(o))
        wanting |= uint64_t{1} << (p * kVcs + static_cast<uint32_t>(req[p].vc));
    }
    if (wanting) award(ivc(o, kAdaptiveVc), wanting);
  }
  // Free output VC k goes round-robin to one of the input VCs in `wanting` (non-empty).
  LS_HD void award(uint64_t k, uint64_t wanting) const {
    const uint32_t w = rr_first(wanting, v.s.ovc_rr[k]);
    v.s.ovc_owner[k] = static_cast<int8_t>(w);
    v.s.ovc_rr[k] = static_cast<uint8_t>(next_mod(w, kPortVcs));
  }

  // Step 4 for output o: the VC that wins it this cycle, -1 none. A contender is an output VC
  // whose owner is its input's requesting VC, asking for it, with a credit.
  LS_HD int8_t contend(uint32_t o, const Request* req) const {
    const uint64_t k0 = ivc(o, 0);
    const uint32_t ready = nonnegative_bytes<kVcs>(v.s.ovc_owner + k0) &
                           static_cast<uint32_t>(nonzero_bytes<kVcs>(v.s.ovc_credits + k0));
    uint32_t contenders = 0;
    for (uint32_t m = ready; m; m &= m - 1) {
      const uint32_t ov = lowest_bit(m), w = static_cast<uint32_t>(v.s.ovc_owner[k0 + ov]);
      const Request& q = req[w / kVcs];
      const bool asks = q.vc == static_cast<int8_t>(w % kVcs) &&
                        ((q.port == static_cast<int8_t>(o) && q.out_vc == ov) ||
                         (ov == kAdaptiveVc && q.ad_port == static_cast<int8_t>(o)));
      contenders |= uint32_t{asks} << ov;
    }
    const uint64_t po = v.lay.port(e, o);
    const int8_t hold = v.s.out_hold[po];
    if (hold >= 0 && (contenders >> hold & 1u)) return hold;
    if (!contenders) return kNone;
    // The adaptive VC has the lowest priority unless its packet has started.
    const uint32_t quiet =
        v.s.ovc_started[ivc(o, kAdaptiveVc)] ? 0u : (contenders & ~(1u << kAdaptiveVc));
    const uint32_t pick = rr_first(quiet ? quiet : contenders, v.s.out_rr[po]);
    v.s.out_rr[po] = static_cast<uint8_t>(next_mod(pick, kVcs));
    return static_cast<int8_t>(pick);
  }

  // Input VC (p, vc) sends its front flit on output VC (o, ov).
  LS_HD LS_FORCEINLINE void send(uint32_t p, uint32_t vc, uint32_t o, uint32_t ov, uint32_t tag,
                                 const uint32_t* askers) const {
    const T3eLayout& L = v.lay;
    const uint64_t iv = ivc(p, vc), ok = ivc(o, ov), po = L.port(e, o);
    Flit f = front(p, vc);
    v.s.ivc_head[iv] = static_cast<uint8_t>(next_mod(v.s.ivc_head[iv], L.capacity(vc)));
    v.s.ivc_count[iv] -= 1;
    v.s.ovc_credits[ok] -= 1;
    const bool head = FlitMeta::head(f.meta), tail = FlitMeta::tail(f.meta);
    credit_upstream(v, e, r, p, vc);
    f.meta = FlitMeta::with_vc(f.meta, ov);
    if (head) flit_tag(f) = tag;
    uint64_t b;
    if (o == kPePort) {
      b = L.row(e, belt_arrival_slot(v.now, v.prm.end_point, L.slots)) + kPeColumn;
    } else {
      f.meta = FlitMeta::with_hop(f.meta);
      const uint32_t dir_o = v.s.port_dir[e * kPorts + o];
      const bool straight =
          p != kPePort && (v.s.port_dir[e * kPorts + p] + 3) % kDirections == dir_o;
      const uint32_t now = static_cast<uint32_t>(v.t);
      const bool fast = straight && !(v.s.chan[e * 8 + dir_o] & kNoFast) && askers[o] == 1 &&
                        static_cast<int32_t>(v.s.out_last[po] - (now + v.prm.straight)) < 0;
      const uint32_t d = fast ? v.prm.straight : v.prm.turn;
      v.s.out_last[po] = now + d;
      const int32_t down = v.topo.peer[r * kPorts + o];
      const uint64_t de = e - r + static_cast<uint32_t>(down) / kPorts;
      b = L.row(de, belt_arrival_slot(v.now, d, L.slots)) + static_cast<uint32_t>(down) % kPorts;
      if (v.win.contains(v.t)) {
        v.s.out_flits[po] += 1;
        if (ov == kAdaptiveVc) v.s.out_adaptive[po] += 1;
      }
    }
    v.s.in_belt[b] = f;
    v.s.in_valid[b] = 1;
    v.s.last_move[e] = static_cast<uint32_t>(v.t);
    if (head) {
      v.s.ivc_out[iv] = static_cast<int8_t>(o);
      v.s.ivc_out_vc[iv] = static_cast<uint8_t>(ov);
      v.s.ovc_started[ok] = 1;
      v.s.ovc_requests[ok] &= ~(uint64_t{1} << (p * kVcs + vc));
    }
    if (tail) {
      v.s.ivc_out[iv] = kNone;
      v.s.ovc_owner[ok] = kNone;
      v.s.ovc_started[ok] = 0;
      v.s.out_hold[po] = kNone;
      lose(p, vc);  // the packet completed
    } else {
      v.s.out_hold[po] = static_cast<int8_t>(ov);
    }
  }
};

}  // namespace ls::t3e
