// The S-Connect family's engine, a template over the backend; compiled once per backend by
// sconnect_engine_cpu.cpp and sconnect_engine_cuda.cu. Its state, cycle and results; the
// named arrays, terminals, run loop and watchdog are the shared BatchEngine's.
#pragma once
#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "../../kernels/sconnect/invariants.hpp"
#include "../../kernels/sconnect/routing_cycle.hpp"
#include "../engine/batch_engine.hpp"
#include "../topology/topology.hpp"
#include "sconnect_setup.hpp"

namespace ls {

template <class Exec>
class SconnectEngine final : public BatchEngine<Exec> {
  using B = BatchEngine<Exec>;
  using B::derived, B::download, B::upload, B::per_instance_sum;
  using B::x_, B::cfgs_, B::I_, B::E_, B::NN_, B::t_;

 public:
  SconnectEngine(const std::vector<Config>& cfgs, const EngineOptions& opts) : B(cfgs, opts) {
    const Config& c = cfgs_[0];
    topo_ = build_topology(c.topology);
    B::set_size(topo_.routers, topo_.nodes);
    v_.prm = sconnect::make_params(c, topo_);
    const sconnect::SconnectParams& p = v_.prm;
    v_.lay = {p.routers, p.ports, p.nodes, p.slots, sconnect::pool_buffers(p)};
    allocate();
    hot();
  }

  void step(uint64_t cycles) override {
    B::run_family_cycles(
        cycles, [this](uint64_t t) { return sconnect::RoutingCycle{at(t)}; },
        [this] { check_invariants(); });
  }

 private:
  void set_window(Window w) override { v_.win = w; }
  void reset_family_stats() override {
    const uint64_t n = E_ * v_.prm.ports;
    std::vector<uint32_t> z(n, 0);
    x_.upload(v_.s.sent, z.data(), n * 4);
    x_.upload(v_.s.rejected, z.data(), n * 4);
    x_.upload(v_.s.misrouted, z.data(), n * 4);
    x_.upload(v_.s.errors, z.data(), n * 4);
    x_.upload(v_.s.duplicates, z.data(), n * 4);
  }
  void family_results(uint32_t i, double measure, InstanceResult& r) override;
  std::vector<uint64_t> in_flight() const override {
    std::vector<uint64_t> inj = per_instance_sum(v_.host.injected, sconnect::kPriorities);
    const std::vector<uint64_t> got = per_instance_sum(v_.host.delivered, sconnect::kPriorities),
                                sent = per_instance_sum(v_.host.ctl_injected),
                                back = per_instance_sum(v_.host.ctl_delivered);
    for (uint32_t i = 0; i < I_; ++i) inj[i] += sent[i] - got[i] - back[i];
    return inj;
  }
  std::string stuck(uint32_t i) const override;
  std::string stuck_cause(uint32_t i, const std::vector<uint64_t>& free) const;
  const char* unit() const override { return "message"; }

  sconnect::SconnectView at(uint64_t t) const { return B::view_at(v_, t); }
  void allocate();
  void hot();
  void check_invariants();

  Topology topo_;
  sconnect::SconnectView v_{};
  uint64_t* owned_ = nullptr;  // [inst, router] messages each router owns (debug)
};

// For run.hot_state = "shared" (with the terminals'): every array a routing cycle touches but the
// messages (the pool and the belts), the routing tables (large, read once a message) and the
// debug checks'.
template <class Exec>
void SconnectEngine<Exec>::hot() {
  const sconnect::SconnectState& s = v_.s;
  B::hot_arrays(
      v_, {&s.channels_on,  &s.buf_state,    &s.buf_next,        &s.buf_class,    &s.buf_ready,
           &s.buf_opts,     &s.buf_quad,     &s.free_mask,       &s.class_used,   &s.q_head,
           &s.q_tail,       &s.q_count,      &s.tx_vc,           &s.msg_valid,    &s.ack_belt,
           &s.tx_seq,       &s.rx_seq,       &s.resend,          &s.quad_tx_next, &s.quad_tx_head,
           &s.quad_tx_open, &s.quad_rx_head, &s.quad_rx_parts,   &s.sent,         &s.rejected,
           &s.misrouted,    &s.errors,       &s.error_threshold, &s.duplicates,   &s.perf_select,
           &s.perf_count,   &s.timer,        &s.last_move});
}

template <class Exec>
void SconnectEngine<Exec>::allocate() {
  using namespace sconnect;
  const SconnectParams& p = v_.prm;
  const uint64_t I = I_, R = p.routers, P = p.ports, N = p.nodes, S = p.slots, Bf = v_.lay.buffers;
  const uint64_t bufs = E_ * Bf, queues = E_ * v_.lay.queues(), belts = E_ * S * P;
  SconnectState& s = v_.s;
  s.pool = alloc<Message>(*this, bufs);
  s.buf_state = alloc<uint8_t>(*this, bufs, "buf_state", {I, R, Bf});
  s.buf_next = alloc<uint8_t>(*this, bufs, "buf_next", {I, R, Bf});
  s.buf_class = alloc<uint8_t>(*this, bufs, "buf_class", {I, R, Bf});
  s.buf_ready = alloc<uint32_t>(*this, bufs, "buf_ready", {I, R, Bf});
  s.buf_opts = alloc<uint32_t>(*this, bufs, "buf_options", {I, R, Bf});
  s.buf_quad = alloc<uint8_t>(*this, bufs, "buf_quad", {I, R, Bf});
  s.free_mask = alloc<uint64_t>(*this, E_, "free_mask", {I, R});
  s.class_used = alloc<uint8_t>(*this, E_ * kClasses, "class_used", {I, R, kPriorities, kKinds});
  s.q_head = alloc<uint8_t>(*this, queues, "queue_head", {I, R, P, kPriorities, kVcs});
  s.q_tail = alloc<uint8_t>(*this, queues, "queue_tail", {I, R, P, kPriorities, kVcs});
  s.q_count = alloc<uint8_t>(*this, queues, "queue_count", {I, R, P, kPriorities, kVcs});
  s.tx_vc = alloc<uint8_t>(*this, E_ * P, "tx_vc", {I, R, P});
  s.msg_belt = alloc<Message>(*this, belts);
  s.msg_valid = alloc<uint8_t>(*this, belts, "message_belt", {I, R, S, P});
  s.ack_belt = alloc<int16_t>(*this, belts, "ack_belt", {I, R, S, P});
  const uint64_t W = v_.lay.engines();
  s.tx_seq = alloc<uint8_t>(*this, E_ * P * W, "tx_engines", {I, R, P, W});
  s.rx_seq = alloc<uint8_t>(*this, E_ * P * W, "rx_engines", {I, R, P, W});
  s.resend = alloc<uint8_t>(*this, E_ * P);
  s.quad_tx_next = alloc<uint8_t>(*this, E_ * P, "quad_tx_next", {I, R, P});
  s.quad_tx_head = alloc<uint8_t>(*this, E_ * P, "quad_tx_head", {I, R, P});
  s.quad_tx_open = alloc<uint8_t>(*this, E_ * P, "quad_tx_open", {I, R, P});
  s.quad_rx_head = alloc<uint8_t>(*this, E_ * P, "quad_rx_head", {I, R, P});
  s.quad_rx_parts = alloc<uint8_t>(*this, E_ * P, "quad_rx_parts", {I, R, P});
  s.sent = alloc<uint32_t>(*this, E_ * P, "link_messages", {I, R, P});
  s.rejected = alloc<uint32_t>(*this, E_ * P, "link_rejects", {I, R, P});
  s.misrouted = alloc<uint32_t>(*this, E_ * P, "link_misroutes", {I, R, P});
  s.error_threshold = alloc<uint32_t>(*this, E_ * P, "channel_error_threshold", {I, R, P});
  s.errors = alloc<uint32_t>(*this, E_ * P, "link_errors", {I, R, P});
  s.duplicates = alloc<uint32_t>(*this, E_ * P, "link_duplicates", {I, R, P});
  s.viol = alloc<uint32_t>(*this, E_);
  s.viol_info = alloc<uint32_t>(*this, E_ * 4);
  owned_ = alloc<uint64_t>(*this, E_);
  s.perf_select = alloc<uint8_t>(*this, E_, "perf_select", {I, R});
  s.perf_count = alloc<uint32_t>(*this, E_, "perf_count", {I, R});
  s.timer = alloc<uint16_t>(*this, E_, "timer", {I, R});
  // The pool's fields of each message, for drawing a router.
  for (const auto& [name, member] : kFlitFields)
    derived(("pool_" + std::string(name)).c_str(), 'u', sizeof(uint32_t), {I, R, Bf},
            [this, m = member, I, R, Bf] {
              std::vector<Message> pool = download(v_.s.pool, I * R * Bf);
              std::vector<uint32_t> out(pool.size());
              for (size_t k = 0; k < pool.size(); ++k) out[k] = pool[k].*m;
              return B::host_array('u', out, {I, R, Bf});
            },
            "a view of the buffer pool's messages (meta: sconnect_state.hpp MessageMeta)");
  HostState& h = v_.host;
  h.injected = alloc<uint64_t>(*this, NN_ * kPriorities, "injected_messages", {I, N, kPriorities});
  h.delivered =
      alloc<uint64_t>(*this, NN_ * kPriorities, "delivered_messages", {I, N, kPriorities});
  // The controllers' queues (control.hpp), which Python fills and empties.
  const uint64_t K = kControlQueue;
  h.ctl_out =
      alloc<uint32_t>(*this, NN_ * K * kRequestWords, "control_requests", {I, N, K, kRequestWords});
  h.ctl_out_head = alloc<uint32_t>(*this, NN_, "control_request_head", {I, N});
  h.ctl_out_count = alloc<uint32_t>(*this, NN_, "control_request_count", {I, N});
  h.ctl_in =
      alloc<uint32_t>(*this, NN_ * K * kReplyWords, "control_replies", {I, N, K, kReplyWords});
  h.ctl_in_count = alloc<uint32_t>(*this, NN_, "control_reply_count", {I, N});
  h.ctl_injected = alloc<uint64_t>(*this, NN_, "control_injected", {I, N});
  h.ctl_delivered = alloc<uint64_t>(*this, NN_, "control_delivered", {I, N});
  B::allocate_terminals(p.source_queue, kPriorities);
  v_.src = B::src_;
  v_.st = B::st_;
  s.last_move = B::last_move_;

  B::topology_views(topo_);
  const sconnect::Tables tables = sconnect::make_tables(cfgs_[0], topo_);
  SconnectTopology& t = v_.topo;
  t.peer = upload(topo_.peer);
  t.delay = upload(topo_.link_delay);
  t.router_node = upload(tables.router_node);
  t.node_router = upload(topo_.node_router);
  t.excess_ports = upload(tables.excess);
  // Each instance's routers start with the host's tables; all their channels enabled.
  s.port_mask = alloc<uint32_t>(*this, E_ * N, "route_ports", {I, R, N});
  s.route_vc = alloc<uint8_t>(*this, E_ * N, "route_vc", {I, R, N});
  s.channels_on = alloc<uint32_t>(*this, E_, "channels_on", {I, R});
  for (uint64_t i = 0; i < I; ++i) {
    x_.upload(s.port_mask + i * R * N, tables.port_mask.data(), R * N * 4);
    x_.upload(s.route_vc + i * R * N, tables.vc.data(), R * N);
  }
  const std::vector<uint32_t> on(E_, ((1u << P) - 1) & ~1u);
  x_.upload(s.channels_on, on.data(), E_ * 4);
  v_.traffic = upload(sconnect::priority_traffic(cfgs_, B::nodes_));
  v_.perm = upload(random_permutations(cfgs_, topo_.nodes));

  // Every buffer free, every queue empty, no acknowledgement on any belt.
  std::vector<uint64_t> all(E_, Bf == 64 ? ~uint64_t{0} : (uint64_t{1} << Bf) - 1);
  x_.upload(s.free_mask, all.data(), E_ * 8);
  std::vector<int16_t> none(belts, kNoAck);
  x_.upload(s.ack_belt, none.data(), belts * 2);
  std::vector<uint8_t> nil(queues, kNil);
  x_.upload(s.q_head, nil.data(), queues);
  x_.upload(s.q_tail, nil.data(), queues);
  for (uint8_t* a : {s.resend, s.quad_tx_next, s.quad_tx_head, s.quad_rx_head})
    x_.upload(a, nil.data(), E_ * P);
  const std::vector<uint32_t> noise = sconnect::channel_error_thresholds(cfgs_, topo_);
  x_.upload(s.error_threshold, noise.data(), E_ * P * 4);

  // set_state's: the routing tables and registers the control messages reach, and a host's
  // control queues (ls.sconnect.Controller writes them).
  const int64_t port_masks = (int64_t{1} << P) - 1;
  for (const char* mask : {"route_ports", "channels_on"})
    B::writable(mask, 0, port_masks,
                "masks of the router's " + std::to_string(P) + " ports, 0 to " +
                    std::to_string(port_masks));
  B::writable("route_vc", 0, 1, "VC 0 or 1");
  for (const char* r :
       {"perf_select", "timer", "class_used", "channel_error_threshold", "control_requests"})
    B::writable(r);
  B::writable("control_request_head", 0, kControlQueue - 1,
              "a slot of the control queue, 0 to " + std::to_string(kControlQueue - 1));
  for (const char* count : {"control_request_count", "control_reply_count"})
    B::writable(count, 0, kControlQueue,
                "0 to the queue's " + std::to_string(kControlQueue) + " entries");
}

template <class Exec>
void SconnectEngine<Exec>::check_invariants() {
  using namespace sconnect;
  const SconnectView w = at(t_);
  x_.for_each(E_, CheckInvariants{w, owned_});
  x_.sync();
  static const char* what[] = {"",
                               "message for node %v delivered here",
                               "free mask and buffer states disagree (state %v)",
                               "class count %v disagrees with the buffers it holds",
                               "a queue's list disagrees with its count %v",
                               "a quad-message split (buffer %v)"};
  B::throw_violation(v_.s.viol, v_.s.viol_info, what, [](const uint32_t* at) {
    return "buffer, class or queue " + std::to_string(at[1]);
  });
  B::check_conservation(owned_, "messages the pools own");
}

// The first eight routers of instance i holding messages: buffers held and waiting per channel.
template <class Exec>
std::string SconnectEngine<Exec>::stuck(uint32_t i) const {
  using namespace sconnect;
  const uint64_t Q = v_.lay.queues(), R = v_.prm.routers;
  const std::vector<uint64_t> free = download(v_.s.free_mask + i * R, R);
  const std::vector<uint8_t> count = download(v_.s.q_count + i * R * Q, R * Q);
  std::ostringstream o;
  int shown = 0;
  for (uint64_t r = 0; r < R && shown < 8; ++r) {
    const uint32_t held = v_.lay.buffers - popcount64(free[r]);
    if (!held) continue;
    o << " [router " << r << ": " << held << " of " << v_.prm.buffers << " buffers; waiting";
    for (uint32_t p = 0; p < v_.prm.ports; ++p) {
      uint32_t n = 0;
      for (uint32_t q = SconnectLayout::queue(p, 0, 0); q < SconnectLayout::queue(p + 1, 0, 0); ++q)
        n += count[r * Q + q];
      if (n) o << " port " << p << ": " << n;
    }
    o << "]";
    ++shown;
  }
  return o.str() + stuck_cause(i, free);
}

// What in instance i's configuration can stop every message, which the watchdog cannot tell
// from a deadlock: no reserved buffers, or channels that corrupt nearly every slot.
template <class Exec>
std::string SconnectEngine<Exec>::stuck_cause(uint32_t i, const std::vector<uint64_t>& free) const {
  const SconnectConfig& s = cfgs_[i].sconnect;
  const uint64_t R = v_.prm.routers, P = v_.prm.ports;
  std::ostringstream o;
  const uint64_t full = static_cast<uint64_t>(
      std::count_if(free.begin(), free.end(), [](uint64_t f) { return f == 0; }));
  if (sconnect_reserve(s) == 0 && full != 0)
    o << "; " << full << " of " << R
      << " pools are full and sconnect.reserve = 0 keeps no buffer for VC 1 or delivery, so "
         "messages can wait on each other in a cycle (the default, -1, reserves buffers / (4 x "
         "priorities))";
  const std::vector<uint32_t> threshold = download(v_.s.error_threshold + i * R * P, R * P);
  const uint32_t worst = *std::max_element(threshold.begin(), threshold.end());
  const uint64_t noisy = static_cast<uint64_t>(std::count_if(
      threshold.begin(), threshold.end(), [](uint32_t t) { return t >= (1u << 31); }));  // P >= 1/2
  if (noisy != 0)
    o << "; " << noisy << " channel ends corrupt a slot with probability up to "
      << static_cast<double>(worst) / 4294967296.0
      << " (sconnect.bit_error_rate = " << s.bit_error_rate
      << ", sconnect.noisy_bit_error_rate = " << s.noisy_bit_error_rate
      << ", sconnect.message_bits = " << s.message_bits
      << "): their messages are sent again and again and seldom arrive whole";
  return o.str();
}

// Messages per cycle on each channel, and the shares of transmissions refused downstream and
// sent off the routing table.
template <class Exec>
void SconnectEngine<Exec>::family_results(uint32_t i, double m, InstanceResult& r) {
  const uint64_t rp = uint64_t{v_.prm.routers} * v_.prm.ports, rp0 = i * rp;
  B::link_results(v_.s.sent, i, topo_, m, r);
  const std::vector<uint32_t> sent = download(v_.s.sent + rp0, rp),
                              rej = download(v_.s.rejected + rp0, rp),
                              mis = download(v_.s.misrouted + rp0, rp),
                              err = download(v_.s.errors + rp0, rp),
                              dup = download(v_.s.duplicates + rp0, rp);
  double total = 0, refused = 0, misrouted = 0, errors = 0, duplicates = 0;
  for (uint64_t k = 0; k < rp; ++k) {
    total += sent[k];
    refused += rej[k];
    misrouted += mis[k];
    errors += err[k];
    duplicates += dup[k];
  }
  r.extra.emplace_back("reject_fraction", total > 0 ? refused / total : 0.0);
  r.extra.emplace_back("misroute_fraction", total > 0 ? misrouted / total : 0.0);
  r.extra.emplace_back("error_fraction", total > 0 ? errors / total : 0.0);
  r.extra.emplace_back("duplicates", duplicates);
}

}  // namespace ls
