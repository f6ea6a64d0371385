// Where the packet at the front of an input VC asks to go (paper sections 2, 3 and 5; manual
// "Information Routing"), from its routing tag and the router's registers:
//  - deterministic: the initial hop first (at the source router), then the lowest-ordered
//    unsatisfied direction of +X, +Y, +Z, -X, -Y, -Z, then the final -Z hop, then the PE. Its
//    VC set comes from R_VCSEL's SELECT bit for the destination ordinate whenever the packet
//    enters a direction (or leaves the adaptive VC); a VC0 packet travelling through the
//    dateline node of its direction leaves it on VC1, and a VC1 packet there is stopped: a
//    configuration error.
//  - adaptive (ADAPT set): the adaptive VC of the highest-ordered unsatisfied direction, unless
//    its channel has NO_ADAPT. The packet "does not use the initial hop value and the final
//    hop value" (manual, "Adaptive Routing"): its tag is read without them, the deterministic
//    route too; with t3e.adaptive_hops = "taken" it takes them on deterministic VCs first and
//    last, as a direction-order packet does, and asks for no adaptive VC while one pends.
#pragma once
#include "channel_control.hpp"

namespace ls::t3e {

struct Route {
  int8_t det_port;  // -1: stopped, a configuration error (recorded, or `tag` its stop_note)
  uint8_t det_vc;
  int8_t ad_port;  // -1: no adaptive request
  uint32_t tag;    // the tag the packet leaves with (initial hop or final hop recorded)
};

// A stopped packet's configuration error, its VC and direction in one word (never 0), for a
// caller that records it later (record_stop): the ports of a router may be on lanes of their own.
LS_HD inline uint32_t stop_note(uint32_t code, uint32_t vc, uint32_t dir) {
  return code | vc << 8 | dir << 16;
}
// The hardware stops the packet at input p and reports the error, if it has reported none yet.
LS_HD inline void record_stop(const T3eView& v, uint64_t e, uint32_t p, uint32_t note) {
  if (v.s.error[e] != 0) return;
  v.s.error[e] = note & 255u;
  v.s.error_info[e * 4 + 0] = static_cast<uint32_t>(v.t);
  v.s.error_info[e * 4 + 1] = p;
  v.s.error_info[e * 4 + 2] = note >> 8 & 255u;
  v.s.error_info[e * 4 + 3] = note >> 16;
}

struct Router {
  const T3eView& v;
  uint64_t e;
  uint32_t r;  // e's router number in its instance

  LS_HD uint32_t pwho() const { return v.s.pwho[e]; }
  LS_HD uint32_t port_of(uint32_t dir) const { return v.s.dir_port[e * kDirections + dir]; }
  LS_HD uint8_t chan(uint32_t dir) const { return v.s.chan[e * 8 + dir]; }
  LS_HD bool linked(uint32_t port) const { return v.topo.peer[r * kPorts + port] >= 0; }

  // The route of head flit f waiting at input (p, vc). A stopped packet's error is recorded
  // (`record`) or returned in the route's tag.
  template <bool record>
  LS_HD LS_FORCEINLINE Route route(const Flit& f, uint32_t p, uint32_t vc) const {
    const uint32_t raw = flit_tag(f), cls = FlitMeta::cls(f.meta);
    const uint32_t tag = Tag::as_read(raw, v.prm.adaptive_hops);
    Route r{kNone, 0, kNone, tag};
    const uint32_t todo = unsatisfied(tag, pwho());
    const Hop h = next_hop_todo(tag, todo, p == kPePort);
    r.tag = h.tag;
    if (h.dir == kDirections) {
      r.det_port = static_cast<int8_t>(kPePort);
      r.det_vc = static_cast<uint8_t>(det_vc(cls, 0));
      return r;
    }
    if (h.tag == tag && todo != 0 && Tag::adapt(tag)) {  // not an initial or final hop
      const uint32_t ad = highest_dir(todo);
      if (!(chan(ad) & kNoAdapt) && linked(port_of(ad)))
        r.ad_port = static_cast<int8_t>(port_of(ad));
    }
    const uint32_t out = port_of(h.dir);
    if (!linked(out)) return stop<record>(kErrNoRoute, p, vc, h.dir, r);
    // A packet that came in through the port of direction d travels in the opposite one.
    const uint32_t came = p == kPePort ? uint32_t{kDirections} : v.s.port_dir[e * kPorts + p];
    const bool continuing = vc != kAdaptiveVc && came < kDirections && opposite(came) == h.dir;
    const int set =
        vc_set(continuing, vc & 1u, v.s.vcsel[e * kDirections + h.dir], Tag::adr(tag, h.dir % 3));
    if (set < 0) return stop<record>(kErrDateline, p, vc, h.dir, r);
    r.det_port = static_cast<int8_t>(out);
    r.det_vc = static_cast<uint8_t>(det_vc(cls, static_cast<uint32_t>(set)));
    return r;
  }

  // The packet cannot go on.
  template <bool record>
  LS_HD Route stop(uint32_t code, uint32_t p, uint32_t vc, uint32_t dir, Route r) const {
    if (record)
      record_stop(v, e, p, stop_note(code, vc, dir));
    else
      r.tag = stop_note(code, vc, dir);
    r.det_port = kNone;
    r.ad_port = kNone;
    return r;
  }
};

}  // namespace ls::t3e
