// The PE interface of a T3E router (paper sections 1, 2 and 11): at the source it looks up the
// destination's routing tag in R_NET_LUT (by logical PE number; manual "R_NET_LUT Format") and
// injects the request; at the destination it takes the packet and answers every request with
// its response on the response class. Requests and responses of Table 3's lengths; a PE may be
// limited to `outstanding` requests waiting for responses. The source is the shared one
// (kernels/common/source.hpp), and so is the response queue (reply_queue.hpp).
#pragma once
#include "../common/belt.hpp"
#include "../common/violation.hpp"
#include "t3e_state.hpp"

namespace ls::t3e {

struct PeInterface {
  const T3eView& v;
  uint64_t e;  // the router, and its PE (one per router)
  uint32_t inst, r;

  LS_HD SourceOps source() const { return {v.src, v.st, v.prm.source_queue, v.t, v.win}; }
  LS_HD ReplyQueue responses() const { return {v.pe.rq, v.prm.response_queue, kVcs}; }
  LS_HD bool in_window(uint64_t c) const { return v.win.contains(c); }

  // The flit arriving from the router's PE port this cycle, if any.
  LS_HD void receive() const {
    const uint64_t b = v.lay.row(e, v.now) + kPeColumn;
    if (!v.s.in_valid[b]) return;
    v.s.in_valid[b] = 0;
    const Flit& f = v.s.in_belt[b];
    const uint32_t vc = FlitMeta::vc(f.meta), cls = FlitMeta::cls(f.meta);
    const bool tail = FlitMeta::tail(f.meta);
    v.pe.ejected[e] += 1;
    if (in_window(v.t)) v.st.ejected_flits[e] += 1;
    if (cls == 0) {
      responses().request_flit(e, vc, tail, f.src, static_cast<uint32_t>(v.t), f.ctime,
                               response_flits(f));
      if (tail && in_window(v.t)) {  // the response is created now
        v.st.created_flits[e] += response_flits(f);
        v.st.meas_created[e] += 1;
      }
    } else {
      v.pe.rq.pending[e * kVcs + vc] += 1;
      if (tail && v.pe.outstanding[e] > 0) v.pe.outstanding[e] -= 1;
    }
    if (f.dest != r) {
      record_violation(v.pe.viol, v.pe.viol_info, e, kViolWrongPe, v.t, kPePort, vc, f.dest);
      return;
    }
    if (!assemble(v.pe.sink, e * kVcs + vc, f))
      record_violation(v.pe.viol, v.pe.viol_info, e, kViolPacketOrder, v.t, kPePort, vc, f.seq);
    if (!tail) return;
    if (in_window(f.ctime))
      record_delivery(v.st, e, v.t, static_cast<uint32_t>(v.t - f.ctime), v.t - f.itime,
                      FlitMeta::hops(f.meta));
    if (cls == 1 && in_window(request_time(f))) {  // round trip: request created to response home
      const uint32_t rt = static_cast<uint32_t>(v.t) - request_time(f);
      v.pe.rt_sum[e] += rt;
      v.pe.rt_count[e] += 1;
      if (rt > v.pe.rt_max[e]) v.pe.rt_max[e] = rt;
    }
  }

  // Credits: one consumed flit's back to the router per cycle (round-robin over the VCs), and
  // those of the router's PE input VCs arriving.
  LS_HD void credits() const {
    const int vc = responses().return_credit(e, v.pe.ej_cr_ptr[e]);
    if (vc >= 0) {
      const uint32_t s = belt_arrival_slot(v.now, v.prm.credit_delay, v.lay.slots);
      v.s.cr_belt[v.lay.row(e, s) + kPePort] = static_cast<int8_t>(vc);
    }
    const uint64_t c = v.lay.row(e, v.now) + kPeColumn;
    const int8_t k = v.s.cr_belt[c];  // no branch: whether a credit arrives is random
    v.pe.credits[e * kVcs + static_cast<uint32_t>(k < 0 ? 0 : k)] += k >= 0;
    v.s.cr_belt[c] = kNone;
  }

  // The routing tag for destination router `dest`: R_NET_LUT by its logical PE number, or
  // computed from coordinates (lut_mode "computed"); NO_ROUTE for kNoPe.
  LS_HD uint32_t tag_for(uint32_t dest) const {
    if (dest == kNoPe) return Tag::kNoRoute;
    const uint64_t de = uint64_t{inst} * v.lay.routers + dest;
    if (v.prm.lut_mode == kComputed)
      return default_tag(v.s.pwho[e], v.s.pwho[de], v.prm.radix, v.prm.adapt, v.prm.ties_plus);
    return lut_tag(v.prm.lut_mode, v.s.net_lut + e * v.prm.lut_entries, v.s.lut_override[e],
                   v.s.lwho[de]);
  }

  // The router of the PE that the request created in cycle c goes to (manual, "Virtual PE
  // Number"): the pattern runs over the partition's virtual PEs (over the machine's shape when
  // the partition is every PE of a full torus), and virtual PE v is logical PE base_lpe + v.
  // kNoPe where the source or the destination lies beyond the partition: the reference fails.
  LS_HD uint32_t partition_dest(const TrafficParams& tp, uint64_t c) const {
    const uint32_t base = v.pe.base_lpe[e], size = v.pe.virtual_limit[e] + 1;
    const uint32_t me = v.s.lwho[e] - base;
    if (me >= size) return kNoPe;
    const Shape sh = size == v.prm.shape.nodes ? v.prm.shape : line_shape(size);
    const uint32_t vpe = pattern_dest(tp, sh, v.perm, inst, me, c, r);
    if (vpe >= size || base + vpe >= v.prm.pes) return kNoPe;
    return v.s.pe_router[uint64_t{inst} * v.prm.pes + base + vpe];
  }

  // Start the next packet of class cls: 0 the oldest queued request (within the outstanding
  // limit), 1 the oldest response waiting. A packet whose tag is marked NO_ROUTE (software
  // found no path around faults, or the virtual PE lies beyond the partition) is not sent: it
  // is counted lost and unroutable.
  LS_HD LS_FORCEINLINE void start(uint32_t cls) const {
    if ((v.pe.remaining[e * 2 + cls] == 0) & ((cls ? v.pe.rq.count[e] : v.src.queued[e]) != 0))
      begin(cls);
  }
  LS_HD void begin(uint32_t cls) const {
    const uint64_t k = e * 2 + cls;
    uint32_t dest, ctime, carried, size, tag;
    for (;;) {
      if (!next(cls, dest, ctime, carried, size)) return;
      tag = tag_for(dest);
      if (!Tag::no_route(tag)) break;
      if (cls == 0) v.pe.outstanding[e] -= 1;
      if (in_window(ctime)) {
        record_loss(v.st, e, size);
        v.pe.unroutable[e] += 1;
      }
    }
    if (cls == 0 && ordered(ctime)) tag = Tag::with_adapt(tag, false);
    v.pe.set[k] = first_set(tag);
    v.pe.dest[k] = dest;
    v.pe.ctime[k] = ctime;
    v.pe.carried[k] = carried;
    v.pe.tag[k] = tag;
    v.pe.size[k] = static_cast<uint16_t>(size);
    v.pe.seq[k] = v.src.seq[e]++;
    v.pe.remaining[k] = static_cast<uint16_t>(size);
  }

  // The VC set a packet's first direction takes (R_VCSEL's SELECT bit for its destination
  // ordinate, as the router's route() gives it; 0 when it goes to its own PE): the node interface
  // has four VCs (paper section 7), the two static VCs of each class, and a packet enters the one
  // its first hop will take, so packets for the two sets do not queue behind each other.
  LS_HD uint8_t first_set(uint32_t tag) const {
    const uint32_t t = Tag::as_read(tag, v.prm.adaptive_hops);
    const Hop h = next_hop_todo(t, unsatisfied(t, v.s.pwho[e]), true);
    if (h.dir == kDirections) return 0;
    return vc_set(false, 0, v.s.vcsel[e * kDirections + h.dir], Tag::adr(t, h.dir % 3)) > 0;
  }

  // Whether the request created in cycle c is ordered (t3e.ordered_fraction): sent with ADAPT
  // clear, so ordered requests to one PE keep to one path and arrive in order (section 5).
  LS_HD bool ordered(uint32_t c) const {
    return v.prm.ordered != 0 &&
           philox_draw(v.traffic[inst].seed, c, r, kStreamOrder).w[0] < v.prm.ordered;
  }

  // The next packet of class cls to send, taken from its queue; false: none. A request's type
  // is drawn from the mix (TrafficParams' size entries, one per type).
  LS_HD bool next(uint32_t cls, uint32_t& dest, uint32_t& ctime, uint32_t& carried,
                  uint32_t& size) const {
    if (cls == 0) {
      if (v.prm.outstanding && v.pe.outstanding[e] >= v.prm.outstanding) return false;
      const TrafficParams& tp = v.traffic[inst];
      uint64_t c;
      if (!source().pop(e, tp, r, c)) return false;
      dest = partition_dest(tp, c);
      ctime = static_cast<uint32_t>(c);
      const uint32_t type = size_index_at(tp, r, c);
      size = v.prm.request_len[type];
      carried = v.prm.response_len[type];
      v.pe.outstanding[e] += 1;
    } else {
      if (v.pe.rq.count[e] == 0) return false;
      responses().pop(e, dest, ctime, carried, size);
    }
    return true;
  }

  // One flit per cycle into the router's PE input, responses first, each packet on the VC of its
  // class its first hop selects (first_set), under credit flow control; it reaches the router's
  // input end_point - fall_through_turn cycles later (the lookup and formatting that make up the
  // end-point latency).
  LS_HD LS_FORCEINLINE void inject() const {
    start(1);
    start(0);
    for (uint32_t cls = 2; cls-- > 0;) {
      const uint64_t k = e * 2 + cls;
      const uint32_t vc = det_vc(cls, v.pe.set[k]);
      if (v.pe.remaining[k] == 0 || v.pe.credits[e * kVcs + vc] == 0) continue;
      const uint32_t size = v.pe.size[k];
      const bool head = v.pe.remaining[k] == size;
      if (head) v.pe.itime[k] = static_cast<uint32_t>(v.t);
      v.pe.credits[e * kVcs + vc] -= 1;
      const uint64_t b =
          v.lay.row(e, belt_arrival_slot(v.now, v.prm.inject_delay, v.lay.slots)) + kPePort;
      Flit& f = v.s.in_belt[b];
      f.dest = v.pe.dest[k];
      f.src = r;
      f.seq = v.pe.seq[k];
      f.ctime = v.pe.ctime[k];
      f.itime = v.pe.itime[k];
      f.meta = FlitMeta::make(head, v.pe.remaining[k] == 1, vc, 0, size, cls);
      flit_tag(f) = v.pe.tag[k];
      f.unused[1] = v.pe.carried[k];
      v.s.in_valid[b] = 1;
      v.pe.injected[e] += 1;
      v.pe.remaining[k] -= 1;
      return;
    }
  }

  LS_HD LS_FORCEINLINE void generate() const {
    const SourceOps src = source();
    if (src.generating(e) && v.pe.virtual_limit[e] != kNoPartition)
      src.generate(e, v.traffic[inst], r, e);
  }
};

}  // namespace ls::t3e
