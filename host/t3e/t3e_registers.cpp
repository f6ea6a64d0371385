// The T3E router registers software loads before direction-order routing (manual, "Direction
// Assignments", "Node and PE Numbers" and "Information Routing"): R_ORIENT, R_PWHO, R_LWHO,
// R_NET_LUT, R_LUT_OVERRIDE, R_VCSEL and R_CHAN, for every router of a 3-D torus.
#include "t3e_registers.hpp"

#include <algorithm>
#include <random>

#include "../../kernels/t3e/bsu_register.hpp"
#include "../../kernels/t3e/routing_tag.hpp"
#include "../config/pick.hpp"
#include "../traffic/traffic_params.hpp"
#include "barrier_tree.hpp"
#include "fault_routes.hpp"
#include "partial_plane.hpp"

namespace ls::t3e {
namespace {

enum class Format { kLinear, kFormat1, kFormat1Yx, kFormat3, kRandom };

// One mixed-radix digit of a logical PE number: (ordinate of `dim` >> shift) % radix.
struct Digit {
  uint32_t dim, shift, radix;
};

// The digits of a fixed format, least significant first. Table 6's 2x4x2 examples read
// Format 1 = X0 Y0 Z0 Y1, Format 2 = X0 Y0 Y1 Z0 ("linear") and Format 3 = X0 Z0 Y0 Y1. Our
// generalisations: linear X, Y, Z; format3 X, Z, Y (whole ordinates); format1 the 2x2 block of
// X0 and Y0 first (what modes 1 and 2 index by), then Z, then the rest of X, then the rest of Y
// (X and Y are split only where their radix is even, so every format is a bijection);
// format1_yx the same with Y0 below X0, the numbering of the manual's mode 2 example (Figure 48:
// logical PE 1 at R_PWHO 000100, 4 at 010000), which mode 2's blocks need.
std::vector<Digit> digits(Format f, const uint32_t k[3]) {
  switch (f) {
    case Format::kFormat1:
    case Format::kFormat1Yx: {
      std::vector<Digit> low, high;
      for (uint32_t d : {0u, 1u}) {
        const bool split = k[d] % 2 == 0;
        if (split) low.push_back({d, 0, 2});
        high.push_back({d, split ? 1u : 0u, split ? k[d] / 2 : k[d]});
      }
      if (f == Format::kFormat1Yx && low.size() == 2) std::swap(low[0], low[1]);
      low.push_back({2, 0, k[2]});
      low.insert(low.end(), high.begin(), high.end());
      return low;
    }
    case Format::kFormat3:
      return {{0, 0, k[0]}, {2, 0, k[2]}, {1, 0, k[1]}};
    default:  // linear, and the numbers "random" permutes
      return {{0, 0, k[0]}, {1, 0, k[1]}, {2, 0, k[2]}};
  }
}

uint32_t logical(const std::vector<Digit>& ds, uint32_t pwho) {
  uint32_t n = 0, weight = 1;
  for (const Digit& d : ds) {
    n += (pwho_coord(pwho, d.dim) >> d.shift) % d.radix * weight;
    weight *= d.radix;
  }
  return n;
}

// "random": a permutation of the linear numbers. Fisher-Yates spelt out over mt19937_64 (both
// fixed by the standard; std::shuffle and the distributions are not), so every machine and
// library numbers alike; the modulo's bias is below 2^-50 for any machine we build.
std::vector<uint32_t> random_numbers(uint32_t n, uint64_t seed) {
  std::vector<uint32_t> perm(n);
  for (uint32_t i = 0; i < n; ++i) perm[i] = i;
  std::mt19937_64 rng(seed);
  for (uint32_t i = n; i > 1; --i) std::swap(perm[i - 1], perm[rng() % i]);
  return perm;
}

// Modes 1 and 2 take bit 0 of the X and Y addresses from the low two bits of the logical PE
// (mode 1: X0 from bit 0, Y0 from bit 1; mode 2 the other way round; see lut_tag), so each
// aligned 4 logical PEs must be the 2x2 X-Y block of one Z plane with exactly those bits.
bool in_blocks_of_four(const Registers& g, LutMode mode, const uint32_t k[3]) {
  if (k[0] % 2 || k[1] % 2) return false;
  for (uint32_t lpe = 0; lpe < g.pe_router.size(); ++lpe) {
    const uint32_t b0 = lpe & 1u, b1 = lpe >> 1 & 1u;
    const uint32_t x0 = mode == kMode1 ? b0 : b1, y0 = mode == kMode1 ? b1 : b0;
    const uint32_t block = g.pwho[g.pe_router[lpe & ~3u]] & ~make_pwho(1, 1, 0);
    if (g.pwho[g.pe_router[lpe]] != (block | make_pwho(x0, y0, 0))) return false;
  }
  return true;
}

// The sign of the one X or Y direction a mode 1/2 entry has for the two ordinates t, t + 1 of
// a ring of even k: the one that reaches both from s in the fewest hops in total. On a ring of
// even k that sign is minimal for both, and only a ring of 2 leaves both signs minimal; then
// `tie` decides (default_tag's sign for the member half a ring away).
uint32_t pair_sgn(uint32_t s, uint32_t t, uint32_t k, uint32_t tie) {
  const uint32_t plus = (t + k - s) % k + (t + 1 + k - s) % k;
  const uint32_t minus = (s + k - t) % k + (s + 2 * k - t - 1) % k;
  return plus == minus ? tie : plus < minus ? 0u : 1u;
}

// R_NET_LUT entry of a mode 1/2 group: X and Y addresses with bit 0 clear (lut_tag fills it).
uint32_t group_tag(uint32_t src, uint32_t block, const uint32_t k[3], bool adapt, bool ties_plus) {
  uint32_t adr[3], sgn[3];
  // The member of the other X0 and Y0 parity than src: the far one on a ring of 2.
  const uint32_t far = block | make_pwho(~pwho_coord(src, 0) & 1u, ~pwho_coord(src, 1) & 1u, 0);
  const uint32_t tie = default_tag(src, far, k, adapt, ties_plus);
  for (uint32_t d = 0; d < 3; ++d) {
    adr[d] = pwho_coord(block, d);
    sgn[d] =
        d == 2 ? Tag::sgn(tie, d) : pair_sgn(pwho_coord(src, d), adr[d], k[d], Tag::sgn(tie, d));
  }
  return Tag::make(adr, sgn, kNoHop, false, adapt);
}

[[noreturn]] void refuse(const Config& c, const char* allowed) {
  const auto& r = c.topology.radix;
  throw ConfigError("t3e.lut_mode = \"" + c.t3e.lut_mode + "\": allowed only " + allowed +
                    "; here topology.radix = [" + std::to_string(r[0]) + ", " +
                    std::to_string(r[1]) + ", " + std::to_string(r[2]) +
                    "] and t3e.logical_format = \"" + c.t3e.logical_format + "\"");
}

}  // namespace

void Registers::rename(uint32_t r, uint32_t lpe) {
  const uint32_t other = pe_router[lpe], old = lwho[r];
  std::swap(lwho[r], lwho[other]);
  pe_router[lpe] = r;
  pe_router[old] = other;
  std::swap(base_lpe[r], base_lpe[other]);
  std::swap(virtual_limit[r], virtual_limit[other]);
}

LutMode lut_mode(const std::string& name, uint32_t nodes) {
  if (name == "auto") return nodes <= 544 ? kMode0 : nodes <= 2176 ? kMode1 : kComputed;
  return pick<LutMode>(name, {{"mode0", kMode0},
                              {"mode1", kMode1},
                              {"mode2", kMode2},
                              {"mode3", kMode3},
                              {"computed", kComputed}});
}

// R_ORIENT bit d: port 1+2d (cube +d) is the - direction, so + keeps meaning "towards higher
// physical ordinate" and the physical numbering of dimension d runs against the cube's.
uint32_t physical_node(const Config& c, const Topology& t, uint32_t r) {
  uint32_t p[3];
  for (uint32_t d = 0; d < 3; ++d) {
    const uint32_t k = t.shape.radix[d], at = t.shape.coord(r, static_cast<int>(d));
    p[d] = c.t3e.r_orient >> d & 1 ? k - 1 - at : at;
  }
  return make_pwho(p[0], p[1], p[2]);
}
uint8_t direction_port(const Config& c, uint32_t dir) {
  const uint32_t d = dir % 3;
  const bool plus = dir < 3, flip = c.t3e.r_orient >> d & 1;
  return static_cast<uint8_t>(plus != flip ? 1 + 2 * d : 2 + 2 * d);
}

std::vector<int32_t> neighbours(const Topology& t, const Registers& g) {
  std::vector<int32_t> n(size_t{t.routers} * kDirections, -1);
  for (uint32_t r = 0; r < t.routers; ++r)
    for (uint32_t dir = 0; dir < kDirections; ++dir) {
      const int32_t p = t.peer[size_t{r} * t.ports + g.dir_port[size_t{r} * kDirections + dir]];
      if (p >= 0) n[r * kDirections + dir] = p / static_cast<int32_t>(t.ports);
    }
  return n;
}

// validate() has made the topology a 3-D torus of rings of at most 32 nodes, less a partial
// plane's empty slots (machine_topology).
Registers make_registers(const Config& c, const Topology& t) {
  const uint32_t R = t.routers, k[3] = {t.shape.radix[0], t.shape.radix[1], t.shape.radix[2]};
  const bool adapt = c.t3e.adaptive, plus = ties_plus(c);
  Registers g;
  g.pwho.resize(R);
  g.dir_port.resize(size_t{R} * kDirections);
  for (uint32_t r = 0; r < R; ++r) {
    g.pwho[r] = physical_node(c, t, r);
    for (uint32_t dir = 0; dir < kDirections; ++dir)
      g.dir_port[r * kDirections + dir] = direction_port(c, dir);
  }
  const std::vector<int32_t> next = neighbours(t, g);

  // R_LWHO and its inverse: the format's numbers of the installed nodes, closed up where a
  // partial plane leaves slots empty.
  const Format f = pick<Format>(c.t3e.logical_format, {{"linear", Format::kLinear},
                                                       {"format1", Format::kFormat1},
                                                       {"format1_yx", Format::kFormat1Yx},
                                                       {"format3", Format::kFormat3},
                                                       {"random", Format::kRandom}});
  const std::vector<Digit> ds = digits(f, k);
  std::vector<std::pair<uint32_t, uint32_t>> order;  // (the format's number, router)
  for (uint32_t r = 0; r < R; ++r)
    if (installed(c, g.pwho[r])) order.push_back({logical(ds, g.pwho[r]), r});
  std::sort(order.begin(), order.end());
  const uint32_t N = static_cast<uint32_t>(order.size());
  const std::vector<uint32_t> perm = f == Format::kRandom
                                         ? random_numbers(N, static_cast<uint64_t>(c.run.seed))
                                         : std::vector<uint32_t>{};
  g.lwho.assign(R, kNoPe);
  g.pe_router.resize(N);
  for (uint32_t i = 0; i < N; ++i) {
    const uint32_t r = order[i].second;
    g.lwho[r] = f == Format::kRandom ? perm[i] : i;
    g.pe_router[g.lwho[r]] = r;
  }

  // R_NET_LUT and R_LUT_OVERRIDE (with a partial plane: route_partial_plane, below).
  const bool partial = !c.t3e.partial_plane.empty();
  g.lut_mode = lut_mode(c.t3e.lut_mode, N);
  if ((g.lut_mode == kMode1 || g.lut_mode == kMode2) && !in_blocks_of_four(g, g.lut_mode, k)) {
    if (c.t3e.lut_mode == "auto")
      g.lut_mode = kComputed;
    else if (g.lut_mode == kMode1)
      refuse(c,
             "even X and Y radix and logical PEs in 2x2 X-Y blocks, bit 0 X0 and bit 1 Y0 "
             "(t3e.logical_format = \"format1\")");
    else
      refuse(c,
             "even X and Y radix and logical PEs in 2x2 X-Y blocks, bit 0 Y0 and bit 1 X0 "
             "(t3e.logical_format = \"format1_yx\")");
  }
  g.lut_entries = g.lut_mode == kMode0 ? N : g.lut_mode <= kMode2 ? N / 4 : 1;
  g.net_lut.assign(size_t{R} * g.lut_entries, 0);
  g.lut_override.assign(R, 0);
  for (uint32_t r = 0; r < R; ++r) {
    uint32_t* lut = &g.net_lut[size_t{r} * g.lut_entries];
    if (g.lwho[r] == kNoPe || partial) continue;
    if (g.lut_mode == kMode0)
      for (uint32_t lpe = 0; lpe < N; ++lpe)
        lut[lpe] = default_tag(g.pwho[r], g.pwho[g.pe_router[lpe]], k, adapt, plus);
    else if (g.lut_mode <= kMode2)
      for (uint32_t e = 0; e < g.lut_entries; ++e)
        lut[e] = group_tag(g.pwho[r], g.pwho[g.pe_router[4 * e]], k, adapt, plus);
  }
  // Mode 3: R_LUT_OVERRIDE holds the tag of the PE's partner in the traffic pattern, which the
  // checks allow only where partners are mutual (t3e_checks.cpp), so responses come back by
  // the partner's own register.
  if (g.lut_mode == kMode3) {
    const TrafficParams tp = traffic_params({c}, N)[0];
    for (uint32_t r = 0; r < R; ++r) {
      if (g.lwho[r] == kNoPe) continue;
      const uint32_t partner = pattern_dest(tp, t.shape, nullptr, 0, g.lwho[r], 0);
      g.lut_override[r] = default_tag(g.pwho[r], g.pwho[g.pe_router[partner]], k, adapt, plus);
    }
  }

  // R_VCSEL: time-of-crossing SELECT bits (all 0); the dateline node of a ring in each direction
  // is the one its wrap link leads into (of +: physical ordinate 0, of -: k-1), a line has none.
  // With a partial plane the +Z dateline moves one node on (to Z = 1), so that the initial +Z
  // hop out of the partial plane (kz-1 -> 0) does not enter a dateline (paper section 3.1).
  // R_CHAN: NO_FAST as asked; NO_ADAPT on channels with no link (manual, "Information Routing").
  g.vcsel.assign(size_t{R} * kDirections, 0);
  g.chan.assign(size_t{R} * 8, 0);
  auto before = [&](int32_t r, uint32_t dir) {  // the router r is entered from going dir
    return r < 0 ? -1 : next[static_cast<uint32_t>(r) * kDirections + opposite(dir)];
  };
  auto wrap_target = [&](int32_t r, uint32_t dir) {  // r is entered over dir's wrap link
    const int32_t prev = before(r, dir);
    if (r < 0 || prev < 0) return false;
    const uint32_t d = dir % 3, a = pwho_coord(g.pwho[static_cast<uint32_t>(prev)], d),
                   b = pwho_coord(g.pwho[static_cast<uint32_t>(r)], d);
    return dir < 3 ? a > b : a < b;
  };
  for (uint32_t r = 0; r < R; ++r)
    for (uint32_t dir = 0; dir < kDirections; ++dir) {
      const int32_t self = static_cast<int32_t>(r);
      const int32_t target = partial && dir == kPlusZ ? before(self, dir) : self;
      if (next[r * kDirections + dir] >= 0 && wrap_target(target, dir))
        g.vcsel[r * kDirections + dir] = kDatelineBit;
      g.chan[r * 8 + dir] = static_cast<uint8_t>((c.t3e.no_fast ? kNoFast : 0) |
                                                 (next[r * kDirections + dir] < 0 ? kNoAdapt : 0));
    }
  if (partial) route_partial_plane(c, t, g);

  // Partitions: every PE's base logical PE and virtual PE limit.
  g.base_lpe.assign(R, 0);
  g.virtual_limit.assign(R, kNoPartition);
  std::vector<int64_t> parts = c.t3e.partitions;
  if (parts.empty()) parts = {0, static_cast<int64_t>(N) - c.t3e.hot_spares - 1};
  for (size_t i = 0; i < parts.size(); i += 2)
    for (int64_t v = 0; v <= parts[i + 1]; ++v) {
      const uint32_t r = g.pe_router[static_cast<size_t>(parts[i] + v)];
      g.base_lpe[r] = static_cast<uint32_t>(parts[i]);
      g.virtual_limit[r] = static_cast<uint32_t>(parts[i + 1]);
    }

  g.bsu.assign(size_t{R} * kBsus, 0);
  const std::vector<uint32_t> tree =
      barrier_tree(next, g.pe_router, g.lwho[0] == kNoPe ? g.pe_router[0] : 0);
  for (uint32_t r = 0; r < R; ++r)
    for (uint32_t b = 0; b < static_cast<uint32_t>(c.t3e.barrier_bsus); ++b)
      g.bsu[r * kBsus + b] = tree[r];
  return g;
}

}  // namespace ls::t3e
