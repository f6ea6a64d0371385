// Blue Gene/L's compiled helpers for Python, _core.bgl: none beyond the shared module's (its Python
// package, bindings/lockstep/bgl, is Python over Simulator and the schema).
#include <pybind11/pybind11.h>

namespace ls::bgl {

void bind_python(pybind11::module_) {}

}  // namespace ls::bgl
