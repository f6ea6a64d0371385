// What every fuzz target shares: libFuzzer's entry point, and the rule each one checks. An input
// is accepted, or refused with a ConfigError (naming key, value and what is allowed); a run ends,
// or stops at a deadlock the watchdog reports. Anything else (another exception, an invariant
// broken, a crash or a sanitizer's report) is a finding: abort(), so that libFuzzer keeps the
// input and the replay test fails.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <initializer_list>
#include <string>

#include "host/config/config.hpp"
#include "host/engine/engine.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace ls::fuzz {

[[noreturn]] inline void finding(const std::string& what) {
  std::fprintf(stderr, "fuzz finding: %s\n", what.c_str());
  std::abort();
}

// Runs f; a refusal must say what is allowed.
template <class F>
bool accepted(F&& f) {
  try {
    f();
    return true;
  } catch (const ConfigError& e) {
    if (std::string(e.what()).find("allowed") == std::string::npos)
      finding(std::string("a refusal that does not say what is allowed: ") + e.what());
    return false;
  } catch (const std::exception& e) {
    finding(std::string("not a ConfigError: ") + e.what());
  }
}

// Steps an engine: only the watchdog's deadlock report may stop it, or a report whose message
// holds one of `expected` (what the input itself may cause: the target says why).
inline void run_cycles(Engine& e, uint64_t cycles,
                       std::initializer_list<const char*> expected = {}) {
  try {
    e.step(cycles);
  } catch (const SimulationError& s) {
    const std::string m = s.what();
    bool fine = m.rfind("deadlock", 0) == 0;
    for (const char* x : expected) fine |= m.find(x) != std::string::npos;
    if (!fine) finding("an invariant broke: " + m);
  } catch (const std::exception& x) {
    finding(std::string("stepping threw: ") + x.what());
  }
}

// The engine of a small network, on one CPU thread with the invariants checked every cycle.
inline EngineOptions checked_cpu() {
  EngineOptions o;
  o.backend = "cpu";
  o.threads = 1;
  o.debug = true;
  return o;
}

}  // namespace ls::fuzz
