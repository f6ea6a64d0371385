// The write audit itself (make audit; host/backend/write_audit.hpp): in an audit build it finds
// a byte written in one cycle by two lanes of one tile between its syncs, by two elements, or by
// an element and a role, the same value or not, and nothing else. Elsewhere its hooks are empty and
// this test skips.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <iterator>

#include "host/backend/exec_cpu.hpp"
#include "host/backend/write_audit.hpp"

using namespace ls;

namespace {

#ifdef LS_WRITE_AUDIT
uint32_t counters[8];  // a state array as the audit sees it

// A store the compiler cannot drop or merge, instrumented as any store of the host code.
__attribute__((noinline)) void add(uint32_t* p, uint32_t x) {
  *static_cast<volatile uint32_t*>(p) += x;
}
__attribute__((noinline)) void put(uint32_t* p, uint32_t x) {
  *static_cast<volatile uint32_t*>(p) = x;
}

// Two elements on tiles, as the CPU runs a GPU block (the lanes in `order`): lane k of element
// e writes 1 (`write`: adds it, or stores it) to counters[4e + k % 4] (lanes k and k + 4 to
// one), then after the tile's sync the element once more to counters[4e] (`shared`: both to
// counters[0]).
std::vector<std::string> audited(BlockOrder order, uint32_t lanes, bool shared,
                                 void (*write)(uint32_t*, uint32_t) = add) {
  std::fill(std::begin(counters), std::end(counters), 0u);
  audit::region(counters, sizeof(counters), "counters");
  audit::begin();
  const CpuBlock b(order, 7);
  b.tiles<kTileLanes>(2, [&](const CpuTile& t, uint64_t e) {
    t.each(lanes, [&](uint32_t k) { write(&counters[4 * e + k % 4], 1); });
    t.single([&] { write(&counters[shared ? 0 : 4 * e], 1); });
  });
  b.barrier();
  const std::vector<std::string> out = audit::end();
  audit::forget(counters);
  return out;
}
#endif

}  // namespace

TEST(WriteAudit, FindsTwoThreadsWritingOneByteInACycle) {
#ifndef LS_WRITE_AUDIT
  GTEST_SKIP() << "not a write-audit build (make audit)";
#else
  // Four lanes on four counters, then the element again after the sync: no conflict.
  EXPECT_TRUE(audited(BlockOrder::kForward, 4, false).empty());
  // Lanes k and k + 4 of eight on one counter with no sync between: a conflict, in any order.
  for (BlockOrder o : {BlockOrder::kForward, BlockOrder::kReversed, BlockOrder::kShuffled}) {
    const std::vector<std::string> c = audited(o, 8, false);
    ASSERT_FALSE(c.empty());
    EXPECT_NE(c[0].find("counters byte"), std::string::npos) << c[0];
  }
  // Two elements on one counter in one cycle: a conflict on each of its four bytes.
  const std::vector<std::string> c = audited(BlockOrder::kForward, 1, true);
  ASSERT_EQ(c.size(), 4u);
  EXPECT_NE(c[0].find("counters byte 0, cycle 0: element 0 lane 0 and element 1 lane 0"),
            std::string::npos)
      << c[0];
  // Storing the same value is a data race all the same (the CUDA memory model), by two lanes or
  // by two elements.
  EXPECT_FALSE(audited(BlockOrder::kForward, 8, false, put).empty());
  EXPECT_EQ(audited(BlockOrder::kForward, 1, true, put).size(), 4u);
  EXPECT_TRUE(audited(BlockOrder::kForward, 4, false, put).empty());
#endif
}
