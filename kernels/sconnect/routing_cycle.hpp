// One routing cycle of one S-Connect router (section 2.2: "at the beginning of each routing
// cycle the messages from all inbound channels are collected... by the end of each routing
// cycle, messages are transferred to the outbound channels"), its stages in order:
//   1. acknowledgements arriving for what it sent: free the buffer, or route the message again
//   2. messages arriving: into the pool and a queue, or refused; the answer goes back
//   3. the host injects (up to host_ports messages)
//   4. the transmitters send (one message per channel)
//   5. the host takes what arrived for it (up to host_ports messages)
//   6. the host's sources create their next messages (kernels/common/source.hpp)
//   7. the timer advances; the cycle's own events are counted (monitor.hpp)
// A router writes only its own state and the slots entering its channels' belts (messages at
// the far end, acknowledgements at the sender), so all routers of a batch run as one parallel
// step per cycle, on the GPU one thread each, with the same results in any order.
#pragma once
#include "host_port.hpp"
#include "transmitter.hpp"

namespace ls::sconnect {

struct RoutingCycle {
  SconnectView v;

  LS_HD void operator()(uint64_t e) const {
    const uint32_t inst = static_cast<uint32_t>(e / v.lay.routers),
                   r = static_cast<uint32_t>(e % v.lay.routers);
    const ChannelModule cm{v, e, inst, r};
    cm.receive_acks();
    cm.receive_messages();
    inject(e, inst, r);
    Transmitter{v, e, inst, r}();
    finish(e, inst, r);
  }
  // Stage 3: the host injects.
  LS_HD LS_FORCEINLINE void inject(uint64_t e, uint32_t inst, uint32_t r) const {
    const int32_t n = v.topo.router_node[r];
    if (n >= 0)
      HostPort{v, e, inst, r}.inject(v.lay.node_elem(inst, static_cast<uint32_t>(n)),
                                     static_cast<uint32_t>(n));
  }
  // Stages 5-7: the host takes what arrived and its sources create messages; the timer.
  LS_HD LS_FORCEINLINE void finish(uint64_t e, uint32_t inst, uint32_t r) const {
    const int32_t n = v.topo.router_node[r];
    if (n >= 0) {
      const HostPort host{v, e, inst, r};
      const uint64_t ne = v.lay.node_elem(inst, static_cast<uint32_t>(n));
      host.deliver(ne, static_cast<uint32_t>(n));
      host.generate(ne, static_cast<uint32_t>(n));
    }
    v.s.timer[e] = static_cast<uint16_t>(v.s.timer[e] + 1u);
    perf_event(v, e, kEvCycle);
    if (v.s.free_mask[e] == 0) perf_event(v, e, kEvPoolFull);
  }
  // Router e's cycle on a tile of lanes (run.lanes = "tile"): acknowledgements, arrivals and the
  // channels a port a lane, what they leave for the shared pool and queues on one lane in port
  // order (ChannelModule::lanes, Transmitter::lanes); the host port on one lane.
  static constexpr bool kLaneForm = true;
  template <class Tile>
  LS_HD void tile(const Tile& t, uint64_t e) const {
    const uint32_t inst = static_cast<uint32_t>(e / v.lay.routers),
                   r = static_cast<uint32_t>(e % v.lay.routers);
    ChannelModule{v, e, inst, r}.lanes(t);
    t.single([&] { inject(e, inst, r); });
    Transmitter{v, e, inst, r}.lanes(t);
    t.single([&] { finish(e, inst, r); });
  }
  // The routers [e0, e1) of one instance, on one CPU thread (CpuExec::run_cycles).
  void range(uint64_t e0, uint64_t e1) const {
    for (uint64_t e = e0; e < e1; ++e) (*this)(e);
  }
};

}  // namespace ls::sconnect
