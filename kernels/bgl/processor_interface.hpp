// The processor interface (paper, "Torus network"): injection FIFOs that the processors fill
// and whose packets may go out in any direction, and the reception FIFOs the receivers empty
// into. The traffic source is the shared one (kernels/common/source.hpp): its queue is the
// processor's backlog, and the processor moves the oldest packet into an injection FIFO (in turn
// over the normal-priority FIFOs) as soon as that FIFO has room, one packet per cycle (with the
// paper's infinite FIFOs, every packet at once), with its hint bits set by the hardware for
// minimal routing. A packet is delivered when its last byte is in the reception FIFO (the
// processor drains reception at once).
#pragma once
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
  LS_HD bool load() const {
    if (!v.prm.infinite_fifos) return load_one();
    bool any = false;
    while (load_one()) any = true;
    return any;
  }

  // The oldest packet of the backlog into its injection FIFO, if it has room. A packet for this
  // node never enters the network: it is delivered at once. Whether it moved one.
  LS_HD bool load_one() const {
    const BglLayout& L = v.lay;
    if (v.src.queued[n.e] == 0) return false;
    const SourceOps src = source();
    const TrafficParams& tp = v.traffic[n.inst];
    const uint64_t c = src.oldest(n.e);
    const uint32_t seq = v.src.seq[n.e];
    const bool hp = v.prm.priority_threshold != 0 &&
                    philox_draw(tp.seed, c, n.r, kStreamPriority).w[0] < v.prm.priority_threshold;
    const uint32_t fi = hp ? v.prm.normal_fifos + seq % kPriorityFifos : seq % v.prm.normal_fifos;
    const uint64_t fx = L.fifo(n.e, fi);
    const uint32_t chunks = packet_size_at(tp, n.r, c) / kChunkBytes;
    if (v.s.inj_count[fx] == L.fifo_ring ||
        (!v.prm.infinite_fifos && v.s.inj_used[fx] + chunks > v.prm.fifo_chunks))
      return false;
    uint64_t ctime;
    src.pop(n.e, tp, n.r, ctime);
    Flit f{};
    // A row broadcast (linefill) alternates colours: even packets + along its dimension, odd -,
    // each round the whole line; with an even number of injection FIFOs each FIFO holds one
    // colour.
    const bool line = tp.pattern == Pattern::kLineFill, plus = seq % 2 == 0;
    f.dest = line ? line_end(v.prm.shape, n.r, plus, tp.line_dim)
                  : pattern_dest(tp, v.prm.shape, v.perm, n.inst, n.r, ctime);
    f.src = n.r;
    f.seq = v.src.seq[n.e]++;
    f.ctime = static_cast<uint32_t>(ctime);
    f.itime = static_cast<uint32_t>(v.t);
    // A row broadcast goes one way round its line (one hint bit) in order, on the escape VC.
    const uint32_t line_hint = (plus ? 1u : 2u) << (2 * tp.line_dim);
    f.meta = Packet::make(
        chunks, 0, line ? line_hint : initial_hints(v.prm.shape, n.r, f.dest, v.prm.half_way),
        v.prm.deterministic || line, hp, line);
    if (f.dest == n.r) {
      v.s.injected[n.e] += 1;
      deliver(f);
      return true;
    }
    ready_at(f) = static_cast<uint32_t>(v.t) + 1;
    v.s.inj[L.fifo_slot(fx, add_mod(v.s.inj_head[fx], v.s.inj_count[fx], L.fifo_ring))] = f;
    v.s.inj_count[fx] += 1;
    v.s.inj_used[fx] += static_cast<uint16_t>(chunks);
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
  LS_HD bool reception() const {
    bool any = false;
    for (uint32_t b = 0; b < 2 * v.lay.dirs; ++b) {
      const uint64_t p = v.lay.port(n.e, 0) * 2 + b;
      if (!v.s.recv_busy[p] || v.s.recv_free[p] > v.t) continue;
      v.s.recv_busy[p] = 0;
      deliver(v.s.recv_pkt[p]);
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
