// State of a batch of METRO networks (Chong et al., "METRO: A Router Architecture for
// High-Performance, Short-Haul Routing Networks"; seed 003): every field one flat array, the
// instance first. A network is multistage: routers (dilated crossbars) and, outside them, the
// endpoints, both elements of the cycle: an instance's elements are its routers, then its
// endpoints. There are no packet buffers: a connection is a path of crossbar settings, and
// words stream through it, one per clock, on the wires (belts) between ports.
#pragma once
#include <cstdint>

#include "../common/belt.hpp"
#include "../common/cycle_view.hpp"
#include "../common/hd.hpp"
#include "../common/source.hpp"
#include "../common/terminal_stats.hpp"
#include "../common/traffic.hpp"
#include "../common/violation.hpp"

namespace ls::metro {

constexpr uint32_t kMaxLayers = 8;  // a fat tree of 4 levels has 7
constexpr uint8_t kNone8 = 0xFF;    // no port (a port's crossbar partner)

// A word on a wire: [0..3] its kind, [4] the start of a connection (the first word a port sends
// on a newly opened connection: the next router sets up on it), [5..31] its value. DATA-IDLE
// (kIdle) is outside the data band, as in the paper; kNone is an empty slot (nothing driven).
enum WordKind : uint32_t {
  kNone = 0,
  kHeader = 1,    // routing header: value = destination endpoint
  kData = 2,      // value = the data (w bits)
  kIdle = 3,      // DATA-IDLE
  kTurn = 4,      // reverse the connection
  kDrop = 5,      // close the connection; value = blocked stage + 1 (fast reclamation), or 0
  kStatus = 6,    // a router's status at a turn: value as Status
  kChecksum = 7,  // a router's checksum of the data it forwarded
  kAck = 8,       // the destination's acknowledgement: value as Ack
};
constexpr uint32_t kStartBit = 16;
struct Word {
  LS_HD static uint32_t make(uint32_t kind, uint32_t value, bool start = false) {
    return kind | (start ? kStartBit : 0u) | (value << 5);
  }
  LS_HD static uint32_t kind(uint32_t w) { return w & 15u; }
  LS_HD static bool start(uint32_t w) { return w & kStartBit; }
  LS_HD static uint32_t value(uint32_t w) { return w >> 5; }
  LS_HD static uint32_t with_start(uint32_t w) { return w | kStartBit; }
  LS_HD static uint32_t corrupted(uint32_t w) { return w ^ (1u << 5); }  // value bit 0 flips
};
// A header word's value: the route (the destination, 16 bits), and in a cascade the one slice
// whose copy of it has a flipped bit: [16..20] the bit + 1 (0: none), [21..23] the slice.
struct Header {
  LS_HD static uint32_t route(uint32_t value) { return value & 0xFFFFu; }
  LS_HD static uint32_t flipped(uint32_t value) { return (value >> 16) & 31u; }
  // The route the corrupted slice routes on.
  LS_HD static uint32_t slice_route(uint32_t value) {
    return route(value) ^ (1u << (flipped(value) - 1));
  }
  LS_HD static uint32_t with_flip(uint32_t value, uint32_t bit, uint32_t slice) {
    return value | (bit + 1) << 16 | slice << 21;
  }
};

// A STATUS word's value: [0..2] the router's layer, [3] blocked, [4..9] the backward port the
// connection leaves by, [10..26] the router. The paper says what a router returns at a turn "is
// useful to the source in identifying and localizing errors" and not its format; naming the
// router and port is our reading, enough for the source to name the wire that corrupted data.
struct Status {
  LS_HD static uint32_t make(uint32_t layer, bool blocked, uint32_t router, uint32_t port) {
    return layer | (blocked ? 8u : 0u) | port << 4 | router << 10;
  }
  LS_HD static bool blocked(uint32_t value) { return value & 8u; }
  LS_HD static uint32_t router(uint32_t value) { return value >> 10; }
  LS_HD static uint32_t port(uint32_t value) { return (value >> 4) & 63u; }
};
constexpr uint32_t kMaxStatusRouters = 1u << 17;
// An acknowledgement's value: [0] the end-to-end checksum was good, [1..26] the checksum of the
// data words the destination received (its low 26 bits): the last hop's, as a router's.
struct Ack {
  static constexpr uint32_t kSumMask = (1u << 26) - 1;
  LS_HD static uint32_t make(bool good, uint32_t sum) {
    return (good ? 1u : 0u) | (sum & kSumMask) << 1;
  }
  LS_HD static bool good(uint32_t value) { return value & 1u; }
  LS_HD static uint32_t sum(uint32_t value) { return value >> 1; }
};
constexpr uint32_t kNoWire = ~0u;

// A forward port's connection state (the backward port it drives is `conn`); a backward port is
// kFree, or kDiscard while words a dropped connection's far side sent before it saw the drop may
// still arrive (Crossbar::drain).
enum PortMode : uint8_t {
  kFree = 0,     // no connection: a start word sets one up
  kSetup = 1,    // connected; consuming the rest of its hw header words
  kOpen = 2,     // connected, words flow (direction: flow)
  kBlocked = 3,  // detailed reclamation: blocked, holding the path until the source turns
  kDiscard = 4,  // the connection was dropped while words still arrive: discard them
};
// Words a router owes after a turn (`reply`, low bits): its STATUS goes out in the cycle of the
// turn, then 1 more (the checksum), or for a blocked port held in detailed mode 2 (the checksum,
// then the drop). kWaitBit: turned, and nothing has come from the new sender yet (DATA-IDLE
// fills the gap).
constexpr uint8_t kWaitBit = 0x80;
enum Flow : uint8_t { kForward = 0, kReverse = 1 };

// An endpoint's source side (one entering port at a time, stalling until acknowledged).
enum SourceMode : uint8_t {
  kSrcIdle = 0,     // no message
  kSrcSending = 1,  // streaming header, data, then TURN
  kSrcWaiting = 2,  // turned: router statuses, the acknowledgement, the drop (until src_wake)
  kSrcBackoff = 3,  // the attempt failed; retry at src_wake
};
// An endpoint's leaving port (destination side; all of them may receive at once).
// A read (traffic.request_reply): the destination answers a good request with its
// acknowledgement, DATA-IDLE for metro.reply_delay clocks, the reply and a TURN, then waits for
// the source's drop, or (metro.exchanges > 1) its next request on the same connection.
enum SinkMode : uint8_t {
  kSinkIdle = 0,
  kSinkReceiving = 1,
  kSinkClosing = 2,
  kSinkReplying = 3,
  kSinkAwaitDrop = 4,
  kSinkAgain = 5,  // receiving a later request of the connection (no header: the path is open)
};
// src_acked: the transaction is done (the drop closes the attempt), or a read's request was
// acknowledged and its reply is awaited.
enum SourceAck : uint8_t { kNotAcked = 0, kDone = 1, kAwaitReply = 2, kReplyBad = 3 };

// The source's retry policy (metro.backoff): a fixed wait, one that doubles with each failure
// of the message, or a random one up to that (binary exponential back-off).
enum class Backoff : uint32_t { kFixed, kExponential, kRandom };

struct MetroParams {
  uint32_t routers, endpoints, elems;  // elems = routers + endpoints per instance
  uint32_t ports;                      // belt columns per element: max(router ports, 2 x p)
  uint32_t rports;                     // ports of the widest router (2 r d)
  uint32_t eports;                     // p: an endpoint's entering (= leaving) ports
  uint32_t slots;                      // belt slots: longest wire + 1
  // The layers of routers (host/topology/topology.hpp Stage): a multibutterfly's stages, or a
  // fat tree's up layers then its down layers, `stages` of those (one a level).
  uint32_t layers, stages;
  uint32_t radix[kMaxLayers], dilation[kMaxLayers];
  uint32_t divisor[kMaxLayers];  // down: destination / divisor % radix is the layer's digit
  uint32_t first[kMaxLayers], group_routers[kMaxLayers];
  uint8_t up[kMaxLayers];    // a fat tree's up layer: turn down (0) if the destination is in the
                             // subtree, destination / divisor == the router's group, else up (1)
  uint32_t hw;               // header words each router consumes
  uint32_t width;            // w: bits a word carries
  uint32_t value_mask;       // 2^w - 1 (at most 27 bits)
  uint32_t checksum_weight;  // m of checksum_fold: 3 (metro.checksum weighted) or 1 (sum)
  bool fast_reclaim;
  bool first_free;  // metro.selection = "first": the lowest free port, not a random one
  uint32_t retry_delay;
  Backoff backoff;            // how the wait before a retry grows with a message's failures
  uint32_t backoff_limit;     // doublings at most
  uint32_t timeout;           // clocks after its TURN a source waits for the acknowledgement
  bool reads;                 // traffic.request_reply: a reply of traffic[inst].reply_size words
  uint32_t reply_delay;       // clocks of DATA-IDLE before the reply
  uint32_t exchanges;         // a read's request/reply exchanges on its one connection (>= 1)
  uint64_t error_threshold;   // a data word is corrupted on a wire when a draw is below it
  uint64_t header_threshold;  // the same for a header word
  uint32_t route_bits;        // log2 endpoints: the bits a route flip may hit
  uint32_t cascade;           // c: routers side by side, each routing on its own copy
  uint32_t source_queue;
  Shape shape;
};

// The checksum of a stream's data words, the end-to-end one and each router's (the paper gives
// no format): word by word, c <- m c + word (mod 2^w), from 0. With m = 3 (metro.checksum =
// "weighted") a word k words from the end counts 3^k times, so two corrupted words cancel only
// 2^(w-2) words apart (3 has that order mod 2^w and -1 is no power of it); with m = 1 ("sum")
// two words changed in opposite directions cancel anywhere. The sender's last data word brings
// the whole stream's checksum to stream_checksum, so every hop of an intact stream reports it.
LS_HD inline uint32_t checksum_fold(const MetroParams& p, uint32_t c, uint32_t word) {
  return (p.checksum_weight * c + word) & p.value_mask;
}
// The last data word that brings checksum c to `target`.
LS_HD inline uint32_t checksum_word(const MetroParams& p, uint32_t c, uint32_t target) {
  return (target - p.checksum_weight * c) & p.value_mask;
}
// What an intact stream's checksum comes to at a destination: 0, or where routes may be
// corrupted its number, so that a stream a flipped route misdirected fails the check there.
LS_HD inline uint32_t stream_checksum(const MetroParams& p, uint32_t destination) {
  return p.header_threshold != 0 ? destination & p.value_mask : 0;
}

struct MetroLayout {
  uint32_t routers, endpoints, elems, ports, rports, eports, slots;
  LS_HD uint64_t elem(uint32_t inst, uint32_t x) const { return uint64_t{inst} * elems + x; }
  // Belt of element e, slot s, column p.
  LS_HD uint64_t slot(uint64_t e, uint32_t s, uint32_t p) const {
    return (e * slots + s) * ports + p;
  }
  // Router state [inst, router, port].
  LS_HD uint64_t rport(uint32_t inst, uint32_t r, uint32_t p) const {
    return (uint64_t{inst} * routers + r) * rports + p;
  }
  LS_HD uint64_t node(uint32_t inst, uint32_t n) const { return uint64_t{inst} * endpoints + n; }
  LS_HD uint64_t sink(uint32_t inst, uint32_t n, uint32_t k) const {
    return node(inst, n) * eports + k;
  }
};

// The wiring, the same for every instance: element x's column p leads to peer[x*P+p] =
// element*P+column (-1 none), a wire of delay[x*P+p] clocks; router r is in stage[r].
struct MetroTopology {
  const int32_t* peer;
  const uint8_t* delay;
  const uint8_t* stage;
};

struct MetroState {
  uint32_t* belt;      // [inst, elem, slot, port] words arriving (kNone: nothing)
  uint32_t* belt_tag;  // the same: the cycle the word's stream began (bookkeeping, not hardware)
  // Routers [inst, router, port]
  uint8_t* conn;        // the port on the other side of the crossbar, kNone8 none
  uint8_t* mode;        // PortMode
  uint8_t* flow;        // forward ports: Flow
  uint8_t* count;       // kSetup: header words still to consume; a backward port's kDiscard:
                        // clocks left
  uint8_t* reply;       // forward ports: reply words owed, kWaitBit
  uint32_t* checksum;   // forward ports: checksum_fold of the data words forwarded
  uint8_t* enabled;     // 1: the port is in service (fault masking turns it off)
  uint8_t* dead;        // [inst, router] 1: the router has died (its words are lost)
  uint8_t* port_dead;   // 1: the port's wire is broken (words either way over it are lost)
  uint8_t* noisy;       // 1: the error rates apply to the port's wire (metro.noisy_ports)
  uint8_t* fast;        // forward ports: 1 fast reclamation, 0 detailed
  uint8_t* swallow;     // forward ports: 1 the route word is consumed (hw = 0)
  uint32_t* words;      // words sent out of the port in the window
  uint32_t* corrupted;  // [inst, elem, port] words corrupted on the wire leaving the port (a
                        // wire's own: a tile's lanes send on a router's wires in one clock)
  uint64_t* shutdowns;  // [inst, router] connections the IN-USE check shut down
  // Endpoints [inst, node]: the source side
  uint8_t* src_mode;
  uint8_t* src_port;    // the entering port of the current attempt
  uint32_t* src_pos;    // the next word of the stream
  uint32_t* src_wake;   // kSrcBackoff: the cycle it retries
  uint8_t* src_acked;   // SourceAck
  uint8_t* src_failed;  // the attempt failed (blocked, or a bad checksum)
  uint32_t* msg_dest;
  uint32_t* msg_size;   // data words, the checksum word included
  uint32_t* msg_ctime;  // creation
  uint32_t* msg_first;  // first attempt's first word
  uint32_t* msg_start;  // this attempt's first word
  uint32_t* msg_fails;  // the message's failed attempts so far
  uint32_t* src_sum;    // checksum_fold of the data words sent so far in this attempt
  // Locating a corrupted wire from the routers' checksums at the TURN: the wire into the router
  // whose checksum comes next (router * rports + port: the router end, or the upstream one
  // between routers), the one after it (from that router's STATUS) and the checksum its far end
  // should report (the previous router's, first the stream's: stream_checksum).
  uint32_t* src_wire;
  uint32_t* src_next;
  uint32_t* src_check;
  // A read's reply as it arrives: its data words and their checksum_fold.
  uint32_t* reply_count;
  uint32_t* reply_sum;
  // Endpoints [inst, node, leaving port]: the destination side
  uint8_t* sink_mode;
  uint8_t* sink_bad;      // a header word said another destination (a corrupted route)
  uint32_t* sink_sum;     // checksum_fold of the data words received
  uint32_t* sink_words;   // data words received
  uint32_t* sink_start;   // the stream's start (tag)
  uint32_t* sink_last_t;  // when the last data word arrived
  uint32_t* sink_reply;   // kSinkReplying: the reply's words sent so far
  // Endpoint counters [inst, node]
  uint64_t* started;        // messages whose first attempt began (since cycle 0)
  uint64_t* acked;          // messages acknowledged (since cycle 0)
  uint32_t* attempts;       // attempts begun in the window
  uint32_t* blocked;        // attempts that failed in the window
  uint32_t* timed_out;      // of those, given up for want of an acknowledgement
  uint32_t* received;       // messages received whole and good in the window
  uint64_t* bad_checksums;  // messages received with a bad checksum (acknowledged bad)
  uint64_t* bad_headers;    // streams whose header disagreed with this endpoint (acked bad)
  uint64_t* bad_replies;    // reads whose reply arrived with a bad checksum (retried)
  uint64_t* oneway;         // their first word to last data word clocks, summed
  uint64_t* located;        // corrupted wires located from the routers' checksums (since cycle 0)
  uint32_t* suspect;        // the wire most of them named (a majority vote), kNoWire none
  uint32_t* suspect_votes;  // the vote's count
  uint32_t* last_move;      // [inst, elem] last cycle the element sent a word
  uint32_t* viol;           // [inst, elem] first invariant violation, 0 none
  uint32_t* viol_info;      // [inst, elem, 4]
  // [inst, node] good replies, every exchange's (since cycle 0); allocated only with
  // metro.exchanges > 1 (nullptr otherwise)
  uint64_t* exchanges_done;
};

// Invariant violations (some checked every cycle: they cost a compare).
enum MetroViolation : uint32_t {
  kViolDoubleWrite = 1,  // two words into one belt slot in one cycle
  kViolConn = 2,         // a crossbar connection not mirrored on its other port
  kViolWrongDest = 3,    // a stream reached an endpoint it was not routed to (where nothing
                         // corrupts routes: metro.header_error_rate = 0)
  kViolBadChecksum = 4,  // a message (or a reply) arrived corrupted where nothing corrupts words
                         // or routes
                         // (metro.word_error_rate = metro.header_error_rate = 0)
  kViolLostWord = 5,     // a word arrived while the router owed a reply word on that wire
};

struct MetroView : CycleView {
  MetroParams prm;
  MetroLayout lay;
  MetroTopology topo;
  MetroState s;
};

// The routers a connection from endpoint src to dest crosses, and the header words its source
// sends: hw for each of them, or (hw = 0) the route's bits in whole words, Table 4's hbits. An
// up router's route is one bit (up or turn), a down router's log2 r bits.
struct Route {
  uint32_t routers, header_words;
};
LS_HD inline Route route_of(const MetroParams& p, uint32_t src, uint32_t dest) {
  const uint32_t down = p.layers - p.stages;  // the first down layer
  uint32_t turn = 0;  // the level whose subtree holds both ends (0: the root)
  for (uint32_t s = p.stages - 1; down != 0 && s >= 1; --s) {
    const uint32_t span = p.divisor[down + s] * p.radix[down + s];
    if (src / span == dest / span) {
      turn = s;
      break;
    }
  }
  uint32_t routers = down == 0 ? 0 : p.stages - (turn == 0 ? 1 : turn), bits = routers;
  for (uint32_t s = turn; s < p.stages; ++s) {
    routers += 1;
    for (uint32_t r = p.radix[down + s]; r > 1; r >>= 1) bits += 1;
  }
  return {routers, p.hw > 0 ? p.hw * routers : (bits + p.width - 1) / p.width};
}

// Writes a word into the belt of the element at the far end of (element x, column p), and
// says whether it did. A second word into the same slot in a cycle is a violation. The sender
// notes the cycle in last_move (send_word, or a crossbar once for all its lanes).
LS_HD inline bool place_word(const MetroView& v, uint32_t inst, uint32_t x, uint32_t p,
                             uint32_t word, uint32_t tag) {
  const uint64_t k = uint64_t{x} * v.lay.ports + p;
  const int32_t to = v.topo.peer[k];
  const uint64_t e = v.lay.elem(inst, x);
  if (to < 0) return false;
  const uint32_t px = static_cast<uint32_t>(to) / v.lay.ports,
                 pp = static_cast<uint32_t>(to) % v.lay.ports;
  const uint32_t s = belt_arrival_slot(v.now, v.topo.delay[k], v.lay.slots);
  const uint64_t at = v.lay.slot(v.lay.elem(inst, px), s, pp);
  if (v.s.belt[at] != kNone) {
    record_violation(v.s.viol, v.s.viol_info, e, kViolDoubleWrite, v.t, p, 0, v.s.belt[at]);
    return false;
  }
  // A data word on the wire is corrupted (one bit flips) at metro.word_error_rate: the end-to-end
  // checksum finds it and the source retries (paper, "Overview"). A header word at
  // metro.header_error_rate has one route bit flipped: alone, the route itself; in a cascade,
  // one slice's copy (the first flip a word takes is the one it keeps). Only on the wires of
  // metro.noisy_ports, if it names any (a wire is known by its router end).
  const uint32_t kind = Word::kind(word);
  const uint64_t threshold = kind == kData     ? v.prm.error_threshold
                             : kind == kHeader ? v.prm.header_threshold
                                               : 0;
  if (threshold != 0 &&
      v.s.noisy[x < v.lay.routers ? v.lay.rport(inst, x, p) : v.lay.rport(inst, px, pp)]) {
    const Draw r = philox_draw(v.traffic[inst].seed, v.t, x * v.lay.ports + p, kStreamError);
    if (r.w[0] < threshold) {
      const uint32_t value = Word::value(word), bit = r.w[1] % v.prm.route_bits;
      if (kind == kData) {
        word = Word::corrupted(word);
      } else if (v.prm.cascade == 1) {
        word = (word & 31u) | Word::make(0, value ^ (1u << bit));
      } else if (Header::flipped(value) == 0) {
        word = (word & 31u) | Word::make(0, Header::with_flip(value, bit, r.w[2] % v.prm.cascade));
      }
      v.s.corrupted[e * v.lay.ports + p] += 1;
    }
  }
  v.s.belt[at] = word;
  v.s.belt_tag[at] = tag;
  return true;
}

// What an endpoint (one thread) sends: the word, and the cycle noted if it left.
LS_HD inline void send_word(const MetroView& v, uint32_t inst, uint32_t x, uint32_t p,
                            uint32_t word, uint32_t tag) {
  if (place_word(v, inst, x, p, word, tag))
    v.s.last_move[v.lay.elem(inst, x)] = static_cast<uint32_t>(v.t);
}

}  // namespace ls::metro
