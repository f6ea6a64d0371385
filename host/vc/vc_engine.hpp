// The vc family's engine, a template over the backend (CpuExec or CudaExec); compiled once per
// backend by vc_engine_cpu.cpp and vc_engine_cuda.cu. It owns the state arrays, runs the cycle
// as an ordered list of phases and measures.
#pragma once
#include <algorithm>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "../../kernels/vc/activity_masks.hpp"
#include "../../kernels/vc/invariants.hpp"
#include "../../kernels/vc/link_receive.hpp"
#include "../../kernels/vc/route_compute.hpp"
#include "../../kernels/vc/router_cycle.hpp"
#include "../../kernels/vc/staged_cycle.hpp"
#include "../../kernels/vc/sw_alloc.hpp"
#include "../../kernels/vc/terminal.hpp"
#include "../../kernels/vc/vc_alloc.hpp"
#include "../engine/batch_engine.hpp"
#include "../topology/topology.hpp"
#include "vc_setup.hpp"

namespace ls {

template <class Exec>
class VcEngine final : public BatchEngine<Exec> {
  using B = BatchEngine<Exec>;
  using B::derived, B::download, B::upload, B::host_array, B::field, B::per_instance_sum;
  using B::x_, B::cfgs_, B::I_, B::E_, B::NN_, B::t_, B::debug_;

 public:
  VcEngine(const std::vector<Config>& cfgs, const EngineOptions& opts)
      : B(cfgs, opts), fused_(cfgs[0].run.fuse_phases) {
    const Config& c = cfgs_[0];
    topo_ = build_topology(c.topology);
    B::set_size(topo_.routers, topo_.nodes);
    v_.prm = make_vc_params(c, topo_);
    const VcParams& p = v_.prm;
    v_.lay = VcLayout{p.routers, p.ports, p.vcs, p.depth, p.slots, p.nodes, p.ports + p.terminals};
    allocate();
    initialise();
    hot();
  }

  std::string schedule() const override { return !debug_ && !fused_ ? "phases" : B::schedule(); }

  void step(uint64_t cycles) override {
    if (debug_ || !fused_) {
      for (uint64_t k = 0; k < cycles; ++k) cycle_once();
    } else {
      with_shape([&](auto shape) {
        using Shape = decltype(shape);
        // The CPU's own schedule runs the stages over lists; the GPU's schedules, on either
        // backend, a router at a time.
        if constexpr (Exec::kStaged) {
          if (x_.schedule.kind == ScheduleKind::kAuto)
            return x_.run_ranges(t_, cycles, I_, v_.prm.routers, [this](uint64_t t) {
              return StagedCycle<Shape>{at(t), scratch_};
            });
        }
        x_.run_cycles(
            t_, cycles, I_, v_.prm.routers,
            [this](uint64_t t) {
              return RouterCycle<Shape>{{}, at(t)};
            },
            B::hot_);
      });
      t_ += cycles;
    }
    x_.sync();
  }

 private:
  void set_window(Window w) override { v_.win = w; }
  void reset_family_stats() override;
  void family_results(uint32_t i, double measure, InstanceResult& r) override;
  std::vector<uint64_t> in_flight() const override;
  std::string stuck(uint32_t i) const override;
  const char* unit() const override { return "flit"; }
  // The activity masks are derived from the state just written.
  void state_written() override {
    v_ = at(t_);
    x_.for_each(E_, RebuildMasks{v_});
    x_.sync();
  }

  // vc_owner [inst, router, port, vc]: the input VC (port * vcs + vc) holding each output VC, or
  // -1: the input VCs' out_port and out_vc say it (the kernels keep only the owned-VC mask).
  HostArray owners() const {
    const uint64_t ivc = E_ * v_.prm.ports * v_.prm.vcs, PV = v_.prm.ports * v_.prm.vcs;
    const std::vector<int8_t> port = download(v_.s.ivc_out_port, ivc);
    const std::vector<uint8_t> vc = download(v_.s.ivc_out_vc, ivc);
    std::vector<int16_t> owner(ivc, kNone);
    for (uint64_t iv = 0; iv < ivc; ++iv)
      if (port[iv] >= 0)
        owner[iv - iv % PV + static_cast<uint64_t>(port[iv]) * v_.prm.vcs + vc[iv]] =
            static_cast<int16_t>(iv % PV);
    return host_array('i', owner, field("vc_owner").shape);
  }
  // sa_grant_vc [inst, router, port]: the VC of the input port that won each output port in the
  // last cycle, or -1: a switch grant moves that input's VC pointer to just after the VC sent.
  HostArray granted_vcs() const {
    const uint64_t ports = E_ * v_.prm.ports;
    const std::vector<int8_t> grant = download(v_.s.sa_grant, ports);
    const std::vector<uint8_t> ptr = download(v_.s.sa_vc_ptr, ports);
    std::vector<int8_t> vc(ports, kNone);
    for (uint64_t po = 0; po < ports; ++po)
      if (grant[po] >= 0)
        vc[po] = static_cast<int8_t>(
            (ptr[po - po % v_.prm.ports + static_cast<uint64_t>(grant[po])] + v_.prm.vcs - 1) %
            v_.prm.vcs);
    return host_array('i', vc, {I_, v_.prm.routers, v_.prm.ports});
  }
  // Calls f(shape) with the router shape the stages are compiled for: a fixed one when the
  // backend compiles the common shapes (8x8 meshes and 2-D tori with 2 or 4 VCs, 3-D tori with
  // 2, each with the reference policies fixed or not) and this batch has one of them, else
  // AnyShape. The results are the same either way.
  template <class F>
  void with_shape(F f) {
    if constexpr (Exec::kFixedShapes) {
      const uint32_t P = v_.prm.ports, V = v_.prm.vcs;
      const bool plain = AnyShape::plain(v_.prm);
      if (P == 5 && V == 2) return plain ? f(RouterShape<5, 2, true>{}) : f(RouterShape<5, 2>{});
      if (P == 5 && V == 4) return plain ? f(RouterShape<5, 4, true>{}) : f(RouterShape<5, 4>{});
      if (P == 7 && V == 2) return plain ? f(RouterShape<7, 2, true>{}) : f(RouterShape<7, 2>{});
    }
    f(AnyShape{});
  }

  // The view as of cycle t.
  VcView at(uint64_t t) const { return B::view_at(v_, t); }
  void allocate();
  void initialise();
  void hot();
  void cycle_once();
  void check_invariants();

  bool fused_;
  Topology topo_;
  VcView v_{};
  StagedScratch scratch_{};
};

template <class Exec>
void VcEngine<Exec>::allocate() {
  const VcParams& p = v_.prm;
  const uint64_t I = I_, R = p.routers, P = p.ports, V = p.vcs, N = p.nodes, S = p.slots;
  const uint64_t ivc = E_ * P * V, ports = E_ * P;
  VcState& s = v_.s;
  s.buf = alloc<Flit>(*this, ivc * p.depth);
  s.ivc_head = alloc<uint8_t>(*this, ivc);
  s.ivc_count = alloc<uint8_t>(*this, ivc, "occupancy", {I, R, P, V});
  s.ivc_state = alloc<uint8_t>(*this, ivc, "ivc_state", {I, R, P, V});
  s.ivc_ready = alloc<uint32_t>(*this, ivc);
  s.ivc_route_port = alloc<uint8_t>(*this, ivc, "route_port", {I, R, P, V});
  s.ivc_escape = alloc<uint16_t>(*this, ivc);
  s.ivc_route = alloc<RouteRecord>(*this, ivc);
  s.ivc_out_port = alloc<int8_t>(*this, ivc, "out_port", {I, R, P, V});
  s.ivc_out_vc = alloc<uint8_t>(*this, ivc, "out_vc", {I, R, P, V});
  s.ivc_va_ptr = alloc<uint8_t>(*this, ivc);
  s.ovc_credits = alloc<uint8_t>(*this, ivc, "credits", {I, R, P, V});
  derived(
      "vc_owner", 'i', sizeof(int16_t), {I, R, P, V}, [this] { return owners(); },
      "derived from out_port and out_vc; set those instead");
  // The flits in each input-VC buffer, front (oldest) first: the router view reads them.
  const uint64_t D = p.depth;
  B::flit_buffer_views(
      s.buf, ivc * D, s.ivc_head, s.ivc_count, {I, R, P, V, D},
      [D](uint64_t iv, uint64_t b) { return iv * D + b; }, [D](uint64_t) { return D; });
  s.ovc_va_ptr = alloc<uint8_t>(*this, ivc);
  s.ovc_flits = alloc<uint32_t>(*this, ivc, "vc_flits", {I, R, P, V});
  const uint64_t W = v_.lay.width, belts = E_ * S * W;
  s.in_belt = alloc<Flit>(*this, belts);
  s.in_belt_valid = alloc<uint8_t>(*this, belts, "flit_belt", {I, R, S, W});
  s.cr_belt = alloc<int8_t>(*this, belts, "credit_belt", {I, R, S, W});
  s.sa_out_ptr = alloc<uint8_t>(*this, ports);
  s.sa_in_ptr = alloc<uint8_t>(*this, ports);
  s.sa_vc_ptr = alloc<uint8_t>(*this, ports);
  s.sa_grant = alloc<int8_t>(*this, ports, "sa_grant", {I, R, P});
  derived(
      "sa_grant_vc", 'i', sizeof(int8_t), {I, R, P}, [this] { return granted_vcs(); },
      "derived from sa_grant and the switch allocator's VC pointers");
  s.out_flits = alloc<uint32_t>(*this, ports, "link_flits", {I, R, P});
  s.rc_mask = alloc<uint64_t>(*this, E_);
  s.va_mask = alloc<uint64_t>(*this, E_);
  s.sa_mask = alloc<uint64_t>(*this, E_);
  s.owned_mask = alloc<uint64_t>(*this, E_);
  s.viol = alloc<uint32_t>(*this, E_);
  s.viol_info = alloc<uint32_t>(*this, E_ * 4);
  s.chk_flits = alloc<uint64_t>(*this, E_);
  if constexpr (Exec::kStaged) {
    const uint32_t hw = std::max<uint32_t>(P * V, 2), pw = std::max<uint32_t>(P, 2);
    scratch_ = {E_,
                alloc<uint32_t>(*this, 2 * E_),
                alloc<uint64_t>(*this, 2 * E_),
                hw,
                pw,
                alloc<uint32_t>(*this, E_ * hw),
                alloc<uint32_t>(*this, E_ * pw),
                NN_,
                alloc<uint32_t>(*this, 3 * NN_)};
  }

  NicState& n = v_.nic;
  n.credits = alloc<uint8_t>(*this, NN_ * V, "nic_credits", {I, N, V});
  n.rq.pending = alloc<uint8_t>(*this, NN_ * V, "sink_pending_credits", {I, N, V});
  n.ej_cr_ptr = alloc<uint8_t>(*this, NN_);
  B::allocate_terminals(p.source_queue);
  v_.src = B::src_;
  v_.st = B::st_;
  s.last_move = B::last_move_;
  const uint64_t C = p.pol.classes, Q = p.pol.classes == 2 ? p.reply_queue : 0;
  n.remaining = alloc<uint16_t>(*this, NN_ * C);
  n.cur_vc = alloc<uint8_t>(*this, NN_ * C);
  n.vc_ptr = alloc<uint8_t>(*this, NN_ * C);
  n.cur_dest = alloc<uint32_t>(*this, NN_ * C);
  n.cur_ctime = alloc<uint32_t>(*this, NN_ * C);
  n.cur_itime = alloc<uint32_t>(*this, NN_ * C);
  n.cur_size = alloc<uint16_t>(*this, NN_ * C);
  n.cur_seq = alloc<uint32_t>(*this, NN_ * C);
  n.rq.dest = alloc<uint32_t>(*this, NN_ * Q);
  n.rq.time = alloc<uint32_t>(*this, NN_ * Q);
  n.rq.head = alloc<uint32_t>(*this, NN_);
  n.rq.count = alloc<uint32_t>(*this, NN_, "reply_queue", {I, N});
  n.rq.spare = alloc<uint32_t>(*this, NN_);
  n.rq.withheld = alloc<uint8_t>(*this, NN_ * V, "sink_withheld_credits", {I, N, V});
  n.injected_flits = alloc<uint64_t>(*this, NN_, "injected_flits", {I, N});
  n.ejected_flits = alloc<uint64_t>(*this, NN_, "ejected_flits", {I, N});
  n.sink.src = alloc<uint32_t>(*this, NN_ * V);
  n.sink.seq = alloc<uint32_t>(*this, NN_ * V);
  n.sink.got = alloc<uint16_t>(*this, NN_ * V);
  n.viol = alloc<uint32_t>(*this, NN_);
  n.viol_info = alloc<uint32_t>(*this, NN_ * 4);

  B::topology_views(topo_);
  // set_state's: the credits, to stage a fault or a deadlock (any count: the debug checks
  // report one that is not conserved).
  B::writable("credits");
  VcTopology& t = v_.topo;
  t.peer = upload(topo_.peer);
  t.port_node = upload(topo_.port_node);
  t.node_router = upload(topo_.node_router);
  t.node_port = upload(topo_.node_port);
  const std::vector<uint8_t> credit = credit_delays(cfgs_[0], topo_);
  const std::vector<uint32_t> far = far_ends(topo_, p.slots);
  t.credit_delay = upload(credit);
  t.far_end = upload(far);
  t.flit_slot = upload(far_slots(topo_, p.slots, far, out_delays(cfgs_[0], topo_)));
  t.credit_slot = upload(far_slots(topo_, p.slots, far, credit));
  t.coords = upload(packed_coords(topo_));
  v_.traffic = upload(traffic_params(cfgs_, B::nodes_));
  v_.perm = upload(random_permutations(cfgs_, topo_.nodes));
}

// The arrays a cycle touches every cycle, for run.hot_state = "shared" (with the terminals'):
// all but the flit records (buffers and belts) and the debug checks'.
template <class Exec>
void VcEngine<Exec>::hot() {
  const VcState& s = v_.s;
  const NicState& n = v_.nic;
  B::hot_arrays(
      v_, {&s.ivc_head,    &s.ivc_count,   &s.ivc_state,      &s.ivc_ready,     &s.ivc_route_port,
           &s.ivc_escape,  &s.ivc_route,   &s.ivc_out_port,   &s.ivc_out_vc,    &s.ivc_va_ptr,
           &s.ovc_credits, &s.ovc_va_ptr,  &s.ovc_flits,      &s.in_belt_valid, &s.cr_belt,
           &s.sa_out_ptr,  &s.sa_in_ptr,   &s.sa_vc_ptr,      &s.sa_grant,      &s.out_flits,
           &s.rc_mask,     &s.va_mask,     &s.sa_mask,        &s.owned_mask,    &s.last_move,
           &n.credits,     &n.ej_cr_ptr,   &n.remaining,      &n.cur_vc,        &n.vc_ptr,
           &n.cur_dest,    &n.cur_ctime,   &n.cur_itime,      &n.cur_size,      &n.cur_seq,
           &n.rq.dest,     &n.rq.time,     &n.rq.head,        &n.rq.count,      &n.rq.spare,
           &n.rq.pending,  &n.rq.withheld, &n.injected_flits, &n.ejected_flits, &n.sink.src,
           &n.sink.seq,    &n.sink.got});
}

template <class Exec>
void VcEngine<Exec>::initialise() {
  const VcParams& p = v_.prm;
  const uint64_t P = p.ports, V = p.vcs, ivc = E_ * P * V;
  std::vector<uint8_t> credits(ivc, 0);
  for (uint64_t e = 0; e < E_; ++e)
    for (uint32_t q = 0; q < P; ++q)
      if (topo_.peer[(e % p.routers) * P + q] >= 0 || topo_.port_node[(e % p.routers) * P + q] >= 0)
        std::fill_n(credits.begin() + static_cast<int64_t>((e * P + q) * V), V,
                    static_cast<uint8_t>(p.depth));
  x_.upload(v_.s.ovc_credits, credits.data(), credits.size());
  const uint64_t belts = E_ * p.slots * v_.lay.width;
  std::vector<int8_t> none8(std::max(ivc, belts), -1);
  x_.upload(v_.s.ivc_out_port, none8.data(), ivc);
  x_.upload(v_.s.cr_belt, none8.data(), belts);
  x_.upload(v_.s.sa_grant, none8.data(), E_ * P);
  std::vector<uint8_t> nic_credits(NN_ * V, static_cast<uint8_t>(p.depth));
  x_.upload(v_.nic.credits, nic_credits.data(), nic_credits.size());
  // Request-reply: every request credit the router starts with has a reply slot reserved.
  if (p.pol.classes == 2) {
    std::vector<uint32_t> spare(NN_, p.reply_queue - p.vcs / 2 * p.depth);
    x_.upload(v_.nic.rq.spare, spare.data(), NN_ * 4);
  }
}

// One cycle: the vc family's phases in order, each one parallel step over its elements, or
// all of them fused into one step over routers (the default; identical results).
template <class Exec>
void VcEngine<Exec>::cycle_once() {
  v_ = at(t_);
  if (fused_) {
    x_.for_each(E_, RouterCycle<>{{}, v_});
  } else {
    x_.for_each(E_, CreditReceive{v_});
    x_.for_each(E_, RouteCompute{v_});
    x_.for_each(E_, VcAlloc{v_});
    x_.for_each(E_, SwAlloc{v_});
    x_.for_each(NN_, Terminal{v_});
    x_.for_each(E_, FlitReceive{v_});
  }
  ++t_;  // the cycle has run, whether or not its checks pass
  if (debug_) check_invariants();
}

template <class Exec>
void VcEngine<Exec>::check_invariants() {
  x_.for_each(E_, CheckInvariants{v_});
  const VcParams& p = v_.prm;
  auto where_router = [&](uint64_t e, const std::vector<uint32_t>& info) {
    std::ostringstream o;
    o << "instance " << e / p.routers << ", cycle " << info[e * 4] << ", router " << e % p.routers
      << ", port " << info[e * 4 + 1] << ", vc " << info[e * 4 + 2];
    return o.str();
  };
  static const char* what[] = {"",
                               "buffer overflow (occupancy would be %v)",
                               "credits + occupancy + in flight = %v, expected vc_depth = %d",
                               "a non-head flit (packet %v) at the front of an idle VC",
                               "flit for node %v ejected here",
                               "packet %v arrived out of order or incomplete",
                               "activity masks disagree with VC states (%v)"};
  auto describe = [&](uint32_t code, uint32_t value) {
    std::string s = what[code];
    s.replace(s.find("%v"), 2, std::to_string(value));
    if (s.find("%d") != std::string::npos) s.replace(s.find("%d"), 2, std::to_string(p.depth));
    return s;
  };
  std::vector<uint32_t> viol = download(v_.s.viol, E_);
  for (uint64_t e = 0; e < E_; ++e)
    if (viol[e]) {
      std::vector<uint32_t> info = download(v_.s.viol_info, E_ * 4);
      std::string from;
      const int32_t peer = topo_.peer[(e % p.routers) * p.ports + info[e * 4 + 1]];
      if (viol[e] == kViolCredits && peer >= 0)
        from = " (the channel from router " + std::to_string(peer / p.ports) + ", port " +
               std::to_string(peer % p.ports) + ")";
      throw SimulationError("invariant violated at " + where_router(e, info) + from + ": " +
                            describe(viol[e], info[e * 4 + 3]));
    }
  std::vector<uint32_t> nviol = download(v_.nic.viol, NN_);
  for (uint64_t ne = 0; ne < NN_; ++ne)
    if (nviol[ne]) {
      std::vector<uint32_t> info = download(v_.nic.viol_info, NN_ * 4);
      std::ostringstream o;
      o << "invariant violated at instance " << ne / p.nodes << ", cycle " << info[ne * 4]
        << ", node " << ne % p.nodes << " (router port " << info[ne * 4 + 1] << ", vc "
        << info[ne * 4 + 2] << "): " << describe(nviol[ne], info[ne * 4 + 3]);
      throw SimulationError(o.str());
    }
  // Flits are conserved: injected - ejected = held in buffers and on belts.
  B::check_conservation(v_.s.chk_flits, "flits in the network");
}

template <class Exec>
std::vector<uint64_t> VcEngine<Exec>::in_flight() const {
  std::vector<uint64_t> inj = per_instance_sum(v_.nic.injected_flits),
                        ej = per_instance_sum(v_.nic.ejected_flits);
  for (uint32_t i = 0; i < I_; ++i) inj[i] -= ej[i];
  return inj;
}

// The first eight input VCs of instance i holding flits, with their state.
template <class Exec>
std::string VcEngine<Exec>::stuck(uint32_t i) const {
  const VcParams& p = v_.prm;
  std::vector<uint8_t> occ = download(v_.s.ivc_count, E_ * p.ports * p.vcs);
  std::vector<uint8_t> st = download(v_.s.ivc_state, E_ * p.ports * p.vcs);
  std::ostringstream o;
  int shown = 0;
  for (uint64_t r = 0; r < p.routers && shown < 8; ++r)
    for (uint32_t q = 0; q < p.ports && shown < 8; ++q)
      for (uint32_t c = 0; c < p.vcs && shown < 8; ++c) {
        uint64_t k = ((i * p.routers + r) * p.ports + q) * p.vcs + c;
        if (!occ[k]) continue;
        o << " [router " << r << " port " << q << " vc " << c << ": " << int(occ[k])
          << " flits, state "
          << (st[k] == kIvcIdle      ? "idle"
              : st[k] == kIvcVcAlloc ? "vc_alloc"
                                     : "active")
          << "]";
        ++shown;
      }
  return o.str();
}

template <class Exec>
void VcEngine<Exec>::reset_family_stats() {
  std::vector<uint32_t> z32(E_ * v_.prm.ports * v_.prm.vcs, 0);
  x_.upload(v_.s.ovc_flits, z32.data(), E_ * v_.prm.ports * v_.prm.vcs * 4);
  x_.upload(v_.s.out_flits, z32.data(), E_ * v_.prm.ports * 4);
}

// Flits per cycle on each link and VC over the window.
template <class Exec>
void VcEngine<Exec>::family_results(uint32_t i, double m, InstanceResult& r) {
  const VcParams& p = v_.prm;
  const uint64_t rp = uint64_t{p.routers} * p.ports, rp0 = i * rp;
  B::link_results(v_.s.out_flits, i, topo_, m, r);
  const std::vector<uint32_t> vcf = download(v_.s.ovc_flits + rp0 * p.vcs, rp * p.vcs);
  r.vc_utilization.resize(rp * p.vcs);
  for (uint64_t k = 0; k < r.vc_utilization.size(); ++k) r.vc_utilization[k] = vcf[k] / m;
}

}  // namespace ls
