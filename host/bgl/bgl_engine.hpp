// The Blue Gene/L family's engine, a template over the backend; compiled once per backend by
// bgl_engine_cpu.cpp and bgl_engine_cuda.cu. Its elements are an instance's routers (each with
// its node's processor interface); the named arrays, terminals, run loop and watchdog are the
// shared BatchEngine's.
#pragma once
#include <sstream>
#include <string>
#include <vector>

#include "../../kernels/bgl/invariants.hpp"
#include "../../kernels/bgl/router_cycle.hpp"
#include "../engine/batch_engine.hpp"
#include "../topology/topology.hpp"
#include "../traffic/traffic_params.hpp"
#include "bgl_setup.hpp"

namespace ls {

template <class Exec>
class BglEngine final : public BatchEngine<Exec> {
  using B = BatchEngine<Exec>;
  using B::download, B::upload, B::per_instance_sum;
  using B::x_, B::cfgs_, B::I_, B::E_, B::NN_, B::t_;

 public:
  BglEngine(const std::vector<Config>& cfgs, const EngineOptions& opts) : B(cfgs, opts) {
    const Config& c = cfgs_[0];
    topo_ = build_topology(c.topology);
    v_.prm = bgl::make_params(c, topo_);
    const bgl::BglParams& p = v_.prm;
    B::set_size(p.routers, p.routers);
    v_.lay = {p.routers, p.dirs,  p.vcs,
              p.ring,    p.fifos, p.fifo_ring,
              p.paths,   p.slots, std::max<uint32_t>(p.rtx, 1)};
    allocate();
    hot();
    if (p.dead.any()) reach_ = bgl::dead_node_reach(p);
  }

  void step(uint64_t cycles) override {
    B::run_family_cycles(
        cycles, [this](uint64_t t) { return bgl::BglCycle{at(t)}; },
        [this] { check_invariants(); });
  }

 private:
  void set_window(Window w) override { v_.win = w; }
  void reset_family_stats() override {
    const uint64_t n = uint64_t{I_} * v_.prm.routers * (v_.prm.dirs + 1);
    std::vector<uint32_t> z(n, 0);
    x_.upload(v_.s.link_bytes, z.data(), n * 4);
    x_.upload(v_.s.payload_bytes, z.data(), n * 4);
    const std::vector<uint64_t> z64(NN_, 0);
    x_.upload(v_.s.hp_count, z64.data(), NN_ * 8);
    x_.upload(v_.s.hp_lat_sum, z64.data(), NN_ * 8);
  }
  void family_results(uint32_t i, double measure, InstanceResult& r) override;
  void link_protocol_results(uint32_t i, InstanceResult& r) const;
  void escape_results(uint32_t i, InstanceResult& r) const;
  std::vector<uint64_t> in_flight() const override {
    std::vector<uint64_t> n = per_instance_sum(v_.s.injected);
    const std::vector<uint64_t> got = per_instance_sum(v_.s.delivered),
                                relayed = per_instance_sum(v_.s.relayed);  // first legs ended
    for (uint32_t i = 0; i < I_; ++i) n[i] -= got[i] + relayed[i];
    return n;
  }
  std::string stuck(uint32_t i) const override;
  const char* unit() const override { return "packet"; }
  // State written from outside: every router looks at it in the next cycle.
  void state_written() override {
    const std::vector<uint32_t> now(uint64_t{I_} * v_.prm.routers, 0);
    x_.upload(v_.s.wake, now.data(), now.size() * 4);
  }

  bgl::BglView at(uint64_t t) const { return B::view_at(v_, t); }
  void allocate();
  void hot();
  void check_invariants();

  Topology topo_;
  bgl::Wiring wiring_;  // the host's copy of v_.topo
  bgl::Reach reach_;    // software's routes around bgl.dead_nodes, over every live pair
  bgl::BglView v_{};
  uint64_t* held_ = nullptr;  // [inst, router] packets each router holds (debug)
};

// For run.hot_state = "shared" (with the terminals'): every array a cycle touches but the packet
// records (VC, injection and retransmission FIFOs, the reception buses, belts) and the debug
// checks'.
template <class Exec>
void BglEngine<Exec>::hot() {
  const bgl::BglState& s = v_.s;
  B::hot_arrays(v_, {&s.head,       &s.count,      &s.used,        &s.drain_left, &s.drain_extra,
                     &s.drain_next, &s.owed,       &s.path_free,   &s.recv_free,  &s.recv_busy,
                     &s.rx_count,   &s.rx_tail,    &s.rx_acked,    &s.blocked,    &s.link_free,
                     &s.tokens,     &s.rtx_time,   &s.tx_seq,      &s.tx_acked,   &s.tx_next,
                     &s.tx_crc,     &s.rx_crc,     &s.link_errors, &s.resent,     &s.chunks_sent,
                     &s.token_acks, &s.unblocking, &s.belt_valid,  &s.tok_belt,   &s.tok_valid,
                     &s.inj_head,   &s.inj_count,  &s.inj_used,    &s.link_bytes, &s.payload_bytes,
                     &s.injected,   &s.delivered,  &s.deposited,   &s.turned,     &s.unroutable,
                     &s.relayed,    &s.hp_count,   &s.hp_lat_sum,  &s.wake,       &s.last_move});
}

template <class Exec>
void BglEngine<Exec>::allocate() {
  using namespace bgl;
  const BglParams& p = v_.prm;
  const uint64_t I = I_, R = p.routers, D = p.dirs, V = p.vcs, Q = p.ring, F = p.fifos,
                 FQ = p.fifo_ring, S = p.slots, P = p.dirs + 1;
  const uint64_t vcs = I * R * D * V, ports = I * R * D, belts = I * R * S * D;
  BglState& s = v_.s;
  s.fifo = alloc<Flit>(*this, vcs * Q, "vc_fifo", {I, R, D, V, Q});
  s.head = alloc<uint8_t>(*this, vcs, "vc_head", {I, R, D, V});
  s.count = alloc<uint8_t>(*this, vcs, "vc_count", {I, R, D, V});
  s.used = alloc<uint8_t>(*this, vcs, "vc_used", {I, R, D, V});
  s.drain_left = alloc<uint8_t>(*this, vcs, "drain_left", {I, R, D, V});
  s.drain_extra = alloc<uint8_t>(*this, vcs, "drain_extra", {I, R, D, V});
  s.drain_next = alloc<uint32_t>(*this, vcs, "drain_next", {I, R, D, V});
  s.owed = alloc<uint8_t>(*this, vcs, "tokens_owed", {I, R, D, V});
  s.path_free = alloc<uint32_t>(*this, ports * p.paths, "path_free", {I, R, D, p.paths});
  s.recv_free = alloc<uint32_t>(*this, ports * 2, "reception_free", {I, R, D, 2});
  s.recv_pkt = alloc<Flit>(*this, ports * 2, "reception_packet", {I, R, D, 2});
  s.recv_busy = alloc<uint8_t>(*this, ports * 2, "reception_busy", {I, R, D, 2});
  s.rx_count = alloc<uint32_t>(*this, ports, "rx_count", {I, R, D});
  s.rx_tail = alloc<uint32_t>(*this, ports, "rx_tail", {I, R, D});
  s.rx_acked = alloc<uint32_t>(*this, ports, "rx_acked", {I, R, D});
  if (p.arbitration_gap)  // only then: the default's state is what it was before the key
    s.blocked = alloc<uint8_t>(*this, ports, "receiver_blocked", {I, R, D});
  s.link_free = alloc<uint32_t>(*this, ports, "link_free", {I, R, D});
  s.tokens = alloc<uint8_t>(*this, vcs, "tokens", {I, R, D, V});
  if (p.rtx != 0) {  // the link-level protocol
    const uint64_t RQ = p.rtx;
    s.rtx_fifo = alloc<Flit>(*this, ports * RQ, "retransmission_fifo", {I, R, D, RQ});
    s.rtx_time = alloc<uint32_t>(*this, ports * RQ, "retransmission_time", {I, R, D, RQ});
    s.tx_seq = alloc<uint32_t>(*this, ports, "tx_seq", {I, R, D});
    s.tx_acked = alloc<uint32_t>(*this, ports, "tx_acked", {I, R, D});
    s.tx_next = alloc<uint32_t>(*this, ports, "tx_next", {I, R, D});
    s.tx_crc = alloc<uint32_t>(*this, ports, "tx_crc", {I, R, D});
    s.rx_crc = alloc<uint32_t>(*this, ports, "rx_crc", {I, R, D});
    s.link_errors = alloc<uint32_t>(*this, ports, "link_errors", {I, R, D});
    s.resent = alloc<uint32_t>(*this, ports, "retransmissions", {I, R, D});
  }
  s.chunks_sent = alloc<uint32_t>(*this, vcs, "chunks_sent", {I, R, D, V});
  s.token_acks = alloc<uint32_t>(*this, ports, "token_acks", {I, R, D});
  s.unblocking = alloc<uint32_t>(*this, ports, "unblocking_acks", {I, R, D});
  s.belt = alloc<Flit>(*this, belts, "belt", {I, R, S, D});
  s.belt_valid = alloc<uint8_t>(*this, belts, "belt_valid", {I, R, S, D});
  s.tok_belt = alloc<uint16_t>(*this, belts * (V + 1), "token_belt", {I, R, S, D, V + 1});
  s.tok_valid = alloc<uint8_t>(*this, belts, "token_belt_valid", {I, R, S, D});
  s.inj = alloc<Flit>(*this, I * R * F * FQ, "injection_fifo", {I, R, F, FQ});
  s.inj_head = alloc<uint8_t>(*this, I * R * F, "injection_head", {I, R, F});
  s.inj_count = alloc<uint8_t>(*this, I * R * F, "injection_count", {I, R, F});
  s.inj_used = alloc<uint16_t>(*this, I * R * F, "injection_used", {I, R, F});
  s.link_bytes = alloc<uint32_t>(*this, I * R * P, "link_bytes", {I, R, P});
  s.payload_bytes = alloc<uint32_t>(*this, I * R * P, "payload_bytes", {I, R, P});
  s.injected = alloc<uint64_t>(*this, I * R, "packets_injected", {I, R});
  s.delivered = alloc<uint64_t>(*this, I * R, "packets_delivered", {I, R});
  s.deposited = alloc<uint64_t>(*this, I * R, "packets_deposited", {I, R});
  s.turned = alloc<uint64_t>(*this, I * R, "packets_turned", {I, R});
  s.unroutable = alloc<uint64_t>(*this, I * R, "packets_unroutable", {I, R});
  s.relayed = alloc<uint64_t>(*this, I * R, "packets_relayed", {I, R});
  s.hp_count = alloc<uint64_t>(*this, I * R);
  s.hp_lat_sum = alloc<uint64_t>(*this, I * R);
  s.wake = alloc<uint32_t>(*this, I * R, "wake", {I, R});
  s.viol = alloc<uint32_t>(*this, I * R);
  s.viol_info = alloc<uint32_t>(*this, I * R * 4);
  held_ = alloc<uint64_t>(*this, I * R);
  B::allocate_terminals(p.source_queue);
  v_.src = B::src_;
  v_.st = B::st_;
  s.last_move = B::last_move_;

  B::topology_views(topo_);
  // set_state's, to stage a case: the senders' tokens and the receivers' tokens owed, and the
  // chunks on the wires (a bit flipped there is a link error).
  for (const char* a : {"tokens", "tokens_owed", "belt"}) B::writable(a);
  wiring_ = make_wiring(p, topo_);
  v_.topo.far = upload(wiring_.far);
  v_.topo.delay = upload(wiring_.delay);
  v_.traffic = upload(traffic_params(cfgs_, B::nodes_));
  v_.perm = upload(random_permutations(cfgs_, topo_.nodes));
  // Every sender starts with all the tokens of the VCs downstream.
  std::vector<uint8_t> tokens(vcs);
  for (uint64_t k = 0; k < vcs; ++k)
    tokens[k] = static_cast<uint8_t>(bgl::capacity(p, static_cast<uint32_t>(k % V)));
  x_.upload(s.tokens, tokens.data(), vcs);
}

template <class Exec>
void BglEngine<Exec>::check_invariants() {
  using namespace bgl;
  x_.for_each(E_, CheckInvariants{at(t_), held_});
  x_.sync();
  static const char* what[] = {"",
                               "tokens + held + in flight + owed = %v, not the VC's capacity",
                               "a VC FIFO holds %v tokens, over its capacity",
                               "a packet for node %v was received here",
                               "a packet started on a link busy until cycle %v",
                               "link-level protocol out of order: %v packets accepted against "
                               "the sender's acknowledged, next and sent counts",
                               "something arrived at this dead node",
                               "something arrived over a dead link"};
  B::throw_violation(v_.s.viol, v_.s.viol_info, what, [](const uint32_t* at) {
    return "direction " + std::to_string(at[1]) + ", VC " + std::to_string(at[2]);
  });
  B::check_conservation(held_, "packets in VC FIFOs, on links and reception buses");
}

// The routers of instance i holding packets in their VC FIFOs (packets per direction), the
// first eight.
template <class Exec>
std::string BglEngine<Exec>::stuck(uint32_t i) const {
  const uint64_t R = v_.prm.routers, D = v_.prm.dirs, V = v_.prm.vcs;
  const std::vector<uint8_t> count = download(v_.s.count + i * R * D * V, R * D * V);
  std::ostringstream o;
  int shown = 0;
  for (uint64_t r = 0; r < R && shown < 8; ++r) {
    uint32_t held = 0;
    for (uint64_t k = 0; k < D * V; ++k) held += count[r * D * V + k];
    if (!held) continue;
    o << " [router " << r << ":";
    for (uint64_t d = 0; d < D; ++d)
      for (uint64_t w = 0; w < V; ++w)
        if (count[(r * D + d) * V + w])
          o << " dir " << d << " vc " << w << " x" << +count[(r * D + d) * V + w];
    o << "]";
    ++shown;
  }
  return o.str();
}

// Link utilisation counts every byte a link carries (data packets with trailer and gap, and
// token-acks); payload utilisation only the payload (each packet less bgl.packet_overhead).
template <class Exec>
void BglEngine<Exec>::family_results(uint32_t i, double m, InstanceResult& r) {
  B::link_results(v_.s.link_bytes, i, topo_, m, r);
  InstanceResult payload;
  B::link_results(v_.s.payload_bytes, i, topo_, m, payload);
  r.extra.emplace_back("payload_util_mean", payload.link_util_mean);
  if (v_.prm.rtx != 0) link_protocol_results(i, r);
  escape_results(i, r);
  if (v_.prm.dead.any()) {  // software's routes around the dead nodes and links
    r.extra.emplace_back("unroutable_packets",
                         static_cast<double>(per_instance_sum(v_.s.unroutable)[i]));
    r.extra.emplace_back("unreachable_pairs", static_cast<double>(reach_.unreachable));
    r.extra.emplace_back("deterministic_pairs", static_cast<double>(reach_.deterministic));
    r.extra.emplace_back("relayed_packets", static_cast<double>(per_instance_sum(v_.s.relayed)[i]));
    r.extra.emplace_back("relayed_pairs", static_cast<double>(reach_.relayed));
  }
  const std::string& pattern = B::cfgs_[i].traffic.pattern;
  if (pattern == "linefill" || pattern == "planefill")  // row broadcasts' copies on their way
    r.extra.emplace_back("deposits", static_cast<double>(per_instance_sum(v_.s.deposited)[i]));
  if (pattern == "planefill")  // and the broadcasts software turned at corners
    r.extra.emplace_back("corner_turns", static_cast<double>(per_instance_sum(v_.s.turned)[i]));
  if (B::cfgs_[i].bgl.priority_fraction == 0) return;
  const double hp = static_cast<double>(per_instance_sum(v_.s.hp_count)[i]);
  r.extra.emplace_back("priority_network_latency_mean",
                       sample_mean(static_cast<double>(per_instance_sum(v_.s.hp_lat_sum)[i]), hp));
}

// The link-level protocol over the whole run: corrupted packets dropped, packets sent again, and
// the links whose sender and receiver CRCs differ though every packet accepted is acknowledged
// (the paper's end-of-run check; a link with acknowledgements still on their way is not judged).
template <class Exec>
void BglEngine<Exec>::link_protocol_results(uint32_t i, InstanceResult& r) const {
  const uint64_t R = v_.prm.routers, D = v_.prm.dirs, n = R * D, at = i * n;
  const auto get = [&](const uint32_t* a) { return download(a + at, n); };
  const std::vector<uint32_t> errors = get(v_.s.link_errors), resent = get(v_.s.resent),
                              acked = get(v_.s.tx_acked), accepted = get(v_.s.rx_count),
                              tx_crc = get(v_.s.tx_crc), rx_crc = get(v_.s.rx_crc);
  uint64_t err = 0, again = 0, mismatched = 0;
  for (uint64_t k = 0; k < n; ++k) {
    err += errors[k];
    again += resent[k];
    if (wiring_.far[k] < 0) continue;
    const uint64_t far = static_cast<uint64_t>(wiring_.far[k]);  // sender k's receiver
    if (acked[k] == accepted[far] && tx_crc[k] != rx_crc[far]) ++mismatched;
  }
  r.extra.emplace_back("link_errors", static_cast<double>(err));
  r.extra.emplace_back("retransmissions", static_cast<double>(again));
  r.extra.emplace_back("link_crc_mismatches", static_cast<double>(mismatched));
}

// Over the whole run: the share of the chunks sent on the escape VCs, and the unblocking
// probability (Figure 9): of the token-acks returned, the fraction that freed a blocked packet.
template <class Exec>
void BglEngine<Exec>::escape_results(uint32_t i, InstanceResult& r) const {
  const bgl::BglParams& p = v_.prm;
  const uint64_t n = uint64_t{p.routers} * p.dirs;
  const std::vector<uint32_t> sent = download(v_.s.chunks_sent + i * n * p.vcs, n * p.vcs),
                              acks = download(v_.s.token_acks + i * n, n),
                              freeing = download(v_.s.unblocking + i * n, n);
  double all = 0, escape = 0, returned = 0, unblocking = 0;
  for (uint64_t k = 0; k < n * p.vcs; ++k) {
    all += sent[k];
    const uint32_t vc = static_cast<uint32_t>(k % p.vcs);
    if (vc >= p.dynamic && vc != bgl::priority_vc(p)) escape += sent[k];
  }
  for (uint64_t k = 0; k < n; ++k) returned += acks[k], unblocking += freeing[k];
  r.extra.emplace_back("escape_fraction", all > 0 ? escape / all : 0.0);
  r.extra.emplace_back("unblocking_probability", returned > 0 ? unblocking / returned : 0.0);
}

}  // namespace ls
