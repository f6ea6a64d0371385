// What the engines of all router families share, a template over the backend (CpuExec or
// CudaExec): the named state arrays (allocated on the backend, read and written from Python),
// the terminals' sources and measurement accumulators (kernels/common/source.hpp,
// terminal_stats.hpp), the run loop (warm-up, measurement window, drain, results) and the
// deadlock watchdog. A family derives from it, allocates its own state through alloc(), runs its
// cycle in step() and answers the few questions below that only it can (what is in flight, what
// is stuck, its per-link results).
#pragma once
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "../../kernels/common/belt.hpp"
#include "../../kernels/common/flit.hpp"
#include "../../kernels/common/histogram.hpp"
#include "../../kernels/common/hot_state.hpp"
#include "../../kernels/common/source.hpp"
#include "../../kernels/common/terminal_stats.hpp"
#include "../backend/schedule.hpp"
#include "../backend/write_audit.hpp"
#include "../topology/topology.hpp"
#include "../traffic/completion_peak.hpp"
#include "engine.hpp"
#include "measurement.hpp"

namespace ls {

// An empty slot in the buffer_* state arrays. A flit's meta word never is all ones (its VC bits
// stay below 64), so buffer_meta tells empty slots exactly; occupancy counts the others.
constexpr uint32_t kNoFlit = 0xFFFFFFFFu;
// The flit record's words that the buffer views show, by the name after their prefix.
inline const std::pair<const char*, uint32_t Flit::*> kFlitFields[] = {
    {"dest", &Flit::dest},   {"src", &Flit::src},     {"seq", &Flit::seq},
    {"ctime", &Flit::ctime}, {"itime", &Flit::itime}, {"meta", &Flit::meta}};

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

// A family engine's state array (BatchEngine::alloc_array): a free function, so that a family's
// engine, a template whose base depends on its parameter, calls it as alloc<T>(*this, ...).
template <class T, class E>
T* alloc(E& engine, uint64_t n, const char* name = nullptr, std::vector<uint64_t> shape = {}) {
  return engine.template alloc_array<T>(n, name, std::move(shape));
}

template <class Exec>
class BatchEngine : public Engine {
 public:
  BatchEngine(const std::vector<Config>& cfgs, const EngineOptions& opts)
      : x_(opts.threads, schedule_of(cfgs[0].run)),
        cfgs_(cfgs),
        I_(static_cast<uint32_t>(cfgs.size())),
        debug_(opts.debug),
        memory_limit_(state_memory_limit(opts, kCuda)),
        interrupted_(opts.interrupted) {}
  ~BatchEngine() override {
    for (void* a : allocs_) {
      audit::forget(a);
      x_.free_bytes(a);
    }
  }

  void check_deadlock() override { watchdog(static_cast<uint64_t>(cfgs_[0].run.watchdog)); }
  std::vector<InstanceResult> run() override;
  uint64_t cycle() const override { return t_; }
  uint64_t state_bytes() const override { return state_bytes_; }
  uint32_t instances() const override { return I_; }
  const char* backend() const override { return Exec::kName; }
  std::string schedule() const override {
    return debug_ ? "debug" : x_.schedule_name(I_, routers_);
  }

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

  // Writes the arrays a family declared writable(), each value within its range; every other
  // array is the routers' own state (pointers, counts, records in flight), which the kernels
  // index by without checking, so a write is refused rather than let run outside the network.
  void set_state(const std::string& name, const HostArray& a) override {
    const Field& f = field(name);
    if (!f.writable) {
      std::string writable;
      for (const Field& g : fields_)
        if (g.writable) writable += (writable.empty() ? "" : ", ") + g.name;
      throw ConfigError(
          "state \"" + name + "\": allowed only to read (" +
          (f.derive ? f.derived_from : "the routers' own state; writable: " + writable) + ")");
    }
    if (a.dtype != f.dtype || a.itemsize != f.itemsize || a.shape != f.shape)
      throw ConfigError("state \"" + name +
                        "\": allowed only an array of the shape and type it has");
    for (uint64_t k = 0; !f.allowed.empty() && k < a.bytes.size() / a.itemsize; ++k) {
      const std::optional<int64_t> x = element(a, k);
      if (!x || *x < f.lo || *x > f.hi)
        throw ConfigError("state \"" + name + "\": allowed " + f.allowed + ", here " +
                          (x ? std::to_string(*x) : std::to_string(element_bits(a, k))) +
                          " at flat index " + std::to_string(k));
    }
    x_.upload(f.ptr, a.bytes.data(), f.bytes());
    state_written();
  }

  // Allocates a zeroed device array; a named one is readable through state(). (Families call it
  // through the free function alloc below.)
  template <class T>
  T* alloc_array(uint64_t n, const char* name = nullptr, std::vector<uint64_t> shape = {}) {
    // make_engine's estimate let the batch through; what is allocated is checked exactly, before
    // any of it is touched, so a batch the estimate misjudged is still an error, not a crash.
    const uint64_t bytes = state_bytes_ + n * sizeof(T);
    if (static_cast<double>(bytes) > memory_limit_)
      throw state_too_large(cfgs_, static_cast<double>(bytes), memory_limit_, kCuda);
    T* p = static_cast<T*>(x_.alloc_bytes(n * sizeof(T)));
    if constexpr (!kCuda) audit::region(p, n * sizeof(T), name);
    allocs_.push_back(p);
    alloc_bytes_.push_back(n * sizeof(T));
    state_bytes_ = bytes;
    if (!name) return p;
    if constexpr (std::is_integral<T>::value) {
      fields_.push_back({name, p, std::is_signed<T>::value ? 'i' : 'u', sizeof(T), shape});
    } else {  // a record (a Flit): one more dimension, its 32-bit words (or bytes)
      const uint32_t word = sizeof(T) % 4 == 0 ? 4 : 1;
      shape.push_back(sizeof(T) / word);
      fields_.push_back({name, p, 'u', word, shape});
    }
    return p;
  }

 protected:
  // A family's kernel view as of cycle t (set_clock: kernels/common/cycle_view.hpp).
  template <class View>
  static View view_at(const View& v, uint64_t t) {
    View w = v;
    set_clock(w, t);
    return w;
  }

  // --- What the family answers ---
  // The measurement window changed: the kernels' view must carry it.
  virtual void set_window(Window w) = 0;
  // Zero the family's own window counters (per link, per VC).
  virtual void reset_family_stats() = 0;
  // The family's results beyond the terminals' (link utilisation...) for instance i, whose
  // window lasted `measure` cycles.
  virtual void family_results(uint32_t i, double measure, InstanceResult& r) = 0;
  // Units (flits, messages) injected and not yet ejected, per instance.
  virtual std::vector<uint64_t> in_flight() const = 0;
  // Where instance i's traffic waits, for the watchdog's report.
  virtual std::string stuck(uint32_t i) const = 0;
  virtual const char* unit() const = 0;  // "flit", "message"
  // A state array was overwritten from outside: rebuild whatever the family derives from it.
  virtual void state_written() {}
  // Instance i's nodes that take part in the traffic, 1 each ([node]; empty: all): the others
  // count in no per-node figure (a T3E PE in no partition).
  virtual std::vector<uint8_t> active_nodes(uint32_t) const { return {}; }
  // An instance's element x in messages (METRO's elements are routers, then endpoints).
  virtual std::string element(uint64_t x) const { return "router " + std::to_string(x); }

  struct Field {
    std::string name;
    void* ptr;
    char dtype;
    uint32_t itemsize;
    std::vector<uint64_t> shape;
    std::function<HostArray()> derive = {};  // computed from other state, not stored
    std::string derived_from = {};
    bool writable = false;  // set_state's (writable()), with values in [lo, hi]
    int64_t lo = 0, hi = 0;
    std::string allowed = {};
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

  // Lets set_state write array `name` (software's registers and tables, a fault's flags,
  // credits to stage a scenario), every value in [lo, hi], `allowed` saying so when not; with no
  // `allowed`, any value (registers the kernels never index by). A name no array has is the
  // family's mistake, not the user's: it stops the building of the engine, so a misspelt name
  // cannot leave an array silently read-only.
  void writable(const char* name, int64_t lo = 0, int64_t hi = 0, std::string allowed = {}) {
    for (Field& f : fields_)
      if (f.name == name) {
        f.writable = true;
        f.lo = lo;
        f.hi = hi;
        f.allowed = std::move(allowed);
        return;
      }
    throw std::logic_error(std::string("writable(\"") + name + "\"): no state array of that name");
  }
  // Element k of a written array, its bits (little-endian) widened to 64 (sign-extended).
  static uint64_t element_bits(const HostArray& a, uint64_t k) {
    uint64_t u = 0;
    std::memcpy(&u, a.bytes.data() + k * a.itemsize, a.itemsize);
    const uint32_t bits = 8 * a.itemsize;
    if (a.dtype == 'i' && bits < 64 && (u >> (bits - 1) & 1)) u |= ~uint64_t{0} << bits;
    return u;
  }
  // ... as a number (none: a 64-bit unsigned value past int64_t).
  static std::optional<int64_t> element(const HostArray& a, uint64_t k) {
    const uint64_t u = element_bits(a, k);
    if (a.dtype == 'u' && u > static_cast<uint64_t>(INT64_MAX)) return std::nullopt;
    return static_cast<int64_t>(u);
  }
  // Registers a state array computed from others when read (state()), not kept by the kernels.
  void derived(const char* name, char dtype, uint32_t itemsize, std::vector<uint64_t> shape,
               std::function<HostArray()> f, const char* from) {
    fields_.push_back({name, nullptr, dtype, itemsize, std::move(shape), std::move(f), from});
  }
  template <class T>
  static HostArray host_array(char dtype, const std::vector<T>& v, std::vector<uint64_t> shape) {
    HostArray a{dtype, sizeof(T), std::move(shape), std::vector<uint8_t>(v.size() * sizeof(T))};
    std::memcpy(a.bytes.data(), v.data(), a.bytes.size());
    return a;
  }
  // The topology, for drawing the network (read-only views `peer` and `port_node`, [inst,
  // router, port], the same for every instance); t must outlive the engine.
  void topology_views(const Topology& t) {
    const std::vector<uint64_t> shape{I_, t.routers, t.ports};
    for (const auto& [name, table] : {std::pair{"peer", &t.peer}, {"port_node", &t.port_node}})
      derived(
          name, 'i', sizeof(int32_t), shape,
          [this, shape, table = table] {
            std::vector<int32_t> out;
            for (uint32_t i = 0; i < I_; ++i) out.insert(out.end(), table->begin(), table->end());
            return host_array('i', out, shape);
          },
          "the topology, fixed by the configuration");
    derived(
        "link_delay", 'u', 1, shape,
        [this, shape, &delay = t.link_delay] {
          std::vector<uint8_t> out;
          for (uint32_t i = 0; i < I_; ++i) out.insert(out.end(), delay.begin(), delay.end());
          return host_array('u', out, shape);
        },
        "the topology, fixed by the configuration: cycles on each port's link");
  }
  // The buffer_<field> views (dest, src, seq, ctime, itime, meta) of a family whose input VCs
  // keep flits in ring buffers (vc, T3E): [inst, router, port, vc, depth], each input VC's
  // flits from its front (`head`) for `count` flits, kNoFlit in the slots after. Input VC iv
  // (counted over the batch, ivcs of them) keeps its ring buffer slot b at buf[slot(iv, b)],
  // capacity(iv) slots; the kernels' ring order is hidden. `bufs`: flits in buf.
  template <class Slot, class Capacity>
  void flit_buffer_views(const Flit* buf, uint64_t bufs, const uint8_t* head, const uint8_t* count,
                         std::vector<uint64_t> shape, Slot slot, Capacity capacity) {
    const uint64_t depth = shape.back(), ivcs = E_ * shape[2] * shape[3];
    for (const auto& [name, member] : kFlitFields)
      derived(("buffer_" + std::string(name)).c_str(), 'u', sizeof(uint32_t), shape,
              [=, m = member] {
                const std::vector<Flit> flits = download(buf, bufs);
                const std::vector<uint8_t> h = download(head, ivcs), n = download(count, ivcs);
                std::vector<uint32_t> out(ivcs * depth, kNoFlit);
                for (uint64_t iv = 0; iv < ivcs; ++iv)
                  for (uint64_t k = 0; k < n[iv]; ++k)
                    out[iv * depth + k] = flits[slot(iv, (h[iv] + k) % capacity(iv))].*m;
                return host_array('u', out, shape);
              },
              "a view of the VC buffers, which are not settable");
  }
  template <class T>
  T* upload(const std::vector<T>& h, const char* name = nullptr, std::vector<uint64_t> shape = {}) {
    T* p = alloc_array<T>(h.size(), name, shape);
    x_.upload(p, h.data(), h.size() * sizeof(T));
    return p;
  }
  template <class T>
  std::vector<T> download(const T* p, uint64_t n) const {
    std::vector<T> h(n);
    x_.download(h.data(), p, n * sizeof(T));
    return h;
  }
  // Sums an array of `per_instance` entries an instance ([inst, ...]) over each instance.
  template <class T>
  std::vector<uint64_t> instance_sums(const T* p, uint64_t per_instance) const {
    std::vector<T> h = download(p, I_ * per_instance);
    std::vector<uint64_t> out(I_, 0);
    for (uint64_t i = 0; i < h.size(); ++i) out[i / per_instance] += h[i];
    return out;
  }
  // Sums a per-terminal array ([inst, node], or [inst, node, k] of `per_node` entries) over the
  // nodes of each instance.
  template <class T>
  std::vector<uint64_t> per_instance_sum(const T* p, uint64_t per_node = 1) const {
    return instance_sums(p, nodes_ * per_node);
  }

  // Link results of instance i from what each (router, port) sent in the window of m cycles
  // (`sent` the family's [inst, router, port] counter): utilisation per port, and its mean and
  // maximum over the network's links (ports with a peer). Returns the links' total.
  double link_results(const uint32_t* sent, uint32_t i, const Topology& t, double m,
                      InstanceResult& r) const {
    const uint64_t rp = uint64_t{t.routers} * t.ports;
    const std::vector<uint32_t> n = download(sent + i * rp, rp);
    r.link_utilization.resize(rp);
    double sum = 0, mx = 0, total = 0;
    uint64_t links = 0;
    for (uint64_t k = 0; k < rp; ++k) {
      r.link_utilization[k] = n[k] / m;
      if (t.peer[k] < 0) continue;
      total += n[k];
      sum += r.link_utilization[k];
      mx = std::max(mx, r.link_utilization[k]);
      ++links;
    }
    r.link_util_mean = links ? sum / links : 0;
    r.link_util_max = mx;
    return total;
  }

  // The family's hot arrays (kernels/common/hot_state.hpp), named as the addresses of their
  // pointer fields in its view v, and the terminals' (sources and measurement, all but the
  // latency histogram: large, written once a packet): each one's offset in the view and its
  // bytes per instance (its allocation's share; arrays of no bytes, such as an unused queue, are
  // left out). The list goes to the backend; the block schedule takes it.
  template <class View>
  void hot_arrays(const View& v, std::vector<const void*> fields) {
    const SourceState& q = v.src;
    const StatsState& st = v.st;
    fields.insert(
        fields.end(),
        {&q.cursor,         &q.on_cursor,      &q.gen_next,      &q.gen_hit,         &q.on_gen,
         &q.queued,         &q.created,        &q.sq_ring,       &q.sq_head,         &q.seq,
         &st.created_flits, &st.ejected_flits, &st.meas_created, &st.meas_delivered, &st.meas_lost,
         &st.lost_flits,    &st.refused,       &st.lat_sum,      &st.nlat_sum,       &st.hops_sum,
         &st.lat_max,       &st.last_delivery});
    std::vector<HotArray> list;
    uint64_t room = 0;
    for (const void* field : fields) {
      const uint64_t offset = static_cast<uint64_t>(static_cast<const char*>(field) -
                                                    reinterpret_cast<const char*>(&v));
      void* array;
      std::memcpy(&array, field, sizeof array);
      if (!array) continue;  // an array this run does without
      // The largest allocation at that address: an empty one may share it with the next.
      bool found = false;
      uint64_t bytes = 0;
      for (size_t k = 0; k < allocs_.size(); ++k)
        if (allocs_[k] == array) {
          found = true;
          bytes = std::max(bytes, alloc_bytes_[k]);
        }
      if (offset + sizeof(void*) > sizeof(View) || !found)
        throw std::logic_error("hot_arrays: a field that is not a pointer to a state array");
      if (bytes % I_ != 0) throw std::logic_error("hot_arrays: an array not split by instance");
      if (bytes == 0) continue;
      list.push_back({offset, bytes / I_});
      room += hot_room(bytes / I_);
    }
    hot_ = {upload(list), static_cast<uint32_t>(list.size()), room};
  }

  // Debug mode: the first invariant violation a router recorded (kernels/common/violation.hpp:
  // viol [inst, router], info [inst, router, 4] = cycle, two places, value) as an error:
  // what[code] with %v (if it has one) replaced by the value, `place(info)` saying where in the
  // router.
  void throw_violation(const uint32_t* viol, const uint32_t* info, const char* const* what,
                       const std::function<std::string(const uint32_t*)>& place) const {
    const std::vector<uint32_t> v = download(viol, E_);
    for (uint64_t e = 0; e < E_; ++e) {
      if (!v[e]) continue;
      const std::vector<uint32_t> at = download(info + e * 4, 4);
      std::string s = what[v[e]];
      const size_t value = s.find("%v");
      if (value != std::string::npos) s.replace(value, 2, std::to_string(at[3]));
      std::ostringstream o;
      o << "invariant violated at instance " << e / routers_ << ", cycle " << at[0] << ", "
        << element(e % routers_) << " (" << place(at.data()) << "): " << s;
      throw SimulationError(o.str());
    }
  }
  // Debug mode: units are conserved, in_flight() equal to what the routers hold (`held`,
  // [inst, router], as the family's checks counted it: `held_what`).
  void check_conservation(const uint64_t* held, const char* held_what) const {
    const std::vector<uint64_t> h = download(held, E_), flying = in_flight();
    for (uint32_t i = 0; i < I_; ++i) {
      uint64_t n = 0;
      for (uint64_t r = 0; r < routers_; ++r) n += h[i * routers_ + r];
      if (n == flying[i]) continue;
      std::ostringstream o;
      o << "invariant violated at instance " << i << ", cycle " << t_ << ": " << unit()
        << "s injected - delivered (" << flying[i] << ") != " << held_what << " (" << n << ")";
      throw SimulationError(o.str());
    }
  }

  // The batch's size: `routers` router elements and `nodes` terminals per instance.
  void set_size(uint32_t routers, uint32_t nodes) {
    routers_ = routers;
    nodes_ = nodes;
    E_ = uint64_t{I_} * routers;
    NN_ = uint64_t{I_} * nodes;
  }
  // The terminals' sources (a bounded queue of `source_queue` packets, 0 unbounded), `lanes` per
  // terminal ([inst, node, lane]), and their measurement accumulators, and the routers'
  // last-move cycles the watchdog reads.
  void allocate_terminals(uint32_t source_queue, uint32_t lanes = 1) {
    const uint64_t I = I_, N = nodes_, NL = NN_ * lanes;
    lanes_ = lanes;
    const std::vector<uint64_t> shape =
        lanes == 1 ? std::vector<uint64_t>{I, N} : std::vector<uint64_t>{I, N, lanes};
    SourceState& s = src_;
    s.cursor = alloc_array<uint32_t>(NL);
    s.on_cursor = alloc_array<uint8_t>(NL);
    s.gen_next = alloc_array<uint32_t>(NL);
    s.gen_hit = alloc_array<uint8_t>(NL);
    s.on_gen = alloc_array<uint8_t>(NL);
    s.queued = alloc_array<uint32_t>(NL, "source_queue", shape);
    s.created = alloc_array<uint32_t>(NL, "packets_created", shape);
    s.sq_ring = alloc_array<uint32_t>(NL * source_queue);
    s.sq_head = alloc_array<uint32_t>(NL);
    s.seq = alloc_array<uint32_t>(NL, "packets_started", shape);
    // set_state's, to stage who sends what: the packets each source has made and numbered, and
    // its queue's length (within the ring it indexes, when the queue is bounded).
    writable("packets_created");
    writable("packets_started");
    if (source_queue == 0)
      writable("source_queue");
    else
      writable("source_queue", 0, source_queue,
               "0 to traffic.source_queue (" + std::to_string(source_queue) + ")");
    StatsState& st = st_;
    st.created_flits = alloc_array<uint64_t>(NN_);
    st.ejected_flits = alloc_array<uint64_t>(NN_);
    st.meas_created = alloc_array<uint64_t>(NN_);
    st.meas_delivered = alloc_array<uint64_t>(NN_);
    st.meas_lost = alloc_array<uint64_t>(NN_);
    st.lost_flits = alloc_array<uint64_t>(NN_);
    st.refused = alloc_array<uint64_t>(NN_);
    st.lat_sum = alloc_array<uint64_t>(NN_);
    st.nlat_sum = alloc_array<uint64_t>(NN_);
    st.hops_sum = alloc_array<uint64_t>(NN_);
    st.lat_max = alloc_array<uint32_t>(NN_);
    st.hist = alloc_array<uint32_t>(NN_ * kHistBins);
    st.last_delivery = alloc_array<uint32_t>(NN_);
    hist_sum_ = alloc_array<uint64_t>(I * kHistBins);
    last_move_ = alloc_array<uint32_t>(E_, "last_move", {I, routers_});
  }

  // `cycles` clocks of the family's cycle functor (make(t): clock t's, over the elements of every
  // instance): in debug mode one parallel step a clock, each followed by `check` (the family's
  // invariants); otherwise the backend's schedule (run.schedule: CpuExec and CudaExec's
  // run_cycles).
  template <class Make, class Check>
  void run_family_cycles(uint64_t cycles, const Make& make, const Check& check) {
    if (debug_) {
      for (uint64_t k = 0; k < cycles; ++k) {
        x_.for_each(E_, make(t_));
        ++t_;  // the cycle has run, whether or not its checks pass
        check();
      }
    } else {
      x_.run_cycles(t_, cycles, I_, routers_, make, hot_);
      t_ += cycles;
    }
    x_.sync();
  }

  // Deadlock watchdog: units in flight but none has left a router for `limit` cycles.
  void watchdog(uint64_t limit) {
    if (limit == 0 || t_ < limit) return;
    const std::vector<uint32_t> last = download(last_move_, E_);
    const std::vector<uint64_t> flying = in_flight();
    for (uint32_t i = 0; i < I_; ++i) {
      if (flying[i] == 0) continue;
      uint32_t newest = 0;
      for (uint64_t r = 0; r < routers_; ++r) newest = std::max(newest, last[i * routers_ + r]);
      if (t_ - newest < limit) continue;
      std::ostringstream o;
      o << "deadlock in instance " << i << ": no " << unit() << " has moved since cycle " << newest
        << " (now " << t_ << ", " << flying[i] << " " << unit()
        << "s in flight); stuck:" << stuck(i);
      throw SimulationError(o.str());
    }
  }

  Exec x_;
  std::vector<Config> cfgs_;
  uint32_t I_ = 0, routers_ = 0, nodes_ = 0, lanes_ = 1;
  uint64_t E_ = 0, NN_ = 0, t_ = 0;
  SourceState src_{};
  StatsState st_{};
  uint32_t* last_move_ = nullptr;  // [inst, router] last cycle something left the router
  HotList hot_{};                  // the family's hot arrays (hot_arrays), if it has named them
  const bool debug_;  // EngineOptions::debug: a step a cycle, each checked (run_family_cycles)

 private:
  // Fresh measurement accumulators, so run() may follow step() or another run().
  void reset_stats() {
    std::vector<uint64_t> z64(NN_, 0);
    for (uint64_t* a :
         {st_.created_flits, st_.ejected_flits, st_.meas_created, st_.meas_delivered, st_.meas_lost,
          st_.lost_flits, st_.refused, st_.lat_sum, st_.nlat_sum, st_.hops_sum})
      x_.upload(a, z64.data(), NN_ * 8);
    std::vector<uint32_t> z32(NN_ * kHistBins, 0);
    x_.upload(st_.lat_max, z32.data(), NN_ * 4);
    x_.upload(st_.last_delivery, z32.data(), NN_ * 4);
    x_.upload(st_.hist, z32.data(), NN_ * kHistBins * 4);
    reset_family_stats();
  }
  void window(uint64_t start, uint64_t end) {
    win_ = {start, end};
    set_window(win_);
  }

  std::vector<void*> allocs_;
  std::vector<uint64_t> alloc_bytes_;  // beside allocs_
  uint64_t state_bytes_ = 0;           // every array allocated, named or not
  static constexpr bool kCuda = std::string_view(Exec::kName) == "cuda";
  double memory_limit_;                // the bytes state_bytes_ may reach (state_memory_limit)
  std::function<bool()> interrupted_;  // EngineOptions::interrupted
  std::vector<Field> fields_;
  uint64_t* hist_sum_ = nullptr;
  Window win_{0, 0};
};

template <class Exec>
std::vector<InstanceResult> BatchEngine<Exec>::run() {
  const auto t0 = std::chrono::steady_clock::now();
  const RunConfig& rc = cfgs_[0].run;
  const StatsState& st = st_;
  const uint64_t start = t_;
  const uint64_t wd = static_cast<uint64_t>(rc.watchdog);
  // A workload that ends (an alltoall, a gather) measures every packet from cycle 0 until the
  // last is delivered: its window is open until the drain limit, and each instance's own time
  // ends at its last delivery.
  const bool finite = finite_workload(cfgs_[0]);
  if (finite && start != 0)
    throw ConfigError("traffic.pattern = \"" + cfgs_[0].traffic.pattern +
                      "\": allowed only from cycle 0 (run() on a fresh engine), here cycle " +
                      std::to_string(start));
  const uint64_t chunk = std::max<uint64_t>(64, std::min<uint64_t>(1024, wd ? wd / 4 : 1024));
  auto advance_to = [&](uint64_t end) {
    while (t_ < end) {
      step(std::min(chunk, end - t_));
      watchdog(wd);
      if (interrupted_ && interrupted_())
        throw Interrupted("run interrupted at cycle " + std::to_string(t_));
    }
  };
  // Automatic warm-up: periods of run.warmup cycles until every instance's accepted load and
  // mean latency (of packets created and delivered in the period) settle.
  bool converged = true;
  if (rc.warmup_auto && !finite) {
    const uint64_t period = std::max<uint64_t>(100, static_cast<uint64_t>(rc.warmup));
    std::vector<double> prev_acc(I_, -1), prev_lat(I_, -1);
    converged = false;
    for (int k = 0; k < 20 && !converged; ++k) {
      window(t_, t_ + period);
      reset_stats();
      advance_to(win_.end);
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
  const uint64_t w0 = t_ + (rc.warmup_auto || finite ? 0 : static_cast<uint64_t>(rc.warmup));
  window(w0, w0 + static_cast<uint64_t>(finite ? rc.drain : rc.measure));
  const uint64_t warmed = win_.start - start;
  reset_stats();
  advance_to(win_.start);
  const std::vector<uint64_t> q_start = per_instance_sum(src_.queued, lanes_);
  if (!finite) advance_to(win_.end);
  std::vector<uint64_t> q_end = per_instance_sum(src_.queued, lanes_);
  // Drain: run until every packet created in the window is delivered (or lost, where the
  // hardware drops packets), or the drain limit.
  // An instance's own cycle count ends where it is first seen drained: the checks fall every
  // 256 cycles from the window's end whatever the batch, so it is the instance's alone.
  const uint64_t drain_end = finite ? win_.end : win_.end + static_cast<uint64_t>(rc.drain);
  std::vector<uint64_t> expected(I_, 0);  // a finite workload's packets, all in the window
  for (uint32_t i = 0; i < I_ && finite; ++i) expected[i] = workload_packets(cfgs_[i], nodes_);
  std::vector<bool> drained(I_, false);
  std::vector<uint64_t> done_at(I_, 0);
  for (;;) {
    std::vector<uint64_t> created = per_instance_sum(st.meas_created),
                          got = per_instance_sum(st.meas_delivered),
                          lost = per_instance_sum(st.meas_lost);
    bool all = true;
    for (uint32_t i = 0; i < I_; ++i) {
      drained[i] = got[i] + lost[i] == created[i] && created[i] >= expected[i];
      if (drained[i] && !done_at[i]) done_at[i] = t_;
      all &= drained[i];
    }
    if (all || t_ >= drain_end) break;
    advance_to(std::min(drain_end, t_ + 256));
  }
  // Collect.
  x_.for_each(static_cast<uint64_t>(I_) * kHistBins, HistReduce{st.hist, hist_sum_, nodes_});
  x_.sync();
  std::vector<uint64_t> hist = download(hist_sum_, static_cast<uint64_t>(I_) * kHistBins);
  auto h64 = [&](const uint64_t* p) { return download(p, NN_); };
  std::vector<uint64_t> cf = h64(st.created_flits), ef = h64(st.ejected_flits),
                        mc = h64(st.meas_created), md = h64(st.meas_delivered),
                        ml = h64(st.meas_lost), lf = h64(st.lost_flits), ls = h64(st.lat_sum),
                        nl = h64(st.nlat_sum), hs = h64(st.hops_sum), rf = h64(st.refused);
  std::vector<uint32_t> lm = download(st.lat_max, NN_), last = download(st.last_delivery, NN_);
  if (finite) q_end = q_start;
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::vector<InstanceResult> out(I_);
  for (uint32_t i = 0; i < I_; ++i) {
    const uint64_t a = static_cast<uint64_t>(i) * nodes_, b = a + nodes_;
    auto slice = [&](const std::vector<uint64_t>& v) {
      return std::vector<uint64_t>(v.begin() + a, v.begin() + b);
    };
    TerminalTotals tt{
        slice(cf),
        slice(ef),
        slice(mc),
        slice(md),
        slice(ml),
        slice(lf),
        slice(rf),
        slice(ls),
        slice(nl),
        slice(hs),
        std::vector<uint32_t>(lm.begin() + a, lm.begin() + b),
        std::vector<uint64_t>(hist.begin() + i * kHistBins, hist.begin() + (i + 1) * kHistBins),
        active_nodes(i)};
    // A finite workload's figures are over its whole run; its latencies are a backlog's, not a
    // sign of saturation.
    uint64_t cycles = (drained[i] ? done_at[i] : t_) - start;
    if (finite && drained[i])
      cycles = *std::max_element(last.begin() + a, last.begin() + b) - start;
    const uint64_t measured = finite ? std::max<uint64_t>(cycles, 1) : rc.measure;
    WindowInfo w{measured, q_start[i], q_end[i], drained[i],
                 finite ? INFINITY : rc.latency_threshold};
    InstanceResult& r = out[i];
    summarize(tt, w, r);
    r.cycles = cycles;
    r.warmup_cycles = warmed;
    r.warmup_converged = converged;
    r.wall_s = wall;
    r.backend = Exec::kName;
    r.schedule = schedule();
    family_results(i, static_cast<double>(measured), r);
    if (!finite) continue;
    r.extra.emplace_back("completion_cycles", static_cast<double>(r.cycles));
    const double peak = completion_peak_cycles(cfgs_[i]);
    if (peak > 0 && drained[i])
      r.extra.emplace_back("peak_percent", 100.0 * peak / static_cast<double>(r.cycles));
  }
  return out;
}

}  // namespace ls
