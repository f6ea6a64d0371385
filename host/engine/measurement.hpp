// Turning the terminals' accumulators into the figures the field reports: offered and accepted
// throughput, latency mean and percentiles, hops, link utilisation, saturation flags.
#pragma once
#include <cstdint>
#include <limits>
#include <vector>

#include "engine.hpp"

namespace ls {

// One instance's accumulators, copied to the host ([node] arrays, histogram summed over nodes).
struct TerminalTotals {
  std::vector<uint64_t> created_flits, ejected_flits, meas_created, meas_delivered, meas_lost,
      lost_flits, refused;
  std::vector<uint64_t> lat_sum, nlat_sum, hops_sum;
  std::vector<uint32_t> lat_max;
  std::vector<uint64_t> hist;   // [bin]
  std::vector<uint8_t> active;  // [node] 1: takes part in the traffic (empty: every node)
};

struct WindowInfo {
  uint64_t measure_cycles;
  uint64_t queued_at_start, queued_at_end;  // source-queue packets summed over nodes
  bool drained;                             // every tracked packet delivered within the drain
  double latency_threshold;
};

// kNothingMeasured with an empty histogram.
double histogram_percentile(const std::vector<uint64_t>& hist, double q);

// A figure over no samples (a mean, a maximum, a percentile): nothing was measured, which 0 (a
// latency of 0 clocks) would hide in a table or a plot.
constexpr double kNothingMeasured = std::numeric_limits<double>::quiet_NaN();

// The mean of `count` samples summing to `sum`; kNothingMeasured with none.
inline double sample_mean(double sum, double count) {
  return count > 0 ? sum / count : kNothingMeasured;
}

// Fills the measurement fields of r (link utilisation is left to the caller).
void summarize(const TerminalTotals& t, const WindowInfo& w, InstanceResult& r);

}  // namespace ls
