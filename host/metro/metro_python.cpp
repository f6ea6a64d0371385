// METRO's compiled helpers for Python, _core.metro: none beyond the shared module's (its Python
// package, bindings/lockstep/metro, is Python over Simulator and the schema).
#include <pybind11/pybind11.h>

namespace ls::metro {

void bind_python(pybind11::module_) {}

}  // namespace ls::metro
