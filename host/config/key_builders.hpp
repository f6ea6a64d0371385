// Building a configuration section's keys (KeyInfo): the shared sections' in schema.cpp, each
// family's in its folder.
#pragma once
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "did_you_mean.hpp"
#include "schema.hpp"

namespace ls::keys {

inline std::string num(double x) {
  std::ostringstream o;
  o << x;
  return o.str();
}

[[noreturn]] inline void bad(const std::string& key, const Value& v, const std::string& allowed) {
  throw ConfigError(key + " = " + to_string(v) + ": allowed " + allowed);
}

inline int64_t as_int(const std::string& key, const Value& v, int64_t lo, int64_t hi) {
  const std::string range =
      "an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
  int64_t x;
  if (auto p = std::get_if<int64_t>(&v)) {
    x = *p;
  } else {
    bad(key, v, range);
  }
  if (x < lo || x > hi) bad(key, v, range);
  return x;
}

inline double as_float(const std::string& key, const Value& v, double lo, double hi) {
  const std::string range = "a number in [" + num(lo) + ", " + num(hi) + "]";
  double x;
  if (auto p = std::get_if<double>(&v)) {
    x = *p;
  } else if (auto q = std::get_if<int64_t>(&v)) {
    x = static_cast<double>(*q);
  } else {
    bad(key, v, range);
  }
  if (!(x >= lo && x <= hi)) bad(key, v, range);
  return x;
}

inline std::string join(const std::vector<std::string>& xs) {
  std::string s;
  for (size_t i = 0; i < xs.size(); ++i) s += (i ? ", " : "") + xs[i];
  return s;
}

// The builders: one call per key. Each key's own check (set) throws ConfigError naming the key,
// the value given and what is allowed.
template <class S>
KeyInfo int_key(const char* sec, const char* name, S Config::*part, int64_t S::*m, int64_t lo,
                int64_t hi, const std::string& doc, bool per_inst = false) {
  std::string allowed = "integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
  std::string key = std::string(sec) + "." + name;
  return {sec,
          name,
          ValueType::kInt,
          allowed,
          doc,
          per_inst,
          [=](const Config& c) { return Value((c.*part).*m); },
          [=](Config& c, const Value& v) { (c.*part).*m = as_int(key, v, lo, hi); }};
}

template <class S>
KeyInfo float_key(const char* sec, const char* name, S Config::*part, double S::*m, double lo,
                  double hi, const std::string& doc, bool per_inst = false) {
  std::string allowed = "number in [" + num(lo) + ", " + num(hi) + "]";
  std::string key = std::string(sec) + "." + name;
  return {sec,
          name,
          ValueType::kFloat,
          allowed,
          doc,
          per_inst,
          [=](const Config& c) { return Value((c.*part).*m); },
          [=](Config& c, const Value& v) { (c.*part).*m = as_float(key, v, lo, hi); }};
}

template <class S>
KeyInfo enum_key(const char* sec, const char* name, S Config::*part, std::string S::*m,
                 std::vector<std::string> choices, const std::string& doc, bool per_inst = false) {
  std::string key = std::string(sec) + "." + name, allowed = join(choices);
  return {sec,
          name,
          ValueType::kString,
          allowed,
          doc,
          per_inst,
          [=](const Config& c) { return Value((c.*part).*m); },
          [=](Config& c, const Value& v) {
            auto p = std::get_if<std::string>(&v);
            if (!p) bad(key, v, allowed);
            for (auto& ch : choices)
              if (*p == ch) {
                (c.*part).*m = *p;
                return;
              }
            throw ConfigError(key + " = " + to_string(v) + did_you_mean(*p, choices, "\"") +
                              ": allowed " + allowed);
          },
          choices};
}

template <class S>
KeyInfo bool_key(const char* sec, const char* name, S Config::*part, bool S::*m,
                 const std::string& doc) {
  std::string key = std::string(sec) + "." + name;
  return {sec,
          name,
          ValueType::kBool,
          "true, false",
          doc,
          false,
          [=](const Config& c) { return Value((c.*part).*m); },
          [=](Config& c, const Value& v) {
            auto p = std::get_if<bool>(&v);
            if (!p) bad(key, v, "true, false");
            (c.*part).*m = *p;
          }};
}

template <class S>
KeyInfo string_key(const char* sec, const char* name, S Config::*part, std::string S::*m,
                   const std::string& allowed, const std::string& doc) {
  std::string key = std::string(sec) + "." + name;
  return {sec,
          name,
          ValueType::kString,
          allowed,
          doc,
          false,
          [=](const Config& c) { return Value((c.*part).*m); },
          [=](Config& c, const Value& v) {
            auto p = std::get_if<std::string>(&v);
            // A NUL would end the name where the system reads it: another file than the one named.
            if (!p || p->find('\0') != std::string::npos) bad(key, v, allowed);
            (c.*part).*m = *p;
          }};
}

template <class S>
KeyInfo int_list_key(const char* sec, const char* name, S Config::*part, std::vector<int64_t> S::*m,
                     size_t min_len, size_t max_len, int64_t lo, int64_t hi, const std::string& doc,
                     bool per_inst = false) {
  std::string key = std::string(sec) + "." + name;
  std::string allowed = "a list of " + std::to_string(min_len) + " to " + std::to_string(max_len) +
                        " integers in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
  return {sec,
          name,
          ValueType::kIntList,
          allowed,
          doc,
          per_inst,
          [=](const Config& c) { return Value((c.*part).*m); },
          [=](Config& c, const Value& v) {
            const std::vector<int64_t>* p = std::get_if<std::vector<int64_t>>(&v);
            const std::vector<double>* q = std::get_if<std::vector<double>>(&v);
            if (q && q->empty()) {
              static const std::vector<int64_t> empty;
              p = &empty;
            }
            if (!p || p->size() < min_len || p->size() > max_len) bad(key, v, allowed);
            for (int64_t x : *p)
              if (x < lo || x > hi) bad(key, v, allowed);
            (c.*part).*m = *p;
          }};
}

template <class S>
KeyInfo float_list_key(const char* sec, const char* name, S Config::*part,
                       std::vector<double> S::*m, size_t max_len, const std::string& doc,
                       bool per_inst = false) {
  std::string key = std::string(sec) + "." + name;
  std::string allowed =
      "a list of at most " + std::to_string(max_len) + " finite non-negative numbers";
  return {sec,
          name,
          ValueType::kFloatList,
          allowed,
          doc,
          per_inst,
          [=](const Config& c) { return Value((c.*part).*m); },
          [=](Config& c, const Value& v) {
            std::vector<double> out;
            if (auto p = std::get_if<std::vector<double>>(&v)) {
              out = *p;
            } else if (auto q = std::get_if<std::vector<int64_t>>(&v)) {
              out.assign(q->begin(), q->end());
            } else {
              bad(key, v, allowed);
            }
            if (out.size() > max_len) bad(key, v, allowed);
            for (double x : out)
              if (!(x >= 0 && std::isfinite(x))) bad(key, v, allowed);
            (c.*part).*m = out;
          }};
}

}  // namespace ls::keys
