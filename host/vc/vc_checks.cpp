// The generic virtual-channel router's rules that involve several keys: its networks, its VCs'
// classes (datelines, escape and adaptive VCs, request and reply halves), buffers that take a
// whole packet where the flow control needs one.
#include <algorithm>

#include "../../kernels/vc/vc_state.hpp"
#include "vc_family.hpp"

namespace ls::vc {

void validate(const Config& c, const TopologySize& size) {
  const auto& t = c.topology;
  const auto& r = c.vc;
  const auto& f = c.traffic;
  const bool crossbar = t.kind == "crossbar", torus = t.kind == "torus";
  if (is_graph_kind(t.kind))
    throw ConfigError("topology.kind = \"" + t.kind +
                      "\": allowed only mesh, torus, crossbar for router.family = vc");
  const auto ports = static_cast<int64_t>(size.ports);
  if (ports * r.vcs > kMaxPortVcs)
    throw ConfigError("router.vcs = " + std::to_string(r.vcs) + ": allowed at most " +
                      std::to_string(kMaxPortVcs / ports) + " for routers of " +
                      std::to_string(ports) +
                      " ports (ports x vcs <= " + std::to_string(kMaxPortVcs) + ")");
  if (crossbar && r.routing != "dor")
    throw ConfigError("router.routing = \"" + r.routing + "\": allowed for a crossbar: dor");
  // With request-reply traffic each of the two message classes has half of the VCs.
  const int64_t classes = f.request_reply ? 2 : 1, width = r.vcs / classes;
  const std::string per =
      f.request_reply ? " per message class (request-reply halves the VCs)" : "";
  if (f.request_reply && r.vcs % 2)
    throw ConfigError("router.vcs = " + std::to_string(r.vcs) +
                      ": allowed with traffic.request_reply an even number (half for requests, "
                      "half for replies)");
  if (!r.dateline && r.routing != "dor")
    throw ConfigError("router.dateline = false: allowed only with router.routing = \"dor\" (" +
                      r.routing + " keeps its dateline escape classes)");
  if (r.routing == "dor" && torus && r.dateline && (width < 2 || width % 2))
    throw ConfigError("router.vcs = " + std::to_string(r.vcs) +
                      ": allowed for torus dimension-order routing an even number >= 2" + per +
                      " (two dateline classes)");
  if (r.routing == "min_adaptive" && width < (torus ? 3 : 2))
    throw ConfigError("router.vcs = " + std::to_string(r.vcs) + ": allowed for min_adaptive on a " +
                      t.kind + " at least " +
                      (torus ? "3 (2 escape + 1 adaptive)" : "2 (1 escape + 1 adaptive)") + per);
  if (f.request_reply && f.reply_queue < width * r.vc_depth)
    throw ConfigError("traffic.reply_queue = " + std::to_string(f.reply_queue) +
                      ": allowed at least " + std::to_string(width * r.vc_depth) +
                      " (vcs/2 x vc_depth: a slot for every request flit a router may send)");
  int64_t max_size = f.packet_sizes.empty() ? f.packet_size : 0;
  for (int64_t b : f.packet_sizes) max_size = std::max(max_size, b);
  if (f.request_reply) max_size = std::max(max_size, f.reply_size);
  if (r.routing == "min_adaptive" && max_size > r.vc_depth)
    throw ConfigError("router.vc_depth = " + std::to_string(r.vc_depth) +
                      ": allowed for min_adaptive at least the largest packet (" +
                      std::to_string(max_size) +
                      " flits): an adaptive VC is entered only with room for the whole packet");
  if (r.flow_control == "vct" && max_size > r.vc_depth)
    throw ConfigError("router.vc_depth = " + std::to_string(r.vc_depth) +
                      ": allowed for virtual cut-through at least the largest packet (" +
                      std::to_string(max_size) + " flits)");
}

}  // namespace ls::vc
