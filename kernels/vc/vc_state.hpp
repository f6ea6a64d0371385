// State of a batch of `vc`-family networks: every field one flat array, the instance index
// first. Shapes are given as [inst, router, port, vc, ...]; E = inst * routers ("element" of the
// router phases), strides live only in the index helpers below.
#pragma once
#include <cstdint>

#include "../common/cycle_view.hpp"
#include "../common/flit.hpp"
#include "../common/hd.hpp"
#include "../common/packet_assembly.hpp"
#include "../common/reply_queue.hpp"
#include "../common/rng.hpp"
#include "../common/source.hpp"
#include "../common/terminal_stats.hpp"
#include "../common/traffic.hpp"

namespace ls {

enum class Routing : uint32_t { kDor, kMinAdaptive };
enum class FlowControl : uint32_t { kWormhole, kVct };
enum class Allocator : uint32_t { kIslip, kSeparableInputFirst };
enum class TopologyKind : uint32_t { kMesh, kTorus, kCrossbar };

// Input-VC pipeline state: a head is routed (IDLE -> VC_ALLOC), wins an output VC
// (-> ACTIVE) and then competes for the switch flit by flit until its tail leaves.
enum IvcState : uint8_t { kIvcIdle = 0, kIvcVcAlloc = 1, kIvcActive = 2 };

constexpr int kMaxPorts = 16;
constexpr int kMaxVcs = 16;
constexpr int kMaxPortVcs = 64;  // ports x vcs: one bit each in the per-router masks
constexpr int16_t kNone = -1;

// What route computation leaves for VC allocation besides the output port and its escape VCs
// (VcState::ivc_escape), one record per input VC so VC allocation reads one word instead of
// several arrays and the head flit. Only adaptive routing or virtual cut-through needs it (for
// dimension order with wormhole flow control the escape VCs are the whole request), so only
// they write it: a cycle then touches 6 bytes less per input VC. VC sets are masks (bit vc),
// which VC allocation shifts to a port's place among the router's VCs.
struct RouteRecord {
  uint16_t adapt_vcs;    // adaptive VCs on each adaptive candidate port
  uint16_t adapt_ports;  // adaptive candidate output ports (mask), 0 for dimension order
  uint16_t size;         // the packet's size in flits (whole-packet admission)
};
static_assert(kMaxVcs <= 16, "a VC set is a 16-bit mask");

// VCs lo..hi as a mask (none when lo > hi).
LS_HD inline uint16_t vc_range(uint32_t lo, uint32_t hi) {
  return lo > hi ? 0 : static_cast<uint16_t>(((2u << hi) - 1) & ~((1u << lo) - 1));
}

// The router's policies: routing, flow control, allocators and message classes. A part of
// VcParams of its own, small enough to copy, so that a stage compiled for the reference
// policies can fix them at compile time (RouterShape::policy).
struct VcPolicy {
  Routing routing;
  FlowControl flow;
  Allocator vc_alloc, sw_alloc;
  uint32_t alloc_iters;
  uint32_t classes;    // message classes: 1, or 2 with request-reply traffic
  uint32_t class_vcs;  // VCs of each class (vcs / classes)
  bool dateline;       // torus dimension order: two dateline classes (off only for teaching)
};

// Batch-wide router parameters (the same for every instance), passed to kernels by value.
struct VcParams {
  TopologyKind topo;
  VcPolicy pol;
  uint32_t routers, ports, nodes, vcs, depth;
  uint32_t terminals;  // terminals per router: router r has nodes [r * terminals, + terminals)
  uint32_t slots;      // belt slots (max delay + 1)
  uint32_t routing_delay, vc_alloc_delay;
  // Whether input VCs keep the cycle their next stage may act (ivc_ready). Only a delay over 1,
  // or one step per phase, needs it: with delays of 0 or 1 every VC a stage takes in the staged
  // or fused cycle is ready (each stage leaves out what the one before did in the same cycle),
  // and without the array a cycle touches 4 bytes less per input VC.
  bool track_ready;
  uint32_t terminal_delay;  // injection and ejection channel delay
  uint32_t source_queue;    // source queue capacity in packets, 0: unbounded
  uint32_t reply_queue;     // request-reply: replies a terminal can hold
  Shape shape;
};

// Topology tables, shared by all instances ([router, port] or [node]).
struct VcTopology {
  const int32_t* peer;          // [R, P] peer router*P+port of a network port, -1 unconnected
  const int32_t* port_node;     // [R, P] node attached to a terminal port, -1 otherwise
  const int32_t* node_router;   // [N]
  const int32_t* node_port;     // [N]
  const uint8_t* credit_delay;  // [R, P] cycles for a credit from input port (r,p) to its upstream
  const uint64_t* coords;       // [N] node (= router) coordinates, 16 bits per dimension
  // [R, P] where the channels of port (r, p) end in an instance's belts (VcLayout::far_slot): a
  // peer router's port or a terminal, as router * slots * width + column. The flit leaving the
  // port and the credit its input returns go to the same far end.
  const uint32_t* far_end;
  // [slots, R, P] the far end's belt slot (VcLayout::far_slot_in: far_end plus the slot's row)
  // where a flit sent on port (r, p) in a cycle of each belt slot arrives, after the cycles from
  // switch grant to its arrival downstream, and the same for a credit that input port returns
  // upstream: the slot arithmetic done once rather than for every flit.
  const uint32_t* flit_slot;
  const uint32_t* credit_slot;
};

struct VcState {
  // Input VCs [inst, router, port, vc]
  Flit* buf;                // [inst, router, port, vc, depth] ring buffers
  uint8_t* ivc_head;        // ring read index
  uint8_t* ivc_count;       // occupancy (flits)
  uint8_t* ivc_state;       // IvcState
  uint32_t* ivc_ready;      // first cycle the next pipeline stage may act (if track_ready)
  uint8_t* ivc_route_port;  // dimension-order (escape) output port
  uint16_t* ivc_escape;     // escape (dimension-order) VCs on the route's port, a mask
  RouteRecord* ivc_route;   // the rest of the route, for VC allocation (adaptive or VCT only)
  int8_t* ivc_out_port;     // allocated output VC: its port (-1 none) ...
  uint8_t* ivc_out_vc;      // ... and its VC
  uint8_t* ivc_va_ptr;      // VC allocator accept pointer (over output VCs)
  // Output VCs [inst, router, port, vc]
  uint8_t* ovc_credits;  // free slots in the downstream input VC
  uint8_t* ovc_va_ptr;   // VC allocator grant pointer (over input VCs)
  uint32_t* ovc_flits;   // flits sent in the measurement window
  // Belts ending at the router, by arrival cycle mod slots (kernels/common/belt.hpp), one column
  // per port and then one per terminal ([inst, router, slot, width], width = ports + terminals):
  Flit* in_belt;           // flits arriving at an input port, or at a terminal (for its sink)
  uint8_t* in_belt_valid;  // 1 where a flit arrives
  int8_t* cr_belt;         // credit (its VC) arriving at an output port, or at a terminal, -1 none
  // Ports [inst, router, port]
  uint8_t* sa_out_ptr;  // switch allocator grant pointer (over input ports)
  uint8_t* sa_in_ptr;   // switch allocator accept pointer (over output ports)
  uint8_t* sa_vc_ptr;   // round-robin over the input port's VCs
  int8_t* sa_grant;     // input port granted to each output port this cycle, -1 none
  uint32_t* out_flits;  // flits sent in the measurement window
  // Routers [inst, router]. The masks (bit port*vcs+vc) are derived from ivc_state and
  // ivc_count and kept in step with them so each stage visits only the VCs it can act on.
  uint64_t* rc_mask;     // idle input VCs holding a flit (a head waiting for its route)
  uint64_t* va_mask;     // input VCs waiting for VC allocation
  uint64_t* sa_mask;     // active input VCs holding a flit
  uint64_t* owned_mask;  // output VCs held by an input VC (its out_port, out_vc), same numbering
  uint32_t* last_move;   // last cycle a flit left this router (deadlock watchdog)
  uint32_t* viol;        // first invariant violation seen (debug), 0 none
  uint32_t* viol_info;   // [inst, router, 4] where: cycle, port, vc, value
  uint64_t* chk_flits;   // flits held by the router and its output belts (debug)
};

// Terminals (network interfaces) [inst, node].
struct NicState {
  uint8_t* credits;    // [inst, node, vc] free slots in the router's terminal input VCs
  uint8_t* ej_cr_ptr;  // round-robin pointer over rq.pending
  // The packet being injected, one per message class [inst, node, class]:
  uint16_t* remaining;  // flits still to inject
  uint8_t* cur_vc;      // its VC
  uint8_t* vc_ptr;      // round-robin pointer for choosing an injection VC in the class
  uint32_t* cur_dest;
  uint32_t* cur_ctime;
  uint32_t* cur_itime;
  uint16_t* cur_size;
  uint32_t* cur_seq;
  // The ejection credits due to the router (pending) and, with request-reply, the replies
  // waiting to be injected and the request credits withheld (kernels/common/reply_queue.hpp).
  ReplyQueueState rq;
  uint64_t* injected_flits;  // totals since cycle 0 (conservation checks)
  uint64_t* ejected_flits;
  AssemblyState sink;   // [inst, node, vc] the packet being received on each ejection VC
  uint32_t* viol;       // [inst, node]
  uint32_t* viol_info;  // [inst, node, 4]
};

// Index helpers: the only place that knows the strides.
struct VcLayout {
  uint32_t routers, ports, vcs, depth, slots, nodes;
  uint32_t width;  // belt columns per router: its ports, then its terminals
  LS_HD uint64_t port(uint64_t e, uint32_t p) const { return e * ports + p; }
  LS_HD uint64_t vc(uint64_t e, uint32_t p, uint32_t v) const { return (e * ports + p) * vcs + v; }
  LS_HD uint64_t slot(uint64_t e, uint32_t p, uint32_t v, uint32_t b) const {
    return vc(e, p, v) * depth + b;
  }
  // Belts: router e's row of slot s (column p is port p, column ports + k its terminal k), and
  // slot s at a far end (VcTopology::far_end) of a port of instance inst.
  LS_HD uint64_t row(uint64_t e, uint32_t s) const { return (e * slots + s) * width; }
  LS_HD uint64_t far_slot(uint32_t inst, uint32_t far, uint32_t s) const {
    return far_slot_in(belts_of(inst), far, s);
  }
  // The same, given where the instance's belts begin (belts_of), for a caller that keeps it.
  LS_HD uint64_t far_slot_in(uint64_t belts, uint32_t far, uint32_t s) const {
    return belts + uint64_t{s} * width + far;
  }
  LS_HD uint64_t belts_of(uint32_t inst) const {  // where instance inst's belts begin
    return static_cast<uint64_t>(inst) * routers * slots * width;
  }
  // element (inst, router) and node (inst, node) indices
  LS_HD uint32_t inst_of_router(uint64_t e) const { return static_cast<uint32_t>(e / routers); }
  LS_HD uint32_t router_of(uint64_t e) const { return static_cast<uint32_t>(e % routers); }
  LS_HD uint64_t router_elem(uint32_t inst, uint32_t r) const {
    return static_cast<uint64_t>(inst) * routers + r;
  }
  LS_HD uint64_t node_elem(uint32_t inst, uint32_t n) const {
    return static_cast<uint64_t>(inst) * nodes + n;
  }
};

// The router shape a stage is compiled for: port and VC counts read from the layout at run time
// (AnyShape), or fixed at compile time for common shapes so that loops over ports and VCs unroll
// and index arithmetic folds. kPlain fixes the reference policies too (dimension-order routing,
// one message class, wormhole flow control, one-iteration iSLIP for both allocators, and
// one-cycle route computation and VC allocation: BookSim's iq router; torus datelines on) and one
// terminal per router (k-ary n-cubes), so the tests for the others fold away; the host picks it
// only for such batches. Every stage starts from `Shape::layout(v.lay)`, `Shape::policy(v.prm.pol)`
// and Shape's delays (routing_delay, vc_alloc_delay, track_ready) and terminals; the results are
// the same whichever shape runs them.
template <uint32_t kPorts = 0, uint32_t kVcs = 0, bool kPlain = false>
struct RouterShape {
  // Sizes of a stage's per-router local arrays: a fixed shape needs only its own, which keeps
  // the GPU's per-thread stack frame (local memory) small.
  static constexpr uint32_t kMaxP = kPorts ? kPorts : kMaxPorts;
  static constexpr uint32_t kMaxPV = kPorts && kVcs ? kPorts * kVcs : kMaxPortVcs;
  static constexpr uint32_t kFixedVcs = kVcs;  // 0: read at run time
  // Whether credit_receive takes all ports at once (CPU, SSE2): 5 to 8 ports of 2 VCs.
  static constexpr bool kSseCredits = kPorts > 4 && kPorts <= 8 && kVcs == 2;
  LS_HD static VcLayout layout(VcLayout L) {
    if (kPorts) L.ports = kPorts;
    if (kVcs) L.vcs = kVcs;
    if (kPorts && kPlain) L.width = kPorts + 1;  // the ports' belt columns and one terminal's
    return L;
  }
  LS_HD static VcPolicy policy(VcPolicy p) {
    if (kPlain) {
      p.routing = Routing::kDor;
      p.flow = FlowControl::kWormhole;
      p.vc_alloc = p.sw_alloc = Allocator::kIslip;
      p.alloc_iters = 1;
      p.classes = 1;
      p.dateline = true;
      if (kVcs) p.class_vcs = kVcs;
    }
    return p;
  }
  // kPlain fixes BookSim's iq pipeline delays too: route computation and VC allocation take a
  // cycle each, so input VCs keep no ready cycle (VcParams::track_ready).
  LS_HD static uint32_t routing_delay(const VcParams& p) { return kPlain ? 1 : p.routing_delay; }
  LS_HD static uint32_t vc_alloc_delay(const VcParams& p) { return kPlain ? 1 : p.vc_alloc_delay; }
  LS_HD static bool track_ready(const VcParams& p) { return !kPlain && p.track_ready; }
  // kPlain is for k-ary n-cubes: one terminal per router.
  LS_HD static uint32_t terminals(const VcParams& p) { return kPlain ? 1 : p.terminals; }
  // Whether a batch's policies, delays and terminals are the ones kPlain fixes.
  static bool plain(const VcParams& prm) {
    const VcPolicy& p = prm.pol;
    return p.routing == Routing::kDor && p.flow == FlowControl::kWormhole &&
           p.vc_alloc == Allocator::kIslip && p.sw_alloc == Allocator::kIslip &&
           p.alloc_iters == 1 && p.classes == 1 && p.dateline && prm.routing_delay == 1 &&
           prm.vc_alloc_delay == 1 && !prm.track_ready && prm.terminals == 1;
  }
};
using AnyShape = RouterShape<>;

// Everything a vc phase sees: parameters by value, state by pointer.
struct VcView : CycleView {
  VcParams prm;
  VcLayout lay;
  VcTopology topo;
  VcState s;
  NicState nic;
};

}  // namespace ls
