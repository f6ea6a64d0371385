// Shared by the C++ tests: small configurations and the backends to run every test on.
#pragma once
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "host/engine/engine.hpp"

namespace ls::test {

inline Config network(const std::string& kind, std::vector<int64_t> radix, double offered,
                      int64_t vcs = 2) {
  Config c;
  c.topology.kind = kind;
  c.topology.radix = std::move(radix);
  c.vc.vcs = vcs;
  c.traffic.offered = offered;
  c.run.warmup = 500;
  c.run.measure = 2000;
  c.run.drain = 5000;
  return c;
}

inline EngineOptions options(const std::string& backend = "cpu", int threads = 1,
                             bool debug = true) {
  EngineOptions o;
  o.backend = backend;
  o.threads = threads;
  o.debug = debug;
  return o;
}

inline InstanceResult run_one(const Config& c, const EngineOptions& o = options()) {
  return make_engine({c}, o)->run().at(0);
}

// The backends that can run here: the CPU, and CUDA where a device is present.
inline std::vector<std::string> backends() {
  std::vector<std::string> b = {"cpu"};
  if (cuda_available()) b.push_back("cuda");
  return b;
}

// A family result beyond the common ones, -1 if missing.
inline double extra(const InstanceResult& r, const std::string& name) {
  for (const auto& [n, value] : r.extra)
    if (n == name) return value;
  return -1;
}

// The elements of a state array read from an engine.
template <class T>
std::vector<T> values(const HostArray& a) {
  std::vector<T> v(a.bytes.size() / sizeof(T));
  std::memcpy(v.data(), a.bytes.data(), a.bytes.size());
  return v;
}

// Reads state array `name` of an engine, lets `edit` change its elements (a std::vector<T>),
// and writes it back.
template <class T, class F>
void edit_state(Engine& e, const std::string& name, F edit) {
  HostArray a = e.state(name);
  std::vector<T> v = values<T>(a);
  edit(v);
  std::memcpy(a.bytes.data(), v.data(), a.bytes.size());
  e.set_state(name, a);
}

// Every state array of an engine, in state_names() order.
inline std::vector<HostArray> full_state(Engine& e) {
  std::vector<HostArray> s;
  for (const std::string& n : e.state_names()) s.push_back(e.state(n));
  return s;
}

// Two engines' full states are equal, array for array (each differing one named).
inline void expect_same(const std::vector<HostArray>& a, const std::vector<HostArray>& b,
                        const std::vector<std::string>& names) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i)
    EXPECT_TRUE(a[i].bytes == b[i].bytes) << names[i] << " differs";
}

// The message of the ConfigError `f` throws, "" if it throws none.
inline std::string config_error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

// The message of the SimulationError `run()` throws; a test failure and "" if it throws none.
template <class F>
std::string simulation_error(F run) {
  try {
    run();
  } catch (const SimulationError& err) {
    return err.what();
  }
  ADD_FAILURE() << "no SimulationError";
  return "";
}

// Every state array of a batch after `cycles` clocks, for comparing runs bit by bit.
inline std::vector<std::vector<uint8_t>> state_after(const std::vector<Config>& cs,
                                                     const EngineOptions& o, uint64_t cycles) {
  auto e = make_engine(cs, o);
  e->step(cycles);
  std::vector<std::vector<uint8_t>> s;
  for (const std::string& n : e->state_names()) s.push_back(e->state(n).bytes);
  return s;
}

}  // namespace ls::test
