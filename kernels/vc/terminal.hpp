// A terminal's network interface, one element per node: the sink takes the flit leaving the
// router's terminal port (and measures packets at their tail), the source injects into the
// router's terminal input port under credit flow control.
//
// The source (creation process and source queue) is the shared one, kernels/common/source.hpp.
//
// Request-reply traffic: packets of the source are requests (message class 0); a request's
// tail arriving at its sink creates a reply (class 1) back to the request's source, kept in the
// sink's reply queue until injected. The classes use separate VCs, replies are always consumed,
// and a sink returns the credit of a request flit only while its reply queue has a slot
// reserved for every request flit the router may still send, so a full reply queue stalls
// requests without ever blocking replies (no protocol deadlock). The terminal injects one
// packet per class concurrently, one flit per cycle, replies first.
#pragma once
#include <cstring>
#include <type_traits>

#include "../common/belt.hpp"
#include "../common/histogram.hpp"
#include "../common/round_robin.hpp"
#include "../common/source.hpp"
#include "link_receive.hpp"

namespace ls {

// The stages of one terminal, over a view held by reference.
template <class Shape = AnyShape>
struct TerminalOps {
  const VcView& v;
  LS_HD VcLayout lay() const { return Shape::layout(v.lay); }
  LS_HD VcPolicy pol() const { return Shape::policy(v.prm.pol); }

  LS_HD bool in_window(uint64_t c) const { return v.win.contains(c); }
  LS_HD SourceOps source() const { return {v.src, v.st, v.prm.source_queue, v.t, v.win}; }

  LS_HD ReplyQueue replies() const { return {v.nic.rq, v.prm.reply_queue, lay().vcs}; }

  // A request flit was consumed (reply_queue.hpp); its tail creates the reply.
  LS_HD void receive_request(uint64_t ne, uint32_t vc, bool tail, uint32_t src) const {
    replies().request_flit(ne, vc, tail, src, static_cast<uint32_t>(v.t));
    if (tail && in_window(v.t)) {
      v.st.created_flits[ne] += v.traffic[ne / lay().nodes].reply_size;
      v.st.meas_created[ne] += 1;
    }
  }

  // The flit at belt slot b, the terminal's, arrives from the router's terminal port p.
  LS_HD void sink(uint64_t ne, uint32_t n, uint64_t b, uint32_t p) const {
    const VcLayout L = lay();  // a local copy: byte stores cannot alias it
    const Flit& f = v.s.in_belt[b];
    const uint32_t meta = f.meta, vc = FlitMeta::vc(meta);
    v.nic.ejected_flits[ne] += 1;
    const bool request = pol().classes == 2 && FlitMeta::cls(meta) == 0;
    if (in_window(v.t)) v.st.ejected_flits[ne] += 1;
    if (request) {
      receive_request(ne, vc, FlitMeta::tail(meta), f.src);
    } else {
      v.nic.rq.pending[ne * L.vcs + vc] += 1;  // the slot is free again: credit to return
    }
    if (f.dest != n) {
      record_violation(v.nic.viol, v.nic.viol_info, ne, kViolWrongDest, v.t, p, vc, f.dest);
      return;
    }
    // Flits of one packet arrive in order on one ejection VC: head, body..., tail.
    if (!assemble(v.nic.sink, ne * L.vcs + vc, f))
      record_violation(v.nic.viol, v.nic.viol_info, ne, kViolPacketOrder, v.t, p, vc, f.seq);
    if (!FlitMeta::tail(meta)) return;
    const uint32_t ctime = f.ctime;
    if (!in_window(ctime)) return;
    record_delivery(v.st, ne, v.t, static_cast<uint32_t>(v.t - ctime), v.t - f.itime,
                    FlitMeta::hops(meta));
  }

  // Start the oldest queued request, if the previous one is fully injected: its destination and
  // size are functions of its creation cycle.
  LS_HD void start_request(uint64_t ne, uint32_t inst, uint32_t n) const {
    if (v.nic.remaining[ne * pol().classes] != 0) return;
    const TrafficParams& tp = v.traffic[inst];
    uint64_t c;
    if (!source().pop(ne, tp, n, c)) return;
    begin(ne * pol().classes, ne, pattern_dest(tp, v.prm.shape, v.perm, inst, n, c),
          packet_size_at(tp, n, c), c);
  }

  LS_HD void begin(uint64_t pk, uint64_t ne, uint32_t dest, uint32_t size, uint64_t ctime) const {
    const NicState& s = v.nic;
    s.cur_dest[pk] = dest;
    s.cur_size[pk] = static_cast<uint16_t>(size);
    s.cur_ctime[pk] = static_cast<uint32_t>(ctime);
    s.cur_seq[pk] = v.src.seq[ne]++;
    s.remaining[pk] = static_cast<uint16_t>(size);
  }

  // Start the oldest reply (reply_queue.hpp).
  LS_HD void start_reply(uint64_t ne, uint32_t inst) const {
    const uint64_t pk = ne * 2 + 1;
    if (v.nic.remaining[pk] != 0 || v.nic.rq.count[ne] == 0) return;
    uint32_t dest, ctime, origin;
    replies().pop(ne, dest, ctime, origin);
    begin(pk, ne, dest, v.traffic[inst].reply_size, ctime);
  }

  // Send the next flit of terminal ne's packet of class cls if it has one and its VC has a credit;
  // a head first picks a VC of its class round-robin among those with room (virtual cut-through:
  // the whole packet).
  LS_HD bool inject(uint64_t ne, uint32_t n, uint32_t cls, uint64_t b) const {
    const uint64_t pk = ne * pol().classes + cls;
    return v.nic.remaining[pk] != 0 && inject_flit(ne, pk, n, cls, b);
  }
  LS_HD bool inject_flit(uint64_t ne, uint64_t pk, uint32_t n, uint32_t cls, uint64_t b) const {
    const VcLayout L = lay();  // a local copy: byte stores cannot alias it
    const NicState& s = v.nic;
    const uint32_t size = s.cur_size[pk];
    const bool head = s.remaining[pk] == size;
    if (head) {
      const uint32_t need = pol().flow == FlowControl::kVct ? size : 1;
      const uint32_t width = pol().class_vcs, base = cls * width;
      int chosen = -1;
      for (uint32_t k = 0; k < width && chosen < 0; ++k) {
        const uint32_t vc = base + add_mod(s.vc_ptr[pk], k, width);
        if (s.credits[ne * L.vcs + vc] >= need) chosen = static_cast<int>(vc);
      }
      if (chosen < 0) return false;
      s.cur_vc[pk] = static_cast<uint8_t>(chosen);
      s.vc_ptr[pk] = static_cast<uint8_t>(next_mod(static_cast<uint32_t>(chosen) - base, width));
      s.cur_itime[pk] = static_cast<uint32_t>(v.t);
    }
    const uint32_t vc = s.cur_vc[pk];
    if (s.credits[ne * L.vcs + vc] == 0) return false;
    s.credits[ne * L.vcs + vc] -= 1;
    Flit& f = v.s.in_belt[b];
    f.dest = s.cur_dest[pk];
    f.src = n;
    f.seq = s.cur_seq[pk];
    f.ctime = s.cur_ctime[pk];
    f.itime = s.cur_itime[pk];
    f.meta = FlitMeta::make(head, s.remaining[pk] == 1, vc, 0, size, cls);
    v.s.in_belt_valid[b] = 1;
    s.injected_flits[ne] += 1;
    s.remaining[pk] -= 1;
    return true;
  }

  // The sink's credits go back to the router one per cycle, round-robin over its VCs, into slot
  // `at` of the router's credit belt (reply_queue.hpp).
  LS_HD void return_credit(uint64_t ne, uint64_t at) const {
    const int vc = replies().return_credit(ne, v.nic.ej_cr_ptr[ne]);
    if (vc >= 0) v.s.cr_belt[at] = static_cast<int8_t>(vc);
  }

  // Where terminal n (of instance inst) meets its router: the router element, the router's
  // terminal port, and the terminal's column of the router's belt row of this cycle.
  struct Place {
    uint64_t e, col;
    uint32_t p, rp;
  };
  LS_HD Place place(uint32_t inst, uint32_t n) const {
    const uint32_t r = static_cast<uint32_t>(v.topo.node_router[n]);
    const uint64_t e = lay().router_elem(inst, r);
    return place_at(e, r, lay().row(e, v.now) + lay().ports + (n - r * Shape::terminals(v.prm)), n);
  }
  // The same where the router (element e, router r of its instance) and the terminal's column
  // are known.
  LS_HD Place place_at(uint64_t e, uint32_t r, uint64_t col, uint32_t n) const {
    const uint32_t p = static_cast<uint32_t>(v.topo.node_port[n]);
    return {e, col, p, r * lay().ports + p};
  }

  // The sink takes the flit arriving from the router this cycle, if any, and returns a credit.
  LS_HD void receive(uint64_t ne, uint32_t n, const Place& at) const {
    const VcLayout L = lay();
    if (v.s.in_belt_valid[at.col]) {
      v.s.in_belt_valid[at.col] = 0;
      sink(ne, n, at.col, at.p);
    }
    return_credit(
        ne, L.row(at.e, belt_arrival_slot(v.now, v.topo.credit_delay[at.rp], L.slots)) + at.p);
  }

  // A credit of the router's terminal input port arriving this cycle, without a branch (which
  // cycles get one is random); the slot is emptied.
  LS_HD void credit_in(uint64_t ne, const Place& at) const {
    const int8_t c = v.s.cr_belt[at.col];
    const bool got = c >= 0;
    v.nic.credits[ne * lay().vcs + (got ? static_cast<uint32_t>(c) : 0u)] += got;
    v.s.cr_belt[at.col] = -1;
  }

  // The source starts its next packet if the last one is injected, and injects a flit.
  LS_HD void send(uint64_t ne, uint32_t inst, uint32_t n, const Place& at) const {
    const VcLayout L = lay();
    start_request(ne, inst, n);
    const uint64_t b = L.row(at.e, belt_arrival_slot(v.now, v.prm.terminal_delay, L.slots)) + at.p;
    if (pol().classes == 2) {
      start_reply(ne, inst);
      if (!inject(ne, n, 1, b)) inject(ne, n, 0, b);
    } else {
      inject(ne, n, 0, b);
    }
  }

  // Whether terminal ne has anything to receive or to send this cycle, as of the start of the
  // cycle (`arriving`: a flit for its sink), for a schedule that visits only those that do.
  LS_HD bool receiving(uint64_t ne, bool arriving) const { return arriving | credits_pending(ne); }
  // Whether the sink has a credit to return: for 2 or 4 VCs (fixed shapes, on the CPU) its
  // pending counts read as one word.
  LS_HD bool credits_pending(uint64_t ne) const {
#if !defined(__CUDA_ARCH__)
    constexpr uint32_t V = Shape::kFixedVcs;
    if constexpr (V == 2 || V == 4) {
      using Word = std::conditional_t<V == 2, uint16_t, uint32_t>;
      Word w;
      std::memcpy(&w, v.nic.rq.pending + ne * V, sizeof w);
      return w != 0;
    }
#endif
    return replies().due(ne) != 0;
  }
  LS_HD bool sending(uint64_t ne, bool arriving) const {
    const NicState& s = v.nic;
    if (pol().classes == 2)  // a request arriving may create a reply to start at once
      return (s.remaining[ne * 2] | s.remaining[ne * 2 + 1] | v.src.queued[ne] | s.rq.count[ne] |
              static_cast<uint32_t>(arriving)) != 0;
    return (s.remaining[ne] | v.src.queued[ne]) != 0;
  }
  LS_HD bool generating(uint64_t ne) const {
    return source().generating(ne);
  }

  // One terminal; `ne` = inst * nodes + n. The steps touch only the terminal's state and its
  // column of the router's belts, so a schedule may run each step over many terminals in turn.
  LS_HD void operator()(uint64_t ne, uint32_t inst, uint32_t n) const {
    const Place at = place(inst, n);
    receive(ne, n, at);
    credit_in(ne, at);
    send(ne, inst, n, at);
    if (generating(ne)) source().generate(ne, v.traffic[inst], n, ne);
  }
};

// One step over terminals (element = inst * nodes + node), for the phase-by-phase cycle.
struct Terminal {
  VcView v;
  LS_HD void operator()(uint64_t ne) const {
    TerminalOps<>{v}(ne, static_cast<uint32_t>(ne / v.lay.nodes),
                     static_cast<uint32_t>(ne % v.lay.nodes));
  }
};

}  // namespace ls
