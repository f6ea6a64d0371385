// The METRO family's engine, a template over the backend; compiled once per backend by
// metro_engine_cpu.cpp and metro_engine_cuda.cu. Its elements are an instance's routers, then
// its endpoints; the named arrays, terminals (the endpoints), run loop and watchdog are the
// shared BatchEngine's.
#pragma once
#include <sstream>
#include <string>
#include <vector>

#include "../../kernels/metro/invariants.hpp"
#include "../../kernels/metro/metro_cycle.hpp"
#include "../engine/batch_engine.hpp"
#include "../topology/topology.hpp"
#include "../traffic/traffic_params.hpp"
#include "metro_setup.hpp"

namespace ls {

template <class Exec>
class MetroEngine final : public BatchEngine<Exec> {
  using B = BatchEngine<Exec>;
  using B::download, B::upload, B::per_instance_sum, B::instance_sums;
  using B::x_, B::cfgs_, B::I_, B::E_, B::NN_, B::t_;

 public:
  MetroEngine(const std::vector<Config>& cfgs, const EngineOptions& opts) : B(cfgs, opts) {
    const Config& c = cfgs_[0];
    topo_ = build_topology(c.topology);
    v_.prm = metro::make_params(c, topo_);
    const metro::MetroParams& p = v_.prm;
    B::set_size(p.elems, p.endpoints);
    v_.lay = {p.routers, p.endpoints, p.elems, p.ports, p.rports, p.eports, p.slots};
    allocate();
    hot();
  }

  // Clocks in runs that stop where routers die (metro.failure_cycle), to take them out of service.
  void step(uint64_t cycles) override {
    while (cycles > 0) {
      uint64_t n = cycles;
      for (uint64_t f : fail_at_)
        if (f > t_) n = std::min(n, f - t_);
      advance(n);
      cycles -= n;
      for (uint32_t i = 0; i < I_; ++i)
        if (fail_at_[i] && t_ >= fail_at_[i]) {
          upload_faults(i, true);
          fail_at_[i] = 0;
        }
    }
  }

 private:
  void advance(uint64_t cycles) {
    B::run_family_cycles(
        cycles, [this](uint64_t t) { return metro::MetroCycle{at(t)}; },
        [this] { check_invariants(); });
  }
  void upload_faults(uint32_t i, bool failed) {
    const metro::Faults f = metro::router_faults(cfgs_[i], topo_, failed);
    x_.upload(v_.s.dead + uint64_t{i} * v_.prm.routers, f.dead.data(), f.dead.size());
    x_.upload(v_.s.enabled + uint64_t{i} * f.enabled.size(), f.enabled.data(), f.enabled.size());
    x_.upload(v_.s.port_dead + uint64_t{i} * f.port_dead.size(), f.port_dead.data(),
              f.port_dead.size());
  }
  void set_window(Window w) override { v_.win = w; }
  void reset_family_stats() override {
    const uint64_t rp = uint64_t{I_} * v_.prm.routers * v_.prm.rports;
    std::vector<uint32_t> z(std::max<uint64_t>(rp, NN_), 0);
    std::vector<uint64_t> z64(NN_, 0);
    x_.upload(v_.s.words, z.data(), rp * 4);
    for (uint32_t* a : {v_.s.attempts, v_.s.blocked, v_.s.timed_out, v_.s.received})
      x_.upload(a, z.data(), NN_ * 4);
    x_.upload(v_.s.oneway, z64.data(), NN_ * 8);
  }
  void family_results(uint32_t i, double measure, InstanceResult& r) override;
  std::vector<uint64_t> in_flight() const override {
    std::vector<uint64_t> n = per_instance_sum(v_.s.started);
    const std::vector<uint64_t> got = per_instance_sum(v_.s.acked);
    for (uint32_t i = 0; i < I_; ++i) n[i] -= got[i];
    return n;
  }
  std::string stuck(uint32_t i) const override;
  const char* unit() const override { return "message"; }
  std::string element(uint64_t x) const override {
    return x < v_.prm.routers ? "router " + std::to_string(x)
                              : "endpoint " + std::to_string(x - v_.prm.routers);
  }

  metro::MetroView at(uint64_t t) const { return B::view_at(v_, t); }
  void allocate();
  void hot();
  void check_invariants();

  Topology topo_;
  metro::MetroView v_{};
  uint64_t* busy_ = nullptr;       // [inst, elem] messages each endpoint holds (debug)
  std::vector<uint64_t> fail_at_;  // [inst] the clock its routers die, 0: none pending
};

// For run.hot_state = "shared" (with the terminals'): every array a clock touches; a METRO
// network holds no flit records, only words on its wires, so all but the debug checks'.
template <class Exec>
void MetroEngine<Exec>::hot() {
  const metro::MetroState& s = v_.s;
  B::hot_arrays(
      v_, {&s.belt,        &s.belt_tag,      &s.conn,       &s.mode,          &s.flow,
           &s.count,       &s.reply,         &s.checksum,   &s.enabled,       &s.dead,
           &s.port_dead,   &s.noisy,         &s.fast,       &s.swallow,       &s.words,
           &s.corrupted,   &s.shutdowns,     &s.src_mode,   &s.src_port,      &s.src_pos,
           &s.src_wake,    &s.src_acked,     &s.src_failed, &s.msg_dest,      &s.msg_size,
           &s.msg_ctime,   &s.msg_first,     &s.msg_start,  &s.msg_fails,     &s.src_sum,
           &s.src_wire,    &s.src_next,      &s.src_check,  &s.reply_count,   &s.reply_sum,
           &s.sink_mode,   &s.sink_bad,      &s.sink_sum,   &s.sink_words,    &s.sink_start,
           &s.sink_last_t, &s.sink_reply,    &s.started,    &s.acked,         &s.attempts,
           &s.blocked,     &s.timed_out,     &s.received,   &s.bad_checksums, &s.bad_headers,
           &s.bad_replies, &s.oneway,        &s.located,    &s.suspect,       &s.suspect_votes,
           &s.last_move,   &s.exchanges_done});
}

template <class Exec>
void MetroEngine<Exec>::allocate() {
  using namespace metro;
  const MetroParams& p = v_.prm;
  const uint64_t I = I_, R = p.routers, N = p.endpoints, X = p.elems, S = p.slots, P = p.ports,
                 RP = p.rports, K = p.eports;
  const uint64_t belts = I * X * S * P, rports = I * R * RP, sinks = NN_ * K;
  MetroState& s = v_.s;
  s.belt = alloc<uint32_t>(*this, belts, "belt", {I, X, S, P});
  s.belt_tag = alloc<uint32_t>(*this, belts, "belt_tag", {I, X, S, P});
  s.conn = alloc<uint8_t>(*this, rports, "conn", {I, R, RP});
  s.mode = alloc<uint8_t>(*this, rports, "port_mode", {I, R, RP});
  s.flow = alloc<uint8_t>(*this, rports, "flow", {I, R, RP});
  s.count = alloc<uint8_t>(*this, rports, "header_left", {I, R, RP});
  s.reply = alloc<uint8_t>(*this, rports, "reply", {I, R, RP});
  s.checksum = alloc<uint32_t>(*this, rports, "checksum", {I, R, RP});
  s.enabled = alloc<uint8_t>(*this, rports, "port_enabled", {I, R, RP});
  s.fast = alloc<uint8_t>(*this, rports, "fast_reclaim", {I, R, RP});
  s.swallow = alloc<uint8_t>(*this, rports, "swallow", {I, R, RP});
  s.dead = alloc<uint8_t>(*this, I * R, "router_dead", {I, R});
  s.port_dead = alloc<uint8_t>(*this, rports, "port_dead", {I, R, RP});
  s.noisy = alloc<uint8_t>(*this, rports, "noisy", {I, R, RP});
  s.words = alloc<uint32_t>(*this, rports, "link_words", {I, R, RP});
  s.corrupted = alloc<uint32_t>(*this, I * X * P, "words_corrupted", {I, X, P});
  s.shutdowns = alloc<uint64_t>(*this, I * R, "inuse_shutdowns", {I, R});
  s.src_mode = alloc<uint8_t>(*this, NN_, "src_mode", {I, N});
  s.src_port = alloc<uint8_t>(*this, NN_, "src_port", {I, N});
  s.src_pos = alloc<uint32_t>(*this, NN_, "src_pos", {I, N});
  s.src_wake = alloc<uint32_t>(*this, NN_, "src_wake", {I, N});
  s.src_acked = alloc<uint8_t>(*this, NN_, "src_acked", {I, N});
  s.src_failed = alloc<uint8_t>(*this, NN_, "src_failed", {I, N});
  s.src_sum = alloc<uint32_t>(*this, NN_, "src_sum", {I, N});
  s.src_wire = alloc<uint32_t>(*this, NN_, "src_wire", {I, N});
  s.src_next = alloc<uint32_t>(*this, NN_, "src_next", {I, N});
  s.src_check = alloc<uint32_t>(*this, NN_, "src_check", {I, N});
  s.reply_count = alloc<uint32_t>(*this, NN_, "reply_count", {I, N});
  s.reply_sum = alloc<uint32_t>(*this, NN_, "reply_sum", {I, N});
  s.msg_dest = alloc<uint32_t>(*this, NN_, "msg_dest", {I, N});
  s.msg_size = alloc<uint32_t>(*this, NN_, "msg_size", {I, N});
  s.msg_ctime = alloc<uint32_t>(*this, NN_, "msg_ctime", {I, N});
  s.msg_first = alloc<uint32_t>(*this, NN_, "msg_first", {I, N});
  s.msg_start = alloc<uint32_t>(*this, NN_, "msg_start", {I, N});
  s.msg_fails = alloc<uint32_t>(*this, NN_, "msg_fails", {I, N});
  s.sink_mode = alloc<uint8_t>(*this, sinks, "sink_mode", {I, N, K});
  s.sink_bad = alloc<uint8_t>(*this, sinks, "sink_bad", {I, N, K});
  s.sink_sum = alloc<uint32_t>(*this, sinks, "sink_sum", {I, N, K});
  s.sink_words = alloc<uint32_t>(*this, sinks, "sink_words", {I, N, K});
  s.sink_start = alloc<uint32_t>(*this, sinks, "sink_start", {I, N, K});
  s.sink_last_t = alloc<uint32_t>(*this, sinks, "sink_last_t", {I, N, K});
  s.sink_reply = alloc<uint32_t>(*this, sinks, "sink_reply", {I, N, K});
  s.started = alloc<uint64_t>(*this, NN_, "messages_started", {I, N});
  s.acked = alloc<uint64_t>(*this, NN_, "messages_acked", {I, N});
  s.attempts = alloc<uint32_t>(*this, NN_, "attempts", {I, N});
  s.blocked = alloc<uint32_t>(*this, NN_, "attempts_failed", {I, N});
  s.timed_out = alloc<uint32_t>(*this, NN_, "attempts_timed_out", {I, N});
  s.received = alloc<uint32_t>(*this, NN_, "messages_received", {I, N});
  s.bad_checksums = alloc<uint64_t>(*this, NN_, "bad_checksums", {I, N});
  s.bad_headers = alloc<uint64_t>(*this, NN_, "bad_headers", {I, N});
  s.bad_replies = alloc<uint64_t>(*this, NN_, "bad_replies", {I, N});
  // Only where a read makes several exchanges (metro.exchanges): with one, no state of its own.
  if (p.exchanges > 1) s.exchanges_done = alloc<uint64_t>(*this, NN_, "exchanges_done", {I, N});
  s.oneway = alloc<uint64_t>(*this, NN_, "oneway_sum", {I, N});
  s.located = alloc<uint64_t>(*this, NN_, "faults_located", {I, N});
  s.suspect = alloc<uint32_t>(*this, NN_, "suspect_wire", {I, N});
  s.suspect_votes = alloc<uint32_t>(*this, NN_, "suspect_votes", {I, N});
  s.viol = alloc<uint32_t>(*this, I * X);
  s.viol_info = alloc<uint32_t>(*this, I * X * 4);
  busy_ = alloc<uint64_t>(*this, I * X);
  B::allocate_terminals(p.source_queue);
  v_.src = B::src_;
  v_.st = B::st_;
  s.last_move = B::last_move_;

  B::topology_views(topo_);
  // set_state's: the scan path's per-port configuration bits and the faults' flags.
  for (const char* bit :
       {"port_enabled", "fast_reclaim", "swallow", "router_dead", "port_dead", "noisy"})
    B::writable(bit, 0, 1, "0 or 1");
  const Wiring wiring = make_wiring(p, topo_, cfgs_[0]);
  v_.topo.peer = upload(wiring.peer);
  v_.topo.delay = upload(wiring.delay);
  std::vector<uint8_t> stages;  // the same for every instance; the kernels read the first
  for (uint64_t i = 0; i < I; ++i)
    stages.insert(stages.end(), topo_.stage.begin(), topo_.stage.end());
  v_.topo.stage = upload(stages, "stage", {I, R});
  // For Python: each router's forward ports, and each wire's clocks from its sending element.
  std::vector<uint8_t> forward(stages.size());
  for (size_t k = 0; k < stages.size(); ++k)
    forward[k] = static_cast<uint8_t>(p.radix[stages[k]] * p.dilation[stages[k]]);
  std::vector<uint8_t> delays;
  for (uint64_t i = 0; i < I; ++i)
    delays.insert(delays.end(), wiring.delay.begin(), wiring.delay.end());
  for (auto [name, table, shape] :
       {std::tuple{"forward_ports", forward, std::vector<uint64_t>{I, R}},
        {"wire_delay", delays, std::vector<uint64_t>{I, X, p.ports}}})
    B::derived(
        name, 'u', 1, shape,
        [table = table, shape = shape] { return B::host_array('u', table, shape); },
        "the topology, fixed by the configuration");
  // And where each wire leads, endpoints' included: element x's column q leads to
  // wire_peer[x, q] = element * ports + column (-1 none).
  std::vector<int32_t> wire_peer;
  for (uint64_t i = 0; i < I; ++i)
    wire_peer.insert(wire_peer.end(), wiring.peer.begin(), wiring.peer.end());
  B::derived(
      "wire_peer", 'i', sizeof(int32_t), {I, X, p.ports},
      [wire_peer, shape = std::vector<uint64_t>{I, X, p.ports}] {
        return B::host_array('i', wire_peer, shape);
      },
      "the topology, fixed by the configuration");
  // traffic.offered counts every word a message carries: with metro.exchanges k, k requests
  // and k replies.
  std::vector<TrafficParams> traffic = traffic_params(cfgs_, B::nodes_);
  if (p.exchanges > 1)
    for (TrafficParams& tp : traffic) set_rate(tp, tp.rate / p.exchanges);
  v_.traffic = upload(traffic);
  v_.perm = upload(random_permutations(cfgs_, topo_.nodes));

  std::vector<uint8_t> none(rports, kNone8), fast(rports, p.fast_reclaim);
  x_.upload(s.conn, none.data(), rports);
  x_.upload(s.fast, fast.data(), rports);
  const std::vector<uint8_t> swallow = swallow_ports(v_.prm, cfgs_[0], topo_, I);
  x_.upload(s.swallow, swallow.data(), rports);
  const std::vector<uint32_t> no_wire(NN_, kNoWire);
  x_.upload(s.suspect, no_wire.data(), NN_ * 4);
  for (uint32_t i = 0; i < I_; ++i) {
    const std::vector<uint8_t> noisy = noisy_ports(cfgs_[i], topo_);
    x_.upload(s.noisy + uint64_t{i} * noisy.size(), noisy.data(), noisy.size());
    const uint64_t at = static_cast<uint64_t>(cfgs_[i].metro.failure_cycle);
    const bool faults =
        !cfgs_[i].metro.failed_routers.empty() || !cfgs_[i].metro.failed_ports.empty();
    fail_at_.push_back(faults ? at : 0);
    upload_faults(i, at == 0);
  }
}

template <class Exec>
void MetroEngine<Exec>::check_invariants() {
  using namespace metro;
  x_.for_each(E_, CheckInvariants{at(t_), busy_});
  x_.sync();
  static const char* what[] = {"",
                               "a second word into one belt slot in a clock (word %v there)",
                               "crossbar connection to port %v not mirrored there",
                               "a stream for endpoint %v arrived here",
                               "a message arrived with a bad checksum (sum %v)",
                               "a word (%v) arrived while the router owed a reply on its wire"};
  B::throw_violation(v_.s.viol, v_.s.viol_info, what,
                     [](const uint32_t* at) { return "port " + std::to_string(at[1]); });
  B::check_conservation(busy_, "messages the endpoints hold unacknowledged");
}

// The endpoints of instance i holding messages (mode, attempts so far) and the routers with
// connections, the first eight of each.
template <class Exec>
std::string MetroEngine<Exec>::stuck(uint32_t i) const {
  using namespace metro;
  const uint64_t N = v_.prm.endpoints, R = v_.prm.routers, RP = v_.prm.rports;
  const std::vector<uint8_t> mode = download(v_.s.src_mode + i * N, N),
                             conn = download(v_.s.conn + i * R * RP, R * RP);
  static const char* modes[] = {"idle", "sending", "waiting", "backing off"};
  std::ostringstream o;
  int shown = 0;
  for (uint64_t n = 0; n < N && shown < 8; ++n)
    if (mode[n] != kSrcIdle) o << " [endpoint " << n << ": " << modes[mode[n]] << "]", ++shown;
  shown = 0;
  for (uint64_t r = 0; r < R && shown < 8; ++r) {
    uint32_t open = 0;
    for (uint64_t q = 0; q < RP; ++q) open += conn[r * RP + q] != kNone8;
    if (open) o << " [router " << r << ": " << open / 2 << " connections]", ++shown;
  }
  return o.str();
}

// Words per clock on each router port, and per message: attempts, the share of attempts that
// failed, and the one-way time from the first word sent to the last data word received; with
// metro.word_error_rate, the corrupted words, bad checksums and the corrupted wires the sources
// located from the routers' checksums.
template <class Exec>
void MetroEngine<Exec>::family_results(uint32_t i, double m, InstanceResult& r) {
  B::link_results(v_.s.words, i, topo_, m, r);
  const double attempts = static_cast<double>(per_instance_sum(v_.s.attempts)[i]),
               failed = static_cast<double>(per_instance_sum(v_.s.blocked)[i]),
               received = static_cast<double>(per_instance_sum(v_.s.received)[i]),
               oneway = static_cast<double>(per_instance_sum(v_.s.oneway)[i]),
               timed_out = static_cast<double>(per_instance_sum(v_.s.timed_out)[i]);
  r.extra.emplace_back("attempts_per_message",
                       attempts > failed ? attempts / (attempts - failed) : 0.0);
  r.extra.emplace_back("failed_fraction", attempts > 0 ? failed / attempts : 0.0);
  r.extra.emplace_back("one_way_mean", sample_mean(oneway, received));
  r.extra.emplace_back("timed_out_fraction", attempts > 0 ? timed_out / attempts : 0.0);
  if (v_.prm.reads)  // reads whose reply failed its checksum (over the whole run)
    r.extra.emplace_back("bad_replies", static_cast<double>(per_instance_sum(v_.s.bad_replies)[i]));
  if (v_.prm.exchanges > 1)  // good replies, every exchange's, failed attempts' too (whole run)
    r.extra.emplace_back("exchanges_completed",
                         static_cast<double>(per_instance_sum(v_.s.exchanges_done)[i]));
  if (v_.prm.error_threshold == 0 && v_.prm.header_threshold == 0) return;
  // Corrupted words, and the share of messages that reached an endpoint's check and failed it
  // (over the whole run); with corrupted routes, the streams whose header disagreed with the
  // endpoint and the connections the cascade's IN-USE check shut down.
  const double bad = static_cast<double>(per_instance_sum(v_.s.bad_checksums)[i]),
               good = static_cast<double>(per_instance_sum(v_.s.acked)[i]);
  r.extra.emplace_back(
      "words_corrupted",
      static_cast<double>(instance_sums(v_.s.corrupted, uint64_t{v_.prm.elems} * v_.prm.ports)[i]));
  r.extra.emplace_back("bad_checksum_fraction", bad + good > 0 ? bad / (bad + good) : 0.0);
  r.extra.emplace_back("faults_located", static_cast<double>(per_instance_sum(v_.s.located)[i]));
  if (v_.prm.header_threshold == 0) return;
  r.extra.emplace_back("bad_headers", static_cast<double>(per_instance_sum(v_.s.bad_headers)[i]));
  r.extra.emplace_back("inuse_shutdowns",
                       static_cast<double>(instance_sums(v_.s.shutdowns, v_.prm.routers)[i]));
}

}  // namespace ls
