// Where the packet at the front of an input VC asks to go (paper sections 2, 3 and 5; manual
// "Information Routing"), from its routing tag and the router's registers:
//  - deterministic: the initial hop first (at the source router), then the lowest-ordered
//    unsatisfied direction of +X, +Y, +Z, -X, -Y, -Z, then the final -Z hop, then the PE. Its
//    VC set comes from R_VCSEL's SELECT bit for the destination ordinate whenever the packet
//    enters a direction (or leaves the adaptive VC); a VC0 packet travelling through the
//    dateline node of its direction leaves it on VC1, and a VC1 packet there is stopped: a
//    configuration error.
//  - adaptive (ADAPT set, no initial or final hop pending): the adaptive VC of the
//    highest-ordered unsatisfied direction, unless its channel has NO_ADAPT.
#pragma once
#include "t3e_state.hpp"

namespace ls::t3e {

struct Route {
  int8_t det_port;  // -1: stopped (a configuration error, recorded)
  uint8_t det_vc;
  int8_t ad_port;  // -1: no adaptive request
  uint32_t tag;    // the tag the packet leaves with (initial hop or final hop recorded)
};

LS_HD inline uint32_t lowest_dir(uint32_t m) {
  uint32_t d = 0;
  while (!(m >> d & 1u)) ++d;
  return d;
}
LS_HD inline uint32_t highest_dir(uint32_t m) {
  uint32_t d = kDirections - 1;
  while (!(m >> d & 1u)) --d;
  return d;
}

struct Router {
  const T3eView& v;
  uint64_t e;

  LS_HD uint32_t pwho() const { return v.s.pwho[e]; }
  LS_HD uint32_t port_of(uint32_t dir) const { return v.s.dir_port[e * kDirections + dir]; }
  LS_HD uint8_t chan(uint32_t dir) const { return v.s.chan[e * 8 + dir]; }
  LS_HD bool linked(uint32_t port) const {
    return v.topo.peer[(e % v.lay.routers) * kPorts + port] >= 0;
  }

  // The route of head flit f waiting at input (p, vc).
  LS_HD Route route(const Flit& f, uint32_t p, uint32_t vc) const {
    uint32_t tag = flit_tag(f);
    const uint32_t cls = FlitMeta::cls(f.meta);
    Route r{kNone, 0, kNone, tag};
    uint32_t dir;
    const uint32_t todo = unsatisfied(tag, pwho());
    if (p == kPePort && Tag::initial(tag) != kNoHop) {
      dir = Tag::initial(tag);
      r.tag = Tag::without_initial(tag);
    } else if (Tag::final_taken(tag) || (todo == 0 && !Tag::final_hop(tag))) {
      r.det_port = static_cast<int8_t>(kPePort);
      r.det_vc = static_cast<uint8_t>(det_vc(cls, 0));
      return r;
    } else if (todo == 0) {
      dir = kMinusZ;
      r.tag = Tag::with_final_taken(tag);
    } else {
      dir = lowest_dir(todo);
      const uint32_t ad = highest_dir(todo);
      if (Tag::adapt(tag) && !(chan(ad) & 4u) && linked(port_of(ad)))
        r.ad_port = static_cast<int8_t>(port_of(ad));
    }
    const uint32_t out = port_of(dir);
    if (!linked(out)) return stop(kErrNoRoute, p, vc, dir, r);
    // Continuing in the direction it travels on a deterministic VC keeps the VC set (switching
    // at the dateline); entering a direction takes the SELECT bit.
    const uint64_t sel = v.s.vcsel[e * kDirections + dir];
    // A packet that came in through the port of direction d travels in the opposite one.
    const uint32_t came = p == kPePort ? uint32_t{kDirections} : v.s.port_dir[e * kPorts + p];
    uint32_t set;
    if (vc != kAdaptiveVc && came < kDirections && (came + 3) % kDirections == dir) {
      set = vc & 1u;
      if (sel >> 32 & 1u) {
        if (set == 1) return stop(kErrDateline, p, vc, dir, r);
        set = 1;
      }
    } else {
      set = static_cast<uint32_t>(sel >> (Tag::adr(tag, dir % 3) & 7u)) & 1u;
    }
    r.det_port = static_cast<int8_t>(out);
    r.det_vc = static_cast<uint8_t>(det_vc(cls, set));
    return r;
  }

  // The packet cannot go on: the hardware stops it and reports the configuration error.
  LS_HD Route stop(uint32_t code, uint32_t p, uint32_t vc, uint32_t dir, Route r) const {
    if (v.s.error[e] == 0) {
      v.s.error[e] = code;
      v.s.error_info[e * 4 + 0] = static_cast<uint32_t>(v.t);
      v.s.error_info[e * 4 + 1] = p;
      v.s.error_info[e * 4 + 2] = vc;
      v.s.error_info[e * 4 + 3] = dir;
    }
    r.det_port = kNone;
    r.ad_port = kNone;
    return r;
  }
};

}  // namespace ls::t3e
