// S-Connect's compiled helpers for Python, _core.sconnect: none beyond the shared module's (its
// Python package, bindings/lockstep/sconnect, is Python over Simulator and the schema).
#include <pybind11/pybind11.h>

namespace ls::sconnect {

void bind_python(pybind11::module_) {}

}  // namespace ls::sconnect
