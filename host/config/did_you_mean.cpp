#include "did_you_mean.hpp"

#include <algorithm>

namespace ls {
namespace {

// Optimal string alignment distance: Levenshtein's edits and swaps of neighbouring characters.
size_t edits(const std::string& a, const std::string& b) {
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i)
    for (size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min(
          {d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

}  // namespace

std::string closest_name(const std::string& given, const std::vector<std::string>& options) {
  // A name typed by hand is short; a long one (fuzzed text, a file read by mistake) has no
  // neighbour worth naming, and its table would be large.
  constexpr size_t kLongest = 64;
  if (given.empty() || given.size() > kLongest) return "";
  std::string best;
  size_t best_edits = 0;
  for (const std::string& o : options) {
    const size_t e = edits(given, o);
    if (e == 0 || e > std::max<size_t>(1, std::max(given.size(), o.size()) / 3)) continue;
    if (best.empty() || e < best_edits) best = o, best_edits = e;
  }
  return best;
}

std::string did_you_mean(const std::string& given, const std::vector<std::string>& options,
                         const std::string& quote) {
  const std::string c = closest_name(given, options);
  return c.empty() ? "" : " (did you mean " + quote + c + quote + "?)";
}

}  // namespace ls
