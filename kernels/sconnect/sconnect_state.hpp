// State of a batch of S-Connect networks (Nowatzyk et al., ISCA 1995; seed 004): every field one
// flat array, the instance index first, as in the vc family. A router (the paper's TIC) keeps a
// shared buffer pool of fixed-length messages in linked queues, one per outbound channel,
// priority and virtual channel, plus the host port's; channels are belts of slots, each slot
// carrying one whole message forward and one acknowledgement back (section 3.2).
#pragma once
#include <cstdint>

#include "../common/cycle_view.hpp"
#include "../common/flit.hpp"
#include "../common/hd.hpp"
#include "../common/source.hpp"
#include "../common/terminal_stats.hpp"
#include "../common/traffic.hpp"

namespace ls::sconnect {

// A message is one fixed-length unit, stored in the same 32-byte record as a flit (dest, src,
// seq, ctime, itime) with its own meta word: [0..1] priority, [2] the virtual channel it
// travels on, [3..10] hops, [11..18] age (failed transmissions), [19..24] the sender's buffer
// (echoed in the acknowledgement, as the CM's per-slot shift register would remember it), [25..26]
// its part of a quad-message, [27] the slot's sequence bit and [28] a transmission error (the
// receiver's CRC check fails), both set by the sending channel module, [29] a control message
// (control.hpp), [30] a part of a quad-message, [31] a quad-message's head sent again alone
// after a corrupted acknowledgement (quad.hpp).
using Message = Flit;
struct MessageMeta {
  LS_HD static uint32_t make(uint32_t prio, uint32_t vc) { return (prio & 3u) | ((vc & 1u) << 2); }
  LS_HD static uint32_t prio(uint32_t m) { return m & 3u; }
  LS_HD static uint32_t vc(uint32_t m) { return (m >> 2) & 1u; }
  LS_HD static uint32_t hops(uint32_t m) { return (m >> 3) & 255u; }
  LS_HD static uint32_t age(uint32_t m) { return (m >> 11) & 255u; }
  LS_HD static uint32_t sbuf(uint32_t m) { return (m >> 19) & 63u; }
  LS_HD static uint32_t with_vc(uint32_t m, uint32_t vc) { return (m & ~4u) | ((vc & 1u) << 2); }
  LS_HD static uint32_t with_hop(uint32_t m) {
    const uint32_t h = hops(m) + 1;
    return (m & ~(255u << 3)) | ((h > 255u ? 255u : h) << 3);
  }
  LS_HD static uint32_t aged(uint32_t m) {
    const uint32_t a = age(m) + 1;
    return (m & ~(255u << 11)) | ((a > 255u ? 255u : a) << 11);
  }
  LS_HD static uint32_t with_sbuf(uint32_t m, uint32_t b) {
    return (m & ~(63u << 19)) | ((b & 63u) << 19);
  }
  static constexpr uint32_t kSeq = 1u << 27, kCorrupt = 1u << 28, kControl = 1u << 29,
                            kQuad = 1u << 30, kResent = 1u << 31;
  LS_HD static bool quad(uint32_t m) { return m & kQuad; }
  LS_HD static uint32_t part(uint32_t m) { return (m >> 25) & 3u; }
  LS_HD static uint32_t quad_part(uint32_t m, uint32_t part) {
    return (m & ~(3u << 25)) | kQuad | ((part & 3u) << 25);
  }
  LS_HD static bool resent(uint32_t m) { return m & kResent; }
  LS_HD static bool control(uint32_t m) { return m & kControl; }
  LS_HD static uint32_t seq(uint32_t m) { return (m >> 27) & 1u; }
  LS_HD static bool corrupt(uint32_t m) { return m & kCorrupt; }
  LS_HD static uint32_t framed(uint32_t m, uint32_t seq, bool corrupt) {
    return (m & ~(kSeq | kCorrupt)) | (seq << 27) | (corrupt ? kCorrupt : 0u);
  }
};

constexpr uint32_t kPriorities = 4;  // strict priorities (section 2.3)
constexpr uint32_t kVcs = 2;         // virtual channels for resource ordering (section 2.4)
// Buffer classes, reserved separately: (priority, VC0 | VC1 | host). A message's class at a
// router is the VC it leaves on, or the host when the router is its destination: delivery
// never waits on anything, so it has its own class that transit traffic cannot fill.
constexpr uint32_t kKinds = 3;
constexpr uint32_t kHostKind = 2;
constexpr uint32_t kClasses = kPriorities * kKinds;
// A buffer's class (buf_class) with this bit: its message was sent and waits in its channel's
// store, counted in no class (SconnectParams::sent_apart).
constexpr uint8_t kStored = 0x80;
constexpr uint32_t kMaxBuffers = 64;  // the pool is a 64-bit free mask (the TIC has 64)
// Ports of a router at most: a dual-TIC graph node's 15 channels a router, the twin link and the
// host's (a 16-dimensional hypercube's too).
constexpr uint32_t kMaxPorts = 17;
constexpr uint8_t kNil = 0xFF;  // end of a queue's linked list

// Invariant violations (debug mode), kept per router: the first one seen.
enum SconnectViolation : uint32_t {
  kViolWrongDest = 1,   // a message delivered to another node's host
  kViolPoolCount = 2,   // free buffers + class counts != pool size
  kViolClassCount = 3,  // a class's count disagrees with its buffers
  kViolQueue = 4,       // a queue's linked list disagrees with its count or buffer states
  kViolQuad = 5,        // a quad-message split: parts delivered apart, or some parts accepted
};

// A buffer's state.
// Queued: in a linked queue (the TIC's assignment, and delivery to the host); pool: waiting
// unassigned, its permissible channels in buf_opts (the near-optimal assignment of Figure 4).
// Part: a quad-message's part held apart from any queue (its head is queued, or it waits for the
// rest of its train's answers); reserved: a buffer set aside for a part still to arrive.
enum BufState : uint8_t { kBufFree, kBufQueued, kBufSent, kBufPool, kBufPart, kBufReserved };
// An acknowledgement on its belt: -1 none, else bits [0] accepted (or a duplicate of one
// accepted), [1] the acknowledgement itself corrupted, [2] the message arrived corrupted, [3] the
// receiver owns the message already (for debug mode's count only: the sender never reads it),
// [4..9] the sender's buffer, [10] the receiver holds buffers for the rest of the message's quad,
// [11] the message is a quad's part (quad.hpp).
constexpr int16_t kNoAck = -1;
struct Ack {
  static constexpr uint32_t kOk = 1, kCorrupt = 2, kError = 4, kOwned = 8, kHeld = 1024,
                            kQuad = 2048;
  LS_HD static int16_t make(uint32_t sbuf, uint32_t bits) {
    return static_cast<int16_t>(sbuf << 4 | bits);
  }
  LS_HD static uint32_t sbuf(int16_t a) { return (static_cast<uint32_t>(a) >> 4) & 63u; }
  LS_HD static bool is(int16_t a, uint32_t bit) { return a & bit; }
};
// A sending engine's state (SconnectState::tx_seq): [0] the sequence bit of its message, [1] the
// outcome of its message is unknown (an acknowledgement was corrupted).
constexpr uint8_t kSeqBit = 1, kUnsure = 2;

// Transmitter work assignment: the TIC's fixed order (section 3), Figure 4's, or the optimal one
// (a maximum matching, section 2.2).
enum class Assignment : uint32_t { kTic, kNearOptimal, kOptimal };

struct SconnectParams {
  uint32_t routers, ports, nodes;  // ports: the host port (0) and the network channels
  uint32_t slots;                  // belt slots (longest channel + 1)
  uint32_t buffers;                // pool size
  uint32_t reserve;                // buffers reserved per class of an active priority
  uint32_t priorities;             // priorities in use (reservations are made for these)
  uint32_t host_ports;             // messages the host can inject, and take, per cycle
  bool bypass;                     // a message for an idle channel leaves in its arrival cycle
  uint32_t sink_min_priority;      // hosts leave messages of lower priorities in the network
  uint32_t source_queue;
  Assignment assignment;
  // Where a sent message waits for its acknowledgement: in its pool buffer, which it keeps
  // locked (false: the TIC, section 3.2), or in its channel's own store, outside the pool's
  // `buffers` (true: Figure 4's step 3, "save all unsent messages in the buffer pool"). Then the
  // layout's buffers are the pool's and the stores' (2 x delay a channel) and a reserve a class,
  // class_used counts only the unsent, and a refused message comes back into the pool.
  bool sent_apart;
  Shape shape;
};

// Queues of a router: (port, priority, VC); the host port's delivery queues use VC 0.
struct SconnectLayout {
  uint32_t routers, ports, nodes, slots, buffers;
  LS_HD uint32_t queues() const { return ports * kPriorities * kVcs; }
  // The channel protocol's engines per port (section 3.2): a message and its acknowledgement
  // take 2 x delay cycles, so a channel of delay D keeps 2D independent 1-bit windows.
  LS_HD uint32_t engines() const { return 2 * (slots - 1); }
  LS_HD uint64_t engine(uint64_t e, uint32_t p, uint32_t k) const {
    return (e * ports + p) * engines() + k;
  }
  LS_HD static uint32_t queue(uint32_t port, uint32_t prio, uint32_t vc) {
    return (port * kPriorities + prio) * kVcs + vc;
  }
  LS_HD uint64_t buf(uint64_t e, uint32_t b) const { return e * buffers + b; }
  LS_HD uint64_t q(uint64_t e, uint32_t q) const { return e * queues() + q; }
  LS_HD uint64_t port(uint64_t e, uint32_t p) const { return e * ports + p; }
  // Belts: router e's column p in slot s.
  LS_HD uint64_t slot(uint64_t e, uint32_t s, uint32_t p) const {
    return (e * slots + s) * ports + p;
  }
  LS_HD uint32_t router_of(uint64_t e) const { return static_cast<uint32_t>(e % routers); }
  LS_HD uint64_t node_elem(uint32_t inst, uint32_t n) const {
    return static_cast<uint64_t>(inst) * nodes + n;
  }
};

// Topology, shared by all instances.
struct SconnectTopology {
  const int32_t* peer;         // [R, P] router*P+port at the other end, -1 none
  const uint8_t* delay;        // [R, P] channel delay in routing cycles (slots)
  const int32_t* router_node;  // [R] the host attached to the router, -1 none
  // [R, N] the channels a message for each destination may take off the routing table (Figure
  // 4's excess) without a cycle of buffer classes, from the tables as the host built them (a
  // router may not read its neighbours' tables, which control messages may be writing).
  const uint32_t* excess_ports;
  const int32_t* node_router;  // [N]
};

struct SconnectState {
  // The routing table [inst, router, destination], each router's own (section 2.4), readable and
  // writable by control messages (section 3.4): the permissible outbound channels and the VC
  uint32_t* port_mask;
  uint8_t* route_vc;
  uint32_t* channels_on;  // [inst, router] bit p: channel p enabled (control messages switch it)
  // The buffer pool [inst, router, buffer]
  Message* pool;
  uint8_t* buf_state;   // BufState
  uint8_t* buf_next;    // the next buffer of its queue, kNil last
  uint8_t* buf_class;   // its reservation class (prio * kKinds + kind)
  uint32_t* buf_ready;  // first cycle it may be transmitted (bypass or not); once sent, the
                        // cycle its acknowledgement is due
  uint32_t* buf_opts;   // kBufPool: the channels it may leave on
  uint8_t* buf_quad;    // a quad-message's next part after this one, kNil last (quad.hpp)
  uint64_t* free_mask;  // [inst, router] bit b set: buffer b free
  uint8_t* class_used;  // [inst, router, class] buffers held by each class
  // Queues [inst, router, queue]: linked lists through buf_next
  uint8_t* q_head;
  uint8_t* q_tail;
  uint8_t* q_count;
  uint8_t* tx_vc;  // [inst, router, port] the VC served last: at each priority (bit prio) with
                   // the TIC's assignment, bit 0 with Figure 4's
  // Belts at the receiving end [inst, router, slot, port]
  Message* msg_belt;
  uint8_t* msg_valid;
  int16_t* ack_belt;  // at the sender: acknowledgements of what it sent on the port
  // The per-slot 1-bit window protocol [inst, router, port, engine]: the sequence bit each
  // sending engine puts on its next message, and the one each receiving engine expects
  uint8_t* tx_seq;
  uint8_t* rx_seq;
  uint8_t* resend;  // [inst, router, port] the buffer to send again this cycle, kNil none
  // Quad-message trains per channel [inst, router, port] (quad.hpp): sending, the next part to
  // send (kNil none), the head of the train whose answers are awaited and the answers awaited
  // (QuadTrain's bits); receiving, the buffers held for a train (its head, kNil none) and the
  // parts that have arrived (a bit each)
  uint8_t* quad_tx_next;
  uint8_t* quad_tx_head;
  uint8_t* quad_tx_open;
  uint8_t* quad_rx_head;
  uint8_t* quad_rx_parts;
  // Counters
  uint32_t* sent;       // [inst, router, port] messages sent in the window
  uint32_t* rejected;   // [inst, router, port] of those, refused downstream
  uint32_t* misrouted;  // [inst, router, port] of those, sent off the routing table (Figure 4)
  uint32_t* errors;     // [inst, router, port] messages and acknowledgements that arrived corrupted
  uint32_t* error_threshold;  // [inst, router, port] P(a slot sent on it is corrupted) * 2^32
  uint32_t* duplicates;       // [inst, router, port] messages that arrived twice, discarded
  uint8_t* perf_select;  // [inst, router] the event the programmable counter counts (monitor.hpp)
  uint32_t* perf_count;  // [inst, router]
  uint16_t* timer;       // [inst, router] the 16-bit timer, one per routing cycle
  uint32_t* last_move;   // [inst, router] last cycle a message was accepted or delivered here
  uint32_t* viol;        // [inst, router] first invariant violation (debug), 0 none
  uint32_t* viol_info;   // [inst, router, 4]
};

// The controller's queues at each host (section 3.4: "only one node in a system needs to be
// attached to a controlling computer"): requests Python writes, kRequestWords each (the control
// word, the value, the route's two words, a tag of the controller's; control.hpp), taken from
// `head` while `count` says there are some; replies the host port delivers, kReplyWords each
// (the same five words as they came back, the cycle the request was injected, the cycle its
// reply was delivered, and its time stamps: the sending TIC's timer as it left, low 16 bits, and
// the target's as it performed the operation, high 16 bits). A control message carries the tag
// in its ctime and the stamps in its src.
constexpr uint32_t kControlQueue = 64, kRequestWords = 5, kReplyWords = 8;

// Hosts [inst, node, priority]: messages injected and delivered since cycle 0 (conservation,
// and the priority guarantee's test)
struct HostState {
  uint64_t* injected;
  uint64_t* delivered;
  uint32_t* ctl_out;        // [inst, node, kControlQueue, kRequestWords]
  uint32_t* ctl_out_head;   // [inst, node]
  uint32_t* ctl_out_count;  // [inst, node]
  uint32_t* ctl_in;         // [inst, node, kControlQueue, kReplyWords]
  uint32_t* ctl_in_count;   // [inst, node]
  uint64_t* ctl_injected;   // [inst, node] control messages sent into the network
  uint64_t* ctl_delivered;  // [inst, node] their replies taken back
};

struct SconnectView : CycleView {
  SconnectParams prm;
  SconnectLayout lay;
  SconnectTopology topo;
  SconnectState s;
  HostState host;
};

}  // namespace ls::sconnect
