// The T3E family's engine, a template over the backend; compiled once per backend by
// t3e_engine_cpu.cpp and t3e_engine_cuda.cu. Its state, registers, cycle and results; the
// named arrays, terminals, run loop and watchdog are the shared BatchEngine's.
#pragma once
#include <algorithm>
#include <cstring>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include "../../kernels/t3e/invariants.hpp"
#include "../../kernels/t3e/router_cycle.hpp"
#include "../engine/batch_engine.hpp"
#include "../topology/belt_ends.hpp"
#include "../topology/topology.hpp"
#include "fault_routes.hpp"
#include "partial_plane.hpp"
#include "t3e_registers.hpp"
#include "t3e_setup.hpp"

namespace ls {

template <class Exec>
class T3eEngine final : public BatchEngine<Exec> {
  using B = BatchEngine<Exec>;
  using B::download, B::upload, B::per_instance_sum, B::instance_sums;
  using B::x_, B::cfgs_, B::I_, B::E_, B::NN_, B::t_;

 public:
  T3eEngine(const std::vector<Config>& cfgs, const EngineOptions& opts) : B(cfgs, opts) {
    const Config& c = cfgs_[0];
    topo_ = t3e::machine_topology(c);
    B::set_size(topo_.routers, topo_.nodes);
    std::vector<t3e::Registers> regs;
    for (const Config& ci : cfgs_) {
      regs.push_back(t3e::make_registers(ci, topo_));
      faults_.push_back(fault_plan(ci, regs.back()));
      if (regs.back().lut_mode != regs[0].lut_mode)  // auto falls back per numbering
        throw ConfigError("t3e.lut_mode = \"" + ci.t3e.lut_mode + "\" in instance " +
                          std::to_string(regs.size() - 1) +
                          ": allowed only a mode every instance of the batch can use (its "
                          "numbering leads to another than instance 0's; name the mode)");
    }
    for (uint32_t lwho : regs[0].lwho) has_pe_.push_back(lwho != t3e::kNoPe);
    v_.prm = t3e::make_params(c, topo_, regs[0]);
    const t3e::T3eParams& p = v_.prm;
    v_.lay = {p.routers, p.depth, p.adaptive_depth, p.pe_depth, p.slots};
    allocate(regs);
    hot();
  }

  // The registers the kernels index tables by are software's to load, but a number outside the
  // machine would read outside those tables: such a write is refused, naming what is allowed.
  void set_state(const std::string& name, const HostArray& a) override {
    const t3e::T3eParams& p = v_.prm;
    const auto check = [&](const std::vector<uint32_t>& x, const auto& ok, const char* allowed) {
      for (size_t i = 0; i < x.size(); ++i)
        if (!ok(i, x[i]))
          throw ConfigError("state \"" + name + "\": allowed " + allowed + ", here " +
                            std::to_string(x[i]) + " at flat index " + std::to_string(i));
    };
    const auto values = [&](const HostArray& h) {
      std::vector<uint32_t> x(h.itemsize == 4 ? h.bytes.size() / 4 : 0);
      std::memcpy(x.data(), h.bytes.data(), x.size() * 4);
      return x;
    };
    const std::string machine =
        std::to_string(p.routers) + " routers, " + std::to_string(p.pes) + " PEs";
    // A PE's number indexes R_NET_LUT, a router's the routers: each names one with a PE.
    if (name == "pe_router") {
      check(
          values(a), [&](size_t, uint32_t r) { return r < p.routers && has_pe_[r]; },
          ("numbers of routers with a PE (" + machine + ")").c_str());
    } else if (name == "r_lwho") {
      check(
          values(a),
          [&](size_t i, uint32_t l) {
            return has_pe_[i % p.routers] ? l < p.pes : l == t3e::kNoPe;
          },
          ("logical PE numbers below " + std::to_string(p.pes) +
           " at routers with a PE, 0xFFFFFFFF at a partial plane's empty slots")
              .c_str());
    } else if (name == "base_lpe" || name == "virtual_limit") {
      // A partition, [base, base + limit], lies within the PEs (or the PE is in none).
      const bool base = name == "base_lpe";
      const std::vector<uint32_t> other = values(B::state(base ? "virtual_limit" : "base_lpe"));
      check(
          values(a),
          [&](size_t i, uint32_t x) {
            if (i >= other.size()) return true;  // the wrong shape: set_state refuses it
            const uint64_t b = base ? x : other[i], limit = base ? other[i] : x;
            return limit == t3e::kNoPartition || b + limit < p.pes;
          },
          ("partitions within the machine's PEs (base_lpe + virtual_limit below " +
           std::to_string(p.pes) + ", or virtual_limit 0xFFFFFFFF for none)")
              .c_str());
    }
    B::set_state(name, a);
    if (name == "r_bsu") bsu_members();
  }

  // Runs `cycles` cycles, the faults of an instance whose fail_cycle falls among them taking
  // effect at its start.
  void step(uint64_t cycles) override {
    const uint64_t end = t_ + cycles;
    for (;;) {
      uint64_t until = end;
      for (const FaultPlan& f : faults_)
        if (f.pending && f.cycle < until) until = f.cycle;
      advance(until - t_);
      if (t_ == end) break;
      fail(until);
    }
  }

 private:
  // Faults failing at `cycle` in a run (t3e.fail_cycle > 0): the registers software loads then.
  struct FaultPlan {
    bool pending = false;
    uint64_t cycle = 0;
    t3e::Registers after;  // chan, net_lut and the PE numbers change
    t3e::FaultReport report;
  };
  FaultPlan fault_plan(const Config& c, t3e::Registers& g) const {
    FaultPlan f;
    if (c.t3e.failed_links.empty() && c.t3e.failed_nodes.empty()) return f;
    if (c.t3e.fail_cycle == 0) {
      f.report = t3e::route_around(c, topo_, g);
      return f;
    }
    f.after = g;
    f.report = t3e::route_around(c, topo_, f.after);
    f.pending = true;
    f.cycle = static_cast<uint64_t>(c.t3e.fail_cycle);
    return f;
  }
  void fail(uint64_t cycle) {
    for (uint32_t i = 0; i < I_; ++i) {
      FaultPlan& f = faults_[i];
      if (!f.pending || f.cycle != cycle) continue;
      const t3e::Registers& g = f.after;
      auto load = [&](auto* array, const auto& v) {
        x_.upload(array + v.size() * i, v.data(), v.size() * sizeof(v[0]));
      };
      // A spare taking a failed node's number runs that node's application from now: its
      // source, asleep for good while its PE was in no partition, wakes to find its next packet.
      const uint64_t R = v_.prm.routers;
      const std::vector<uint32_t> was = download(v_.pe.virtual_limit + i * R, R);
      std::vector<uint32_t> wake = download(v_.src.gen_next + i * R, R);
      std::vector<uint8_t> hit = download(v_.src.gen_hit + i * R, R);
      for (uint64_t r = 0; r < R; ++r)
        if (was[r] == t3e::kNoPartition && g.virtual_limit[r] != t3e::kNoPartition) {
          wake[r] = static_cast<uint32_t>(cycle);
          hit[r] = 0;
        }
      load(v_.src.gen_next, wake);
      load(v_.src.gen_hit, hit);
      load(v_.s.chan, g.chan);
      load(v_.s.net_lut, g.net_lut);
      load(v_.s.lwho, g.lwho);
      load(v_.s.pe_router, g.pe_router);
      load(v_.pe.base_lpe, g.base_lpe);
      load(v_.pe.virtual_limit, g.virtual_limit);
      f.pending = false;
    }
  }

  void advance(uint64_t cycles) {
    if (cycles == 0) return;
    B::run_family_cycles(
        cycles,
        [this](uint64_t t) {
          return t3e::RouterCycle{{}, at(t)};
        },
        [this] { check_invariants(); });
    x_.for_each(
        E_, t3e::FoldLosses{v_.s.lost_packets, v_.s.lost_flits, v_.st.meas_lost, v_.st.lost_flits});
    x_.sync();
    check_errors();
  }

  void set_window(Window w) override { v_.win = w; }
  void reset_family_stats() override {
    const uint64_t n = E_ * t3e::kPorts;
    std::vector<uint32_t> z(n, 0);
    x_.upload(v_.s.out_flits, z.data(), n * 4);
    x_.upload(v_.s.out_adaptive, z.data(), n * 4);
    std::vector<uint64_t> z64(E_, 0);
    x_.upload(v_.pe.rt_sum, z64.data(), E_ * 8);
    x_.upload(v_.pe.rt_count, z64.data(), E_ * 8);
    x_.upload(v_.pe.rt_max, z.data(), E_ * 4);
    x_.upload(v_.pe.unroutable, z64.data(), E_ * 8);
    for (uint64_t* a :
         {v_.pe.bar_sum, v_.pe.bar_count, v_.pe.eur_sum, v_.pe.eur_count, v_.pe.overruns})
      x_.upload(a, z64.data(), E_ * 8);
    x_.upload(v_.pe.bar_max, z.data(), E_ * 4);
    x_.upload(v_.pe.eur_max, z.data(), E_ * 4);
  }
  void family_results(uint32_t i, double measure, InstanceResult& r) override;
  void barrier_results(uint32_t i, InstanceResult& r);
  std::vector<uint64_t> in_flight() const override {
    std::vector<uint64_t> inj = per_instance_sum(v_.pe.injected);
    const std::vector<uint64_t> got = per_instance_sum(v_.pe.ejected);
    const std::vector<uint64_t> dropped = instance_sums(v_.s.dropped, B::routers_);
    for (uint32_t i = 0; i < I_; ++i) inj[i] -= got[i] + dropped[i];
    return inj;
  }
  std::string stuck(uint32_t i) const override;
  const char* unit() const override { return "flit"; }
  // The PEs in a partition: the others run no application.
  std::vector<uint8_t> active_nodes(uint32_t i) const override {
    const uint64_t R = v_.prm.routers;
    const std::vector<uint32_t> limit = download(v_.pe.virtual_limit + i * R, R);
    std::vector<uint8_t> on(R);
    for (uint64_t r = 0; r < R; ++r) on[r] = limit[r] != t3e::kNoPartition;
    return on;
  }

  t3e::T3eView at(uint64_t t) const { return B::view_at(v_, t); }
  void allocate(const std::vector<t3e::Registers>& regs);
  // The shell's copy of which BSUs have the PE as a child (PeState::bsu_member), from r_bsu.
  void bsu_members() {
    const std::vector<uint32_t> w = download(v_.s.bsu, E_ * t3e::kBsus);
    std::vector<uint32_t> member(E_, 0);
    for (uint64_t k = 0; k < w.size(); ++k)
      member[k / t3e::kBsus] |= (t3e::BsuReg::children(w[k]) >> t3e::kBsuPe & 1u) << k % t3e::kBsus;
    x_.upload(v_.pe.bsu_member, member.data(), E_ * 4);
  }
  void hot();
  void check_invariants();
  void check_errors();

  Topology topo_;
  t3e::T3eView v_{};
  uint64_t* held_ = nullptr;       // [inst, R] flits each router holds (debug)
  std::vector<FaultPlan> faults_;  // [inst]
  std::vector<uint8_t> has_pe_;    // [router] 1: a PE is installed (not a partial plane's gap)
};

// The arrays a clock touches every clock, for run.hot_state = "shared" (with the terminals'):
// the small registers routing reads, the VCs, ports and belts' flags, the PE's; not the flit
// records, R_NET_LUT and the PE table (large, read only), the barrier and special networks'
// (only some runs use them) or the checks'.
template <class Exec>
void T3eEngine<Exec>::hot() {
  const t3e::T3eState& s = v_.s;
  const t3e::PeState& p = v_.pe;
  B::hot_arrays(v_,
                {&s.pwho,       &s.lwho,        &s.lut_override,  &s.vcsel,        &s.chan,
                 &s.dir_port,   &s.port_dir,    &s.ivc_head,      &s.ivc_count,    &s.ivc_dropping,
                 &s.ivc_out,    &s.ivc_out_vc,  &s.ovc_credits,   &s.ovc_owner,    &s.ovc_requests,
                 &s.ovc_rr,     &s.ovc_started, &s.in_sel,        &s.in_rr,        &s.out_hold,
                 &s.out_rr,     &s.out_last,    &s.out_flits,     &s.out_adaptive, &s.in_valid,
                 &s.cr_belt,    &s.last_move,   &s.dropped,       &s.spc_present,  &p.credits,
                 &p.remaining,  &p.size,        &p.set,           &p.dest,         &p.ctime,
                 &p.itime,      &p.seq,         &p.tag,           &p.carried,      &p.outstanding,
                 &p.unroutable, &p.base_lpe,    &p.virtual_limit, &p.rq.dest,      &p.rq.time,
                 &p.rq.origin,  &p.rq.size,     &p.rq.head,       &p.rq.count,     &p.rq.spare,
                 &p.rq.pending, &p.rq.withheld, &p.ej_cr_ptr,     &p.sink.src,     &p.sink.seq,
                 &p.sink.got,   &p.injected,    &p.ejected,       &p.rt_sum,       &p.rt_count,
                 &p.rt_max});
}

template <class Exec>
void T3eEngine<Exec>::allocate(const std::vector<t3e::Registers>& regs) {
  using namespace t3e;
  const T3eParams& p = v_.prm;
  const uint64_t I = I_, R = p.routers, P = kPorts, V = kVcs, S = p.slots, W = kWidth;
  const uint64_t ivcs = E_ * P * V, ports = E_ * P, belts = E_ * S * W;
  T3eState& s = v_.s;
  // The registers, every instance's own.
  auto gather = [&](auto member) {
    std::vector<std::decay_t<decltype((regs[0].*member)[0])>> all;
    for (const Registers& g : regs) all.insert(all.end(), (g.*member).begin(), (g.*member).end());
    return all;
  };
  s.pwho = upload(gather(&Registers::pwho), "r_pwho", {I, R});
  s.lwho = upload(gather(&Registers::lwho), "r_lwho", {I, R});
  s.pe_router = upload(gather(&Registers::pe_router), "pe_router", {I, p.pes});
  s.net_lut = upload(gather(&Registers::net_lut), "r_net_lut", {I, R, p.lut_entries});
  s.lut_override = upload(gather(&Registers::lut_override), "r_lut_override", {I, R});
  s.vcsel = upload(gather(&Registers::vcsel), "r_vcsel", {I, R, kDirections});
  s.chan = upload(gather(&Registers::chan), "r_chan", {I, R, 8});
  std::vector<uint8_t> dir_port = gather(&Registers::dir_port), port_dir(E_ * P, 255);
  for (uint64_t e = 0; e < E_; ++e)
    for (uint32_t d = 0; d < kDirections; ++d) port_dir[e * P + dir_port[e * kDirections + d]] = d;
  s.dir_port = upload(dir_port);
  s.port_dir = upload(port_dir);
  s.buf = alloc<Flit>(*this, E_ * P * v_.lay.port_slots());
  s.ivc_head = alloc<uint8_t>(*this, ivcs, "ivc_head", {I, R, P, V});
  s.ivc_count = alloc<uint8_t>(*this, ivcs, "occupancy", {I, R, P, V});
  // The flits in each input VC's ring buffer, front (oldest) first, as the vc family's views:
  // the adaptive VC's is the longest.
  const T3eLayout lay = v_.lay;
  B::flit_buffer_views(
      s.buf, E_ * P * lay.port_slots(), s.ivc_head, s.ivc_count,
      {I, R, P, V, std::max(lay.depth, lay.adaptive_depth)},
      [lay](uint64_t iv, uint64_t b) {
        return lay.slot(iv / (kPorts * kVcs), static_cast<uint32_t>(iv / kVcs % kPorts),
                        static_cast<uint32_t>(iv % kVcs), static_cast<uint32_t>(b));
      },
      [lay](uint64_t iv) { return lay.capacity(static_cast<uint32_t>(iv % kVcs)); });
  s.ivc_dropping = alloc<uint8_t>(*this, ivcs);
  s.ivc_out = alloc<int8_t>(*this, ivcs, "ivc_out_port", {I, R, P, V});
  s.ivc_out_vc = alloc<uint8_t>(*this, ivcs, "ivc_out_vc", {I, R, P, V});
  s.ovc_credits = alloc<uint8_t>(*this, ivcs, "credits", {I, R, P, V});
  s.ovc_owner = alloc<int8_t>(*this, ivcs, "ovc_owner", {I, R, P, V});
  s.ovc_requests = alloc<uint64_t>(*this, ivcs, "ovc_requests", {I, R, P, V});
  s.ovc_rr = alloc<uint8_t>(*this, ivcs);
  s.ovc_started = alloc<uint8_t>(*this, ivcs, "ovc_started", {I, R, P, V});
  s.in_sel = alloc<int8_t>(*this, ports, "in_sel", {I, R, P});
  s.in_rr = alloc<uint8_t>(*this, ports, "in_rr", {I, R, P});
  s.out_hold = alloc<int8_t>(*this, ports, "out_hold", {I, R, P});
  s.out_rr = alloc<uint8_t>(*this, ports);
  s.out_last = alloc<uint32_t>(*this, ports);
  s.out_flits = alloc<uint32_t>(*this, ports, "link_flits", {I, R, P});
  s.out_adaptive = alloc<uint32_t>(*this, ports, "link_adaptive_flits", {I, R, P});
  s.in_belt = alloc<Flit>(*this, belts);
  s.in_valid = alloc<uint8_t>(*this, belts, "flit_belt", {I, R, S, W});
  s.cr_belt = alloc<int8_t>(*this, belts, "credit_belt", {I, R, S, W});
  s.dropped = alloc<uint64_t>(*this, E_, "dropped_flits", {I, R});
  s.lost_packets = alloc<uint64_t>(*this, E_);
  s.lost_flits = alloc<uint64_t>(*this, E_);
  s.error = alloc<uint32_t>(*this, E_, "config_error", {I, R});
  s.error_info = alloc<uint32_t>(*this, E_ * 4);
  s.viol = alloc<uint32_t>(*this, E_);
  s.viol_info = alloc<uint32_t>(*this, E_ * 4);
  s.bsu = upload(gather(&Registers::bsu), "r_bsu", {I, R, kBsus});
  s.bsu_pending = alloc<uint32_t>(*this, E_ * kBsuLinks * kBsuSignals, "bsu_pending",
                                  {I, R, kBsuLinks, kBsuSignals});
  s.bsu_rr = alloc<uint8_t>(*this, E_ * kBsuLinks);
  s.bsu_belt = alloc<uint8_t>(*this, belts, "barrier_belt", {I, R, S, W});
  s.r_sw = alloc<uint64_t>(*this, E_, "r_sw", {I, R});
  s.r_sget_rtrn = alloc<uint64_t>(*this, E_, "r_sget_rtrn", {I, R});
  s.spc_cmd = alloc<uint64_t>(*this, E_ * 2, "special_command", {I, R, 2});
  s.spc_got = alloc<uint64_t>(*this, E_ * 2, "special_received", {I, R, 2});
  s.spc_belt = alloc<uint64_t>(*this, belts * 2, "special_belt", {I, R, S, W, 2});
  s.spc_present = alloc<uint8_t>(*this, belts, "special_present", {I, R, S, W});
  s.spc_eaten = alloc<uint64_t>(*this, E_, "special_eaten", {I, R});
  s.spc_ignored = alloc<uint64_t>(*this, E_, "special_ignored", {I, R});
  held_ = alloc<uint64_t>(*this, E_);
  PeState& pe = v_.pe;
  const uint64_t Q = p.response_queue;
  pe.credits = alloc<uint8_t>(*this, E_ * V, "pe_credits", {I, R, V});
  pe.remaining = alloc<uint16_t>(*this, E_ * 2, "pe_remaining", {I, R, 2});
  pe.size = alloc<uint16_t>(*this, E_ * 2);
  pe.set = alloc<uint8_t>(*this, E_ * 2);
  for (uint32_t** a : {&pe.dest, &pe.ctime, &pe.itime, &pe.seq, &pe.tag, &pe.carried})
    *a = alloc<uint32_t>(*this, E_ * 2);
  pe.outstanding = alloc<uint32_t>(*this, E_, "outstanding", {I, R});
  pe.unroutable = alloc<uint64_t>(*this, E_);
  pe.base_lpe = upload(gather(&Registers::base_lpe), "base_lpe", {I, R});
  pe.virtual_limit = upload(gather(&Registers::virtual_limit), "virtual_limit", {I, R});
  pe.rq.dest = alloc<uint32_t>(*this, E_ * Q);
  pe.rq.time = alloc<uint32_t>(*this, E_ * Q);
  pe.rq.origin = alloc<uint32_t>(*this, E_ * Q);
  pe.rq.size = alloc<uint32_t>(*this, E_ * Q);
  pe.rq.head = alloc<uint32_t>(*this, E_);
  pe.rq.count = alloc<uint32_t>(*this, E_, "responses_waiting", {I, R});
  pe.rq.spare = alloc<uint32_t>(*this, E_);
  pe.rq.pending = alloc<uint8_t>(*this, E_ * V);
  pe.rq.withheld = alloc<uint8_t>(*this, E_ * V);
  pe.ej_cr_ptr = alloc<uint8_t>(*this, E_);
  pe.sink.src = alloc<uint32_t>(*this, E_ * V);
  pe.sink.seq = alloc<uint32_t>(*this, E_ * V);
  pe.sink.got = alloc<uint16_t>(*this, E_ * V);
  pe.injected = alloc<uint64_t>(*this, E_, "injected_flits", {I, R});
  pe.ejected = alloc<uint64_t>(*this, E_, "ejected_flits", {I, R});
  pe.rt_sum = alloc<uint64_t>(*this, E_);
  pe.rt_count = alloc<uint64_t>(*this, E_);
  pe.rt_max = alloc<uint32_t>(*this, E_);
  pe.bsu_state = alloc<uint8_t>(*this, E_ * kBsus, "bsu_state", {I, R, kBsus});
  pe.bsu_send = alloc<uint32_t>(*this, E_ * 2, "bsu_send", {I, R, 2});
  pe.bsu_member = alloc<uint32_t>(*this, E_);
  pe.round_start = alloc<uint32_t>(*this, E_);
  for (uint64_t** a : {&pe.bar_sum, &pe.bar_count, &pe.eur_sum, &pe.eur_count, &pe.overruns})
    *a = alloc<uint64_t>(*this, E_);
  pe.bar_max = alloc<uint32_t>(*this, E_);
  pe.eur_max = alloc<uint32_t>(*this, E_);
  pe.viol = alloc<uint32_t>(*this, E_);
  pe.viol_info = alloc<uint32_t>(*this, E_ * 4);
  B::allocate_terminals(p.source_queue);
  v_.src = B::src_;
  v_.st = B::st_;
  s.last_move = B::last_move_;
  B::topology_views(topo_);
  // set_state's: the registers software loads (set_state above checks the numbers tables are
  // indexed by; any other value is the program's to get right, as on the machine), and the
  // credits, to stage a fault.
  for (const char* r : {"r_pwho", "r_lwho", "pe_router", "r_net_lut", "r_lut_override", "r_vcsel",
                        "r_chan", "r_bsu", "base_lpe", "virtual_limit", "r_sw", "r_sget_rtrn",
                        "special_command", "special_received", "credits"})
    B::writable(r);
  v_.topo.peer = upload(topo_.peer);
  v_.topo.far_end = upload(far_ends(topo_, p.slots));
  v_.traffic = upload(request_traffic(cfgs_, B::nodes_));
  v_.perm = upload(random_permutations(cfgs_, topo_.nodes));

  // Empty buffers and belts, every credit in hand, nothing owned or selected.
  std::vector<int8_t> none(std::max(belts, ivcs), kNone);
  x_.upload(s.cr_belt, none.data(), belts);
  x_.upload(s.ivc_out, none.data(), ivcs);
  x_.upload(s.ovc_owner, none.data(), ivcs);
  x_.upload(s.in_sel, none.data(), ports);
  x_.upload(s.out_hold, none.data(), ports);
  std::vector<uint8_t> credits(ivcs);
  for (uint64_t k = 0; k < ivcs; ++k)
    credits[k] = static_cast<uint8_t>(v_.lay.credit_capacity(k / V % P, k % V));
  x_.upload(s.ovc_credits, credits.data(), ivcs);
  std::vector<uint8_t> pe_credits(E_ * V, static_cast<uint8_t>(p.depth));
  x_.upload(pe.credits, pe_credits.data(), E_ * V);
  // Each PE can reserve a response slot for every request flit its ejection VC may hold.
  std::vector<uint32_t> spare(E_, p.response_queue - p.pe_depth);
  x_.upload(pe.rq.spare, spare.data(), E_ * 4);
  bsu_members();
}

template <class Exec>
void T3eEngine<Exec>::check_invariants() {
  using namespace t3e;
  x_.for_each(E_, CheckInvariants{at(t_), held_});
  x_.sync();
  static const char* what[] = {"", "a packet for router %v reached this PE",
                               "packets interleaved or incomplete on an ejection VC (seq %v)",
                               "a flit arrived at a full buffer (%v flits)",
                               "credits above the buffer's size (%v)"};
  const auto place = [](const uint32_t* at) {
    return "port " + std::to_string(at[1]) + ", VC " + std::to_string(at[2]);
  };
  B::throw_violation(v_.s.viol, v_.s.viol_info, what, place);  // the router's, then its PE's
  B::throw_violation(v_.pe.viol, v_.pe.viol_info, what, place);
  B::check_conservation(held_, "flits in buffers and on links");
}

// A router stopped a packet for a configuration error, as the hardware does: the run cannot
// go on as configured, so it ends with the error.
template <class Exec>
void T3eEngine<Exec>::check_errors() {
  using namespace t3e;
  const std::vector<uint32_t> err = download(v_.s.error, E_);
  for (uint64_t e = 0; e < E_; ++e) {
    if (!err[e]) continue;
    const std::vector<uint32_t> info = download(v_.s.error_info + e * 4, 4);
    static const char* dirs[] = {"+X", "+Y", "+Z", "-X", "-Y", "-Z"};
    static const char* signals[] = {"completion", "eureka notification", "eureka", "barrier"};
    std::ostringstream o;
    o << "configuration error at instance " << e / v_.prm.routers << ", cycle " << info[0]
      << ", router " << e % v_.prm.routers;
    if (err[e] == kErrBsuTree)
      o << ": BSU " << info[2] << "'s tree (r_bsu) sends a " << signals[info[3] % kBsuSignals]
        << " packet over port " << info[1]
        << ", where its register expects none or the router has no link";
    else
      o << " (input port " << info[1] << ", VC " << info[2] << "): "
        << (err[e] == kErrDateline
                ? std::string("a packet on VC1 reached the dateline of ") + dirs[info[3]] +
                      " and was stopped (an R_VCSEL SELECT bit sends it on VC1 across the "
                      "dateline)"
                : std::string("its routing tag leads ") + dirs[info[3]] +
                      ", where the router has no link (R_NET_LUT)");
    throw SimulationError(o.str());
  }
}

// The first eight routers of instance i holding flits: flits per input port.
template <class Exec>
std::string T3eEngine<Exec>::stuck(uint32_t i) const {
  using namespace t3e;
  const uint64_t R = v_.prm.routers, n = R * kPorts * kVcs;
  const std::vector<uint8_t> count = download(v_.s.ivc_count + i * n, n);
  std::ostringstream o;
  int shown = 0;
  for (uint64_t r = 0; r < R && shown < 8; ++r) {
    std::ostringstream ports;
    bool any = false;
    for (uint32_t p = 0; p < kPorts; ++p)
      for (uint32_t vc = 0; vc < kVcs; ++vc)
        if (const uint32_t c = count[(r * kPorts + p) * kVcs + vc]) {
          ports << " port " << p << " VC " << vc << ": " << c;
          any = true;
        }
    if (!any) continue;
    o << " [router " << r << ":" << ports.str() << "]";
    ++shown;
  }
  // A barrier or eureka packet takes its link before any data flit: rounds that keep every
  // link busy starve the data network, which the watchdog cannot tell from a deadlock.
  if (v_.prm.barrier != kNoBarrier) {
    const uint64_t n_belt = R * v_.prm.slots * kWidth;
    const std::vector<uint8_t> belt = download(v_.s.bsu_belt + i * n_belt, n_belt);
    const uint64_t flying = static_cast<uint64_t>(
        std::count_if(belt.begin(), belt.end(), [](uint8_t c) { return c != 0; }));
    if (flying != 0)
      o << "; the barrier network has " << flying
        << " packets on its links, and they take a link before any data flit: rounds every "
           "t3e.barrier_period = "
        << v_.prm.barrier_period << " clocks over t3e.barrier_bsus = " << v_.prm.barrier_bsus
        << " BSUs may be starving the data network";
  }
  return o.str();
}

// Flits per cycle on each channel, the adaptive VC's share, and the round trip of requests
// created in the window (creation to their response's delivery; paper Figure 7).
template <class Exec>
void T3eEngine<Exec>::family_results(uint32_t i, double m, InstanceResult& r) {
  using namespace t3e;
  const uint64_t R = v_.prm.routers;
  const double total = B::link_results(v_.s.out_flits, i, topo_, m, r);
  const std::vector<uint32_t> ad = download(v_.s.out_adaptive + i * R * kPorts, R * kPorts);
  double adaptive = 0;
  for (uint64_t k = 0; k < ad.size(); ++k)
    if (topo_.peer[k] >= 0) adaptive += ad[k];
  const std::vector<uint64_t> rs = download(v_.pe.rt_sum + i * R, R),
                              rc = download(v_.pe.rt_count + i * R, R);
  const std::vector<uint32_t> rm = download(v_.pe.rt_max + i * R, R);
  double rt = 0, count = 0, rt_max = 0;
  for (uint64_t k = 0; k < R; ++k) {
    rt += static_cast<double>(rs[k]);
    count += static_cast<double>(rc[k]);
    rt_max = std::max<double>(rt_max, rm[k]);
  }
  r.extra.emplace_back("round_trip_mean", sample_mean(rt, count));
  r.extra.emplace_back("round_trip_max", count > 0 ? rt_max : kNothingMeasured);
  r.extra.emplace_back("adaptive_fraction", total > 0 ? adaptive / total : 0.0);
  const std::vector<uint64_t> un = download(v_.pe.unroutable + i * R, R);
  r.extra.emplace_back("unroutable_packets",
                       static_cast<double>(std::accumulate(un.begin(), un.end(), uint64_t{0})));
  r.extra.emplace_back("unreachable_pairs",
                       static_cast<double>(faults_[i].report.unreachable_pairs));
  if (v_.prm.barrier != kNoBarrier) barrier_results(i, r);
}

// Barrier/eureka rounds begun in the window: clocks from a round's start to each member's
// completion and eureka notification (mean and maximum over members and rounds), completions
// seen, and rounds members sat out.
template <class Exec>
void T3eEngine<Exec>::barrier_results(uint32_t i, InstanceResult& r) {
  const uint64_t R = v_.prm.routers;
  auto total = [&](uint64_t* a) {
    const std::vector<uint64_t> x = download(a + i * R, R);
    return static_cast<double>(std::accumulate(x.begin(), x.end(), uint64_t{0}));
  };
  auto most = [&](uint32_t* a) {
    const std::vector<uint32_t> x = download(a + i * R, R);
    return static_cast<double>(*std::max_element(x.begin(), x.end()));
  };
  const double bars = total(v_.pe.bar_count), eurs = total(v_.pe.eur_count);
  r.extra.emplace_back("barrier_latency_mean", sample_mean(total(v_.pe.bar_sum), bars));
  r.extra.emplace_back("barrier_latency_max", most(v_.pe.bar_max));
  r.extra.emplace_back("barrier_completions", bars);
  r.extra.emplace_back("barrier_overruns", total(v_.pe.overruns));
  if (v_.prm.barrier != t3e::kEurekaRounds) return;
  r.extra.emplace_back("eureka_latency_mean", sample_mean(total(v_.pe.eur_sum), eurs));
  r.extra.emplace_back("eureka_latency_max", most(v_.pe.eur_max));
}

}  // namespace ls
