#include "partial_plane.hpp"

#include "../../kernels/t3e/routing_tag.hpp"
#include "t3e_registers.hpp"

namespace ls::t3e {

bool installed(const Config& c, uint32_t pwho) {
  const auto& pp = c.t3e.partial_plane;
  if (pp.empty() || pwho_coord(pwho, 2) + 1 != static_cast<uint32_t>(c.topology.radix[2]))
    return true;
  return pwho_coord(pwho, 0) < pp[0] && pwho_coord(pwho, 1) < pp[1];
}

uint32_t machine_pes(const Config& c) {
  const auto& k = c.topology.radix;
  const auto& pp = c.t3e.partial_plane;
  const int64_t plane = k[0] * k[1];
  return static_cast<uint32_t>(pp.empty() ? plane * k[2] : plane * (k[2] - 1) + pp[0] * pp[1]);
}

Topology machine_topology(const Config& c) {
  Topology t = build_topology(c.topology);
  const auto& pp = c.t3e.partial_plane;
  const bool y_line = c.topology.radix[1] == 2;
  if (pp.empty() && !y_line) return t;
  const uint32_t P = t.ports, kz = static_cast<uint32_t>(c.topology.radix[2]);
  std::vector<uint32_t> pwho(t.routers);
  for (uint32_t r = 0; r < t.routers; ++r) pwho[r] = physical_node(c, t, r);
  auto port = [&](uint32_t r, uint32_t dir) { return size_t{r} * P + direction_port(c, dir); };
  auto unlink = [&](size_t pa) {
    const int32_t q = t.peer[pa];
    if (q >= 0) t.peer[static_cast<size_t>(q)] = -1;
    t.peer[pa] = -1;
  };
  // A Y = 2 machine is one PCB high: "the external Y-dimension communication links on each PCB
  // are unconnected" (manual, "Y=2 Communication Link Connections"), so the PCB's internal link
  // alone joins Y = 0 and Y = 1: a line, its wrap link (+Y out of Y = 1) missing.
  if (y_line)
    for (uint32_t r = 0; r < t.routers; ++r)
      if (pwho_coord(pwho[r], 1) == 1) unlink(port(r, kPlusY));
  if (pp.empty()) return t;
  const uint32_t nx = static_cast<uint32_t>(pp[0]);
  const RouterAt at(pwho);
  auto link = [&](uint32_t a, uint32_t dir, uint32_t b) {  // a's dir port to b's opposite one
    const size_t pa = port(a, dir), pb = port(b, opposite(dir));
    t.peer[pa] = static_cast<int32_t>(pb);
    t.peer[pb] = static_cast<int32_t>(pa);
  };
  for (uint32_t r = 0; r < t.routers; ++r) {  // empty slots lose their links
    if (installed(c, pwho[r])) continue;
    for (uint32_t p = 1; p < P; ++p) unlink(size_t{r} * P + p);
  }
  for (uint32_t r = 0; r < t.routers; ++r) {
    const uint32_t x = pwho_coord(pwho[r], 0), y = pwho_coord(pwho[r], 1),
                   z = pwho_coord(pwho[r], 2);
    // A short Z ring closes kz - 2 -> 0 (a ring of one node has no link).
    if (z == kz - 2 && kz > 2 && !installed(c, make_pwho(x, y, kz - 1)))
      link(r, kPlusZ, at(make_pwho(x, y, 0)));
    // The partial plane's X ring closes nx - 1 -> 0.
    if (z == kz - 1 && x == nx - 1 && nx > 1 && installed(c, pwho[r]))
      link(r, kPlusX, at(make_pwho(0, y, z)));
  }
  return t;
}

}  // namespace ls::t3e
