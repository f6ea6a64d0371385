// Fuzz target: a configuration as text, through the schema. The text is read as the shipped
// configs are written (TOML's subset: [section] headers, `key = value` and `section.key = value`
// lines, # comments; values true/false, integers, numbers, "strings" and [lists of numbers]),
// each key is set through the one schema (set_key: its own check) and the whole checked by
// validate(), as Config does in Python. A line this reader cannot read is skipped (tomllib would
// refuse the file); an integer past 64 bits is skipped (the bindings refuse it). An accepted
// network of at most 16 routers is then built and run 24 clocks with the invariants checked:
// the engine refusing what validate() accepted is a finding too.
#include <cerrno>
#include <cstring>
#include <memory>
#include <optional>
#include <sstream>

#include "fuzz_target.hpp"
#include "host/config/schema.hpp"
#include "host/topology/topology.hpp"
#include "host/traffic/completion_peak.hpp"

namespace {

using namespace ls;

std::string trim(const std::string& s) {
  const size_t a = s.find_first_not_of(" \t\r"), b = s.find_last_not_of(" \t\r");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

// One number: an integer if the whole text is one (within 64 bits), else a double.
std::optional<Value> number(const std::string& s) {
  if (s.empty()) return std::nullopt;
  char* end = nullptr;
  errno = 0;
  const long long i = std::strtoll(s.c_str(), &end, 10);
  if (*end == '\0' && s.find_first_of(".eEn") == std::string::npos)
    return errno == ERANGE ? std::nullopt : std::optional<Value>(Value(int64_t{i}));
  const double d = std::strtod(s.c_str(), &end);
  if (*end != '\0') return std::nullopt;
  return Value(d);
}

std::optional<Value> value(const std::string& text) {
  const std::string v = trim(text);
  if (v == "true" || v == "false") return Value(v == "true");
  if (v.size() >= 2 && v.front() == '"' && v.back() == '"') return Value(v.substr(1, v.size() - 2));
  if (v.size() >= 2 && v.front() == '[' && v.back() == ']') {
    std::vector<int64_t> ints;
    std::vector<double> reals;
    bool all_int = true;
    std::stringstream items(v.substr(1, v.size() - 2));
    for (std::string item; std::getline(items, item, ',');) {
      if (trim(item).empty()) continue;  // [] and a trailing comma
      const std::optional<Value> x = number(trim(item));
      if (!x) return std::nullopt;
      if (const int64_t* p = std::get_if<int64_t>(&*x)) {
        ints.push_back(*p);
        reals.push_back(static_cast<double>(*p));
      } else {
        all_int = false;
        reals.push_back(std::get<double>(*x));
      }
    }
    return all_int ? Value(ints) : Value(reals);
  }
  return number(v);
}

// The text's settings in order: (section, name, value).
struct Setting {
  std::string section, name;
  Value v;
};
std::vector<Setting> settings(const std::string& text) {
  std::vector<Setting> out;
  std::string section;
  std::stringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    // A # outside a string starts a comment (strings hold no #'s escape: none is needed here).
    const size_t quote = line.find('"'), hash = line.find('#');
    if (hash != std::string::npos && (quote == std::string::npos || hash < quote))
      line = line.substr(0, hash);
    line = trim(line);
    if (line.size() >= 2 && line.front() == '[' && line.back() == ']' &&
        line.find('=') == std::string::npos) {
      section = trim(line.substr(1, line.size() - 2));
      continue;
    }
    const size_t eq = line.find('=');
    if (eq == std::string::npos) continue;
    std::string key = trim(line.substr(0, eq)), sec = section;
    if (const size_t dot = key.find('.'); dot != std::string::npos) {
      sec = key.substr(0, dot);
      key = key.substr(dot + 1);
    }
    if (const std::optional<Value> v = value(line.substr(eq + 1))) out.push_back({sec, key, *v});
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ls;
  if (size > 4096) return 0;  // configurations are short; long inputs only slow the search
  Config c;
  for (const Setting& s : settings(std::string(reinterpret_cast<const char*>(data), size)))
    fuzz::accepted([&] { set_key(c, s.section, s.name, s.v); });
  if (!fuzz::accepted([&] { validate(c); })) return 0;
  // What Python asks of an accepted configuration before running it.
  offered_limit(c);
  finite_workload(c);
  const TopologySize n = topology_size(c.topology);
  if (n.routers > 16 || estimated_state_bytes({c}) > (16u << 20)) return 0;
  std::unique_ptr<Engine> e;
  try {
    e = make_engine({c}, fuzz::checked_cpu());
  } catch (const std::exception& x) {
    fuzz::finding(std::string("validate() accepted what the engine refuses: ") + x.what());
  }
  fuzz::run_cycles(*e, 24);
  return 0;
}
