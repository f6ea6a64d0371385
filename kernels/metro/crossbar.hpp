// One clock of a METRO router: a dilated crossbar of r x d forward and r x d backward ports
// (paper sections 3-5). Words arriving on each port are handled by the forward port whose
// connection they belong to:
//   - a start word at a free forward port asks for a connection: its layer's digit of the
//     destination names a logical direction (in a fat tree's up router: up, or down into the
//     router's subtree if it holds the destination), and the router picks at random among that
//     direction's d backward ports that are free and enabled ("Stochastic Path Selection"). With
//     none free the connection is blocked: fast reclamation sends a drop back at once (the BCB)
//     and discards what follows; detailed reclamation holds the path until the source turns and
//     then returns its STATUS (blocked), checksum and a drop.
//   - with hw > 0 the router consumes hw header words while it sets up and marks the next word
//     it forwards as the start for the next router (pipelined connection setup); with hw = 0 a
//     forward port set to swallow consumes the route word it routed on, the same way.
//   - on an open connection words pass through, one a clock, in the connection's direction.
//     TURN reverses it: the router passes the TURN on, returns its STATUS (its layer, itself and
//     the port the connection left by) and the checksum of the data it forwarded since the last
//     turn to the old sender, and fills the wait for the
//     new sender's first word with DATA-IDLE ("Connection Reversal"). Any number of turns.
//   - a drop from either side closes the connection, passed on to the other side; words still
//     arriving from a sender that has not yet seen it are discarded. A backward port whose far
//     side was sending (the connection turned) stays out of use for its wire's round trip, so
//     that a new connection through it never meets the old one's last words (drain()).
// The router's pipeline (dp clocks) and its wires' (vtd) are the delay of the belts it writes,
// so a stage costs dp + vtd clocks, Table 4's t_stg. A dead router (metro.failed_routers) takes
// the words that reach it and does nothing.
#pragma once
#include "../common/rng.hpp"
#include "metro_state.hpp"

namespace ls::metro {

struct Crossbar {
  const MetroView& v;
  uint32_t inst, r;
  uint32_t stage, fwd, d;    // stage: the router's layer
  uint32_t in[64], tag[64];  // words arriving this clock, per port
  uint64_t written = 0;      // ports that sent a word this clock
  uint32_t moved = 0;        // whether a word left (noted in last_move once, on one lane)
  uint64_t unavailable = 0;  // backward ports a connection may not take though free (lanes())

  LS_HD Crossbar(const MetroView& view, uint32_t i, uint32_t router)
      : v(view), inst(i), r(router), stage(view.topo.stage[router]) {
    fwd = v.prm.radix[stage] * v.prm.dilation[stage];
    d = v.prm.dilation[stage];
  }

  LS_HD uint64_t at(uint32_t p) const { return v.lay.rport(inst, r, p); }

  LS_HD void send(uint32_t p, uint32_t word, uint32_t t) {
    if (!v.s.port_dead[at(p)] && place_word(v, inst, r, p, word, t)) moved = 1;
    written |= uint64_t{1} << p;
    if (v.win.contains(v.t)) v.s.words[at(p)] += 1;
  }

  // The word and tag arriving at port p this clock (a broken wire delivers nothing).
  LS_HD void load(uint32_t p) {
    const uint64_t k = v.lay.slot(v.lay.elem(inst, r), v.now, p);
    in[p] = v.s.port_dead[at(p)] ? kNone : v.s.belt[k];
    tag[p] = v.s.belt_tag[k];
  }
  LS_HD void consume(uint32_t p) const {
    v.s.belt[v.lay.slot(v.lay.elem(inst, r), v.now, p)] = kNone;
  }
  LS_HD bool dead() const { return v.s.dead[uint64_t{inst} * v.lay.routers + r] != 0; }

  LS_HD void clock() {
    for (uint32_t p = 0; p < 2 * fwd; ++p) {
      load(p);
      consume(p);
    }
    if (dead()) return;  // what reaches it is lost
    for (uint32_t b = fwd; b < 2 * fwd; ++b) drain(b);
    // Forward ports in turn, from a different one each clock: which of two requests for one
    // direction goes first is not the port's number.
    const uint32_t first = static_cast<uint32_t>(v.t % fwd);
    for (uint32_t k = 0; k < fwd; ++k) forward_port(first + k < fwd ? first + k : first + k - fwd);
    note_move();
  }

  LS_HD void note_move() const {
    if (moved) v.s.last_move[v.lay.elem(inst, r)] = static_cast<uint32_t>(v.t);
  }

  // What the lanes of a tile find at the forward ports that need no new connection: the ports
  // written, and the backward port each forward port released (+ 1, 0 none); the forward ports
  // whose start word asks for a connection; whether a word left. Plain words: a fold starts from
  // all zero bits.
  struct Found {
    uint64_t written;
    uint32_t connecting, moved;
    uint8_t released[32];
    LS_HD Found operator|(const Found& o) const {
      Found x;
      x.written = written | o.written;
      x.connecting = connecting | o.connecting;
      x.moved = moved | o.moved;
      for (uint32_t f = 0; f < 32; ++f)
        x.released[f] = static_cast<uint8_t>(released[f] | o.released[f]);
      return x;
    }
  };

  // Whether forward port f's word w asks for a connection (forward_port's kFree and kDiscard).
  LS_HD bool connecting(uint32_t f, uint32_t w) const {
    const uint64_t fi = at(f);
    return v.s.enabled[fi] && (v.s.mode[fi] == kFree || v.s.mode[fi] == kDiscard) && Word::start(w);
  }

  // The same clock on a tile of lanes (run.lanes = "tile"): the forward ports whose connection
  // is open, setting up, blocked or discarding a forward port a lane (each touches only its own
  // connection); then, on one lane and in the clock's rotating order, the start words' new
  // connections, which may take a backward port a port before them released but not one a port
  // after them did (as clock() would); then the words consumed a port a lane. (A violation two
  // lanes record in one clock, which the invariants say never happens, may keep the other one.)
  template <class Tile>
  LS_HD void lanes(const Tile& t) {
    if (!dead()) {
      t.each(fwd, [&](uint32_t k) { drain(fwd + k); });
      const Found g = t.fold_or(fwd, [&](uint32_t f) {
        Found x{};
        load(f);
        if (connecting(f, in[f])) {
          x.connecting = 1u << f;
          return x;
        }
        const uint64_t fi = at(f);
        const uint32_t b = v.s.conn[fi];
        if (b != kNone8) load(b);
        forward_port(f);
        if (b != kNone8 && v.s.conn[fi] == kNone8) x.released[f] = static_cast<uint8_t>(b + 1);
        x.written = written;
        x.moved = moved;
        return x;
      });
      if (g.connecting || g.moved)
        t.single([&] {
          moved = g.moved;
          const uint32_t first = static_cast<uint32_t>(v.t % fwd);
          const auto order = [&](uint32_t f) { return f >= first ? f - first : f + fwd - first; };
          written = g.written;
          for (uint32_t k = 0; k < fwd; ++k) {
            const uint32_t f = first + k < fwd ? first + k : first + k - fwd;
            if (!(g.connecting >> f & 1u)) continue;
            unavailable = 0;
            for (uint32_t o = 0; o < fwd; ++o)
              if (g.released[o] && order(o) > k) unavailable |= uint64_t{1} << (g.released[o] - 1);
            load(f);
            connect(f, in[f]);
          }
          note_move();
        });
    }
    t.each(2 * fwd, [&](uint32_t p) { consume(p); });
  }

  LS_HD void forward_port(uint32_t f) {
    const uint64_t fi = at(f);
    if (!v.s.enabled[fi]) return;
    const uint32_t w = in[f];
    switch (v.s.mode[fi]) {
      case kFree:
        if (Word::start(w)) connect(f, w);
        return;
      case kDiscard:
        if (Word::start(w)) {
          connect(f, w);
        } else if (w == kNone) {
          v.s.mode[fi] = kFree;
        }
        return;
      case kBlocked:
        return blocked(f, w);
      case kSetup:
        return setup(f, w);
      default:
        return open(f);
    }
  }

  // The logical direction a route asks of this router: its layer's digit, or in a fat tree's
  // up router down (0) into the subtree that holds the destination, else up (1).
  LS_HD uint32_t direction(uint32_t dest) const {
    const uint32_t div = v.prm.divisor[stage];
    if (!v.prm.up[stage]) return dest / div % v.prm.radix[stage];
    return dest / div == (r - v.prm.first[stage]) / v.prm.group_routers[stage] ? 0u : 1u;
  }

  // A start word at forward port f asks for a backward port in its direction.
  LS_HD void connect(uint32_t f, uint32_t w) {
    const uint64_t fi = at(f);
    const uint32_t value = Word::value(w), j = direction(Header::route(value));
    // Width cascading: the slices share their random bits, so they agree unless one's copy of
    // the route asks another direction; their wired-AND IN-USE lines see the disagreement and
    // the connection is shut down at once, the drop sent back (section 5.1).
    if (Header::flipped(value) != 0 && direction(Header::slice_route(value)) != j) {
      v.s.shutdowns[uint64_t{inst} * v.lay.routers + r] += 1;
      send(f, Word::make(kDrop, stage + 1), tag[f]);
      v.s.mode[fi] = kDiscard;
      return;
    }
    const uint32_t base = fwd + j * d;
    uint32_t free[64], n = 0;
    for (uint32_t k = 0; k < d; ++k) {
      const uint32_t b = base + k;
      if (v.s.conn[at(b)] == kNone8 && v.s.mode[at(b)] != kDiscard && v.s.enabled[at(b)] &&
          !(((written | unavailable) >> b) & 1u))
        free[n++] = b;
    }
    v.s.checksum[fi] = 0;
    v.s.reply[fi] = 0;
    if (n == 0) {  // blocked
      if (v.s.fast[fi]) {
        send(f, Word::make(kDrop, stage + 1), tag[f]);
        v.s.mode[fi] = kDiscard;
      } else {
        v.s.mode[fi] = kBlocked;
      }
      return;
    }
    const uint64_t seed = v.traffic[inst].seed;
    const uint32_t pick = n == 1 || v.prm.first_free
                              ? 0
                              : below(philox_draw(seed, v.t, r * 64u + f, kStreamRoute).w[0], n);
    const uint32_t b = free[pick];
    v.s.conn[fi] = static_cast<uint8_t>(b);
    v.s.conn[at(b)] = static_cast<uint8_t>(f);
    v.s.flow[fi] = kForward;
    if (v.prm.hw == 0 && !v.s.swallow[fi]) {
      send(b, w, tag[f]);  // the route's words pass on, the start with them
      v.s.mode[fi] = kOpen;
    } else {  // this word consumed (swallowed), and hw - 1 more
      v.s.count[fi] = static_cast<uint8_t>(v.prm.hw == 0 ? 0 : v.prm.hw - 1);
      v.s.mode[fi] = kSetup;
    }
  }

  // Consuming this router's header words; the first word after them starts the next router.
  LS_HD void setup(uint32_t f, uint32_t w) {
    const uint64_t fi = at(f);
    if (w == kNone) return;
    if (v.s.count[fi] > 0) {
      v.s.count[fi] -= 1;
      return;
    }
    v.s.mode[fi] = kOpen;
    pass(f, v.s.conn[fi], Word::with_start(w), tag[f]);
  }

  // Detailed reclamation: the blocked path waits for the source's TURN, then answers with a
  // STATUS that says blocked, the checksum and a drop, and frees the port.
  LS_HD void blocked(uint32_t f, uint32_t w) {
    const uint64_t fi = at(f);
    const uint8_t owed = v.s.reply[fi];
    if (owed == 2) {
      send(f, Word::make(kChecksum, v.s.checksum[fi]), 0);
      v.s.reply[fi] = 1;
    } else if (owed == 1) {
      send(f, Word::make(kDrop, 0), 0);
      v.s.reply[fi] = 0;
      v.s.mode[fi] = kFree;
    } else if (Word::kind(w) == kTurn) {
      send(f, Word::make(kStatus, Status::make(stage, true, r, 0)), tag[f]);
      v.s.reply[fi] = 2;
    } else if (Word::kind(w) == kDrop) {
      v.s.mode[fi] = kFree;
    }
  }

  // A backward port released while its far side sends (a turned connection dropped from this
  // side): the far side sends until the drop reaches it, a wire's delay, and its last word takes
  // as long to come back.
  LS_HD void discard(uint32_t b) const {
    v.s.mode[at(b)] = kDiscard;
    v.s.count[at(b)] = static_cast<uint8_t>(2 * v.topo.delay[uint64_t{r} * v.lay.ports + b]);
  }
  // A clock of backward port b's discarding: free once the old connection's words are all in.
  LS_HD void drain(uint32_t b) const {
    const uint64_t bi = at(b);
    if (v.s.mode[bi] == kDiscard && --v.s.count[bi] == 0) v.s.mode[bi] = kFree;
  }

  LS_HD void release(uint32_t f, uint32_t b) {
    v.s.conn[at(f)] = kNone8;
    v.s.conn[at(b)] = kNone8;
    v.s.reply[at(f)] = 0;
  }

  // A word passes through the crossbar from one side of the connection to the other.
  LS_HD void pass(uint32_t from_f, uint32_t to, uint32_t w, uint32_t t) {
    send(to, w, t);
    if (Word::kind(w) == kData) {
      const uint64_t fi = at(from_f);
      v.s.checksum[fi] = checksum_fold(v.prm, v.s.checksum[fi], Word::value(w));
    }
  }

  // An open connection: words from the sending side pass to the receiving side.
  LS_HD void open(uint32_t f) {
    const uint64_t fi = at(f);
    const uint32_t b = v.s.conn[fi];
    const bool fw = v.s.flow[fi] == kForward;
    const uint32_t src = fw ? f : b, dst = fw ? b : f;
    const uint32_t w = in[src], back = in[dst];
    if (Word::kind(back) == kDrop) {  // the receiving side drops (fast reclamation's BCB)
      send(src, back, tag[dst]);
      release(f, b);
      v.s.mode[fi] = fw ? kDiscard : kFree;
      if (!fw) discard(b);
      return;
    }
    const uint8_t rep = v.s.reply[fi];
    // The checksum owed since the turn; but a drop from the new sender (fast reclamation's BCB
    // from a router that blocked the stream before the TURN reached it: a short message's TURN
    // and that drop cross) goes back at once and closes the connection (the kDrop case).
    if ((rep & ~kWaitBit) != 0 && Word::kind(w) != kDrop) {
      send(dst, Word::make(kChecksum, v.s.checksum[fi]), 0);
      v.s.checksum[fi] = 0;
      v.s.reply[fi] = static_cast<uint8_t>(rep - 1);
      if (w != kNone)
        record_violation(v.s.viol, v.s.viol_info, v.lay.elem(inst, r), kViolLostWord, v.t, src, 0,
                         w);
      return;
    }
    switch (Word::kind(w)) {
      case kNone:
        if (rep & kWaitBit) send(dst, Word::make(kIdle, 0), 0);
        return;
      case kTurn:
        send(dst, w, tag[src]);
        v.s.flow[fi] = fw ? kReverse : kForward;
        send(src, Word::make(kStatus, Status::make(stage, false, r, dst)), tag[src]);
        v.s.reply[fi] = 1 | kWaitBit;
        return;
      case kDrop:  // the sending side closes
        send(dst, w, tag[src]);
        release(f, b);
        v.s.mode[fi] = kFree;
        return;
      default:
        v.s.reply[fi] = static_cast<uint8_t>(rep & ~kWaitBit);
        pass(f, dst, w, tag[src]);
    }
  }
};

}  // namespace ls::metro
