// One clock of a METRO network: every router (crossbar.hpp) and every endpoint (endpoint.hpp)
// reads the words arriving on its ports and writes only its own state and the belt slots its
// words enter, so all elements of a batch run as one parallel step, in any order.
#pragma once
#include "crossbar.hpp"
#include "endpoint.hpp"

namespace ls::metro {

struct MetroCycle {
  MetroView v;

  LS_HD void operator()(uint64_t e) const {
    const uint32_t inst = static_cast<uint32_t>(e / v.lay.elems),
                   x = static_cast<uint32_t>(e % v.lay.elems);
    if (x < v.lay.routers) {
      Crossbar(v, inst, x).clock();
    } else {
      Endpoint(v, inst, x - v.lay.routers).clock();
    }
  }
  // The elements [e0, e1) of one instance, on one CPU thread (CpuExec::run_cycles).
  void range(uint64_t e0, uint64_t e1) const {
    for (uint64_t e = e0; e < e1; ++e) (*this)(e);
  }
  // Element e's clock on a tile of lanes (run.lanes = "tile"): a router's forward ports over the
  // lanes (Crossbar::lanes), an endpoint on one lane.
  static constexpr bool kLaneForm = true;
  template <class Tile>
  LS_HD void tile(const Tile& t, uint64_t e) const {
    const uint32_t inst = static_cast<uint32_t>(e / v.lay.elems),
                   x = static_cast<uint32_t>(e % v.lay.elems);
    if (x < v.lay.routers) {
      Crossbar(v, inst, x).lanes(t);
    } else {
      t.single([&] { Endpoint(v, inst, x - v.lay.routers).clock(); });
    }
  }
};

}  // namespace ls::metro
