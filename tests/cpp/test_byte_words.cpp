// kernels/common/byte_words.hpp: the masks a router builds from its byte-wide state (VC
// counters, owners, belt rows) and its 64-bit request sets on the CPU, against a byte-by-byte
// (word-by-word) reading, on random values; and the slices read exactly their own bytes: each
// ends at a page that may not be read, so a load past the slice's end faults.
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <random>

#include "kernels/common/byte_words.hpp"

using namespace ls;

namespace {

// Two pages, the second unreadable; slice(n) is the n bytes that end where it begins.
struct GuardedBytes {
  size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  uint8_t* base = static_cast<uint8_t*>(
      mmap(nullptr, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
  GuardedBytes() { mprotect(base + page, page, PROT_NONE); }
  ~GuardedBytes() { munmap(base, 2 * page); }
  uint8_t* slice(size_t n) const { return base + page - n; }
};

template <uint32_t N>
void check_nonzero(const GuardedBytes& g, std::mt19937& rng) {
  uint8_t* b = g.slice(N);
  for (int round = 0; round < 200; ++round) {
    uint64_t want = 0;
    for (uint32_t i = 0; i < N; ++i) {
      // Half zero, the rest any value, high bit included.
      b[i] = rng() % 2 ? 0 : static_cast<uint8_t>(rng());
      want |= uint64_t{b[i] != 0} << i;
    }
    ASSERT_EQ(nonzero_bytes<N>(b), want) << "N = " << N;
  }
}

template <uint32_t N>
void check_nonnegative(const GuardedBytes& g, std::mt19937& rng) {
  auto* b = reinterpret_cast<int8_t*>(g.slice(N));
  for (int round = 0; round < 200; ++round) {
    uint32_t want = 0;
    for (uint32_t i = 0; i < N; ++i) {
      b[i] = static_cast<int8_t>(rng() % 3 ? rng() % 64 : -1 - rng() % 128);
      want |= uint32_t{b[i] >= 0} << i;
    }
    ASSERT_EQ(nonnegative_bytes<N>(b), want) << "N = " << N;
  }
}

template <uint32_t N>
void check_nonzero_words(const GuardedBytes& g, std::mt19937& rng) {
  auto* w = reinterpret_cast<uint64_t*>(g.slice(N * sizeof(uint64_t)));
  for (int round = 0; round < 200; ++round) {
    uint32_t want = 0;
    for (uint32_t i = 0; i < N; ++i) {
      // Zero, or one bit in either half (a half alone must not count as the word).
      w[i] = rng() % 2 ? 0 : uint64_t{1} << (rng() % 64);
      want |= uint32_t{w[i] != 0} << i;
    }
    ASSERT_EQ(nonzero_words<N>(w), want) << "N = " << N;
  }
}

}  // namespace

TEST(ByteWords, NonzeroWordsMatchAWordByWordReadingAndStayInTheirSlice) {
  GuardedBytes g;
  ASSERT_NE(g.base, MAP_FAILED);
  std::mt19937 rng(9);
  check_nonzero_words<2>(g, rng);
  check_nonzero_words<4>(g, rng);  // an output's deterministic VCs
  check_nonzero_words<8>(g, rng);
}

TEST(ByteWords, NonzeroBytesMatchAByteByByteReadingAndStayInTheirSlice) {
  GuardedBytes g;
  ASSERT_NE(g.base, MAP_FAILED);
  std::mt19937 rng(7);
  check_nonzero<1>(g, rng);
  check_nonzero<5>(g, rng);  // an output's VCs
  check_nonzero<7>(g, rng);
  check_nonzero<8>(g, rng);  // a belt row
  check_nonzero<13>(g, rng);
  check_nonzero<16>(g, rng);
  check_nonzero<20>(g, rng);
  check_nonzero<32>(g, rng);
  check_nonzero<35>(g, rng);  // a T3E router's input VCs
  check_nonzero<64>(g, rng);
}

TEST(ByteWords, NonnegativeBytesMatchAByteByByteReadingAndStayInTheirSlice) {
  GuardedBytes g;
  ASSERT_NE(g.base, MAP_FAILED);
  std::mt19937 rng(8);
  check_nonnegative<1>(g, rng);
  check_nonnegative<3>(g, rng);
  check_nonnegative<5>(g, rng);
  check_nonnegative<6>(g, rng);
  check_nonnegative<7>(g, rng);  // a router's inputs (in_sel): may be the array's last bytes
  check_nonnegative<8>(g, rng);
}

TEST(ByteWords, LoadExactTakesOnlyItsBytesLittleEndian) {
  GuardedBytes g;
  ASSERT_NE(g.base, MAP_FAILED);
  uint8_t* b = g.slice(7);
  for (uint8_t i = 0; i < 7; ++i) b[i] = static_cast<uint8_t>(0x11 * (i + 1));
  EXPECT_EQ(load_exact<7>(b), 0x77665544332211ull);
  EXPECT_EQ(load_exact<3>(b + 4), 0x776655ull);
  EXPECT_EQ(gather_byte_bits(0x0001000100000101ull), 0b01010011u);
}
