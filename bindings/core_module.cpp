// lockstep._core: the compiled engine for Python. Configurations cross as nested dicts
// ({section: {key: value}}) and are checked by the one schema (host/config/schema.cpp); state
// and results come back as numpy arrays. The GIL is released while cycles run.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <optional>

#include "bindings/python_convert.hpp"
#include "host/config/schema.hpp"
#include "host/engine/engine.hpp"
#include "host/routing/routing_table.hpp"
#include "host/topology/topology.hpp"
#include "host/traffic/completion_peak.hpp"

namespace py = pybind11;
using namespace ls;

namespace {

// repr(o), or a description where Python will not print an integer that long (past
// sys.get_int_max_str_digits(), as bindings/lockstep/config.py's _shown says it).
std::string shown(const py::handle& o) {
  try {
    return py::repr(o).cast<std::string>();
  } catch (const py::error_already_set&) {
    return py::isinstance<py::int_>(o) ? "<an integer of more than 4300 digits>"
                                       : "<a list holding an integer of more than 4300 digits>";
  }
}

// A Python str as UTF-8; nullopt where it is no valid Unicode (a lone surrogate).
std::optional<std::string> utf8(const py::handle& s) {
  Py_ssize_t n = 0;
  if (const char* p = PyUnicode_AsUTF8AndSize(s.ptr(), &n)) return std::string(p, size_t(n));
  PyErr_Clear();
  return std::nullopt;
}
// A section or key name as text, what is no Unicode backslash-escaped: refused as unknown.
std::string name_of(const py::handle& o) {
  const py::str s(o);
  if (auto u = utf8(s)) return *u;
  return py::reinterpret_steal<py::bytes>(
             PyUnicode_AsEncodedString(s.ptr(), "utf-8", "backslashreplace"))
      .cast<std::string>();
}

// A value as the schema takes it; what no Value holds (integers beyond 64 bits, text that is
// not Unicode) is refused here with what the key allows.
Value to_value(const KeyInfo& k, const py::handle& o) {
  const auto refuse = [&](const std::string& why) {
    return ConfigError(k.key() + " = " + shown(o) + ": allowed " + why);
  };
  const auto as_int = [&](const py::handle& x) {
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(x.ptr(), &overflow);
    if (overflow != 0) throw refuse(k.allowed + " (no integer beyond 64 bits)");
    return int64_t{v};
  };
  if (py::isinstance<py::bool_>(o)) return Value(o.cast<bool>());
  if (py::isinstance<py::int_>(o)) return Value(as_int(o));
  if (py::isinstance<py::float_>(o)) return Value(o.cast<double>());
  if (py::isinstance<py::str>(o)) {
    if (auto u = utf8(o)) return Value(*u);
    throw refuse(k.allowed + " (text without lone surrogates: UTF-8)");
  }
  if (py::isinstance<py::list>(o) || py::isinstance<py::tuple>(o)) {
    bool all_int = true;
    for (auto x : o) {
      if (py::isinstance<py::bool_>(x) ||
          !(py::isinstance<py::int_>(x) || py::isinstance<py::float_>(x)))
        throw refuse("a list of numbers");
      if (py::isinstance<py::int_>(x)) as_int(x);
      all_int &= py::isinstance<py::int_>(x);
    }
    if (all_int) return Value(o.cast<std::vector<int64_t>>());
    return Value(o.cast<std::vector<double>>());
  }
  throw refuse("a bool, integer, number, string or list");
}

// Every key set and checked alone; validate() checks the rules between keys.
Config keys_from_dict(const py::dict& d) {
  Config c;
  for (auto item : d) {
    const std::string section = name_of(item.first);
    check_section(section);
    if (!py::isinstance<py::dict>(item.second))
      throw ConfigError("[" + escaped(section) + "] = " + shown(item.second) +
                        ": allowed a table of keys");
    for (auto kv : item.second.cast<py::dict>()) {
      const KeyInfo& k = find_key(section, name_of(kv.first));
      k.set(c, to_value(k, kv.second));
    }
  }
  return c;
}

// The topology of a configuration checked by the topology's rules alone, not a router
// family's: routing tables can be made for networks no family runs.
Topology topology_from_dict(const py::dict& d) {
  const Config c = keys_from_dict(d);
  validate_topology(c.topology);
  return build_topology(c.topology);
}

// A user's [routers, nodes] table column as integers in [0, hi].
template <class T>
std::vector<T> table_column(const py::array& a, const char* name, const Topology& t, int64_t hi) {
  const auto x = py::array_t<int64_t, py::array::c_style | py::array::forcecast>::ensure(a);
  const std::string allowed = std::string(name) + ": allowed an integer array of shape (" +
                              std::to_string(t.routers) + ", " + std::to_string(t.nodes) +
                              ") (routers, destination nodes) with values 0 to " +
                              std::to_string(hi);
  if (!x || x.ndim() != 2 || x.shape(0) != t.routers || x.shape(1) != t.nodes)
    throw ConfigError(allowed + ", here shape " + py::str(a.attr("shape")).cast<std::string>());
  std::vector<T> out(static_cast<size_t>(x.size()));
  for (size_t i = 0; i < out.size(); ++i) {
    const int64_t v = x.data()[i];
    if (v < 0 || v > hi) throw ConfigError(allowed + ", here " + std::to_string(v));
    out[i] = static_cast<T>(v);
  }
  return out;
}

py::object value_to_py(const Value& v) {
  return std::visit([](const auto& x) -> py::object { return py::cast(x); }, v);
}

py::dict config_to_dict(const Config& c) {
  py::dict out;
  for (const KeyInfo& k : schema()) {
    if (!out.contains(k.section)) out[py::str(k.section)] = py::dict();
    out[py::str(k.section)].cast<py::dict>()[py::str(k.name)] = value_to_py(k.get(c));
  }
  return out;
}

std::vector<Config> configs_from(const py::object& o) {
  std::vector<Config> cs;
  if (py::isinstance<py::dict>(o)) {
    cs.push_back(config_from_dict(o.cast<py::dict>()));
  } else {
    for (auto x : o) cs.push_back(config_from_dict(x.cast<py::dict>()));
  }
  if (cs.empty()) throw ConfigError("a batch needs at least one configuration");
  return cs;
}

// Ctrl-C during a long run: Python's handler only notes the signal, so the engine asks between
// chunks of cycles (holding the GIL for a moment). True leaves KeyboardInterrupt set.
bool python_interrupted() {
  py::gil_scoped_acquire gil;
  return PyErr_CheckSignals() != 0;
}
constexpr uint64_t kStepChunk = 1024;  // Simulator.step's cycles between those questions

EngineOptions options(const Config& c, const std::string& backend, int threads, py::object debug) {
  EngineOptions o;
  o.interrupted = python_interrupted;
  o.backend = backend.empty() ? c.run.backend : backend;
  o.threads = threads >= 0 ? threads : static_cast<int>(c.run.threads);
  o.debug = debug.is_none() ? c.run.debug : debug.cast<bool>();
  return o;
}

py::array to_numpy(const HostArray& a) {
  std::string fmt = std::string(1, a.dtype) + std::to_string(a.itemsize);
  py::array out(py::dtype(fmt), std::vector<py::ssize_t>(a.shape.begin(), a.shape.end()));
  std::memcpy(out.mutable_data(), a.bytes.data(), a.bytes.size());
  return out;
}

py::list results_to_py(const std::vector<InstanceResult>& rs, const Config& c) {
  const Topology t = build_topology(c.topology);
  py::list out;
  for (const InstanceResult& r : rs) {
    py::dict d;
    d["offered"] = r.offered;
    d["accepted"] = r.accepted;
    d["accepted_min"] = r.accepted_min;
    d["latency_mean"] = r.latency_mean;
    d["latency_p50"] = r.latency_p50;
    d["latency_p99"] = r.latency_p99;
    d["latency_max"] = r.latency_max;
    d["network_latency_mean"] = r.network_latency_mean;
    d["hops_mean"] = r.hops_mean;
    d["packets"] = r.packets;
    d["refused"] = r.refused;
    d["lost"] = r.lost;
    d["saturated"] = r.saturated;
    d["saturation_reason"] = r.saturation_reason;
    d["cycles"] = r.cycles;
    d["warmup_cycles"] = r.warmup_cycles;
    d["warmup_converged"] = r.warmup_converged;
    d["wall_s"] = r.wall_s;
    d["backend"] = r.backend;
    d["schedule"] = r.schedule;
    d["link_util_mean"] = r.link_util_mean;
    d["link_util_max"] = r.link_util_max;
    for (const auto& [name, value] : r.extra) d[py::str(name)] = value;
    const size_t links = size_t{t.routers} * t.ports;
    py::array_t<double> link({t.routers, t.ports}),
        vc({size_t{t.routers}, size_t{t.ports}, r.vc_utilization.size() / links});
    std::memcpy(link.mutable_data(), r.link_utilization.data(),
                r.link_utilization.size() * sizeof(double));
    std::memcpy(vc.mutable_data(), r.vc_utilization.data(),
                r.vc_utilization.size() * sizeof(double));
    d["link_utilization"] = link;
    d["vc_utilization"] = vc;
    out.append(d);
  }
  return out;
}

class Simulator {
 public:
  Simulator(const py::object& cfgs, const std::string& backend, int threads, py::object debug)
      : cfgs_(configs_from(cfgs)),
        engine_(make_engine(cfgs_, options(cfgs_[0], backend, threads, debug))) {}
  void step(uint64_t n) {
    for (uint64_t done = 0; done < n;) {
      const uint64_t k = std::min(n - done, kStepChunk);
      {
        py::gil_scoped_release release;
        engine_->step(k);
      }
      done += k;
      if (done < n && PyErr_CheckSignals() != 0) throw py::error_already_set();
    }
    py::gil_scoped_release release;
    engine_->check_deadlock();
  }
  py::list run() {
    std::vector<InstanceResult> rs;
    try {
      py::gil_scoped_release release;
      rs = engine_->run();
    } catch (const Interrupted&) {
      throw py::error_already_set();  // the KeyboardInterrupt python_interrupted() left set
    }
    return results_to_py(rs, cfgs_[0]);
  }
  uint64_t cycle() const { return engine_->cycle(); }
  uint64_t state_bytes() const { return engine_->state_bytes(); }
  std::string backend() const { return engine_->backend(); }
  std::string schedule() const { return engine_->schedule(); }
  uint32_t instances() const { return engine_->instances(); }
  std::vector<std::string> state_names() const { return engine_->state_names(); }
  py::array state(const std::string& name) const { return to_numpy(engine_->state(name)); }
  void set_state(const std::string& name, const py::array& a) {
    HostArray cur = engine_->state(name);
    py::array c = py::array::ensure(a, py::array::c_style);
    if (!c || c.dtype().kind() != cur.dtype ||
        static_cast<uint32_t>(c.itemsize()) != cur.itemsize ||
        std::vector<uint64_t>(c.shape(), c.shape() + c.ndim()) != cur.shape)
      throw ConfigError("state \"" + name +
                        "\": allowed only an array of the shape and dtype that state() returns");
    std::memcpy(cur.bytes.data(), c.data(), cur.bytes.size());
    engine_->set_state(name, cur);
  }

 private:
  std::vector<Config> cfgs_;
  std::unique_ptr<Engine> engine_;
};

}  // namespace

namespace ls {

Config config_from_dict(const py::dict& d) {
  Config c = keys_from_dict(d);
  validate(c);
  return c;
}

// Each family's bind_python (host/<family>/<family>_python.cpp).
#define LS_DECLARE(name, Section)  \
  namespace name {                 \
  void bind_python(py::module_ m); \
  }
LS_FAMILIES(LS_DECLARE)
#undef LS_DECLARE

}  // namespace ls

PYBIND11_MODULE(_core, m) {
  m.doc() = "lockstep compiled engine";
  py::register_exception<SimulationError>(m, "SimulationError", PyExc_RuntimeError);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const ConfigError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    }
  });

  m.def(
      "schema",
      [] {
        py::list out;
        const Config defaults;
        for (const KeyInfo& k : schema()) {
          py::dict d;
          d["key"] = k.key();
          d["section"] = k.section;
          d["name"] = k.name;
          d["type"] = type_name(k.type);
          d["default"] = value_to_py(k.get(defaults));
          d["allowed"] = k.allowed;
          d["choices"] = k.choices;
          d["doc"] = k.doc;
          d["per_instance"] = k.per_instance;
          d["family"] = k.family();
          out.append(d);
        }
        return out;
      },
      "Every configuration key: type, default, allowed values, meaning.");
  m.def(
      "defaults", [] { return config_to_dict(Config{}); }, "The default configuration.");
  m.def(
      "validate", [](const py::dict& d) { return config_to_dict(config_from_dict(d)); },
      "Fills defaults and checks a configuration; raises ValueError naming key, value and what is "
      "allowed.");
  m.def(
      "offered_limit", [](const py::dict& d) { return offered_limit(config_from_dict(d)); },
      "The highest traffic.offered the configuration allows (one packet per node per cycle).");
  m.def(
      "finite_workload", [](const py::dict& d) { return finite_workload(config_from_dict(d)); },
      "Whether the traffic is a finite workload (alltoall, gather), measured as a whole: never "
      "in a batch with open-ended traffic.");
  m.def(
      "completion_peak_cycles",
      [](const py::dict& d) { return completion_peak_cycles(config_from_dict(d)); },
      "The fewest cycles a finite workload (alltoall, gather) can take on the configuration's "
      "torus, its busiest links' load: what its results' peak_percent compares with; 0 where "
      "there is no such bound (not a torus, or a family that gives no packet's link time).");
  m.def("cuda_available", &cuda_available);
  m.def(
      "network_size",
      [](const py::dict& cfg) {
        const Config c = config_from_dict(cfg);
        const TopologySize n = topology_size(c.topology);
        py::dict d;
        d["routers"] = n.routers;
        d["nodes"] = n.nodes;
        d["ports"] = n.ports;
        d["state_bytes"] = estimated_state_bytes({c});
        return d;
      },
      "Routers, nodes (terminals) and ports per router of the configuration's network, and the "
      "bytes of state one instance of it takes (estimated as the engine checks it).");
  m.def(
      "state_memory_limit", [](bool cuda) { return state_memory_limit(EngineOptions{}, cuda); },
      py::arg("cuda"),
      "The bytes of state a batch may take on the CPU (80% of this machine's memory) or on CUDA "
      "(80% of the GPU's).");
  m.def(
      "routing_table",
      [](const py::dict& cfg, uint32_t roots) {
        const Topology t = topology_from_dict(cfg);
        RoutingTable rt;
        RoutingStats s;
        std::vector<uint16_t> hops;
        {
          py::gil_scoped_release release;
          rt = build_routing_table(t, &s, roots);
          hops = hop_distances(t);
        }
        std::vector<uint16_t> dist(rt.port_mask.size());
        for (uint32_t r = 0; r < t.routers; ++r)
          for (uint32_t d = 0; d < t.nodes; ++d)
            dist[rt.at(r, d)] = hops[size_t{r} * t.routers + t.node_router[d]];
        const std::vector<py::ssize_t> rn = {t.routers, t.nodes};
        py::dict out, stats;
        out["port_mask"] = numpy_of(rt.port_mask, rn);
        out["vc"] = numpy_of(rt.vc, rn);
        out["dist"] = numpy_of(dist, rn);
        out["peer"] = numpy_of(t.peer, {t.routers, t.ports});
        out["node_router"] = numpy_of(t.node_router, {t.nodes});
        stats["minimal"] = s.minimal;
        stats["stretch"] = s.stretch;
        stats["options"] = s.options;
        stats["minimal_options"] = s.minimal_options;
        stats["root"] = s.root;
        stats["max_channel_load"] = s.max_channel_load;
        stats["natural_order"] = s.natural_order;
        out["stats"] = stats;
        return out;
      },
      py::arg("cfg"), py::arg("roots") = 16,
      "A complete, deadlock-free routing table for the configuration's topology (resource "
      "ordering over two VCs): port_mask and vc [routers, nodes], dist (hops), peer, "
      "node_router, stats.");
  m.def(
      "check_routing_table",
      [](const py::dict& cfg, const py::array& port_mask, const py::array& vc) {
        const Topology t = topology_from_dict(cfg);
        RoutingTable rt{t.routers, t.ports, t.nodes,
                        table_column<uint32_t>(port_mask, "port_mask", t, 0xFFFFFFFFll),
                        table_column<uint8_t>(vc, "vc", t, 255)};
        py::gil_scoped_release release;
        return check_routing_table(t, rt);
      },
      py::arg("cfg"), py::arg("port_mask"), py::arg("vc"),
      "What is wrong with a routing table for the configuration's topology: incomplete entries, "
      "routes that loop or do not arrive, a cycle of buffer-class dependencies; empty when fine.");
  m.def(
      "run_batch",
      [](const py::object& cfgs, const std::string& backend, int threads, py::object debug) {
        Simulator s(cfgs, backend, threads, debug);
        return s.run();
      },
      py::arg("cfgs"), py::arg("backend") = "", py::arg("threads") = -1,
      py::arg("debug") = py::none(),
      "Runs each configuration as one instance of one batch (warm-up, window, drain).");
  m.def(
      "bench",
      [](const py::object& cfgs, uint64_t cycles, int threads, const std::string& backend) {
        std::vector<Config> cs = configs_from(cfgs);
        EngineOptions o = options(cs[0], backend, threads, py::none());
        o.debug = false;
        std::unique_ptr<Engine> e = make_engine(cs, o);
        const Topology t = build_topology(cs[0].topology);
        double wall;
        {
          py::gil_scoped_release release;
          e->step(std::min<uint64_t>(cycles, 1000));  // reach a loaded steady state first
          const auto t0 = std::chrono::steady_clock::now();
          e->step(cycles);
          wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        }
        rusage ru{};
        getrusage(RUSAGE_SELF, &ru);
        py::dict d;
        d["routers"] = static_cast<uint64_t>(t.routers) * cs.size();
        d["cycles"] = cycles;
        d["wall_s"] = wall;
        d["router_cycles_per_s"] = static_cast<double>(t.routers) * cs.size() * cycles / wall;
        d["peak_rss_mb"] = ru.ru_maxrss / 1024.0;
        d["state_mb"] = static_cast<double>(e->state_bytes()) / (1 << 20);
        d["backend"] = e->backend();
        d["schedule"] = e->schedule();
        return d;
      },
      py::arg("cfgs"), py::arg("cycles") = 10000, py::arg("threads") = -1, py::arg("backend") = "",
      "Router-cycles per second after a 1000-cycle warm-up (peak RSS is the process's).");
  py::class_<Simulator>(m, "Simulator")
      .def(py::init<const py::object&, const std::string&, int, py::object>(), py::arg("cfgs"),
           py::arg("backend") = "", py::arg("threads") = -1, py::arg("debug") = py::none())
      .def("step", &Simulator::step, py::arg("n") = 1)
      .def("run", &Simulator::run)
      .def_property_readonly("cycle", &Simulator::cycle)
      .def_property_readonly("backend", &Simulator::backend)
      .def_property_readonly("schedule", &Simulator::schedule)
      .def_property_readonly("state_bytes", &Simulator::state_bytes)
      .def_property_readonly("instances", &Simulator::instances)
      .def("state_names", &Simulator::state_names)
      .def("state", &Simulator::state, py::arg("name"))
      .def("set_state", &Simulator::set_state, py::arg("name"), py::arg("array"),
           "Overwrite a state array (same shape and dtype as state(name)), e.g. to stage a "
           "scenario.");
  // Each family's compiled helpers, _core.<family>.
#define LS_BIND(name, Section) name::bind_python(m.def_submodule(#name));
  LS_FAMILIES(LS_BIND)
#undef LS_BIND
}
