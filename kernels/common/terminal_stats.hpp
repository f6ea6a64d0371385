// What a terminal measures, the same for every router family: offered and accepted load in the
// measurement window, and the latency, network latency and hops of each packet created in the
// window, summed and binned per node; the host turns them into results (host/engine/measurement).
#pragma once
#include <cstdint>

#include "hd.hpp"
#include "histogram.hpp"

namespace ls {

// The measurement window [start, end), set by the host's run loop.
struct Window {
  uint64_t start, end;
  LS_HD bool contains(uint64_t c) const { return c >= start && c < end; }
};

// Measurement accumulators [inst, node] (histogram [inst, node, bin]).
struct StatsState {
  uint64_t* created_flits;   // flits (S-Connect: messages) created in the window (offered load)
  uint64_t* ejected_flits;   // flits ejected in the window (accepted load)
  uint64_t* meas_created;    // packets created in the window
  uint64_t* meas_delivered;  // of those, delivered (tail ejected)
  uint64_t* meas_lost;       // of those, dropped where the hardware drops packets
  uint64_t* lost_flits;      // ... and their flits (not offered load the network can accept)
  uint64_t* refused;         // packets not created in the window: source queue full
  uint64_t* lat_sum;         // packet latency (creation to tail ejection)
  uint64_t* nlat_sum;        // network latency (head injection to tail ejection)
  uint64_t* hops_sum;
  uint32_t* lat_max;
  uint32_t* hist;           // latency histogram, kHistBins per node
  uint32_t* last_delivery;  // the cycle after the latest delivery (an alltoall's completion)
};

// A packet of `size` flits created in the window was lost at terminal (or router) ne.
LS_HD inline void record_loss(const StatsState& st, uint64_t ne, uint32_t size) {
  st.meas_lost[ne] += 1;
  st.lost_flits[ne] += size;
}

// A packet created in the window was delivered at terminal ne in cycle t: `lat` cycles after its
// creation, `nlat` after it entered the network, over `hops` routers.
LS_HD inline void record_delivery(const StatsState& st, uint64_t ne, uint64_t t, uint32_t lat,
                                  uint64_t nlat, uint32_t hops) {
  st.meas_delivered[ne] += 1;
  st.last_delivery[ne] = static_cast<uint32_t>(t + 1);
  st.lat_sum[ne] += lat;
  st.nlat_sum[ne] += nlat;
  st.hops_sum[ne] += hops;
  if (lat > st.lat_max[ne]) st.lat_max[ne] = lat;
  st.hist[ne * kHistBins + hist_bin(lat)] += 1;
}

}  // namespace ls
