// The generic virtual-channel router's compiled helpers for Python, _core.vc: none beyond the
// shared module's (its Python package, bindings/lockstep/vc, is Python over Simulator and the
// schema).
#include <pybind11/pybind11.h>

namespace ls::vc {

void bind_python(pybind11::module_) {}

}  // namespace ls::vc
