// Traffic: destination patterns and packet-generation processes of a source, all pure
// functions of counter-based draws so a source queue never has to be stored (see
// kernels/vc/terminal.hpp).
#pragma once
#include <cstdint>

#include "hd.hpp"
#include "rng.hpp"

namespace ls {

enum class Pattern : uint32_t {
  kUniform,
  kTranspose,
  kBitcomp,
  kBitrev,
  kShuffle,
  kTornado,
  kNeighbor,
  kHotspot,
  kRandperm
};
enum class Injection : uint32_t { kBernoulli, kOnOff };

constexpr int kMaxDims = 4;
constexpr int kMaxSizes = 8;
constexpr int kMaxHot = 8;

// Node coordinates (dimension 0 varies fastest); shared by patterns and routing.
struct Shape {
  uint32_t ndims;
  uint32_t radix[kMaxDims];
  uint32_t stride[kMaxDims];
  uint32_t nodes;
  uint32_t bits;  // log2(nodes) when nodes is a power of two, else 0
  LS_HD uint32_t coord(uint32_t node, int d) const { return (node / stride[d]) % radix[d]; }
};

// Per-instance traffic parameters (instances of one batch may differ in all of these).
struct TrafficParams {
  uint64_t seed;
  Pattern pattern;
  Injection injection;
  double rate;   // packets per node per cycle while the source is on
  double alpha;  // on/off: P(off -> on) per cycle
  double beta;   // on/off: P(on -> off) per cycle
  uint32_t n_sizes;
  uint32_t sizes[kMaxSizes];
  uint32_t size_cum[kMaxSizes];  // cumulative probability * 2^32 (last = 0xFFFFFFFF)
  uint32_t n_hot;
  uint32_t hot[kMaxHot];
  double hot_fraction;
  uint32_t max_packets;  // per source, 0: no limit
  uint32_t reply_size;   // request-reply: flits per reply
};

LS_HD inline uint32_t reverse_bits(uint32_t x, uint32_t bits) {
  uint32_t r = 0;
  for (uint32_t i = 0; i < bits; ++i) r |= ((x >> i) & 1u) << (bits - 1 - i);
  return r;
}

// Destination of the packet `src` creates in cycle `c`. `perm` is the instance's random
// permutation (only read for Pattern::kRandperm).
LS_HD inline uint32_t pattern_dest(const TrafficParams& tp, const Shape& s, const uint32_t* perm,
                                   uint32_t inst, uint32_t src, uint64_t c) {
  const uint32_t n = s.nodes, mask = n - 1;
  switch (tp.pattern) {
    case Pattern::kTranspose: {
      uint32_t h = s.bits / 2;
      return ((src >> h) | (src << h)) & mask;
    }
    case Pattern::kBitcomp:
      return ~src & mask;
    case Pattern::kBitrev:
      return reverse_bits(src, s.bits);
    case Pattern::kShuffle:
      return ((src << 1) & mask) | (src >> (s.bits - 1));
    case Pattern::kTornado:
    case Pattern::kNeighbor: {
      uint32_t d = 0;
      for (uint32_t i = 0; i < s.ndims; ++i) {
        uint32_t k = s.radix[i];
        uint32_t shift = tp.pattern == Pattern::kTornado ? (k + 1) / 2 - 1 : 1;
        d += ((s.coord(src, i) + shift) % k) * s.stride[i];
      }
      return d;
    }
    case Pattern::kRandperm:
      return perm[static_cast<uint64_t>(inst) * n + src];
    case Pattern::kHotspot: {
      Draw r = philox_draw(tp.seed, c, src, kStreamDest);
      if (tp.n_hot > 0 && u01(r.w[1]) < tp.hot_fraction) return tp.hot[below(r.w[2], tp.n_hot)];
      return below(r.w[0], n);
    }
    case Pattern::kUniform:
    default: {
      Draw r = philox_draw(tp.seed, c, src, kStreamDest);
      return below(r.w[0], n);
    }
  }
}

LS_HD inline uint32_t packet_size_at(const TrafficParams& tp, uint32_t src, uint64_t c) {
  if (tp.n_sizes == 1) return tp.sizes[0];
  uint32_t x = philox_draw(tp.seed, c, src, kStreamSize).w[0];
  for (uint32_t i = 0; i + 1 < tp.n_sizes; ++i)
    if (x < tp.size_cum[i]) return tp.sizes[i];
  return tp.sizes[tp.n_sizes - 1];
}

// A Bernoulli source spends one Philox draw on four cycles: cycle c uses word c mod 4 of the
// draw for block c / 4 (the draw is the costliest part of a terminal's cycle; a source can keep
// the block's words, see NicState::gen_words).
constexpr uint32_t kGenBlock = 4;
LS_HD inline Draw bernoulli_block(const TrafficParams& tp, uint32_t src, uint64_t c) {
  return philox_draw(tp.seed, c / kGenBlock, src, kStreamGenerate);
}
LS_HD inline bool bernoulli_creates(const TrafficParams& tp, const Draw& block, uint64_t c) {
  return u01(block.w[c % kGenBlock]) < tp.rate;
}

// Does source `src` create a packet in cycle `c`? `on` is the on/off state, advanced by this
// call (ignored for Bernoulli); the caller keeps one copy per cursor that walks the cycles.
LS_HD inline bool generates(const TrafficParams& tp, uint32_t src, uint64_t c, uint8_t& on) {
  if (tp.injection == Injection::kBernoulli)
    return bernoulli_creates(tp, bernoulli_block(tp, src, c), c);
  Draw r = philox_draw(tp.seed, c, src, kStreamGenerate);
  if (tp.injection == Injection::kOnOff) {
    double flip = u01(r.w[1]);
    on = on ? (flip < tp.beta ? 0 : 1) : (flip < tp.alpha ? 1 : 0);
    if (!on) return false;
  }
  return u01(r.w[0]) < tp.rate;
}

// The first cycle in [c, limit) in which source `src` creates a packet, or `limit` if none;
// `on` as in generates(), left as it is after the cycle returned (after limit - 1 if none). A
// Bernoulli source draws a block at a time and keeps the last one in `words` and `block` (its
// number + 1, 0: none), so a scan that continues where the last one stopped draws no block twice.
LS_HD inline uint64_t next_creation(const TrafficParams& tp, uint32_t src, uint64_t c,
                                    uint64_t limit, uint8_t& on, Draw& words, uint32_t& block) {
  if (tp.injection != Injection::kBernoulli) {
    for (; c < limit; ++c)
      if (generates(tp, src, c, on)) return c;
    return limit;
  }
  for (; c < limit; ++c) {
    const uint32_t b = static_cast<uint32_t>(c / kGenBlock) + 1;
    if (block != b) {
      words = bernoulli_block(tp, src, c);
      block = b;
    }
    if (bernoulli_creates(tp, words, c)) return c;
  }
  return limit;
}

}  // namespace ls
