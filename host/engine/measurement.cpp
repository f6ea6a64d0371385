#include "measurement.hpp"

#include <algorithm>
#include <cstdio>
#include <numeric>

#include "../../kernels/common/histogram.hpp"

namespace ls {

double histogram_percentile(const std::vector<uint64_t>& hist, double q) {
  const uint64_t total = std::accumulate(hist.begin(), hist.end(), uint64_t{0});
  if (total == 0) return kNothingMeasured;
  const double rank = q * static_cast<double>(total);
  uint64_t cum = 0;
  for (uint32_t b = 0; b < hist.size(); ++b) {
    if (hist[b] == 0) continue;
    if (static_cast<double>(cum + hist[b]) >= rank) {
      double lo, width;
      hist_bin_range(b, &lo, &width);
      if (width <= 1) return lo;
      return lo + width * (rank - static_cast<double>(cum)) / static_cast<double>(hist[b]);
    }
    cum += hist[b];
  }
  return 0;
}

void summarize(const TerminalTotals& t, const WindowInfo& w, InstanceResult& r) {
  // Per-node figures average over the nodes that take part; the others have nothing to add.
  uint64_t taking_part = 0, least = UINT64_MAX;
  for (size_t n = 0; n < t.ejected_flits.size(); ++n)
    if (t.active.empty() || t.active[n]) {
      taking_part += 1;
      least = std::min(least, t.ejected_flits[n]);
    }
  const double nodes = static_cast<double>(std::max<uint64_t>(taking_part, 1));
  const double m = static_cast<double>(w.measure_cycles);
  auto sum = [](const std::vector<uint64_t>& v) {
    return std::accumulate(v.begin(), v.end(), uint64_t{0});
  };
  const uint64_t created = sum(t.meas_created), delivered = sum(t.meas_delivered);
  r.offered = static_cast<double>(sum(t.created_flits)) / (nodes * m);
  r.accepted = static_cast<double>(sum(t.ejected_flits)) / (nodes * m);
  r.accepted_min = taking_part ? static_cast<double>(least) / m : 0.0;
  r.packets = delivered;
  r.refused = sum(t.refused);
  r.lost = sum(t.meas_lost);
  const double lost = static_cast<double>(sum(t.lost_flits)) / (nodes * m);
  const double d = static_cast<double>(delivered);
  r.latency_mean = sample_mean(static_cast<double>(sum(t.lat_sum)), d);
  r.network_latency_mean = sample_mean(static_cast<double>(sum(t.nlat_sum)), d);
  r.hops_mean = sample_mean(static_cast<double>(sum(t.hops_sum)), d);
  r.latency_max =
      delivered ? *std::max_element(t.lat_max.begin(), t.lat_max.end()) : kNothingMeasured;
  r.latency_p50 = histogram_percentile(t.hist, 0.50);
  r.latency_p99 = histogram_percentile(t.hist, 0.99);

  // Saturation: any one of these, with the reason spelled out (never averaged silently).
  char why[200] = "";
  const double growth =
      static_cast<double>(w.queued_at_end) - static_cast<double>(w.queued_at_start);
  if (!w.drained) {
    std::snprintf(why, sizeof why, "%llu of %llu measured packets undelivered after the drain",
                  static_cast<unsigned long long>(created - delivered - r.lost),
                  static_cast<unsigned long long>(created));
  } else if (r.refused > 0) {
    std::snprintf(why, sizeof why, "full source queues refused %llu packets",
                  static_cast<unsigned long long>(r.refused));
  } else if (r.accepted < 0.95 * (r.offered - lost)) {
    std::snprintf(why, sizeof why, "accepted %.4f < 0.95 x offered %.4f%s", r.accepted,
                  r.offered - lost, lost > 0 ? " (less the flits of lost packets)" : "");
  } else if (growth > std::max(32.0, 0.02 * static_cast<double>(created))) {
    std::snprintf(why, sizeof why, "source queues grew by %.0f packets during the window", growth);
  } else if (r.latency_mean > w.latency_threshold) {
    std::snprintf(why, sizeof why, "mean latency %.1f > threshold %.1f", r.latency_mean,
                  w.latency_threshold);
  }
  r.saturation_reason = why;
  r.saturated = !r.saturation_reason.empty();
}

}  // namespace ls
