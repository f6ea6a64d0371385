// The TIC's host interface (section 3): parallel ports that inject up to two messages per
// routing cycle while two others are received. Injected messages enter the shared pool like
// any other (they need a buffer of their class, so a full pool stalls the source, never the
// network) and delivered messages leave it; the host always takes what arrives for it. A host
// with a controller attached (section 3.4) also sends its control requests, before its own
// messages, and takes the replies into the controller's inbox (control.hpp). A packet of 4
// messages is a quad-message (quad.hpp): it enters and leaves whole, as one of the port's
// transfers.
#pragma once
#include "../common/violation.hpp"
#include "channel_module.hpp"

namespace ls::sconnect {

struct HostPort {
  const SconnectView& v;
  uint64_t e;
  uint32_t inst, r;

  LS_HD SourceOps source() const { return {v.src, v.st, v.prm.source_queue, v.t, v.win}; }

  // Up to host_ports queued messages enter the pool, the highest priority first: the host has
  // a source queue per priority (`lane` ne * kPriorities + prio), so a priority whose class has
  // no buffer holds up no other.
  LS_HD void inject(uint64_t ne, uint32_t n) const {
    const SourceOps src = source();
    uint32_t sent = inject_control(ne);
    for (uint32_t prio = v.prm.priorities; prio-- > 0 && sent < v.prm.host_ports;) {
      const uint64_t lane = ne * kPriorities + prio;
      const TrafficParams& tp = v.traffic[uint64_t{inst} * kPriorities + prio];
      while (sent < v.prm.host_ports && v.src.queued[lane] != 0) {
        const uint64_t c = src.oldest(lane);
        const uint32_t dest = pattern_dest(tp, v.prm.shape, v.perm, inst, n, c),
                       cls = message_class(v, e, r, dest, prio), size = packet_size_at(tp, n, c);
        const BufferPool pool{v, e};
        if (!pool.can_take(cls, size)) break;
        uint64_t ctime = c;
        src.pop(lane, tp, n, ctime);
        Message m{};
        m.dest = dest;
        m.src = n;
        m.seq = v.src.seq[lane]++;
        m.ctime = static_cast<uint32_t>(ctime);
        m.itime = static_cast<uint32_t>(v.t);
        m.meta = MessageMeta::make(prio, 0);
        const uint32_t b =
            size == kQuadParts ? QuadTrain{v, e}.take(cls, m, true) : pool.take(cls, m);
        ChannelModule{v, e, inst, r}.enqueue(b, false, 0);
        v.host.injected[lane] += size;
        perf_event(v, e, kEvInjected);
        ++sent;
      }
    }
  }

  // The controller's requests, oldest first, at the highest priority in use. A request the router
  // answers itself (an empty route: the operation on this TIC; or a first channel that cannot be
  // used) goes straight to the inbox, so none is taken while the inbox is full.
  LS_HD uint32_t inject_control(uint64_t ne) const {
    uint32_t sent = 0;
    const BufferPool pool{v, e};
    while (sent < v.prm.host_ports && v.host.ctl_out_count[ne] != 0 &&
           v.host.ctl_in_count[ne] < kControlQueue) {
      uint32_t& head = v.host.ctl_out_head[ne];
      const uint32_t* w = v.host.ctl_out + (ne * kControlQueue + head) * kRequestWords;
      Message m{};
      m.seq = Control::make(Control::op(w[0]), Control::len(w[0]), Control::arg(w[0]));
      m.dest = w[1];
      m.unused[0] = w[2];
      m.unused[1] = w[3];
      m.src = v.s.timer[e];  // time-stamped as it leaves (section 3.4, "Time keeping")
      m.ctime = w[4];
      m.itime = static_cast<uint32_t>(v.t);
      m.meta = MessageMeta::make(v.prm.priorities - 1, 0) | MessageMeta::kControl;
      if (control_arrive(v, e, r, m, 0)) control_execute(v, e, r, m);
      if (control_home(m)) {
        to_inbox(ne, m);
      } else {
        const uint32_t cls = class_of(v, e, r, m);
        if (!pool.can_take(cls)) break;
        ChannelModule{v, e, inst, r}.enqueue(pool.take(cls, m), false, 0);
        v.host.ctl_injected[ne] += 1;
      }
      head = (head + 1) % kControlQueue;
      v.host.ctl_out_count[ne] -= 1;
      ++sent;
    }
    return sent;
  }

  // A control reply into the controller's inbox (which has room).
  LS_HD void to_inbox(uint64_t ne, const Message& m) const {
    uint32_t* w = v.host.ctl_in + (ne * kControlQueue + v.host.ctl_in_count[ne]++) * kReplyWords;
    w[0] = m.seq;
    w[1] = m.dest;
    w[2] = m.unused[0];
    w[3] = m.unused[1];
    w[4] = m.ctime;
    w[5] = m.itime;
    w[6] = static_cast<uint32_t>(v.t);
    w[7] = m.src;
  }

  // Each priority's source creates its next message when it is due.
  LS_HD void generate(uint64_t ne, uint32_t n) const {
    const SourceOps src = source();
    for (uint32_t prio = 0; prio < v.prm.priorities; ++prio) {
      const uint64_t lane = ne * kPriorities + prio;
      if (src.generating(lane))
        src.generate(lane, v.traffic[uint64_t{inst} * kPriorities + prio], n, ne);
    }
  }

  // Checks a quad-message arriving whole: buffer `head` leads its own 4 parts in order
  // (else a violation: the quad was split or mixed with another on the way).
  LS_HD void check_parts(uint32_t head) const {
    const Message& h = v.s.pool[v.lay.buf(e, head)];
    uint32_t k = 0;
    for (uint32_t b = head; b != kNil && k <= kQuadParts; b = QuadTrain{v, e}.next(b), ++k) {
      const Message& m = v.s.pool[v.lay.buf(e, b)];
      if (k == kQuadParts || MessageMeta::part(m.meta) != k || m.seq != h.seq || m.src != h.src ||
          !MessageMeta::quad(m.meta))
        record_violation(v.s.viol, v.s.viol_info, e, kViolQuad, v.t, 0, k, head);
    }
    if (k < kQuadParts) record_violation(v.s.viol, v.s.viol_info, e, kViolQuad, v.t, 0, k, head);
  }

  // Up to host_ports messages for the host leave the pool, highest priority first (none below
  // sink_min_priority).
  LS_HD void deliver(uint64_t ne, uint32_t n) const {
    const BufferPool pool{v, e};
    for (uint32_t k = 0; k < v.prm.host_ports; ++k) {
      const int32_t lowest = static_cast<int32_t>(v.prm.sink_min_priority);
      int32_t prio = static_cast<int32_t>(v.prm.priorities) - 1;
      while (prio >= lowest && v.s.q_count[v.lay.q(e, SconnectLayout::queue(0, prio, 0))] == 0)
        --prio;
      if (prio < lowest) return;
      const uint32_t q = SconnectLayout::queue(0, static_cast<uint32_t>(prio), 0);
      const Message m = v.s.pool[v.lay.buf(e, v.s.q_head[v.lay.q(e, q)])];
      if (is_control(m)) {  // a reply for the controller, while its inbox has room
        if (v.host.ctl_in_count[ne] == kControlQueue) return;
        pool.release(pool.pop(q));
        to_inbox(ne, m);
        v.host.ctl_delivered[ne] += 1;
        v.s.last_move[e] = static_cast<uint32_t>(v.t);
        continue;
      }
      const uint32_t head = pool.pop(q);
      const bool quad = MessageMeta::quad(m.meta);
      const uint32_t size = quad ? kQuadParts : 1;
      if (quad) {
        check_parts(head);
        QuadTrain{v, e}.release(head);
      } else {
        pool.release(head);
      }
      v.host.delivered[ne * kPriorities + MessageMeta::prio(m.meta)] += size;
      v.s.last_move[e] = static_cast<uint32_t>(v.t);
      perf_event(v, e, kEvDelivered);
      if (m.dest != n)
        record_violation(v.s.viol, v.s.viol_info, e, kViolWrongDest, v.t, 0, 0, m.dest);
      if (v.win.contains(v.t)) v.st.ejected_flits[ne] += size;
      if (v.win.contains(m.ctime))
        record_delivery(v.st, ne, v.t, static_cast<uint32_t>(v.t - m.ctime), v.t - m.itime,
                        MessageMeta::hops(m.meta));
    }
  }
};

}  // namespace ls::sconnect
