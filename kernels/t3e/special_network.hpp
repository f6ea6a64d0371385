// The special (nonblocking) network of a T3E router (manual, "Special Routing"; paper section
// 8), one router per call. Software reaches routers that have no numbers yet with SPUT and SGET:
// a special packet follows six delta values, primary X, Y, Z then secondary X, Y, Z, one hop
// per unit in the delta's sign, and at the end SPUT writes a router register (R_SW, or
// R_SGET_RTRN, the deltas back) and SGET reads one and returns it over R_SGET_RTRN's deltas to
// the PE that asked. There is no flow control, and no packet is held (the manual's special
// routing buffers are not modelled): a packet goes on in the clock it arrives, and "if two packets
// of information access the same network router port at the same time, one packet will overwrite
// the other" (the later port's wins; the other is eaten and counted). A special packet takes its
// link ahead of data and of barrier packets, which wait a clock (they are pending bits, never
// lost): "the only conflicts that can exist involve packets that are both on this virtual
// network" (paper section 8). IGNORE_SPCL on the channel it arrives by discards it (counted). A hop
// takes fall_through_turn clocks. The manual gives no packet format or length: a special packet is
// one flit here, a header (special_header.hpp) and a 64-bit value.
#pragma once
#include "../common/belt.hpp"
#include "../common/byte_words.hpp"
#include "register_bits.hpp"
#include "special_header.hpp"
#include "t3e_state.hpp"

namespace ls::t3e {

struct SpecialNetwork {
  const T3eView& v;
  uint64_t e;

  // Arrivals on the 7 inputs (the PE's command register as port 0) go to their outputs or this
  // router's registers; returns the ports a special packet takes this clock.
  LS_HD LS_FORCEINLINE uint32_t operator()() const {
    const uint64_t row = v.lay.row(e, v.now);
    const uint32_t arriving =  // the network ports' columns: port 0's is the PE's command
        static_cast<uint32_t>(nonzero_bytes<kWidth>(v.s.spc_present + row)) & kPortMask & ~1u;
    if (!arriving && v.s.spc_cmd[e * 2] == 0) return 0;  // the usual clock, inlined
    return route(row, arriving);
  }
  // The rest of a clock on which a special packet arrives or the PE sends one.
  LS_HD uint32_t route(uint64_t row, uint32_t arriving) const {
    uint64_t head[kPorts + 1] = {}, value[kPorts + 1] = {};  // per output; kPorts: this router
    for (uint32_t p = 0; p < kPorts; ++p) {
      uint64_t h, x;
      if (p == kPePort) {  // the PE's SPUT or SGET command, if software left one
        h = v.s.spc_cmd[e * 2];
        x = v.s.spc_cmd[e * 2 + 1];
        v.s.spc_cmd[e * 2] = 0;
      } else {
        if (!(arriving >> p & 1u)) continue;
        v.s.spc_present[row + p] = 0;
        h = v.s.spc_belt[(row + p) * 2];
        x = v.s.spc_belt[(row + p) * 2 + 1];
        v.s.spc_belt[(row + p) * 2] = 0;
      }
      if (!Special::valid(h)) continue;
      const uint32_t chan = p == kPePort ? kPeChan : v.s.port_dir[e * kPorts + p];
      if (v.s.chan[e * 8 + chan] & kIgnoreSpcl) {
        v.s.spc_ignored[e] += 1;
        continue;
      }
      uint32_t dir;
      if (Special::next_dir(h, dir)) {
        const uint32_t o = v.s.dir_port[e * kDirections + dir];
        claim(head, value, o, Special::hop(h), x);
      } else {
        claim(head, value, kPorts, h, x);
      }
    }
    if (head[kPorts]) arrive(head, value, head[kPorts], value[kPorts]);
    uint32_t busy = 0;
    for (uint32_t o = 0; o < kPorts; ++o) {
      if (!head[o]) continue;
      send(o, head[o], value[o]);
      busy |= 1u << o;
    }
    return busy;
  }

  // A packet for output o: it overwrites one already there this clock.
  LS_HD void claim(uint64_t* head, uint64_t* value, uint32_t o, uint64_t h, uint64_t x) const {
    if (head[o]) v.s.spc_eaten[e] += 1;
    head[o] = h;
    value[o] = x;
  }

  // At its destination (one a clock: claim() has eaten the others): SPUT writes the register,
  // SGET turns into its response (R_SGET_RTRN's deltas, the register's value), which leaves
  // this clock like any other packet; a response is the PE's.
  LS_HD void arrive(uint64_t* head, uint64_t* value, uint64_t h, uint64_t x) const {
    const uint32_t reg = Special::reg(h);
    switch (Special::kind(h)) {
      case Special::kSput:
        (reg == Special::kRSw ? v.s.r_sw : v.s.r_sget_rtrn)[e] = x;
        return;
      case Special::kSget: {
        const uint64_t back = Special::make(Special::kResponse, reg, v.s.r_sget_rtrn[e]);
        const uint64_t got = (reg == Special::kRSw ? v.s.r_sw : v.s.r_sget_rtrn)[e];
        uint32_t dir;
        if (Special::next_dir(back, dir))
          claim(head, value, v.s.dir_port[e * kDirections + dir], Special::hop(back), got);
        else
          deliver(back, got);
        return;
      }
      default:
        deliver(h, x);
    }
  }

  LS_HD void deliver(uint64_t h, uint64_t x) const {
    v.s.spc_got[e * 2] = h;
    v.s.spc_got[e * 2 + 1] = x;
  }

  LS_HD void send(uint32_t o, uint64_t h, uint64_t x) const {
    const uint32_t r = static_cast<uint32_t>(e % v.lay.routers);
    const int32_t down = v.topo.peer[r * kPorts + o];
    if (down < 0) {  // a delta across a ring of one node: nowhere to go
      v.s.spc_eaten[e] += 1;
      return;
    }
    const uint64_t k = v.lay.far_end(e, r, v.topo.far_end[r * kPorts + o],
                                     belt_arrival_slot(v.now, v.prm.turn, v.lay.slots)) *
                       2;
    v.s.spc_belt[k] = h;
    v.s.spc_belt[k + 1] = x;
    v.s.spc_present[k / 2] = 1;
  }
};

}  // namespace ls::t3e
