// What the Python module's parts share to cross between Python and the engine: configurations
// from nested dicts, vectors to numpy arrays (core_module.cpp; the families' bind_python).
#pragma once
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstring>
#include <vector>

#include "host/config/config.hpp"

namespace ls {

// A configuration from {section: {key: value}}, every key and rule checked (ConfigError).
Config config_from_dict(const pybind11::dict& d);

template <class T>
pybind11::array_t<T> numpy_of(const std::vector<T>& v, std::vector<pybind11::ssize_t> shape) {
  pybind11::array_t<T> a(shape);
  std::memcpy(a.mutable_data(), v.data(), v.size() * sizeof(T));
  return a;
}

}  // namespace ls
