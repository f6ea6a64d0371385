// The T3E router registers (host/t3e/t3e_registers.cpp) against the manual's tables (Table 6's
// logical PE formats, Tables 13 and 14's R_NET_LUT in node 000100 of the 16-PE machine of
// Figures 46 and 47), and every routing tag walked hop by hop on a few tori.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "host/t3e/t3e_registers.hpp"
#include "host/topology/topology.hpp"
#include "kernels/t3e/routing_tag.hpp"

using namespace ls;
using namespace ls::t3e;

namespace {

Config machine(std::vector<int64_t> radix, const std::string& lut_mode,
               const std::string& format = "linear", int64_t r_orient = 0) {
  Config c;
  c.topology.kind = "torus";
  c.topology.radix = std::move(radix);
  c.router.family = "t3e";
  c.t3e.lut_mode = lut_mode;
  c.t3e.logical_format = format;
  c.t3e.r_orient = r_orient;
  return c;
}

Registers registers(const Config& c) {
  return make_registers(c, build_cube(c.topology));
}

struct Row {
  uint32_t xa, xs, ya, ys, za, zs;  // address and direction (0 +, 1 -) of X, Y, Z
};
constexpr uint32_t P = 0, M = 1;

uint32_t tag(const Row& w) {
  const uint32_t adr[3] = {w.xa, w.ya, w.za}, sgn[3] = {w.xs, w.ys, w.zs};
  return Tag::make(adr, sgn, kNoHop, false, false);
}

uint32_t router_at(const Registers& g, uint32_t pwho) {
  for (uint32_t r = 0; r < g.pwho.size(); ++r)
    if (g.pwho[r] == pwho) return r;
  ADD_FAILURE() << "no router with R_PWHO " << std::hex << pwho;
  return 0;
}

// The tag the PE interface of router `src` puts on a packet for logical PE `lpe`.
uint32_t pe_tag(const Registers& g, const uint32_t k[3], bool adapt, uint32_t src, uint32_t lpe) {
  if (g.lut_mode == kComputed)
    return default_tag(g.pwho[src], g.pwho[g.pe_router[lpe]], k, adapt, false);
  return lut_tag(g.lut_mode, &g.net_lut[size_t{src} * g.lut_entries], g.lut_override[src], lpe);
}

struct Walk {
  uint32_t router, hops;
  bool stepwise;  // every hop moved one physical ordinate by 1 in its direction's sign
};

// Direction-order routing of `tag` from router `src`: the lowest-ordered unsatisfied direction,
// out of that direction's port (R_ORIENT) to the peer, until the tag is satisfied or `bound`.
Walk walk(const Topology& t, const Registers& g, uint32_t tag, uint32_t src, uint32_t bound) {
  Walk w{src, 0, true};
  for (uint32_t todo; (todo = unsatisfied(tag, g.pwho[w.router])) && w.hops < bound; ++w.hops) {
    uint32_t dir = 0;
    while (!(todo >> dir & 1u)) ++dir;
    const uint32_t port = g.dir_port[w.router * kDirections + dir];
    const uint32_t next = static_cast<uint32_t>(t.peer[w.router * t.ports + port]) / t.ports;
    const uint32_t d = dir % 3, k = t.shape.radix[d];
    for (uint32_t e = 0; e < 3; ++e) {
      const uint32_t from = pwho_coord(g.pwho[w.router], e), to = pwho_coord(g.pwho[next], e);
      if (to != (e != d ? from : dir < 3 ? (from + 1) % k : (from + k - 1) % k)) w.stepwise = false;
    }
    w.router = next;
  }
  return w;
}

uint32_t torus_distance(const uint32_t k[3], uint32_t a, uint32_t b) {
  uint32_t h = 0;
  for (uint32_t d = 0; d < 3; ++d) {
    const uint32_t plus = (pwho_coord(b, d) + k[d] - pwho_coord(a, d)) % k[d];
    h += std::min(plus, k[d] - plus);
  }
  return h;
}

// Every source (every `stride`-th) to every logical PE arrives, minimally, by single steps in the
// tag's directions. (Mode 3 is refused for traffic: validate_t3e.)
void check_routes(const Config& c, uint32_t stride) {
  SCOPED_TRACE(c.t3e.lut_mode + " " + c.t3e.logical_format + " r_orient " +
               std::to_string(c.t3e.r_orient) + " radix " + std::to_string(c.topology.radix[0]) +
               "x" + std::to_string(c.topology.radix[1]) + "x" +
               std::to_string(c.topology.radix[2]));
  const Topology t = build_cube(c.topology);
  const Registers g = make_registers(c, t);
  const uint32_t k[3] = {t.shape.radix[0], t.shape.radix[1], t.shape.radix[2]};
  for (uint32_t src = 0; src < t.routers; src += stride)
    for (uint32_t lpe = 0; lpe < t.nodes; ++lpe) {
      const uint32_t dst = g.pe_router[lpe];
      const Walk w = walk(t, g, pe_tag(g, k, true, src, lpe), src, k[0] + k[1] + k[2]);
      if (w.router != dst || !w.stepwise || w.hops != torus_distance(k, g.pwho[src], g.pwho[dst])) {
        ADD_FAILURE() << "router " << src << " to logical PE " << lpe << " (router " << dst
                      << "): ended at " << w.router << " after " << w.hops << " hops";
        return;
      }
    }
}

}  // namespace

// Table 6 for the 2x4x2 machine: R_PWHO -> L_WHOAMI in Formats 1, 2 ("linear") and 3.
TEST(T3eRegisters, Table6LogicalPeFormats) {
  struct {
    uint32_t pwho, f1, f2, f3;
  } const table6[] = {
      {0x000000, 0x0, 0x0, 0x0}, {0x000001, 0x1, 0x1, 0x1}, {0x000100, 0x2, 0x2, 0x4},
      {0x000101, 0x3, 0x3, 0x5}, {0x000200, 0x8, 0x4, 0x8}, {0x000201, 0x9, 0x5, 0x9},
      {0x000300, 0xA, 0x6, 0xC}, {0x000301, 0xB, 0x7, 0xD}, {0x010000, 0x4, 0x8, 0x2},
      {0x010001, 0x5, 0x9, 0x3}, {0x010100, 0x6, 0xA, 0x6}, {0x010101, 0x7, 0xB, 0x7},
      {0x010200, 0xC, 0xC, 0xA}, {0x010201, 0xD, 0xD, 0xB}, {0x010300, 0xE, 0xE, 0xE},
      {0x010301, 0xF, 0xF, 0xF}};
  const Registers f1 = registers(machine({2, 4, 2}, "mode0", "format1"));
  const Registers f2 = registers(machine({2, 4, 2}, "mode0", "linear"));
  const Registers f3 = registers(machine({2, 4, 2}, "mode0", "format3"));
  for (const auto& row : table6) {
    SCOPED_TRACE(row.pwho);
    EXPECT_EQ(f1.lwho[router_at(f1, row.pwho)], row.f1);
    EXPECT_EQ(f2.lwho[router_at(f2, row.pwho)], row.f2);
    EXPECT_EQ(f3.lwho[router_at(f3, row.pwho)], row.f3);
    EXPECT_EQ(f1.pwho[f1.pe_router[row.f1]], row.pwho);
  }
}

// Every format numbers the PEs of any torus 0..N-1 once each; format1 keeps X0 in bit 0 and Y0
// in bit 1 wherever X and Y have even radix.
TEST(T3eRegisters, LogicalNumbersAreABijection) {
  for (const auto& radix : std::vector<std::vector<int64_t>>{{3, 5, 2}, {4, 6, 3}, {8, 16, 8}})
    for (const char* format : {"linear", "format1", "format3", "random"}) {
      SCOPED_TRACE(format);
      const Registers g = registers(machine(radix, "computed", format));
      const std::set<uint32_t> seen(g.lwho.begin(), g.lwho.end());
      ASSERT_EQ(seen.size(), g.lwho.size());
      ASSERT_EQ(*seen.rbegin(), g.lwho.size() - 1);
      for (uint32_t r = 0; r < g.lwho.size(); ++r) {
        ASSERT_EQ(g.pe_router[g.lwho[r]], r);
        if (std::string(format) == "format1" && radix[0] % 2 == 0 && radix[1] % 2 == 0) {
          ASSERT_EQ(g.lwho[r] & 1u, pwho_coord(g.pwho[r], 0) & 1u);
          ASSERT_EQ(g.lwho[r] >> 1 & 1u, pwho_coord(g.pwho[r], 1) & 1u);
        }
      }
    }
}

// "random" depends on run.seed alone, and is the same on every machine and library (pinned).
TEST(T3eRegisters, RandomFormatIsSeededAndPortable) {
  Config c = machine({2, 4, 2}, "mode0", "random");
  c.run.seed = 1;
  const Registers a = registers(c), b = registers(c);
  EXPECT_EQ(a.lwho, b.lwho);
  EXPECT_EQ(a.lwho, (std::vector<uint32_t>{13, 6, 5, 1, 10, 2, 7, 9, 11, 14, 3, 0, 15, 4, 12, 8}));
  c.run.seed = 2;
  EXPECT_NE(registers(c).lwho, a.lwho);
}

// Table 13 (mode 0, Figure 46's Format 1 numbering) in node R_PWHO 000100 (X 0, Y 1, Z 0), as
// printed with t3e.half_ring_tie = "plus". With the default "parity" (the reading that
// reproduces the paper's Table 1: + from even sources, - from odd ones) entries 10, 11, 14 and 15
// (to Y = 3, half the ring of 4 from Y = 1) go - in Y instead; both routes take 2 hops.
TEST(T3eRegisters, Table13Mode0) {
  const Row table13[16] = {
      {0, P, 0, M, 0, P}, {1, P, 0, M, 0, P}, {0, P, 1, P, 0, P}, {1, P, 1, P, 0, P},
      {0, P, 0, M, 1, P}, {1, P, 0, M, 1, P}, {0, P, 1, P, 1, P}, {1, P, 1, P, 1, P},
      {0, P, 2, P, 0, P}, {1, P, 2, P, 0, P}, {0, P, 3, P, 0, P}, {1, P, 3, P, 0, P},
      {0, P, 2, P, 1, P}, {1, P, 2, P, 1, P}, {0, P, 3, P, 1, P}, {1, P, 3, P, 1, P}};
  const std::set<uint32_t> tie_minus_y = {10, 11, 14, 15};
  for (const char* tie : {"plus", "parity"}) {
    Config c = machine({2, 4, 2}, "mode0", "format1");
    c.t3e.adaptive = false;
    c.t3e.half_ring_tie = tie;
    const Registers g = registers(c);
    ASSERT_EQ(g.lut_entries, 16u);
    const uint32_t src = router_at(g, 0x000100);
    EXPECT_EQ(g.lwho[src], 2u);  // Figure 46: logical PE 2
    for (uint32_t e = 0; e < 16; ++e) {
      Row want = table13[e];
      if (std::string(tie) == "parity" && tie_minus_y.count(e)) want.ys = M;
      EXPECT_EQ(g.net_lut[src * 16 + e], tag(want)) << tie << " R_NET_LUT[" << e << "]";
    }
  }
}

// Table 14 (mode 1, Figure 47) in the same node: X 00x +, Y 0000x - or 0001x +, Z 0 or 1, +,
// with either tie rule.
TEST(T3eRegisters, Table14Mode1) {
  const Row table14[4] = {
      {0, P, 0, M, 0, P}, {0, P, 0, M, 1, P}, {0, P, 2, P, 0, P}, {0, P, 2, P, 1, P}};
  for (const char* tie : {"parity", "plus"}) {  // no entry of Table 14 is a tie
    Config c = machine({2, 4, 2}, "mode1", "format1");
    c.t3e.adaptive = false;
    c.t3e.half_ring_tie = tie;
    const Registers g = registers(c);
    ASSERT_EQ(g.lut_mode, kMode1);
    ASSERT_EQ(g.lut_entries, 4u);
    const uint32_t src = router_at(g, 0x000100);
    for (uint32_t e = 0; e < 4; ++e)
      EXPECT_EQ(g.net_lut[src * 4 + e], tag(table14[e])) << tie << " R_NET_LUT[" << e << "]";
    // Figure 47's route to logical PE 4 (R_PWHO 010000) reads entry 1 with X0 = Y0 = 0.
    EXPECT_EQ(lut_tag(kMode1, &g.net_lut[src * 4], 0, 4), tag({0, P, 0, M, 1, P}));
  }
}

TEST(T3eRegisters, AdaptBitFollowsTheConfig) {
  for (bool adaptive : {false, true}) {
    Config c = machine({4, 4, 2}, "mode0");
    c.t3e.adaptive = adaptive;
    for (uint32_t e : registers(c).net_lut) ASSERT_EQ(Tag::adapt(e), adaptive);
  }
}

// R_ORIENT bit 0: cube port 1 (towards cube x+1) becomes -X and the physical X numbering runs
// the other way, so a route keeps going + towards higher physical X.
TEST(T3eRegisters, OrientMirrorsPortsAndNumbers) {
  const uint32_t k[3] = {4, 4, 4};
  const Registers plain = registers(machine({4, 4, 4}, "computed", "linear", 0));
  const Registers mirrored = registers(machine({4, 4, 4}, "computed", "linear", 1));
  EXPECT_EQ(plain.pwho[0], make_pwho(0, 0, 0));
  EXPECT_EQ(mirrored.pwho[0], make_pwho(3, 0, 0));
  EXPECT_EQ(mirrored.pwho[1], make_pwho(2, 0, 0));
  EXPECT_EQ(std::vector<uint8_t>(plain.dir_port.begin(), plain.dir_port.begin() + 6),
            (std::vector<uint8_t>{1, 3, 5, 2, 4, 6}));
  EXPECT_EQ(std::vector<uint8_t>(mirrored.dir_port.begin(), mirrored.dir_port.begin() + 6),
            (std::vector<uint8_t>{2, 3, 5, 1, 4, 6}));
  const Registers all = registers(machine({4, 4, 4}, "computed", "linear", 7));
  EXPECT_EQ(std::vector<uint8_t>(all.dir_port.begin(), all.dir_port.begin() + 6),
            (std::vector<uint8_t>{2, 4, 6, 1, 3, 5}));
  // Router 0 to router 1 (cube x 0 -> 1): X address 1 going + unmirrored, 2 going - mirrored;
  // either way out of cube port 1.
  const uint32_t a = default_tag(plain.pwho[0], plain.pwho[1], k, false, false);
  const uint32_t b = default_tag(mirrored.pwho[0], mirrored.pwho[1], k, false, false);
  EXPECT_EQ(a, tag({1, P, 0, P, 0, P}));
  EXPECT_EQ(b, tag({2, M, 0, P, 0, P}));
  EXPECT_EQ(plain.dir_port[kPlusX], 1u);
  EXPECT_EQ(mirrored.dir_port[kMinusX], 1u);
}

// Every route of every mode that applies, on every R_ORIENT, reaches its PE minimally.
TEST(T3eRegisters, EveryRouteArrivesMinimally) {
  for (const auto& radix : std::vector<std::vector<int64_t>>{{2, 4, 2}, {4, 4, 4}, {3, 5, 2}})
    for (int64_t orient = 0; orient < 8; ++orient)
      for (const char* format : {"linear", "format1", "format3", "random"})
        for (const char* mode : {"mode0", "mode1", "computed"}) {
          if (std::string(mode) == "mode1" &&
              (std::string(format) != "format1" || radix[0] % 2 || radix[1] % 2))
            continue;
          check_routes(machine(radix, mode, format, orient), 1);
        }
  // 1024 PEs (beyond mode 0): a sample of sources.
  for (int64_t orient : {0, 5})
    for (const char* format : {"linear", "format1", "random"}) {
      check_routes(machine({8, 16, 8}, "computed", format, orient), 37);
    }
  check_routes(machine({8, 16, 8}, "mode1", "format1", 2), 37);
}

// Mode 2 (bit 0 Y0, bit 1 X0) has no fixed format; a "random" numbering of a 2x2x1 machine
// happens to be one for about 1 seed in 24.
TEST(T3eRegisters, Mode2RoutesWhereTheNumberingAllows) {
  uint32_t found = 0;
  for (int64_t seed = 1; seed <= 100; ++seed) {
    Config c = machine({2, 2, 1}, "mode2", "random");
    c.run.seed = seed;
    try {
      const Registers g = registers(c);
      EXPECT_EQ(g.lwho[router_at(g, make_pwho(0, 1, 0))], 1u);
      check_routes(c, 1);
      ++found;
    } catch (const ConfigError&) {
    }
  }
  EXPECT_GT(found, 0u);
}

// The manual's mode 2 example numbers its 2x4x2 machine with Y0 below X0 (Figure 48: logical PE
// 1 at R_PWHO 000100, 4 at 010000): t3e.logical_format = "format1_yx", over which mode 2 routes
// every pair and mode 1 is refused.
TEST(T3eRegisters, Mode2RoutesFigure48sNumbering) {
  const Config c = machine({2, 4, 2}, "mode2", "format1_yx");
  const Registers g = registers(c);
  EXPECT_EQ(g.lwho[router_at(g, make_pwho(0, 1, 0))], 1u);
  EXPECT_EQ(g.lwho[router_at(g, make_pwho(1, 0, 0))], 2u);
  EXPECT_EQ(g.lwho[router_at(g, make_pwho(0, 0, 1))], 4u);
  check_routes(c, 1);
  check_routes(machine({4, 8, 2}, "mode2", "format1_yx"), 1);
  EXPECT_THROW(registers(machine({2, 4, 2}, "mode1", "format1_yx")), ConfigError);
}

TEST(T3eRegisters, AutoModes) {
  EXPECT_EQ(lut_mode("auto", 544), kMode0);
  EXPECT_EQ(lut_mode("auto", 545), kMode1);
  EXPECT_EQ(lut_mode("auto", 2176), kMode1);
  EXPECT_EQ(lut_mode("auto", 2177), kComputed);
  EXPECT_EQ(lut_mode("mode2", 16), kMode2);
  EXPECT_EQ(registers(machine({4, 4, 4}, "auto")).lut_mode, kMode0);
  EXPECT_EQ(registers(machine({8, 16, 8}, "auto", "format1")).lut_mode, kMode1);
  EXPECT_EQ(registers(machine({8, 16, 8}, "auto", "linear")).lut_mode, kComputed);
  const Registers computed = registers(machine({3, 5, 2}, "computed"));
  EXPECT_EQ(computed.lut_entries, 1u);
  EXPECT_EQ(computed.net_lut, std::vector<uint32_t>(30, 0));
  EXPECT_EQ(computed.lut_override, std::vector<uint32_t>(30, 0));
}

TEST(T3eRegisters, IncompatibleNumberingIsRefused) {
  struct {
    std::vector<int64_t> radix;
    const char *mode, *format;
  } const bad[] = {{{4, 4, 4}, "mode1", "linear"},
                   {{4, 4, 4}, "mode1", "format3"},
                   {{3, 5, 2}, "mode1", "format1"},
                   {{2, 4, 2}, "mode2", "format1"},
                   {{2, 4, 2}, "mode2", "linear"}};
  for (const auto& b : bad) {
    try {
      registers(machine(b.radix, b.mode, b.format));
      ADD_FAILURE() << b.mode << " with " << b.format << " accepted";
    } catch (const ConfigError& e) {
      const std::string m = e.what();
      EXPECT_EQ(m.rfind(std::string("t3e.lut_mode = \"") + b.mode + "\": allowed", 0), 0u) << m;
      EXPECT_NE(m.find(std::string("t3e.logical_format = \"") + b.format + "\""), std::string::npos)
          << m;
    }
  }
}

// The dateline of a direction is the node its ring's wrap link leads into; rings of one node
// have none, and their channels no adaptive VC (NO_ADAPT). NO_FAST on the six network channels.
TEST(T3eRegisters, DatelinesAndChannels) {
  for (int64_t orient : {0, 6}) {
    Config c = machine({3, 1, 4}, "computed", "linear", orient);
    c.t3e.no_fast = true;
    const Topology t = build_cube(c.topology);
    const Registers g = make_registers(c, t);
    uint32_t datelines = 0;
    for (uint32_t m = 0; m < t.routers; ++m)
      for (uint32_t dir = 0; dir < kDirections; ++dir) {
        const uint32_t d = dir % 3, port = g.dir_port[m * kDirections + dir];
        EXPECT_EQ(g.chan[m * 8 + dir], kNoFast | (d == 1 ? kNoAdapt : 0));
        if (t.peer[m * t.ports + port] < 0) {  // a ring of one node has no link
          EXPECT_EQ(d, 1u);
          EXPECT_EQ(g.vcsel[m * kDirections + dir], 0u);
          continue;
        }
        const uint32_t n = static_cast<uint32_t>(t.peer[m * t.ports + port]) / t.ports;
        const uint32_t from = pwho_coord(g.pwho[m], d), to = pwho_coord(g.pwho[n], d);
        const bool wrap = dir < 3 ? to < from : to > from;
        EXPECT_EQ(g.vcsel[n * kDirections + dir], wrap ? kDatelineBit : 0u);
        datelines += wrap;
      }
    // One per ring and direction: 2 x (X rings + Z rings).
    EXPECT_EQ(datelines, 2u * (4 + 3));
    for (uint32_t m = 0; m < t.routers; ++m) {
      EXPECT_EQ(g.chan[m * 8 + 6], 0u);
      EXPECT_EQ(g.chan[m * 8 + 7], 0u);
    }
  }
}
