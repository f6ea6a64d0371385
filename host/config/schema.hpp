// The configuration schema: every key with its type, default, allowed values and meaning, in
// one table (the shared sections' keys in schema.cpp, each family's in its folder). Python, the
// CLI and the README's reference are all generated from it.
#pragma once
#include <functional>
#include <string>
#include <variant>
#include <vector>

#include "config.hpp"

namespace ls {

struct TopologySize;  // host/topology/topology.hpp

using Value =
    std::variant<bool, int64_t, double, std::string, std::vector<int64_t>, std::vector<double>>;
enum class ValueType { kBool, kInt, kFloat, kString, kIntList, kFloatList };

struct KeyInfo {
  std::string section, name;
  ValueType type;
  std::string allowed, doc;
  bool per_instance;  // may differ between the instances of one batch
  std::function<Value(const Config&)> get;
  std::function<void(Config&, const Value&)> set;  // checks the value alone; throws ConfigError
  std::vector<std::string> choices = {};  // an enumerated key's values, in `allowed`'s order
  std::string key() const { return section + "." + name; }
  // The one router family that reads this key, "" where all do: a family's own section, and
  // the router section's keys but family (the vc router's parameters).
  std::string family() const;
};

const std::vector<KeyInfo>& schema();
const char* type_name(ValueType t);
std::string to_string(const Value& v);
// `s` with its control characters as \xHH, for messages: one keeps what follows a NUL
// (std::exception::what() and Python's C API stop at one) and shows what was given.
std::string escaped(const std::string& s);

// Throws ConfigError naming an unknown section and the allowed ones.
void check_section(const std::string& section);
// The key section.name; unknown sections and keys throw ConfigError naming them.
const KeyInfo& find_key(const std::string& section, const std::string& name);
// Sets one key; unknown sections/keys and bad values throw ConfigError naming key and value.
void set_key(Config& c, const std::string& section, const std::string& name, const Value& v);
// Checks the rules that involve several keys (call after all keys are set).
void validate(const Config& c);
// The highest traffic.offered the configuration allows: one packet per node per cycle (while
// on), in flits, its reply (or the T3E's response) included; at most the key's own bound.
double offered_limit(const Config& c);
// The part of validate() that concerns the topology alone (the graph kinds: builds the graph,
// so a bad one is refused here); returns its size.
TopologySize validate_topology(const TopologyConfig& t);
// A key whose value is a flat list of pairs (`names` says what: "(router, port)"): an even
// count, each pair passing ok(first, second); otherwise throws ConfigError naming the key, the
// value, the first bad pair and what is `allowed` of one.
void check_pairs(const std::string& key, const std::vector<int64_t>& xs, const char* names,
                 const std::function<bool(int64_t, int64_t)>& ok, const std::string& allowed);
// The same for n-tuples (n = 3: "triples"), ok reading the tuple's n integers.
void check_tuples(const std::string& key, const std::vector<int64_t>& xs, size_t n,
                  const char* names, const std::function<bool(const int64_t*)>& ok,
                  const std::string& allowed);
// Helpers of the families' checks (host/<family>/<family>_checks.cpp).
// Every size a source may draw (traffic.packet_sizes, else traffic.packet_size) must pass `ok`;
// else the error names the key, its value and `allowed`.
void check_packet_sizes(const TrafficConfig& f, const std::function<bool(int64_t)>& ok,
                        const std::string& allowed);
// The traffic pattern over `n` sources and destinations (`what` names them in errors).
void check_pattern(const TrafficConfig& f, int64_t n, const std::string& what);
// Throws unless the non-per-instance keys of all configs are equal.
void check_same_batch(const std::vector<Config>& cs);

}  // namespace ls
