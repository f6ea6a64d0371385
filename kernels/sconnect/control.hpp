// The TIC's control facilities (section 3.4): "all functions of the TIC are controlled through
// special control messages that are interpreted by the TIC. Control messages can be sent to a
// TIC through any channel, so that the TIC can be remotely configured", and "forwarding of
// control packets over a specific channel ... is used to bootstrap the system without a valid
// routing table. Essentially, this allows source directed routing to map the network topology."
//
// A control message is one message (meta has kControl) that travels the channels, buffers and
// protocol as any other, at the highest priority in use, on VC 0. It is routed by its source:
// its route names the channel to leave each router by, and each router it reaches writes the
// channel it came in on over the hop just used, so the target's reply goes back the way the
// request came and arrives at the host that sent it (the controller's inbox). A route naming a
// channel that is not there (unwired, disabled, the host port) is answered at once by the router
// that finds it, with kNoChannel. The target performs the operation on its own state: its
// identity, its routing table's entries, its registers (timer, performance counter and its event
// select, the channel enables, the channels' error counters).
#pragma once
#include "monitor.hpp"
#include "sconnect_state.hpp"

namespace ls::sconnect {

enum ControlOp : uint32_t {
  kIdentify = 0,       // value: the router, its ports << 20, 1 << 24 if it serves a host
  kReadTable = 1,      // arg: a destination node; value: its permissible channels | VC << 31
  kWriteTable = 2,     // arg: a destination node; value: the channels | VC << 31 to write
  kReadRegister = 3,   // arg: a ControlRegister; value: read
  kWriteRegister = 4,  // arg: a ControlRegister; value: written (the timer: added)
};
constexpr uint32_t kControlOps = 5;
enum ControlStatus : uint32_t { kControlOk = 0, kNoChannel = 1, kBadRequest = 2 };
enum ControlRegister : uint32_t {
  kRegTimer = 0,       // the 16-bit timer; a write adds to it ("adjusted by adding to it")
  kRegPerfCount = 1,   // the programmable counter
  kRegPerfSelect = 2,  // its event source (monitor.hpp)
  kRegChannels = 3,    // the channel enables, a bit per port
  kRegErrors = 16,     // + p, read only: corrupted arrivals on channel p in the window
};
constexpr uint32_t kMaxRoute = 15;  // hops a route can name (4 bits each in two words)

// The control word (the message's seq): [0..3] the operation, [4..7] the hop: on the way out the
// hops taken, on the way back the hops left; [8..11] the route's length, [12] a reply, [13..14]
// its status, [16..31] the argument.
struct Control {
  LS_HD static uint32_t make(uint32_t op, uint32_t len, uint32_t arg) {
    return op | len << 8 | arg << 16;
  }
  LS_HD static uint32_t op(uint32_t c) { return c & 15u; }
  LS_HD static uint32_t hop(uint32_t c) { return (c >> 4) & 15u; }
  LS_HD static uint32_t len(uint32_t c) { return (c >> 8) & 15u; }
  LS_HD static bool reply(uint32_t c) { return c >> 12 & 1u; }
  LS_HD static uint32_t status(uint32_t c) { return (c >> 13) & 3u; }
  LS_HD static uint32_t arg(uint32_t c) { return c >> 16; }
  LS_HD static uint32_t with_hop(uint32_t c, uint32_t h) { return (c & ~(15u << 4)) | h << 4; }
  LS_HD static uint32_t replied(uint32_t c, uint32_t status) {
    return (c & ~(7u << 12)) | 1u << 12 | status << 13;
  }
};
// The route: hop k's channel in bits 4k..4k+3 of the message's two spare words.
LS_HD inline uint32_t route_port(const Message& m, uint32_t k) {
  return (m.unused[k / 8] >> (4 * (k % 8))) & 15u;
}
LS_HD inline void set_route_port(Message& m, uint32_t k, uint32_t port) {
  uint32_t& w = m.unused[k / 8];
  w = (w & ~(15u << (4 * (k % 8)))) | port << (4 * (k % 8));
}

LS_HD inline bool is_control(const Message& m) {
  return MessageMeta::control(m.meta);
}
// Whether control message m is back at the router whose host sent it.
LS_HD inline bool control_home(const Message& m) {
  return Control::reply(m.seq) && Control::hop(m.seq) == 0;
}
// The channel control message m leaves its router by (not home).
LS_HD inline uint32_t control_port(const Message& m) {
  const uint32_t h = Control::hop(m.seq);
  return Control::reply(m.seq) ? route_port(m, h - 1) : route_port(m, h);
}

// Whether router element e (router r) may send on channel p: a wired, enabled channel port.
LS_HD inline bool channel_usable(const SconnectView& v, uint64_t e, uint32_t r, uint32_t p) {
  return p >= 1 && p < v.lay.ports && v.topo.peer[uint64_t{r} * v.lay.ports + p] >= 0 &&
         (v.s.channels_on[e] >> p & 1u);
}

// Control message m at router r (element e), arrived over channel `in` (0: its host injected it
// here): where it goes from here. On the way out it records `in` over the hop just taken, and at
// the end of its route it is to be executed (returns true; execute() turns it into the reply); a
// route naming a channel that cannot be used turns it into a kNoChannel reply here. On the way
// back it counts down its hops.
LS_HD inline bool control_arrive(const SconnectView& v, uint64_t e, uint32_t r, Message& m,
                                 uint32_t in) {
  uint32_t c = m.seq, h = Control::hop(c);
  if (Control::reply(c)) {
    m.seq = Control::with_hop(c, h - 1);
    return false;
  }
  if (in != 0) {
    set_route_port(m, h, in);
    c = Control::with_hop(c, ++h);
  }
  m.seq = c;
  if (h == Control::len(c)) return true;
  if (!channel_usable(v, e, r, route_port(m, h))) m.seq = Control::replied(c, kNoChannel);
  return false;
}

// The target performs m's operation on its own state and m becomes the reply.
LS_HD inline void control_execute(const SconnectView& v, uint64_t e, uint32_t r, Message& m) {
  const uint32_t op = Control::op(m.seq), arg = Control::arg(m.seq), value = m.dest;
  uint32_t status = kControlOk;
  const uint64_t k = e * v.lay.nodes + arg;
  const bool table = arg < v.lay.nodes;
  switch (op) {
    case kIdentify:
      m.dest = r | v.lay.ports << 20 | (v.topo.router_node[r] >= 0 ? 1u : 0u) << 24;
      break;
    case kReadTable:
    case kWriteTable:
      if (!table) {
        status = kBadRequest;
        break;
      }
      if (op == kWriteTable) {
        v.s.port_mask[k] = value & 0x7FFFFFFFu;
        v.s.route_vc[k] = static_cast<uint8_t>(value >> 31);
      }
      m.dest = v.s.port_mask[k] | uint32_t{v.s.route_vc[k]} << 31;
      break;
    case kReadRegister:
    case kWriteRegister: {
      const bool write = op == kWriteRegister;
      if (arg == kRegTimer) {
        if (write) v.s.timer[e] = static_cast<uint16_t>(v.s.timer[e] + value);
        m.dest = v.s.timer[e];
      } else if (arg == kRegPerfCount) {
        if (write) v.s.perf_count[e] = value;
        m.dest = v.s.perf_count[e];
      } else if (arg == kRegPerfSelect && (!write || value < kPerfEvents)) {
        if (write) v.s.perf_select[e] = static_cast<uint8_t>(value);
        m.dest = v.s.perf_select[e];
      } else if (arg == kRegChannels) {
        if (write) v.s.channels_on[e] = value & (((1u << v.lay.ports) - 1) & ~1u);
        m.dest = v.s.channels_on[e];
      } else if (!write && arg >= kRegErrors && arg < kRegErrors + v.lay.ports) {
        m.dest = v.s.errors[v.lay.port(e, arg - kRegErrors)];
      } else {
        status = kBadRequest;
      }
      break;
    }
    default:
      status = kBadRequest;
  }
  m.seq = Control::replied(m.seq, status);
  // "The times can also be used to time stamp control packets to compare the timer of two
  // adjacent nodes": the target's timer joins the sender's.
  m.src = (m.src & 0xFFFFu) | uint32_t{v.s.timer[e]} << 16;
}

}  // namespace ls::sconnect
