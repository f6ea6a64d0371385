// A validated configuration string to the enum the kernels take.
#pragma once
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <utility>

namespace ls {

// validate() has already refused unknown values: one here is a bug.
template <class E>
E pick(const std::string& s, std::initializer_list<std::pair<const char*, E>> names) {
  for (auto& n : names)
    if (s == n.first) return n.second;
  throw std::logic_error("unknown value \"" + s + "\" after validate()");
}

}  // namespace ls
