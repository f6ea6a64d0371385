// The CPU backend's arena (host/backend/host_arena.hpp): zeroed, cache-line aligned, disjoint
// arrays, in blocks that grow past the first one for large state.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "../../host/backend/host_arena.hpp"

using namespace ls;

TEST(HostArena, ArraysAreZeroedAlignedAndDisjoint) {
  HostArena a;
  // Sizes around the first block's 8 MiB and beyond it, so the arena grows.
  const std::vector<size_t> sizes = {
      1, 63, 64, 1000, size_t{3} << 20, size_t{6} << 20, size_t{20} << 20, 17};
  std::vector<std::pair<char*, size_t>> got;
  for (size_t n : sizes) {
    char* p = static_cast<char*>(a.alloc(n));
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 64, 0u) << n;
    for (size_t i = 0; i < n; i += 4096) ASSERT_EQ(p[i], 0) << n << " at " << i;
    ASSERT_EQ(p[n - 1], 0) << n;
    std::memset(p, 0x5A, n);  // written whole: a later array must not overlap it
    got.emplace_back(p, n);
  }
  for (size_t i = 0; i < got.size(); ++i)
    for (size_t j = i + 1; j < got.size(); ++j) {
      const uintptr_t a0 = reinterpret_cast<uintptr_t>(got[i].first), a1 = a0 + got[i].second;
      const uintptr_t b0 = reinterpret_cast<uintptr_t>(got[j].first), b1 = b0 + got[j].second;
      EXPECT_TRUE(a1 <= b0 || b1 <= a0) << i << " and " << j << " overlap";
    }
  for (const auto& [p, n] : got) EXPECT_EQ(p[n - 1], 0x5A);
}
