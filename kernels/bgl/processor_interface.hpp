// The processor interface (paper, "Torus network"): injection FIFOs that the processors fill
// and whose packets may go out in any direction, and the reception FIFOs the receivers empty
// into. The traffic source is the shared one (kernels/common/source.hpp): its queue is the
// processor's backlog, and the processor moves the oldest packet into an injection FIFO (in turn
// over the normal-priority FIFOs) as soon as that FIFO has room, one packet per cycle (with the
// paper's infinite FIFOs, every packet at once) and, when software paces injection, no earlier
// than the packet's turn in its schedule, with its hint bits set by the hardware for
// minimal routing. A packet is delivered when its last byte is in the reception FIFO (the
// processor drains reception at once, and in a plane fill turns the broadcasts its node
// forwards, which wait in reception while their injection FIFO is full).
#pragma once
#include "broadcast.hpp"
#include "dead_nodes.hpp"
#include "hint_bits.hpp"
#include "link.hpp"

namespace ls::bgl {

struct ProcessorInterface {
  const BglView& v;
  const Node& n;

  LS_HD SourceOps source() const { return {v.src, v.st, v.prm.source_queue, v.t, v.win}; }

  // Whether the source woke (it may have created a packet).
  LS_HD bool generate() const {
    const SourceOps src = source();
    if (!src.generating(n.e)) return false;
    src.generate(n.e, v.traffic[n.inst], n.r, n.e);
    return true;
  }

  // The backlog into the injection FIFOs: its oldest packet if its FIFO has room, or with
  // infinite FIFOs (the paper's simulator) every packet, each as early as possible. Whether it
  // moved any.
  LS_HD LS_GPU_INLINE bool load() const {
    if (!v.prm.infinite_fifos) return load_one();
    bool any = false;
    while (load_one()) any = true;
    return any;
  }

  // The oldest packet of the backlog into its injection FIFO, if it has room. A packet for this
  // node never enters the network: it is delivered at once. Whether it moved one.
  LS_HD LS_GPU_INLINE bool load_one() const {
    const BglLayout& L = v.lay;
    if (v.src.queued[n.e] == 0) return false;
    const uint32_t seq = v.src.seq[n.e];
    if (paced_from(seq) > v.t) return false;
    const SourceOps src = source();
    const TrafficParams& tp = v.traffic[n.inst];
    const uint64_t c = src.oldest(n.e);
    const Kind k = kind(c, n.r);
    const bool hp = k.hp, det = k.det;
    // Row broadcasts are coloured by packet: the line fill's even packets go + round the line
    // and odd ones - (with an even number of injection FIFOs each FIFO holds one colour); the
    // plane fill's four colours each have their own FIFO.
    const bool line = tp.pattern == Pattern::kLineFill, plane = tp.pattern == Pattern::kPlaneFill;
    Send b{};
    if (plane) b = plane_colour(v.prm.shape, tp, n.r, seq);
    if (line) b = row_broadcast(v.prm.shape, n.r, seq % 2 == 0, tp.line_dim);
    const uint32_t fi = hp      ? v.prm.normal_fifos + seq % kPriorityFifos
                        : plane ? plane_fifo(tp, b.hints, v.prm.normal_fifos)
                                : seq % v.prm.normal_fifos;
    const uint64_t fx = L.fifo(n.e, fi);
    const uint32_t chunks = packet_size_at(tp, n.r, c) / kChunkBytes;
    if (!has_room(fx, chunks)) return false;
    uint64_t ctime;
    src.pop(n.e, tp, n.r, ctime);
    Flit f{};
    f.dest = line || plane ? b.dest : pattern_dest(tp, v.prm.shape, v.perm, n.inst, n.r, ctime);
    f.src = n.r;
    f.seq = v.src.seq[n.e]++;
    f.ctime = static_cast<uint32_t>(ctime);
    // A row broadcast goes one way round its line (one hint bit) in order, on the escape VC.
    if (line || plane) {
      f.meta = Packet::make(chunks, 0, b.hints, true, hp, true);
    } else if (!v.prm.dead.any()) {
      f.meta =
          Packet::make(chunks, 0, initial_hints(v.prm.shape, n.r, f.dest, v.prm.half_way), det, hp);
    } else if (!route_around_dead(f, chunks, hp, det)) {  // software does not send it
      v.s.unroutable[n.e] += 1;
      if (v.win.contains(ctime)) record_loss(v.st, n.e, chunks * kChunkBytes);
      return true;
    }
    if (f.dest == n.r) {
      f.itime = static_cast<uint32_t>(v.t);
      v.s.injected[n.e] += 1;
      deliver(f);
      return true;
    }
    push(fx, f);
    return true;
  }

  // Software's choices for the packet node src created in cycle c, drawn per packet (paper:
  // "Packets may be either dynamically or deterministically dimension-ordered (xyz) routed"):
  // high priority, deterministic.
  struct Kind {
    bool hp, det;
  };
  LS_HD Kind kind(uint64_t c, uint32_t src) const {
    if ((v.prm.priority_threshold | v.prm.deterministic_threshold) == 0) return {false, false};
    const Draw d = philox_draw(v.traffic[n.inst].seed, c, src, kStreamPriority);
    return {d.w[0] < v.prm.priority_threshold, d.w[1] < v.prm.deterministic_threshold};
  }

  // Software's injection flow control (bgl.injection_gap): the byte time from which packet
  // `seq` of this node may be loaded, on a schedule from cycle 0 (a node held up by full FIFOs
  // catches up only as their room allows).
  LS_HD uint64_t paced_from(uint32_t seq) const {
    return static_cast<uint64_t>(seq) * v.prm.injection_gap;
  }

  // Software's hint bits for packet f from this node around the dead nodes (dead_nodes.hpp): one
  // route, or a first leg to an intermediate node carrying the destination in software's header.
  // Whether there is a route. hp, det: the packet is high priority, deterministic.
  LS_HD bool route_around_dead(Flit& f, uint32_t chunks, bool hp, bool det) const {
    const PlannedRoute pr = plan_route(v.prm.shape, v.prm.dead, n.r, f.dest, v.prm.half_way,
                                       !hp && !det, v.prm.direction_order && !hp);
    if (!pr.first.reachable) return false;
    f.seq &= ~kFirstLeg;
    if (pr.relayed) {
      f.seq = kFirstLeg | f.dest;
      f.dest = pr.via;
    }
    f.meta = Packet::make(chunks, 0, pr.first.hints, hp ? det : pr.first.deterministic, hp);
    return true;
  }

  // Whether injection FIFO fx has room for a packet of this many chunks.
  LS_HD bool has_room(uint64_t fx, uint32_t chunks) const {
    return v.s.inj_count[fx] < v.lay.fifo_ring &&
           (v.prm.infinite_fifos || v.s.inj_used[fx] + chunks <= v.prm.fifo_chunks);
  }

  // Packet f into injection FIFO fx, which has room; it may request from the next cycle.
  LS_HD void push(uint64_t fx, Flit f) const {
    const BglLayout& L = v.lay;
    f.itime = static_cast<uint32_t>(v.t);
    ready_at(f) = static_cast<uint32_t>(v.t) + 1;
    v.s.inj[L.fifo_slot(fx, add_mod(v.s.inj_head[fx], v.s.inj_count[fx], L.fifo_ring))] = f;
    v.s.inj_count[fx] += 1;
    v.s.inj_used[fx] += static_cast<uint16_t>(Packet::chunks(f.meta));
  }

  // A plane fill's corner (broadcast.hpp): software re-injects packet f, received here, along
  // the plane's other dimension, keeping its root, creation time and hops so far (latency and
  // hops count from the root). Each turn is a packet of its own, delivered at its line's end, so
  // it counts as one more created in the window. Whether f may leave the reception FIFO: false
  // while the turn's injection FIFO is full.
  LS_HD bool turn(const Flit& f) const {
    const TrafficParams& tp = v.traffic[n.inst];
    Send s;
    if (tp.pattern != Pattern::kPlaneFill || !corner_turn(v.prm.shape, tp, f, n.r, s)) return true;
    const uint32_t chunks = Packet::chunks(f.meta);
    const uint64_t fx = v.lay.fifo(n.e, plane_fifo(tp, s.hints, v.prm.normal_fifos));
    if (!has_room(fx, chunks)) return false;
    Flit g = f;
    g.dest = s.dest;
    g.meta = Packet::with_hops(
        Packet::make(chunks, 0, s.hints, true, Packet::high_priority(f.meta), s.deposit),
        Packet::hops(f.meta));
    push(fx, g);
    v.s.turned[n.e] += 1;
    if (v.win.contains(f.ctime)) v.st.meas_created[n.e] += 1;
    return true;
  }

  // A first leg, received at its intermediate node: software re-injects it towards its final
  // destination (its second leg, from this node; creation time and hops kept, so latency and hops
  // count from its source), into the normal or high-priority FIFO the destination picks. Whether it
  // left the reception FIFO: false while that injection FIFO is full.
  LS_HD bool relay(const Flit& f) const {
    const uint32_t chunks = Packet::chunks(f.meta);
    const bool hp = Packet::high_priority(f.meta);
    Flit g = f;
    g.src = n.r;  // a packet software sends anew from here (the dateline pair counts from here)
    g.dest = f.seq & ~kFirstLeg;
    const uint32_t fi =
        hp ? v.prm.normal_fifos + g.dest % kPriorityFifos : g.dest % v.prm.normal_fifos;
    const uint64_t fx = v.lay.fifo(n.e, fi);
    if (!has_room(fx, chunks)) return false;
    // The second leg is routed as software chose for the packet at its source.
    if (!route_around_dead(g, chunks, hp, kind(f.ctime, f.src).det) ||
        (g.seq & kFirstLeg))  // planned as two legs
      record_violation(v.s.viol, v.s.viol_info, n.e, kViolWrongNode, v.t, 0, 0, g.dest);
    g.meta = Packet::with_hops(g.meta, Packet::hops(f.meta));
    push(fx, g);
    v.s.relayed[n.e] += 1;
    return true;
  }

  // The oldest packet of injection FIFO fi leaves it: it enters the network now.
  LS_HD Flit take(uint32_t fi) const {
    const BglLayout& L = v.lay;
    const uint64_t fx = L.fifo(n.e, fi);
    Flit f = v.s.inj[L.fifo_slot(fx, v.s.inj_head[fx])];
    v.s.inj_head[fx] = static_cast<uint8_t>(next_mod(v.s.inj_head[fx], L.fifo_ring));
    v.s.inj_count[fx] -= 1;
    v.s.inj_used[fx] -= static_cast<uint16_t>(Packet::chunks(f.meta));
    f.itime = static_cast<uint32_t>(v.t);
    v.s.injected[n.e] += 1;
    return f;
  }

  // Receiver d's packet on its bus to the reception FIFO of its priority, 32 bytes a chunk.
  LS_HD void receive(uint32_t d, const Flit& f) const {
    const uint64_t p = v.lay.bus(n.e, d, Packet::high_priority(f.meta) ? 1 : 0);
    v.s.recv_pkt[p] = f;
    v.s.recv_busy[p] = 1;
    v.s.recv_free[p] = static_cast<uint32_t>(v.t) + packet_bytes(Packet::chunks(f.meta));
    v.s.last_move[n.e] = static_cast<uint32_t>(v.t);
  }

  // Packets whose last byte is in their reception FIFO are delivered; whether any was.
  LS_HD LS_FORCEINLINE bool reception() const {
    bool any = false;
    for (uint32_t b = 0; b < 2 * v.lay.dirs; ++b) {
      const uint64_t p = v.lay.port(n.e, 0) * 2 + b;
      if (!v.s.recv_busy[p] || v.s.recv_free[p] > v.t) continue;
      const Flit& f = v.s.recv_pkt[p];
      if (v.prm.dead.any() && (f.seq & kFirstLeg)) {
        if (!relay(f)) continue;
      } else {
        if (!turn(f)) continue;
        deliver(f);
      }
      v.s.recv_busy[p] = 0;
      any = true;
    }
    return any;
  }

  // A packet wholly in its reception FIFO: delivered at its destination, or a row broadcast's
  // copy deposited on its way (its bytes count as received; its latency does not).
  LS_HD void deliver(const Flit& f) const {
    if (Packet::deposit(f.meta) && f.dest != n.r) {
      v.s.deposited[n.e] += 1;
      if (v.win.contains(v.t)) v.st.ejected_flits[n.e] += packet_bytes(Packet::chunks(f.meta));
      return;
    }
    if (f.dest != n.r)
      record_violation(v.s.viol, v.s.viol_info, n.e, kViolWrongNode, v.t, 0, 0, f.dest);
    v.s.delivered[n.e] += 1;
    if (v.win.contains(v.t)) v.st.ejected_flits[n.e] += packet_bytes(Packet::chunks(f.meta));
    if (!v.win.contains(f.ctime)) return;
    record_delivery(v.st, n.e, v.t, static_cast<uint32_t>(v.t - f.ctime), v.t - f.itime,
                    Packet::hops(f.meta));
    if (Packet::high_priority(f.meta)) {
      v.s.hp_count[n.e] += 1;
      v.s.hp_lat_sum[n.e] += v.t - f.itime;
    }
  }
};

}  // namespace ls::bgl
