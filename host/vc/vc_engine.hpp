// The vc family's engine, a template over the backend (CpuExec or CudaExec); compiled once per
// backend by vc_engine_cpu.cpp and vc_engine_cuda.cu. It owns the state arrays, runs the cycle
// as an ordered list of phases and measures.
#pragma once
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <functional>
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
#include "../engine/engine.hpp"
#include "../engine/measurement.hpp"
#include "../topology/topology.hpp"
#include "vc_setup.hpp"

namespace ls {

// An empty slot in the buffer_* state arrays. A flit's meta word never is all ones (its VC bits
// stay below 16), so buffer_meta tells empty slots exactly; occupancy counts the others.
constexpr uint32_t kNoFlit = 0xFFFFFFFFu;

// Sums the latency histogram over the nodes of each instance: element = (instance, bin).
struct HistReduce {
  const uint32_t* hist;
  uint64_t* out;
  uint32_t nodes;
  LS_HD void operator()(uint64_t i) const {
    const uint64_t inst = i / kHistBins, bin = i % kHistBins;
    uint64_t s = 0;
    for (uint32_t n = 0; n < nodes; ++n) s += hist[(inst * nodes + n) * kHistBins + bin];
    out[i] = s;
  }
};

template <class Exec>
class VcEngine final : public Engine {
 public:
  VcEngine(const std::vector<Config>& cfgs, const EngineOptions& opts)
      : x_(opts.threads), cfgs_(cfgs), debug_(opts.debug), fused_(cfgs[0].run.fuse_phases) {
    const Config& c = cfgs_[0];
    topo_ = build_topology(c.topology);
    I_ = static_cast<uint32_t>(cfgs_.size());
    E_ = static_cast<uint64_t>(I_) * topo_.routers;
    NN_ = static_cast<uint64_t>(I_) * topo_.nodes;
    v_.prm = make_vc_params(c, topo_);
    const VcParams& p = v_.prm;
    v_.lay = VcLayout{p.routers, p.ports, p.vcs, p.depth, p.slots, p.nodes, p.ports + p.terminals};
    allocate();
    initialise();
  }

  ~VcEngine() override {
    for (void* a : allocs_) x_.free_bytes(a);
  }

  void check_deadlock() override { watchdog(static_cast<uint64_t>(cfgs_[0].run.watchdog)); }

  void step(uint64_t cycles) override {
    if (debug_ || !fused_) {
      for (uint64_t k = 0; k < cycles; ++k) cycle_once();
    } else {
      with_shape([&](auto shape) {
        using Shape = decltype(shape);
        x_.run_cycles(t_, cycles, I_, v_.prm.routers, [this](uint64_t t) {
          if constexpr (Exec::kStaged)
            return StagedCycle<Shape>{at(t), scratch_};
          else
            return RouterCycle<Shape>{at(t)};
        });
      });
      t_ += cycles;
    }
    x_.sync();
  }

  std::vector<InstanceResult> run() override;

  uint64_t cycle() const override { return t_; }
  uint32_t instances() const override { return I_; }
  const char* backend() const override { return Exec::kName; }

  std::vector<std::string> state_names() const override {
    std::vector<std::string> n;
    for (const Field& f : fields_) n.push_back(f.name);
    return n;
  }

  HostArray state(const std::string& name) const override {
    const Field& f = field(name);
    if (f.derive) return f.derive();
    HostArray a{f.dtype, f.itemsize, f.shape, {}};
    a.bytes.resize(f.bytes());
    x_.download(a.bytes.data(), f.ptr, a.bytes.size());
    return a;
  }

  void set_state(const std::string& name, const HostArray& a) override {
    const Field& f = field(name);
    if (f.derive)
      throw ConfigError("state \"" + name + "\": allowed only to read (" + f.derived_from + ")");
    if (a.dtype != f.dtype || a.itemsize != f.itemsize || a.shape != f.shape)
      throw ConfigError("state \"" + name +
                        "\": allowed only an array of the shape and type it has");
    x_.upload(f.ptr, a.bytes.data(), f.bytes());
    v_ = at(t_);
    x_.for_each(E_, RebuildMasks{v_});  // the masks are derived from the state just written
    x_.sync();
  }

 private:
  struct Field {
    std::string name;
    void* ptr;
    char dtype;
    uint32_t itemsize;
    std::vector<uint64_t> shape;
    std::function<HostArray()> derive = {};  // computed from other state, not stored
    std::string derived_from = {};
    uint64_t bytes() const {
      uint64_t n = itemsize;
      for (uint64_t d : shape) n *= d;
      return n;
    }
  };

  const Field& field(const std::string& name) const {
    std::string known;
    for (const Field& f : fields_) {
      if (f.name == name) return f;
      known += (known.empty() ? "" : ", ") + f.name;
    }
    throw ConfigError("state \"" + name + "\": allowed " + known);
  }

  // Allocates a zeroed device array; a named one is readable through state().
  template <class T>
  T* alloc(uint64_t n, const char* name = nullptr, std::vector<uint64_t> shape = {}) {
    T* p = static_cast<T*>(x_.alloc_bytes(n * sizeof(T)));
    allocs_.push_back(p);
    if (name) fields_.push_back({name, p, std::is_signed<T>::value ? 'i' : 'u', sizeof(T), shape});
    return p;
  }
  // Registers a state array computed from others when read (state()), not kept by the kernels.
  void derived(const char* name, char dtype, uint32_t itemsize, std::vector<uint64_t> shape,
               std::function<HostArray()> f, const char* from) {
    fields_.push_back({name, nullptr, dtype, itemsize, std::move(shape), std::move(f), from});
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
  // buffer_<field> [inst, router, port, vc, depth]: `member` of the flits in each input VC's
  // ring buffer, from its front (ivc_head) for occupancy flits, kNoFlit in the slots after.
  HostArray buffered(uint32_t Flit::*member) const {
    const uint64_t ivc = E_ * v_.prm.ports * v_.prm.vcs, D = v_.prm.depth;
    const std::vector<Flit> buf = download(v_.s.buf, ivc * D);
    const std::vector<uint8_t> head = download(v_.s.ivc_head, ivc),
                               count = download(v_.s.ivc_count, ivc);
    std::vector<uint32_t> out(ivc * D, kNoFlit);
    for (uint64_t iv = 0; iv < ivc; ++iv)
      for (uint64_t k = 0; k < count[iv]; ++k)
        out[iv * D + k] = buf[iv * D + (head[iv] + k) % D].*member;
    return host_array('u', out, {I_, v_.prm.routers, v_.prm.ports, v_.prm.vcs, v_.prm.depth});
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
  // A [router, port] topology table repeated for each instance.
  HostArray per_instance(const std::vector<int32_t>& table, const char* name) const {
    std::vector<int32_t> out;
    for (uint32_t i = 0; i < I_; ++i) out.insert(out.end(), table.begin(), table.end());
    return host_array('i', out, field(name).shape);
  }
  template <class T>
  static HostArray host_array(char dtype, const std::vector<T>& v, std::vector<uint64_t> shape) {
    HostArray a{dtype, sizeof(T), std::move(shape), std::vector<uint8_t>(v.size() * sizeof(T))};
    std::memcpy(a.bytes.data(), v.data(), a.bytes.size());
    return a;
  }
  template <class T>
  T* upload(const std::vector<T>& h, const char* name = nullptr, std::vector<uint64_t> shape = {}) {
    T* p = alloc<T>(h.size(), name, shape);
    x_.upload(p, h.data(), h.size() * sizeof(T));
    return p;
  }
  template <class T>
  std::vector<T> download(const T* p, uint64_t n) const {
    std::vector<T> h(n);
    x_.download(h.data(), p, n * sizeof(T));
    return h;
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
  VcView at(uint64_t t) const {
    VcView w = v_;
    w.t = t;
    w.now = belt_slot(t, w.lay.slots);
    const uint64_t rp = uint64_t{w.prm.routers} * w.prm.ports;
    w.flit_to = w.topo.flit_slot + w.now * rp;
    w.credit_to = w.topo.credit_slot + w.now * rp;
    return w;
  }
  void allocate();
  void initialise();
  void cycle_once();
  void check_invariants();
  void watchdog(uint64_t since);
  void reset_stats();
  // Sums a per-terminal array ([inst, node]) over the nodes of each instance.
  template <class T>
  std::vector<uint64_t> per_instance_sum(const T* p) const;

  Exec x_;
  std::vector<Config> cfgs_;
  bool debug_, fused_;
  Topology topo_;
  uint32_t I_ = 0;
  uint64_t E_ = 0, NN_ = 0, t_ = 0;
  VcView v_{};
  std::vector<void*> allocs_;
  std::vector<Field> fields_;
  uint64_t* hist_sum_ = nullptr;
  StagedScratch scratch_{};
};

template <class Exec>
void VcEngine<Exec>::allocate() {
  const VcParams& p = v_.prm;
  const uint64_t I = I_, R = p.routers, P = p.ports, V = p.vcs, N = p.nodes, S = p.slots;
  const uint64_t ivc = E_ * P * V, ports = E_ * P;
  VcState& s = v_.s;
  s.buf = alloc<Flit>(ivc * p.depth);
  s.ivc_head = alloc<uint8_t>(ivc);
  s.ivc_count = alloc<uint8_t>(ivc, "occupancy", {I, R, P, V});
  s.ivc_state = alloc<uint8_t>(ivc, "ivc_state", {I, R, P, V});
  s.ivc_ready = alloc<uint32_t>(ivc);
  s.ivc_route_port = alloc<uint8_t>(ivc, "route_port", {I, R, P, V});
  s.ivc_escape = alloc<uint16_t>(ivc);
  s.ivc_route = alloc<RouteRecord>(ivc);
  s.ivc_out_port = alloc<int8_t>(ivc, "out_port", {I, R, P, V});
  s.ivc_out_vc = alloc<uint8_t>(ivc, "out_vc", {I, R, P, V});
  s.ivc_va_ptr = alloc<uint8_t>(ivc);
  s.ovc_credits = alloc<uint8_t>(ivc, "credits", {I, R, P, V});
  derived(
      "vc_owner", 'i', sizeof(int16_t), {I, R, P, V}, [this] { return owners(); },
      "derived from out_port and out_vc; set those instead");
  // The flits in each input-VC buffer, one array per field, front (oldest) first: the router
  // view reads them; the kernels keep ring buffers, whose order this hides.
  const std::vector<uint64_t> slots_shape{I, R, P, V, p.depth};
  const std::pair<const char*, uint32_t Flit::*> flit_fields[] = {
      {"buffer_dest", &Flit::dest},   {"buffer_src", &Flit::src},     {"buffer_seq", &Flit::seq},
      {"buffer_ctime", &Flit::ctime}, {"buffer_itime", &Flit::itime}, {"buffer_meta", &Flit::meta}};
  for (const auto& [name, member] : flit_fields)
    derived(
        name, 'u', sizeof(uint32_t), slots_shape, [this, m = member] { return buffered(m); },
        "a view of the VC buffers, which are not settable");
  s.ovc_va_ptr = alloc<uint8_t>(ivc);
  s.ovc_flits = alloc<uint32_t>(ivc, "vc_flits", {I, R, P, V});
  const uint64_t W = v_.lay.width, belts = E_ * S * W;
  s.in_belt = alloc<Flit>(belts);
  s.in_belt_valid = alloc<uint8_t>(belts, "flit_belt", {I, R, S, W});
  s.cr_belt = alloc<int8_t>(belts, "credit_belt", {I, R, S, W});
  s.sa_out_ptr = alloc<uint8_t>(ports);
  s.sa_in_ptr = alloc<uint8_t>(ports);
  s.sa_vc_ptr = alloc<uint8_t>(ports);
  s.sa_grant = alloc<int8_t>(ports, "sa_grant", {I, R, P});
  derived(
      "sa_grant_vc", 'i', sizeof(int8_t), {I, R, P}, [this] { return granted_vcs(); },
      "derived from sa_grant and the switch allocator's VC pointers");
  s.out_flits = alloc<uint32_t>(ports, "link_flits", {I, R, P});
  s.rc_mask = alloc<uint64_t>(E_);
  s.va_mask = alloc<uint64_t>(E_);
  s.sa_mask = alloc<uint64_t>(E_);
  s.owned_mask = alloc<uint64_t>(E_);
  s.last_move = alloc<uint32_t>(E_, "last_move", {I, R});
  s.viol = alloc<uint32_t>(E_);
  s.viol_info = alloc<uint32_t>(E_ * 4);
  s.chk_flits = alloc<uint64_t>(E_);
  if constexpr (Exec::kStaged) {
    const uint32_t hw = std::max<uint32_t>(P * V, 2), pw = std::max<uint32_t>(P, 2);
    scratch_ = {E_,
                alloc<uint32_t>(2 * E_),
                alloc<uint64_t>(2 * E_),
                hw,
                pw,
                alloc<uint32_t>(E_ * hw),
                alloc<uint32_t>(E_ * pw),
                NN_,
                alloc<uint32_t>(3 * NN_)};
  }

  NicState& n = v_.nic;
  n.credits = alloc<uint8_t>(NN_ * V, "nic_credits", {I, N, V});
  n.ej_pending = alloc<uint8_t>(NN_ * V, "sink_pending_credits", {I, N, V});
  n.ej_cr_ptr = alloc<uint8_t>(NN_);
  n.cursor = alloc<uint32_t>(NN_);
  n.on_cursor = alloc<uint8_t>(NN_);
  n.gen_next = alloc<uint32_t>(NN_);
  n.gen_hit = alloc<uint8_t>(NN_);
  n.on_gen = alloc<uint8_t>(NN_);
  n.queued = alloc<uint32_t>(NN_, "source_queue", {I, N});
  n.created = alloc<uint32_t>(NN_, "packets_created", {I, N});
  n.sq_ring = alloc<uint32_t>(NN_ * p.source_queue);
  n.sq_head = alloc<uint32_t>(NN_);
  n.seq = alloc<uint32_t>(NN_, "packets_started", {I, N});
  const uint64_t C = p.pol.classes, Q = p.pol.classes == 2 ? p.reply_queue : 0;
  n.remaining = alloc<uint16_t>(NN_ * C);
  n.cur_vc = alloc<uint8_t>(NN_ * C);
  n.vc_ptr = alloc<uint8_t>(NN_ * C);
  n.cur_dest = alloc<uint32_t>(NN_ * C);
  n.cur_ctime = alloc<uint32_t>(NN_ * C);
  n.cur_itime = alloc<uint32_t>(NN_ * C);
  n.cur_size = alloc<uint16_t>(NN_ * C);
  n.cur_seq = alloc<uint32_t>(NN_ * C);
  n.rq_dest = alloc<uint32_t>(NN_ * Q);
  n.rq_ctime = alloc<uint32_t>(NN_ * Q);
  n.rq_head = alloc<uint32_t>(NN_);
  n.rq_count = alloc<uint32_t>(NN_, "reply_queue", {I, N});
  n.rq_spare = alloc<uint32_t>(NN_);
  n.ej_withheld = alloc<uint8_t>(NN_ * V, "sink_withheld_credits", {I, N, V});
  n.injected_flits = alloc<uint64_t>(NN_, "injected_flits", {I, N});
  n.ejected_flits = alloc<uint64_t>(NN_, "ejected_flits", {I, N});
  n.sink_src = alloc<uint32_t>(NN_ * V);
  n.sink_seq = alloc<uint32_t>(NN_ * V);
  n.sink_got = alloc<uint16_t>(NN_ * V);
  n.viol = alloc<uint32_t>(NN_);
  n.viol_info = alloc<uint32_t>(NN_ * 4);

  StatsState& st = v_.st;
  st.created_flits = alloc<uint64_t>(NN_);
  st.ejected_flits = alloc<uint64_t>(NN_);
  st.meas_created = alloc<uint64_t>(NN_);
  st.meas_delivered = alloc<uint64_t>(NN_);
  st.refused = alloc<uint64_t>(NN_);
  st.lat_sum = alloc<uint64_t>(NN_);
  st.nlat_sum = alloc<uint64_t>(NN_);
  st.hops_sum = alloc<uint64_t>(NN_);
  st.lat_max = alloc<uint32_t>(NN_);
  st.hist = alloc<uint32_t>(NN_ * kHistBins);
  hist_sum_ = alloc<uint64_t>(I * kHistBins);

  // The topology, for drawing the network: the same for every instance, shaped like the rest.
  derived(
      "peer", 'i', sizeof(int32_t), {I, R, P}, [this] { return per_instance(topo_.peer, "peer"); },
      "the topology, fixed by the configuration");
  derived(
      "port_node", 'i', sizeof(int32_t), {I, R, P},
      [this] { return per_instance(topo_.port_node, "port_node"); },
      "the topology, fixed by the configuration");
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
  v_.traffic = upload(traffic_params(cfgs_));
  v_.perm = upload(random_permutations(cfgs_, topo_.nodes));
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
    x_.upload(v_.nic.rq_spare, spare.data(), NN_ * 4);
  }
}

// One cycle: the vc family's phases in order, each one parallel step over its elements, or
// all of them fused into one step over routers (the default; identical results).
template <class Exec>
void VcEngine<Exec>::cycle_once() {
  v_ = at(t_);
  if (fused_) {
    x_.for_each(E_, RouterCycle<>{v_});
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
template <class T>
std::vector<uint64_t> VcEngine<Exec>::per_instance_sum(const T* p) const {
  std::vector<T> h = download(p, NN_);
  std::vector<uint64_t> out(I_, 0);
  for (uint64_t i = 0; i < NN_; ++i) out[i / v_.prm.nodes] += h[i];
  return out;
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
  std::vector<uint64_t> held = download(v_.s.chk_flits, E_),
                        inj = per_instance_sum(v_.nic.injected_flits),
                        ej = per_instance_sum(v_.nic.ejected_flits);
  for (uint32_t i = 0; i < I_; ++i) {
    uint64_t h = 0;
    for (uint64_t r = 0; r < p.routers; ++r) h += held[i * p.routers + r];
    if (inj[i] - ej[i] != h) {
      std::ostringstream o;
      o << "invariant violated at instance " << i << ", cycle " << v_.t << ": flits injected ("
        << inj[i] << ") - ejected (" << ej[i] << ") != flits in the network (" << h << ")";
      throw SimulationError(o.str());
    }
  }
}

// Deadlock watchdog: flits in flight but none has left a router for `limit` cycles.
template <class Exec>
void VcEngine<Exec>::watchdog(uint64_t limit) {
  if (limit == 0 || t_ < limit) return;
  const VcParams& p = v_.prm;
  std::vector<uint32_t> last = download(v_.s.last_move, E_);
  std::vector<uint64_t> inj = per_instance_sum(v_.nic.injected_flits),
                        ej = per_instance_sum(v_.nic.ejected_flits);
  for (uint32_t i = 0; i < I_; ++i) {
    if (inj[i] == ej[i]) continue;
    uint32_t newest = 0;
    for (uint64_t r = 0; r < p.routers; ++r) newest = std::max(newest, last[i * p.routers + r]);
    if (t_ - newest < limit) continue;
    std::vector<uint8_t> occ = download(v_.s.ivc_count, E_ * p.ports * p.vcs);
    std::vector<uint8_t> st = download(v_.s.ivc_state, E_ * p.ports * p.vcs);
    std::ostringstream o;
    o << "deadlock in instance " << i << ": no flit has moved since cycle " << newest << " (now "
      << t_ << ", " << inj[i] - ej[i] << " flits in flight); stuck:";
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
    throw SimulationError(o.str());
  }
}

// Fresh measurement accumulators, so run() may follow step() or another run().
template <class Exec>
void VcEngine<Exec>::reset_stats() {
  const StatsState& st = v_.st;
  std::vector<uint64_t> z64(NN_, 0);
  for (uint64_t* a : {st.created_flits, st.ejected_flits, st.meas_created, st.meas_delivered,
                      st.refused, st.lat_sum, st.nlat_sum, st.hops_sum})
    x_.upload(a, z64.data(), NN_ * 8);
  std::vector<uint32_t> z32(std::max(NN_ * kHistBins, E_ * v_.prm.ports * v_.prm.vcs), 0);
  x_.upload(st.lat_max, z32.data(), NN_ * 4);
  x_.upload(st.hist, z32.data(), NN_ * kHistBins * 4);
  x_.upload(v_.s.ovc_flits, z32.data(), E_ * v_.prm.ports * v_.prm.vcs * 4);
  x_.upload(v_.s.out_flits, z32.data(), E_ * v_.prm.ports * 4);
}

template <class Exec>
std::vector<InstanceResult> VcEngine<Exec>::run() {
  const auto t0 = std::chrono::steady_clock::now();
  const RunConfig& rc = cfgs_[0].run;
  const StatsState& st = v_.st;
  const uint64_t start = t_;
  const uint64_t wd = static_cast<uint64_t>(rc.watchdog);
  const uint64_t chunk = std::max<uint64_t>(64, std::min<uint64_t>(1024, wd ? wd / 4 : 1024));
  auto advance_to = [&](uint64_t end) {
    while (t_ < end) {
      step(std::min(chunk, end - t_));
      watchdog(wd);
    }
  };
  // Automatic warm-up: periods of run.warmup cycles until every instance's accepted load and
  // mean latency (of packets created and delivered in the period) settle.
  bool converged = true;
  if (rc.warmup_auto) {
    const uint64_t period = std::max<uint64_t>(100, static_cast<uint64_t>(rc.warmup));
    std::vector<double> prev_acc(I_, -1), prev_lat(I_, -1);
    converged = false;
    for (int k = 0; k < 20 && !converged; ++k) {
      v_.win_start = t_;
      v_.win_end = t_ + period;
      reset_stats();
      advance_to(v_.win_end);
      std::vector<uint64_t> ej = per_instance_sum(st.ejected_flits),
                            lat = per_instance_sum(st.lat_sum),
                            n = per_instance_sum(st.meas_delivered);
      converged = k > 0;
      for (uint32_t i = 0; i < I_; ++i) {
        const double acc = static_cast<double>(ej[i]);
        const double l = n[i] ? static_cast<double>(lat[i]) / static_cast<double>(n[i]) : 0;
        converged &=
            std::abs(acc - prev_acc[i]) <= 0.02 * acc && std::abs(l - prev_lat[i]) <= 0.05 * l;
        prev_acc[i] = acc;
        prev_lat[i] = l;
      }
    }
  }
  v_.win_start = t_ + (rc.warmup_auto ? 0 : static_cast<uint64_t>(rc.warmup));
  v_.win_end = v_.win_start + static_cast<uint64_t>(rc.measure);
  const uint64_t warmed = v_.win_start - start;
  reset_stats();
  advance_to(v_.win_start);
  const std::vector<uint64_t> q_start = per_instance_sum(v_.nic.queued);
  advance_to(v_.win_end);
  const std::vector<uint64_t> q_end = per_instance_sum(v_.nic.queued);
  // Drain: run until every packet created in the window is delivered, or the drain limit.
  // An instance's own cycle count ends where it is first seen drained: the checks fall every
  // 256 cycles from the window's end whatever the batch, so it is the instance's alone.
  const uint64_t drain_end = v_.win_end + static_cast<uint64_t>(rc.drain);
  std::vector<bool> drained(I_, false);
  std::vector<uint64_t> done_at(I_, 0);
  for (;;) {
    std::vector<uint64_t> created = per_instance_sum(st.meas_created),
                          got = per_instance_sum(st.meas_delivered);
    bool all = true;
    for (uint32_t i = 0; i < I_; ++i) {
      drained[i] = got[i] == created[i];
      if (drained[i] && !done_at[i]) done_at[i] = t_;
      all &= drained[i];
    }
    if (all || t_ >= drain_end) break;
    advance_to(std::min(drain_end, t_ + 256));
  }
  // Collect.
  x_.for_each(static_cast<uint64_t>(I_) * kHistBins, HistReduce{st.hist, hist_sum_, v_.prm.nodes});
  x_.sync();
  std::vector<uint64_t> hist = download(hist_sum_, static_cast<uint64_t>(I_) * kHistBins);
  auto h64 = [&](const uint64_t* p) { return download(p, NN_); };
  std::vector<uint64_t> cf = h64(st.created_flits), ef = h64(st.ejected_flits),
                        mc = h64(st.meas_created), md = h64(st.meas_delivered),
                        ls = h64(st.lat_sum), nl = h64(st.nlat_sum), hs = h64(st.hops_sum),
                        rf = h64(st.refused);
  std::vector<uint32_t> lm = download(st.lat_max, NN_);
  const VcParams& p = v_.prm;
  std::vector<uint32_t> link = download(v_.s.out_flits, E_ * p.ports),
                        vcf = download(v_.s.ovc_flits, E_ * p.ports * p.vcs);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double m = static_cast<double>(rc.measure);
  std::vector<InstanceResult> out(I_);
  for (uint32_t i = 0; i < I_; ++i) {
    const uint64_t a = static_cast<uint64_t>(i) * p.nodes, b = a + p.nodes;
    auto slice = [&](const std::vector<uint64_t>& v) {
      return std::vector<uint64_t>(v.begin() + a, v.begin() + b);
    };
    TerminalTotals tt{
        slice(cf),
        slice(ef),
        slice(mc),
        slice(md),
        slice(rf),
        slice(ls),
        slice(nl),
        slice(hs),
        std::vector<uint32_t>(lm.begin() + a, lm.begin() + b),
        std::vector<uint64_t>(hist.begin() + i * kHistBins, hist.begin() + (i + 1) * kHistBins)};
    WindowInfo w{static_cast<uint64_t>(rc.measure), q_start[i], q_end[i], drained[i],
                 rc.latency_threshold};
    InstanceResult& r = out[i];
    summarize(tt, w, r);
    r.cycles = (drained[i] ? done_at[i] : t_) - start;
    r.warmup_cycles = warmed;
    r.warmup_converged = converged;
    r.wall_s = wall;
    r.backend = Exec::kName;
    const uint64_t rp0 = static_cast<uint64_t>(i) * p.routers * p.ports;
    r.link_utilization.resize(p.routers * p.ports);
    r.vc_utilization.resize(p.routers * p.ports * p.vcs);
    double sum = 0, mx = 0;
    uint64_t links = 0;
    for (uint64_t k = 0; k < r.link_utilization.size(); ++k) {
      r.link_utilization[k] = link[rp0 + k] / m;
      if (topo_.peer[k] < 0) continue;
      sum += r.link_utilization[k];
      mx = std::max(mx, r.link_utilization[k]);
      ++links;
    }
    for (uint64_t k = 0; k < r.vc_utilization.size(); ++k)
      r.vc_utilization[k] = vcf[rp0 * p.vcs + k] / m;
    r.link_util_mean = links ? sum / links : 0;
    r.link_util_max = mx;
  }
  return out;
}

}  // namespace ls
