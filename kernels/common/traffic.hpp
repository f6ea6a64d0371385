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
  kRandperm,
  kAlltoall,
  kHotRegion,
  kLineFill,
  kGather,
  kPlaneFill,
  kFft
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
  double rate;  // packets per node per cycle while the source is on
  // Bernoulli: P(the first creation of a window is at or before cycle j of it) * 2^32 (see
  // first_in_window); 2^32 for a certain creation, so 64-bit.
  uint64_t first_create[64];
  double alpha;  // on/off: P(off -> on) per cycle
  double beta;   // on/off: P(on -> off) per cycle
  uint32_t n_sizes;
  uint32_t sizes[kMaxSizes];
  uint32_t size_cum[kMaxSizes];  // cumulative probability * 2^32 (last = 0xFFFFFFFF)
  uint32_t n_hot;
  uint32_t hot[kMaxHot];
  double hot_fraction;
  uint32_t max_packets;             // per source, 0: no limit
  uint32_t sender_every;            // only nodes n with n % sender_every == 0 create packets
  uint32_t reply_size;              // request-reply: flits per reply
  uint32_t alltoall_packets;        // alltoall: packets from every node to every other
  uint32_t region_lo[kMaxDims];     // hot region: its first coordinate in each dimension
  uint32_t region_n[kMaxDims];      // ... and its extent
  uint32_t region_nodes;            // ... and its nodes
  uint32_t region_radix[kMaxDims];  // the network's radix (1 past its dimensions), to place nodes
  uint32_t line_dim;                // linefill: the dimension the row broadcasts go along
  uint32_t turn_dim;                // planefill: the plane's other dimension
};

// Whether node n lies in the hot region.
LS_HD inline bool in_region(const TrafficParams& tp, uint32_t n) {
  for (int d = 0; d < kMaxDims; ++d) {
    const uint32_t c = n % tp.region_radix[d];
    n /= tp.region_radix[d];
    if (c < tp.region_lo[d] || c >= tp.region_lo[d] + tp.region_n[d]) return false;
  }
  return true;
}

// The region's node number i (0 .. region_nodes - 1, dimension 0 fastest).
LS_HD inline uint32_t region_node(const TrafficParams& tp, const Shape& s, uint32_t i) {
  uint32_t d = 0;
  for (uint32_t k = 0; k < s.ndims; ++k) {
    d += (tp.region_lo[k] + i % tp.region_n[k]) * s.stride[k];
    i /= tp.region_n[k];
  }
  return d;
}

LS_HD inline uint32_t reverse_bits(uint32_t x, uint32_t bits) {
  uint32_t r = 0;
  for (uint32_t i = 0; i < bits; ++i) r |= ((x >> i) & 1u) << (bits - 1 - i);
  return r;
}

// Entry k of a random permutation of 0 .. m - 1 of its own for each (seed, key): a four-round
// Feistel network on the smallest square power of two that holds m, walked until it lands in
// range. A pure function, as the source queue needs.
LS_HD inline uint32_t shuffled(uint64_t seed, uint64_t m, uint64_t k, uint32_t key) {
  uint32_t half = 0;
  while ((uint64_t{1} << (2 * half)) < m) ++half;
  const uint32_t mask = (1u << half) - 1;
  uint32_t x = static_cast<uint32_t>(k);
  do {
    uint32_t l = x >> half, r = x & mask;
    for (uint32_t round = 0; round < 4; ++round) {
      const uint32_t f = philox_draw(seed, r, key, kStreamAlltoall).w[round] & mask;
      const uint32_t next = l ^ f;
      l = r;
      r = next;
    }
    x = (l << half) | r;
  } while (x >= m);
  return x;
}

// Alltoall: source `src` sends P packets to each of the n - 1 other nodes, in an order of its
// own. It creates them one a cycle from cycle 0 (no node injects faster), so packet k, created in
// cycle k, goes to entry k of a random permutation of the P (n - 1) (destination, round) pairs.
LS_HD inline uint32_t alltoall_dest(const TrafficParams& tp, uint32_t n, uint32_t src, uint64_t k,
                                    uint32_t key) {
  const uint64_t m = static_cast<uint64_t>(tp.alltoall_packets) * (n - 1);
  return (src + 1 + shuffled(tp.seed, m, k, key) % (n - 1)) % n;
}

// Gather into the hot region (the Blue Gene/L paper's hot-spot and hot-region measurements):
// every node outside the region sends P packets to each node inside, one a cycle from cycle 0
// in an order of its own; the nodes inside send nothing.
LS_HD inline uint32_t gather_dest(const TrafficParams& tp, const Shape& s, uint64_t k,
                                  uint32_t key) {
  const uint64_t m = static_cast<uint64_t>(tp.alltoall_packets) * tp.region_nodes;
  return region_node(tp, s, shuffled(tp.seed, m, k, key) % tp.region_nodes);
}

// A row broadcast's destination: the last node of src's line along dimension d, going + (plus)
// or -.
LS_HD inline uint32_t line_end(const Shape& s, uint32_t src, bool plus, uint32_t d) {
  const uint32_t k = s.radix[d], x = s.coord(src, static_cast<int>(d));
  return src - x * s.stride[d] + (plus ? (x + k - 1) % k : (x + 1) % k) * s.stride[d];
}

// Destination of the packet `src` creates in cycle `c`. `perm` is the instance's random
// permutation (only read for Pattern::kRandperm). The random draws are keyed by `key`, the
// source's node number unless the pattern runs over another numbering of the sources (a T3E
// partition's virtual PEs, where several partitions have a PE of each number).
LS_HD inline uint32_t pattern_dest(const TrafficParams& tp, const Shape& s, const uint32_t* perm,
                                   uint32_t inst, uint32_t src, uint64_t c, uint32_t key) {
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
    case Pattern::kFft: {  // a butterfly exchange of a stage drawn per packet
      Draw r = philox_draw(tp.seed, c, key, kStreamDest);
      return src ^ (1u << below(r.w[0], s.bits));
    }
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
    case Pattern::kAlltoall:
      return alltoall_dest(tp, n, src, c, key);
    case Pattern::kHotRegion: {  // hot_fraction into the region, the rest uniform
      Draw r = philox_draw(tp.seed, c, key, kStreamDest);
      if (u01(r.w[1]) >= tp.hot_fraction) return below(r.w[0], n);
      return region_node(tp, s, below(r.w[2], tp.region_nodes));
    }
    case Pattern::kGather:
      return gather_dest(tp, s, c, key);
    case Pattern::kLineFill:  // bgl colours the broadcasts by packet (kernels/bgl/broadcast.hpp)
    case Pattern::kPlaneFill:
      return line_end(s, src, true, tp.line_dim);
    case Pattern::kHotspot: {
      Draw r = philox_draw(tp.seed, c, key, kStreamDest);
      if (tp.n_hot > 0 && u01(r.w[1]) < tp.hot_fraction) return tp.hot[below(r.w[2], tp.n_hot)];
      return below(r.w[0], n);
    }
    case Pattern::kUniform:
    default: {
      Draw r = philox_draw(tp.seed, c, key, kStreamDest);
      return below(r.w[0], n);
    }
  }
}
LS_HD inline uint32_t pattern_dest(const TrafficParams& tp, const Shape& s, const uint32_t* perm,
                                   uint32_t inst, uint32_t src, uint64_t c) {
  return pattern_dest(tp, s, perm, inst, src, c, src);
}

// Shape::bits of n nodes: log2(n) when n is a power of two, else 0.
LS_HD inline uint32_t exact_log2(uint32_t n) {
  uint32_t bits = 0;
  while ((1u << bits) < n) ++bits;
  return (1u << bits) == n ? bits : 0;
}

// The shape of a line of n nodes, for patterns over a numbering with no geometry.
LS_HD inline Shape line_shape(uint32_t n) {
  return Shape{1, {n, 1, 1, 1}, {1, n, n, n}, n, exact_log2(n)};
}

// The entry of the size distribution drawn for the packet `src` creates in cycle `c`.
LS_HD inline uint32_t size_index_at(const TrafficParams& tp, uint32_t src, uint64_t c) {
  if (tp.n_sizes == 1) return 0;
  uint32_t x = philox_draw(tp.seed, c, src, kStreamSize).w[0];
  for (uint32_t i = 0; i + 1 < tp.n_sizes; ++i)
    if (x < tp.size_cum[i]) return i;
  return tp.n_sizes - 1;
}
LS_HD inline uint32_t packet_size_at(const TrafficParams& tp, uint32_t src, uint64_t c) {
  return tp.sizes[size_index_at(tp, src, c)];
}

// A Bernoulli source's creation cycles form a chain. From a chain point s (cycle 0, or the
// cycle after a creation) one Philox draw keyed by s covers kGenWindows windows of kGenWindow
// cycles, a 32-bit word each: the word, looked up in tp.first_create, gives the window's first
// creation (its cycles are independent Bernoulli trials, so the first is geometric, cut at the
// window's end) or none, and the chain goes on from the cycle after it or from the next draw's
// window. This is the Bernoulli process exactly (to 2^-32 per window), at one draw per packet
// when packets are frequent and one per kGenWindows * kGenWindow cycles when rare, where testing
// each cycle cost a draw per cycle (or per 4 cycles, in blocks). The chain is a pure function of
// (seed, node): the storage-free source queue walks it again from any creation cycle.
constexpr uint32_t kGenWindow = 64, kGenWindows = 4;

// The position of the first creation in a window whose word is u, or kGenWindow for none:
// first_create[j] = P(first <= j) * 2^32, increasing, so the answer is how many entries are <= u
// (a binary search without branches).
LS_HD inline uint32_t first_in_window(const TrafficParams& tp, uint32_t u) {
  uint32_t j = 0;
  for (uint32_t step = kGenWindow / 2; step; step /= 2)
    j += step * static_cast<uint32_t>(tp.first_create[j + step - 1] <= u);
  return j + static_cast<uint32_t>(tp.first_create[j] <= u);
}

// Does an on/off source create a packet in cycle c? `on` is its state, advanced by this call;
// the caller keeps one copy per cursor that walks the cycles.
LS_HD inline bool onoff_generates(const TrafficParams& tp, uint32_t src, uint64_t c, uint8_t& on) {
  Draw r = philox_draw(tp.seed, c, src, kStreamGenerate);
  double flip = u01(r.w[1]);
  on = on ? (flip < tp.beta ? 0 : 1) : (flip < tp.alpha ? 1 : 0);
  return on && u01(r.w[0]) < tp.rate;
}

// A search for a source's next creation: the cycle if found, else where to go on looking.
struct NextCreation {
  uint64_t cycle;
  bool found;
};

// The source's first creation from cycle s on, where s is a chain point (a Bernoulli source) or
// any cycle (an on/off source, whose `on` is its state before s and is left at its state after
// the cycle returned). Looks until `limit` at least: if none is found before, returns where to go
// on (the next chain point, or `limit`), so a rate of 0 costs a bounded amount per call.
LS_HD inline NextCreation next_creation(const TrafficParams& tp, uint32_t src, uint64_t s,
                                        uint64_t limit, uint8_t& on) {
  if (tp.injection == Injection::kOnOff) {
    for (; s < limit; ++s)
      if (onoff_generates(tp, src, s, on)) return {s, true};
    return {limit, false};
  }
  for (; s < limit; s += kGenWindows * kGenWindow) {
    const Draw d = philox_draw(tp.seed, s, src, kStreamGenerate);
    for (uint32_t w = 0; w < kGenWindows; ++w) {
      const uint32_t j = first_in_window(tp, d.w[w]);
      if (j < kGenWindow) return {s + w * kGenWindow + j, true};
    }
  }
  return {s, false};
}

}  // namespace ls
