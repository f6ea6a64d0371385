// One clock of a METRO endpoint, the source-responsible network interface of the paper
// (sections 1 and 4: "End-to-end checksums and acknowledgments ensure that data arrives
// intact... When a connection is blocked due to contention or a data stream is corrupted, the
// source endpoint retries the connection"):
//   - the source takes one message at a time and one of its entering ports per attempt (chosen
//     at random), streams the route's header words, the data (its last word brings the stream's
//     checksum, checksum_fold, to stream_checksum) and a TURN, then listens: each router's STATUS
//     and checksum, then the destination's acknowledgement and its drop. A drop before a good
//     acknowledgement, or a STATUS saying blocked, fails the attempt: after a wait
//     (metro.retry_delay clocks, or one that grows with the message's failures: metro.backoff) it
//     tries again, and the routers' random choices give it a new path. No acknowledgement
//     metro.timeout clocks after the TURN (a dead router on the path answers nothing) fails the
//     attempt too: the source drops the connection itself.
//   - the routers' checksums come back in path order, then the destination's checksum of what
//     it received in its acknowledgement: each that differs from the one before it (the first
//     router's: from what the source sent) names the wire into its router or endpoint as one that
//     corrupted data (section 4: the routers' returned information "is useful to the source in
//     identifying and localizing errors").
//   - each leaving port receives on its own: it folds the data into its checksum, and at the
//     TURN answers with an acknowledgement (good or bad checksum) and closes the connection with
//     a drop.
//   - a read (traffic.request_reply; paper, "Connection Reversal": "the sending endpoint might
//     turn the connection around to get a fast reply to a read request"): the destination
//     answers a good request with its acknowledgement, DATA-IDLE while it fetches the data
//     (metro.reply_delay clocks), the reply (its last word the checksum) and a TURN, the
//     connection's second; the source checks the reply, and closes the connection with a drop
//     the clock after, or retries the read if the reply was bad.
//   - metro.exchanges k > 1 (reads only; paper, "Overview": "The connection may be reversed as
//     many times as the source and destination desire before being closed"): after a good reply
//     that is not the k-th, the source sends its next request on the same open connection, in
//     the clock the reply's TURN reaches it: the request's data words (no header: the path is
//     set up), their checksum word and a TURN; the routers return their STATUS and checksums and
//     the destination, which takes data on a connection it has answered as a new request,
//     checks it, acknowledges, replies and turns back as for the first. src_pos counts on over
//     the exchanges (an exchange is msg_size data words and a TURN after the header), so it
//     says which exchange the source is in. After the k-th good reply the source drops the
//     connection as for one; a bad acknowledgement or reply at any exchange fails the attempt,
//     and the retry starts again from the first exchange. The message is delivered once, at
//     its last reply.
// A message created in a clock starts in it (the interface is loaded as the message is made),
// so the unloaded latency from creation to acknowledgement is Figure 3's injection to receipt.
#pragma once
#include "metro_state.hpp"

namespace ls::metro {

// The data words of an attempt: a pure function of (attempt start, endpoint, word).
LS_HD inline uint32_t data_value(uint32_t start, uint32_t n, uint32_t k) {
  uint32_t h = start * 0x9E3779B1u ^ n * 0x85EBCA6Bu ^ k * 0xC2B2AE35u;
  h ^= h >> 15;
  h *= 0x2C1B3C6Du;
  return h ^ (h >> 12);
}

struct Endpoint {
  const MetroView& v;
  uint32_t inst, n;
  uint32_t x;   // the element: routers first, then endpoints
  uint64_t ne;  // [inst, node]

  LS_HD Endpoint(const MetroView& view, uint32_t i, uint32_t node)
      : v(view), inst(i), n(node), x(view.lay.routers + node), ne(view.lay.node(i, node)) {}

  LS_HD SourceOps source() const { return {v.src, v.st, v.prm.source_queue, v.t, v.win}; }
  LS_HD uint32_t take(uint32_t col, uint32_t& tag) const {
    const uint64_t k = v.lay.slot(v.lay.elem(inst, x), v.now, col);
    const uint32_t w = v.s.belt[k];
    tag = v.s.belt_tag[k];
    v.s.belt[k] = kNone;
    return w;
  }

  LS_HD void clock() const {
    const uint32_t p = v.prm.eports;
    uint32_t tag;
    for (uint32_t k = 0; k < p; ++k) {
      const uint32_t w = take(k, tag);
      const uint8_t m = v.s.src_mode[ne];
      if (w != kNone && k == v.s.src_port[ne] && (m == kSrcSending || m == kSrcWaiting)) hear(w);
    }
    for (uint32_t k = 0; k < p; ++k) {
      const uint32_t w = take(p + k, tag);
      receive(k, w, tag);
    }
    const SourceOps src = source();
    const TrafficParams& tp = v.traffic[inst];
    if (src.generating(ne)) {
      const uint64_t words = v.st.created_flits[ne], reads = v.st.meas_created[ne];
      src.generate(ne, tp, n, ne);
      // A read offers every word it will carry, as traffic.offered counts them: its reply's
      // and its later exchanges' (the vc family counts a reply when its request arrives; a
      // METRO destination may reply again to a retry, so a read counts its words when made).
      if (v.prm.reads)
        v.st.created_flits[ne] +=
            (v.prm.exchanges - 1) * (v.st.created_flits[ne] - words) +
            uint64_t{v.prm.exchanges} * tp.reply_size * (v.st.meas_created[ne] - reads);
    }
    if (v.s.src_mode[ne] == kSrcIdle && v.src.queued[ne] != 0) {
      uint64_t ctime = 0;
      src.pop(ne, tp, n, ctime);
      v.s.msg_ctime[ne] = static_cast<uint32_t>(ctime);
      v.s.msg_dest[ne] = pattern_dest(tp, v.prm.shape, v.perm, inst, n, ctime, n);
      v.s.msg_size[ne] = packet_size_at(tp, n, ctime);
      v.s.msg_first[ne] = static_cast<uint32_t>(v.t);
      v.s.msg_fails[ne] = 0;
      v.s.started[ne] += 1;
      attempt();
    } else if (v.s.src_mode[ne] == kSrcBackoff && v.t >= v.s.src_wake[ne]) {
      attempt();
    } else if (v.s.src_mode[ne] == kSrcWaiting && v.t >= v.s.src_wake[ne]) {
      // No acknowledgement (or reply) in time; or a read's reply checked: the source closes.
      send_word(v, inst, x, v.s.src_port[ne], Word::make(kDrop, 0), v.s.msg_start[ne]);
      const uint8_t acked = v.s.src_acked[ne];
      if ((acked == kNotAcked || acked == kAwaitReply) && v.win.contains(v.t))
        v.s.timed_out[ne] += 1;
      fail_or_close();
    }
    if (v.s.src_mode[ne] == kSrcSending) stream();
  }

  // A new attempt on one of the entering ports in service (any, if none is).
  LS_HD void attempt() const {
    const uint32_t p = v.prm.eports;
    uint32_t on[8], live = 0;
    for (uint32_t k = 0; k < p; ++k) {
      const int32_t far = v.topo.peer[uint64_t{x} * v.lay.ports + k];
      const uint32_t fr = static_cast<uint32_t>(far) / v.lay.ports,
                     fp = static_cast<uint32_t>(far) % v.lay.ports;
      if (v.s.enabled[v.lay.rport(inst, fr, fp)]) on[live++] = k;
    }
    const uint32_t choices = live ? live : p;
    const uint32_t pick =
        choices == 1 || v.prm.first_free
            ? 0
            : below(philox_draw(v.traffic[inst].seed, v.t, n, kStreamEntry).w[0], choices);
    v.s.src_port[ne] = static_cast<uint8_t>(live ? on[pick] : pick);
    v.s.src_pos[ne] = 0;
    v.s.src_sum[ne] = 0;
    v.s.src_acked[ne] = kNotAcked;
    v.s.src_failed[ne] = 0;
    v.s.msg_start[ne] = static_cast<uint32_t>(v.t);
    v.s.src_mode[ne] = kSrcSending;
    if (v.win.contains(v.t)) v.s.attempts[ne] += 1;
  }

  // Where stream position pos >= H (the header's words) falls: exchange j's word i is at
  // H + j (D + 1) + i, its D data words (the checksum last), then its TURN.
  struct StreamPlace {
    uint32_t exchange, word;
  };
  LS_HD StreamPlace place(uint32_t pos, uint32_t H) const {
    const uint32_t per = v.s.msg_size[ne] + 1, ex = (pos - H) / per;
    return {ex, pos - H - ex * per};
  }

  // The next word of the attempt's stream: header, data (the checksum word last), TURN; a
  // read's later exchange (metro.exchanges) its data and TURN, pos counting on (place); exchange
  // j's data word i is the stream's data word j D + i.
  LS_HD void stream() const {
    const uint32_t pos = v.s.src_pos[ne], D = v.s.msg_size[ne];
    const uint32_t H = route_of(v.prm, n, v.s.msg_dest[ne]).header_words;
    const uint32_t start = v.s.msg_start[ne];
    const StreamPlace p = place(pos < H ? H : pos, H);
    const uint32_t ex = p.exchange, at = p.word;
    uint32_t w;
    if (pos < H) {
      w = Word::make(kHeader, v.s.msg_dest[ne], pos == 0);
    } else if (at + 1 < D) {
      const uint32_t val = data_value(start, n, ex * D + at) & v.prm.value_mask;
      v.s.src_sum[ne] = checksum_fold(v.prm, v.s.src_sum[ne], val);
      w = Word::make(kData, val, pos == 0);
    } else if (at + 1 == D) {
      const uint32_t target = stream_checksum(v.prm, v.s.msg_dest[ne]);
      w = Word::make(kData, checksum_word(v.prm, v.s.src_sum[ne], target), pos == 0);
    } else {
      w = Word::make(kTurn, 0);
      v.s.src_mode[ne] = kSrcWaiting;
      v.s.src_wake[ne] = static_cast<uint32_t>(v.t + v.prm.timeout);
      const int32_t far = v.topo.peer[uint64_t{x} * v.lay.ports + v.s.src_port[ne]];
      v.s.src_wire[ne] = static_cast<uint32_t>(far) / v.lay.ports * v.lay.rports +
                         static_cast<uint32_t>(far) % v.lay.ports;
      v.s.src_check[ne] = stream_checksum(v.prm, v.s.msg_dest[ne]);
    }
    send_word(v, inst, x, v.s.src_port[ne], w, start);
    v.s.src_pos[ne] = pos + 1;
  }

  // A hop's checksum (its low `bits`), in path order: one that differs from the one before names
  // the wire into the hop.
  LS_HD void check_wire(uint32_t sum, uint32_t bits) const {
    if (((sum ^ v.s.src_check[ne]) & bits) != 0) blame(v.s.src_wire[ne]);
    v.s.src_check[ne] = sum;
    v.s.src_wire[ne] = v.s.src_next[ne];
  }

  // A located wire; the endpoint's suspect is the one most of its located wires named, if one
  // did (Boyer-Moore's majority vote: bounded state, whatever the network's size).
  LS_HD void blame(uint32_t wire) const {
    v.s.located[ne] += 1;
    uint32_t& votes = v.s.suspect_votes[ne];
    if (votes == 0) {
      v.s.suspect[ne] = wire;
      votes = 1;
    } else {
      votes = v.s.suspect[ne] == wire ? votes + 1 : votes - 1;
    }
  }

  // A word back on the attempt's entering port.
  LS_HD void hear(uint32_t w) const {
    switch (Word::kind(w)) {
      case kStatus:  // a blocked router's checksum is of nothing forwarded: not compared
        if (Status::blocked(Word::value(w))) {
          v.s.src_failed[ne] = 1;
        } else {
          v.s.src_next[ne] =
              Status::router(Word::value(w)) * v.lay.rports + Status::port(Word::value(w));
        }
        return;
      case kChecksum:
        if (!v.s.src_failed[ne]) check_wire(Word::value(w), v.prm.value_mask);
        return;
      case kAck:
        if (!v.s.src_failed[ne]) check_wire(Ack::sum(Word::value(w)), Ack::kSumMask);
        if (!Ack::good(Word::value(w)) || v.s.src_failed[ne]) {
          v.s.src_failed[ne] = 1;
          return;
        }
        if (!v.prm.reads) return deliver();
        v.s.src_acked[ne] = kAwaitReply;
        v.s.reply_count[ne] = v.s.reply_sum[ne] = 0;
        v.s.src_wake[ne] = static_cast<uint32_t>(v.t + v.prm.reply_delay +
                                                 v.traffic[inst].reply_size + 1 + v.prm.timeout);
        return;
      case kData:
        if (v.s.src_acked[ne] == kAwaitReply) {
          v.s.reply_count[ne] += 1;
          v.s.reply_sum[ne] = checksum_fold(v.prm, v.s.reply_sum[ne], Word::value(w));
        }
        return;
      case kTurn:  // the destination turns back after its reply: check it, close next clock
        if (v.s.src_acked[ne] == kAwaitReply) {
          const uint32_t R = v.traffic[inst].reply_size;
          if (v.s.reply_count[ne] == R && v.s.reply_sum[ne] == 0) {
            if (v.prm.exchanges > 1) {
              v.s.exchanges_done[ne] += 1;
              // Exchanges whose TURN the source has sent: the next request, in this clock.
              const uint32_t H = route_of(v.prm, n, v.s.msg_dest[ne]).header_words;
              if (place(v.s.src_pos[ne], H).exchange < v.prm.exchanges) {
                v.s.src_sum[ne] = 0;
                v.s.src_acked[ne] = kNotAcked;
                v.s.src_mode[ne] = kSrcSending;
                return;
              }
            }
            deliver();
          } else {
            v.s.src_acked[ne] = kReplyBad;
            v.s.bad_replies[ne] += 1;
            if (v.prm.error_threshold == 0 && v.prm.header_threshold == 0)
              record_violation(v.s.viol, v.s.viol_info, v.lay.elem(inst, x), kViolBadChecksum, v.t,
                               v.s.src_port[ne], 0, v.s.reply_sum[ne]);
          }
          v.s.src_wake[ne] = static_cast<uint32_t>(v.t + 1);
        }
        return;
      case kDrop:
        return fail_or_close();
      default:
        return;
    }
  }

  // The message is acknowledged (a read: its last reply checked good). Its words are accepted
  // here, once, as traffic.offered counts them (every exchange's request and reply): a
  // destination cannot tell a retry from a new message, so counting what it receives would
  // count a message again whenever an acknowledgement or a later reply fails.
  LS_HD void deliver() const {
    v.s.src_acked[ne] = kDone;
    v.s.acked[ne] += 1;
    if (v.win.contains(v.t))
      v.st.ejected_flits[ne] +=
          uint64_t{v.prm.exchanges} *
          (v.s.msg_size[ne] + (v.prm.reads ? v.traffic[inst].reply_size : 0u));
    if (v.win.contains(v.s.msg_ctime[ne]))
      record_delivery(v.st, ne, v.t, static_cast<uint32_t>(v.t - v.s.msg_ctime[ne]),
                      v.t - v.s.msg_first[ne], route_of(v.prm, n, v.s.msg_dest[ne]).routers);
  }

  // The attempt's connection closes: delivered, or failed and retried after the back-off.
  LS_HD void fail_or_close() const {
    if (v.s.src_acked[ne] == kDone) {
      v.s.src_mode[ne] = kSrcIdle;
      return;
    }
    if (v.win.contains(v.t)) v.s.blocked[ne] += 1;
    v.s.src_mode[ne] = kSrcBackoff;
    v.s.src_wake[ne] = static_cast<uint32_t>(v.t + backoff(++v.s.msg_fails[ne]));
  }

  // The wait before the retry after the message's `fails`-th failure: metro.retry_delay, that
  // doubled for each failure before (at most metro.backoff_limit times), or uniform from 0 to
  // that (Ethernet's binary exponential back-off, in clocks).
  LS_HD uint32_t backoff(uint32_t fails) const {
    if (v.prm.backoff == Backoff::kFixed) return v.prm.retry_delay;
    const uint32_t k = fails - 1 < v.prm.backoff_limit ? fails - 1 : v.prm.backoff_limit;
    const uint32_t most = v.prm.retry_delay << k;
    if (v.prm.backoff == Backoff::kExponential) return most;
    return below(philox_draw(v.traffic[inst].seed, v.t, n, kStreamBackoff).w[0], most + 1);
  }

  // A word arriving on leaving port k.
  LS_HD void receive(uint32_t k, uint32_t w, uint32_t tag) const {
    const uint64_t si = v.lay.sink(inst, n, k);
    const uint32_t col = v.prm.eports + k;
    if (v.s.sink_mode[si] == kSinkClosing) {
      send_word(v, inst, x, col, Word::make(kDrop, 0), v.s.sink_start[si]);
      v.s.sink_mode[si] = kSinkIdle;
    } else if (v.s.sink_mode[si] == kSinkReplying && Word::kind(w) != kDrop) {
      reply(si, col);
    }
    if (w == kNone) return;
    if (Word::start(w)) {
      v.s.sink_mode[si] = kSinkReceiving;
      v.s.sink_sum[si] = v.s.sink_words[si] = 0;
      v.s.sink_bad[si] = 0;
      v.s.sink_start[si] = tag;
    } else if (v.s.sink_mode[si] == kSinkAwaitDrop && Word::kind(w) == kData) {
      // Data on the connection it has answered: the source's next request (metro.exchanges).
      v.s.sink_mode[si] = kSinkAgain;
      v.s.sink_sum[si] = v.s.sink_words[si] = 0;
    }
    const bool again = v.s.sink_mode[si] == kSinkAgain;
    if (v.s.sink_mode[si] != kSinkReceiving && !again) {
      if (Word::kind(w) == kDrop) v.s.sink_mode[si] = kSinkIdle;  // a read's source closes
      return;
    }
    switch (Word::kind(w)) {
      case kHeader:
        // A header that disagrees with the endpoint (one slice's corrupted copy, or a bit
        // flipped after the routers used it) is acknowledged bad. Where nothing corrupts routes,
        // a violation.
        if (Word::value(w) != n) {
          if (v.prm.header_threshold == 0)
            record_violation(v.s.viol, v.s.viol_info, v.lay.elem(inst, x), kViolWrongDest, v.t, col,
                             0, Word::value(w));
          if (!v.s.sink_bad[si]) v.s.bad_headers[ne] += 1;
          v.s.sink_bad[si] = 1;
        }
        return;
      case kData:
        v.s.sink_sum[si] = checksum_fold(v.prm, v.s.sink_sum[si], Word::value(w));
        v.s.sink_words[si] += 1;
        v.s.sink_last_t[si] = static_cast<uint32_t>(v.t);
        return;
      case kTurn: {
        const bool good = v.s.sink_words[si] > 0 && !v.s.sink_bad[si] &&
                          v.s.sink_sum[si] == stream_checksum(v.prm, n);
        send_word(v, inst, x, col, Word::make(kAck, Ack::make(good, v.s.sink_sum[si])),
                  v.s.sink_start[si]);
        v.s.sink_mode[si] = kSinkClosing;
        if (good && v.prm.reads) {
          v.s.sink_mode[si] = kSinkReplying;
          v.s.sink_reply[si] = 0;
          v.s.sink_sum[si] = 0;  // now the reply's
        }
        if (!good && v.prm.error_threshold == 0 && v.prm.header_threshold == 0)
          record_violation(v.s.viol, v.s.viol_info, v.lay.elem(inst, x), kViolBadChecksum, v.t, col,
                           0, v.s.sink_sum[si]);
        if (!good) v.s.bad_checksums[ne] += 1;
        if (good && !again && v.win.contains(v.t)) {  // a first request: its one-way time
          v.s.received[ne] += 1;
          v.s.oneway[ne] += v.s.sink_last_t[si] - v.s.sink_start[si];
        }
        return;
      }
      case kDrop:
        v.s.sink_mode[si] = kSinkIdle;
        return;
      default:
        return;
    }
  }

  // The next word of a read's reply on leaving column col: DATA-IDLE while the data is fetched,
  // the data (the last word brings its checksum to 0), then the TURN back to the source.
  LS_HD void reply(uint64_t si, uint32_t col) const {
    const uint32_t pos = v.s.sink_reply[si]++, D = v.prm.reply_delay,
                   R = v.traffic[inst].reply_size;
    uint32_t w;
    if (pos < D) {
      w = Word::make(kIdle, 0);
    } else if (pos + 1 < D + R) {
      const uint32_t val = data_value(v.s.sink_start[si], n, pos - D) & v.prm.value_mask;
      v.s.sink_sum[si] = checksum_fold(v.prm, v.s.sink_sum[si], val);
      w = Word::make(kData, val);
    } else if (pos + 1 == D + R) {
      w = Word::make(kData, checksum_word(v.prm, v.s.sink_sum[si], 0));
    } else {
      w = Word::make(kTurn, 0);
      v.s.sink_mode[si] = kSinkAwaitDrop;
    }
    send_word(v, inst, x, col, w, v.s.sink_start[si]);
  }
};

}  // namespace ls::metro
