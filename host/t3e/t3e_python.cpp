// The T3E's compiled helpers for Python, _core.t3e (bindings/lockstep/t3e/ uses them).
#include <pybind11/stl.h>

#include "barrier_tree.hpp"
#include "bindings/python_convert.hpp"
#include "partial_plane.hpp"
#include "t3e_registers.hpp"

namespace py = pybind11;

namespace ls::t3e {

void bind_python(py::module_ m) {
  m.def(
      "barrier_tree",
      [](const py::dict& cfg, const std::vector<uint32_t>& members, uint32_t root) {
        const Config c = config_from_dict(cfg);
        if (c.router.family != "t3e")
          throw ConfigError("router.family = \"" + c.router.family +
                            "\": allowed \"t3e\" for a barrier tree");
        const Topology t = machine_topology(c);
        const Registers g = make_registers(c, t);
        const std::vector<uint32_t> w =
            barrier_tree(neighbours(t, g), members.empty() ? g.pe_router : members, root);
        return numpy_of(w, {static_cast<py::ssize_t>(w.size())});
      },
      py::arg("cfg"), py::arg("members"), py::arg("root"),
      "A T3E BSU's spanning tree over the PEs of routers `members` (empty: all), rooted at "
      "router `root`: the BSU register word of every router (kernels/t3e/bsu_register.hpp).");
}

}  // namespace ls::t3e
