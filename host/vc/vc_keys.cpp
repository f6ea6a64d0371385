// The generic virtual-channel router's configuration keys, the [router] section's but family.
#include "../config/key_builders.hpp"
#include "vc_family.hpp"

namespace ls::vc {

std::vector<KeyInfo> section_keys() {
  using namespace keys;
  using V = VcConfig;
  const auto part = &Config::vc;
  return {
      int_key("router", "vcs", part, &V::vcs, 1, 16, "virtual channels per port"),
      int_key("router", "vc_depth", part, &V::vc_depth, 1, 255, "flits per VC buffer"),
      enum_key("router", "routing", part, &V::routing, {"dor", "min_adaptive"},
               "dimension order (torus: two dateline VC classes), or minimal adaptive with a "
               "dimension-order escape sub-network (Duato)"),
      bool_key("router", "dateline", part, &V::dateline,
               "torus dimension order: two dateline VC classes; false puts every packet on any VC "
               "of the port, so a ring's channels wait on each other in a cycle and can deadlock "
               "(for teaching why tori need datelines)"),
      enum_key("router", "flow_control", part, &V::flow_control, {"wormhole", "vct"},
               "wormhole, or virtual cut-through (a head advances only if the downstream VC can "
               "take the whole packet)"),
      enum_key("router", "vc_allocator", part, &V::vc_allocator, {"islip", "separable_input_first"},
               "VC allocator"),
      enum_key("router", "sw_allocator", part, &V::sw_allocator, {"islip", "separable_input_first"},
               "switch allocator"),
      int_key("router", "alloc_iters", part, &V::alloc_iters, 1, 8, "iSLIP iterations"),
      int_key("router", "routing_delay", part, &V::routing_delay, 0, 64,
              "route computation cycles"),
      int_key("router", "vc_alloc_delay", part, &V::vc_alloc_delay, 0, 64, "VC allocation cycles"),
      int_key("router", "sw_alloc_delay", part, &V::sw_alloc_delay, 1, 64,
              "switch allocation cycles"),
      int_key("router", "st_delay", part, &V::st_delay, 0, 64, "switch traversal cycles"),
      int_key("router", "credit_delay", part, &V::credit_delay, 0, 64,
              "cycles a router takes to send a credit, on top of the link")};
}

}  // namespace ls::vc
