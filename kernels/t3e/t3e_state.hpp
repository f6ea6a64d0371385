// State of a batch of Cray T3E networks (router.family = "t3e"; docs/design/t3e.md): every
// field one flat array, instance first. A router has 7 ports, as build_cube numbers them: 0 the
// PE, 1 + 2d towards +d and 2 + 2d towards -d (R_ORIENT may swap which is + in the registers'
// dir_port). Each input has five VCs (paper section 3): requests on VC0 and VC1 of the dateline
// pair, responses on theirs, and the adaptive VC; E = inst * routers.
#pragma once
#include <cstdint>

#include "../common/cycle_view.hpp"
#include "../common/flit.hpp"
#include "../common/packet_assembly.hpp"
#include "../common/reply_queue.hpp"
#include "../common/source.hpp"
#include "../common/terminal_stats.hpp"
#include "../common/traffic.hpp"
#include "bsu_register.hpp"
#include "routing_tag.hpp"

namespace ls::t3e {

constexpr uint32_t kPorts = 7, kPePort = 0;
constexpr uint32_t kVcs = 5, kAdaptiveVc = 4;
constexpr uint32_t kPortVcs = kPorts * kVcs;  // input VCs of a router, one bit each in masks
// Columns of a router's belt row: its 7 ports, then the PE's own (the flits it receives; the
// credits for its injection VCs).
constexpr uint32_t kWidth = kPorts + 1, kPeColumn = kPorts;
constexpr uint32_t kPortMask = (1u << kPorts) - 1;  // a belt row's port columns
constexpr int8_t kNone = -1;

// The deterministic VC of message class cls (0 request, 1 response) on set 0 or 1.
LS_HD inline uint32_t det_vc(uint32_t cls, uint32_t set) {
  return 2 * cls + set;
}

// A flit's words beyond the common record: unused[0] the routing tag (routing_tag.hpp),
// unused[1] a response's flits (requests: their type's, Table 3) or the cycle its request was
// created (responses: for the round trip).
LS_HD inline uint32_t& flit_tag(Flit& f) {
  return f.unused[0];
}
LS_HD inline uint32_t flit_tag(const Flit& f) {
  return f.unused[0];
}
LS_HD inline uint32_t request_time(const Flit& f) {
  return f.unused[1];
}
LS_HD inline uint32_t response_flits(const Flit& f) {
  return f.unused[1];
}

// Batch-wide parameters, passed by value.
struct T3eParams {
  uint32_t routers;
  uint32_t pes;  // PEs installed, numbered 0 .. pes - 1 (routers less a partial plane's gaps)
  uint32_t radix[3];
  uint32_t depth, adaptive_depth;  // buffer flits: deterministic VCs (and the PE's), adaptive
  uint32_t pe_depth;               // the PE's receive VCs
  uint32_t n_types;                // packet types a PE sends (TrafficParams' size entries)
  uint32_t request_len[4], response_len[4];  // flits of each (Table 3)
  uint64_t ordered;                          // P(a request is ordered) * 2^32
  uint32_t response_queue, outstanding;
  uint32_t straight, turn, end_point, credit_delay, inject_delay;
  uint32_t slots;                  // belt slots: the longest delay + 1
  uint32_t lut_mode, lut_entries;  // R_NET_LUT mode (LutMode) and entries per router
  bool adapt;                      // the ADAPT bit of computed tags
  bool adaptive_hops;  // t3e.adaptive_hops = "taken": an ADAPT tag's initial and final hops too
  uint32_t admission;  // AdaptiveAdmission (t3e.adaptive_admission)
  bool ties_plus;      // computed tags go + at half a ring (t3e.half_ring_tie)
  uint32_t source_queue;
  Shape shape;
  // Barrier/eureka networks (paper section 6): the PEs' program on BSUs [0, barrier_bsus), a
  // round every barrier_period clocks; a barrier packet's clocks per hop.
  uint32_t barrier;  // BarrierProgram
  uint32_t barrier_period, barrier_bsus, barrier_hop;
};

enum BarrierProgram : uint32_t { kNoBarrier = 0, kBarrierRounds = 1, kEurekaRounds = 2 };
// When a head may enter an adaptive VC: its whole packet fits (the T3E), the buffer is empty
// (Duato), or one slot is free (a wormhole VC).
enum AdaptiveAdmission : uint32_t { kAdmitPacket = 0, kAdmitEmpty = 1, kAdmitFlit = 2 };

// Where a router's arrays are: the only place that knows the strides.
struct T3eLayout {
  uint32_t routers, depth, adaptive_depth, pe_depth, slots;
  LS_HD uint32_t port_slots() const { return 4 * depth + adaptive_depth; }
  LS_HD uint32_t capacity(uint32_t vc) const { return vc == kAdaptiveVc ? adaptive_depth : depth; }
  // The credits of output VC (p, vc): the next router's input buffer, or the PE's.
  LS_HD uint32_t credit_capacity(uint32_t p, uint32_t vc) const {
    return p == kPePort ? pe_depth : capacity(vc);
  }
  LS_HD uint64_t port(uint64_t e, uint32_t p) const { return e * kPorts + p; }
  LS_HD uint64_t vc(uint64_t e, uint32_t p, uint32_t v) const {
    return (e * kPorts + p) * kVcs + v;
  }
  // Slot b of input VC (p, v)'s ring buffer.
  LS_HD uint64_t slot(uint64_t e, uint32_t p, uint32_t v, uint32_t b) const {
    return (e * kPorts + p) * port_slots() + v * depth + b;
  }
  LS_HD uint64_t row(uint64_t e, uint32_t s) const { return (e * slots + s) * kWidth; }
  // The column, in slot s of the belts, of the input at the far end of a link of router e
  // (router r of its instance): `far` is the link's T3eTopology::far_end entry.
  LS_HD uint64_t far_end(uint64_t e, uint32_t r, uint32_t far, uint32_t s) const {
    return row(e - r, s) + far;
  }
  LS_HD uint32_t inst_of(uint64_t e) const { return static_cast<uint32_t>(e / routers); }
};

// Shared by all instances.
struct T3eTopology {
  const int32_t* peer;  // [R, P] router * P + port at the far end, -1 none (build_cube)
  // [R, P] where each link ends in an instance's belts, as its router's row of slot 0 plus the
  // column (far_ends, host/topology/belt_ends.hpp, whose rows of ports then terminals are the
  // T3E's: 7 ports, then the PE's column; T3eLayout::far_end): no division by kPorts per flit.
  const uint32_t* far_end;
};

// Router state.
struct T3eState {
  // The registers (t3e_registers.hpp), per instance so each can be loaded and edited.
  uint32_t* pwho;          // [inst, R] R_PWHO
  uint32_t* lwho;          // [inst, R] R_LWHO (kNoPe: no node installed)
  uint32_t* pe_router;     // [inst, pes] the router of each logical PE: R_LWHO's inverse
  uint32_t* net_lut;       // [inst, R, lut_entries] R_NET_LUT
  uint32_t* lut_override;  // [inst, R] R_LUT_OVERRIDE
  uint64_t* vcsel;         // [inst, R, 6] R_VCSEL
  uint8_t* chan;           // [inst, R, 8] R_CHAN
  uint8_t* dir_port;       // [inst, R, 6] port of each direction (R_ORIENT)
  uint8_t* port_dir;       // [inst, R, 7] direction of each network port (its inverse), 255 PE
  // Input VCs [inst, R, P, V]
  Flit* buf;          // [inst, R, P, port_slots] ring buffers (layout slot())
  uint8_t* ivc_head;  // ring read index
  uint8_t* ivc_count;
  uint8_t* ivc_dropping;  // the packet arriving is being discarded (IGNORE_NORMAL)
  int8_t* ivc_out;        // output port the packet at the front holds, -1 none
  uint8_t* ivc_out_vc;    // ... and its VC there
  // Output VCs [inst, R, P, V]
  uint8_t* ovc_credits;
  int8_t* ovc_owner;       // input VC (port * kVcs + vc) holding or reserving it, -1 free
  uint64_t* ovc_requests;  // input VCs that asked for it and still may (section 7: it remembers)
  uint8_t* ovc_rr;         // round-robin pointer over input VCs
  uint8_t* ovc_started;    // its owner's packet has started on it (mid-packet)
  // Input ports [inst, R, P]
  int8_t* in_sel;  // the VC with the right to request, -1 none
  uint8_t* in_rr;
  // Output ports [inst, R, P]
  int8_t* out_hold;  // the output VC holding the physical output, -1 none
  uint8_t* out_rr;
  uint32_t* out_last;      // the last cycle a flit sent here arrives downstream (fast path)
  uint32_t* out_flits;     // flits sent in the measurement window
  uint32_t* out_adaptive;  // of those, on the adaptive VC
  // Belts ending at the router, by arrival cycle mod slots: [inst, R, slot, kWidth]
  Flit* in_belt;
  uint8_t* in_valid;
  int8_t* cr_belt;      // the VC of a credit arriving at an output port (or the PE), -1 none
  uint32_t* last_move;  // [inst, R] the last cycle a flit left the router (watchdog)
  uint64_t* dropped;    // [inst, R] flits discarded on arrival since cycle 0 (conservation)
  // [inst, R] packets of the window cut on arrival here (IGNORE_NORMAL), and their flits, until
  // the host adds them to the PE's terminal counts (FoldLosses): the router and its PE each
  // count only in state of their own during a clock (run.roles runs them on threads apart).
  uint64_t *lost_packets, *lost_flits;
  uint32_t* error;       // [inst, R] a configuration error the router stopped a packet for
  uint32_t* error_info;  // [inst, R, 4] cycle, port, vc, direction
  uint32_t* viol;        // [inst, R] debug: the first invariant violated (the PE's: PeState)
  uint32_t* viol_info;   // [inst, R, 4]
  // Barrier/eureka networks (barrier_network.hpp)
  uint32_t* bsu;          // [inst, R, 32] the BSU registers (bsu_register.hpp)
  uint32_t* bsu_pending;  // [inst, R, 7 links, 4 signals] BSUs with that signal for that link
  uint8_t* bsu_rr;        // [inst, R, 7 links] round-robin pointer over BSUs
  uint8_t* bsu_belt;      // [inst, R, slot, kWidth] a barrier packet arriving: 1 + (signal << 5
                          // | BSU), 0 none; columns as the flit belts'
  // The special network (special_network.hpp)
  uint64_t* r_sw;         // [inst, R] R_SW, software's scratch register
  uint64_t* r_sget_rtrn;  // [inst, R] R_SGET_RTRN: the deltas of SGET responses (header layout)
  uint64_t* spc_cmd;      // [inst, R, 2] the PE's SPUT/SGET command (header, value), sent next
  uint64_t* spc_got;      // [inst, R, 2] the last SGET response the PE received
  uint64_t* spc_belt;     // [inst, R, slot, kWidth, 2] special packets arriving (header, value)
  uint8_t* spc_present;   // [inst, R, slot, kWidth] 1: spc_belt holds a packet there (a router
                          // looks at these bytes, not at the packets, on a clock nothing arrives)
  uint64_t* spc_eaten;    // [inst, R] special packets overwritten here
  uint64_t* spc_ignored;  // [inst, R] special packets discarded here (IGNORE_SPCL)
};

// The PE interface of each router [inst, R] (one PE per router).
struct PeState {
  uint8_t* credits;  // [inst, R, V] free slots in the router's PE input VCs
  // The packet being injected, per class [inst, R, 2]
  uint16_t* remaining;
  uint16_t* size;  // its flits
  uint8_t* set;    // its node-interface VC within its class: its first hop's VC set
  uint32_t *dest, *ctime, *itime, *seq, *tag;
  uint32_t* carried;      // the flits' unused[1]: a request's response flits, a response's request
                          // creation
  uint32_t* outstanding;  // requests waiting for their response
  uint64_t* unroutable;   // [inst, R] packets of the window not sent: no route (NO_ROUTE tag)
  // The PE's partition (manual, "Virtual PE Number"): virtual PE v is logical PE base_lpe + v,
  // for v up to virtual_limit; kNoPartition: the PE runs no application. [inst, R]
  uint32_t *base_lpe, *virtual_limit;
  ReplyQueueState rq;  // responses to send (time: the request's creation) and ejection credits
  uint8_t* ej_cr_ptr;
  AssemblyState sink;            // [inst, R, V] the packet arriving on each ejection VC
  uint64_t *injected, *ejected;  // flits since cycle 0 (conservation)
  uint64_t *rt_sum, *rt_count;   // round trips (request creation to response delivery) measured
  uint32_t* rt_max;
  // The shell's BSUs (shell_bsu.hpp)
  uint8_t* bsu_state;  // [inst, R, 32] S_BAR, S_ARM, S_EUR
  // [inst, R] bit b: the PE is a child in BSU b's tree (r_bsu's CHILDREN bit, copied by the
  // host whenever r_bsu is loaded: the router's barrier network writes the rest of that word)
  uint32_t* bsu_member;
  uint32_t* bsu_send;             // [inst, R, 2] BSUs with a eureka (0), a barrier (1) to send
  uint32_t* round_start;          // [inst, R] the cycle the PE's current round began
  uint64_t *bar_sum, *bar_count;  // completions of rounds begun in the window: latency
  uint64_t *eur_sum, *eur_count;  // eureka notifications of those rounds: latency
  uint32_t *bar_max, *eur_max;
  uint64_t* overruns;   // rounds a PE could not begin: its BSU still busy
  uint32_t* viol;       // [inst, R] debug: the first invariant the PE saw violated
  uint32_t* viol_info;  // [inst, R, 4]
};

struct T3eView : CycleView {
  T3eParams prm;
  T3eLayout lay;
  T3eTopology topo;
  T3eState s;
  PeState pe;
};

// Violation and error codes.
enum : uint32_t {
  kViolWrongPe = 1,      // a packet reached a PE it is not for
  kViolPacketOrder = 2,  // flits of packets interleaved or lost on an ejection VC
  kViolOverflow = 3,     // a flit arrived at a full buffer
  kViolCredits = 4,      // credits above a buffer's size
};
enum : uint32_t {
  kErrDateline = 1,  // a VC1 packet reached the dateline (R_VCSEL SELECT misconfigured)
  kErrNoRoute = 2,   // a routing tag leads nowhere (no link in its direction)
  kErrBsuTree = 3,   // a barrier packet came from a link its BSU register does not expect
};

}  // namespace ls::t3e
