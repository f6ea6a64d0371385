// Multibutterfly networks of dilated crossbars (METRO paper, section 2 and Figure 1). Stage s
// has routers of r x d backward ports, d to each of r logical directions, and as many forward
// ports; each stage splits the destinations r ways, the first stage by the leading digit. A
// router belongs to a group (the digits resolved before its stage) and its d ports of
// direction j lead to forward ports of routers in group g * r + j of the next stage; the last
// stage's direction j of group g is endpoint g * r + j. Endpoints enter the first stage. The
// wiring, random within those rules, is multistage.cpp's.
#include "../config/schema.hpp"
#include "topology.hpp"

namespace ls {

std::vector<Stage> multibutterfly_stages(const TopologyConfig& c) {
  const auto& r = c.radix;
  const auto& d = c.dilation;
  uint64_t nodes = 1;
  for (int64_t x : r) nodes *= static_cast<uint64_t>(x);
  const uint64_t wires = nodes * static_cast<uint64_t>(c.endpoint_ports);
  std::vector<Stage> out;
  uint64_t groups = 1, first = 0, divisor = nodes;
  for (size_t s = 0; s < r.size(); ++s) {
    Stage st{static_cast<uint32_t>(r[s]), static_cast<uint32_t>(d.empty() ? 1 : d[s]), 0,
             static_cast<uint32_t>(first)};
    // Each of the stage's groups takes wires / groups wires on r x d forward ports a router.
    if (wires % (groups * st.ports()) != 0)
      throw ConfigError("topology.endpoint_ports = " + std::to_string(c.endpoint_ports) +
                        ": allowed only when each group of stage " + std::to_string(s) + " (" +
                        std::to_string(groups) + " groups) fills whole routers of " +
                        std::to_string(st.ports()) + " forward ports from its " +
                        std::to_string(wires / groups) + " wires; here topology.radix = " +
                        to_string(r) + ", topology.dilation = " + to_string(d));
    st.routers = static_cast<uint32_t>(wires / st.ports());
    st.groups = static_cast<uint32_t>(groups);
    divisor /= st.radix;
    st.divisor = divisor;
    out.push_back(st);
    first += st.routers;
    groups *= st.radix;
  }
  return out;
}

}  // namespace ls
