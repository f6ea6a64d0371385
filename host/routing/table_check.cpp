// Checks any routing table against its topology: every entry, every route (by a depth-first
// walk of each destination's next hops) and the buffer-class dependency graph of
// resource_order.cpp (an edge (n, vc(n, d)) -> (n', vc(n', d)) for every permitted hop of every
// destination d whose next router n' is not d's own), which must have no cycle.
#include <algorithm>
#include <map>
#include <sstream>
#include <unordered_map>

#include "routing_table.hpp"

namespace ls {
namespace {

constexpr size_t kMaxListed = 10;  // problems of one kind listed before "and N more"

std::string list_of(const std::vector<uint32_t>& xs) {
  std::string s;
  for (size_t i = 0; i < xs.size() && i < kMaxListed; ++i)
    s += (i ? ", " : "") + std::to_string(xs[i]);
  if (xs.size() > kMaxListed) s += " and " + std::to_string(xs.size() - kMaxListed) + " more";
  return s;
}

std::string hex(uint32_t x) {
  std::ostringstream o;
  o << "0x" << std::hex << x;
  return o.str();
}

// Collects problems, listing at most kMaxListed of each kind.
struct Problems {
  std::vector<std::string> out;
  std::map<std::string, size_t> count;
  void add(const std::string& kind, const std::string& text) {
    if (count[kind]++ < kMaxListed) out.push_back(text);
  }
  std::vector<std::string> done() {
    for (const auto& [kind, n] : count)
      if (n > kMaxListed)
        out.push_back("... and " + std::to_string(n - kMaxListed) + " more " + kind);
    return out;
  }
};

// The destinations that make one dependency: the first few and how many.
struct Witnesses {
  std::vector<uint32_t> first;
  size_t count = 0;
  void add(uint32_t d) {
    if (count && last == d) return;
    last = d;
    if (count++ < kMaxListed) first.push_back(d);
  }
  std::string text() const {
    std::string s = list_of(first);
    if (count > first.size()) s += " and " + std::to_string(count - first.size()) + " more";
    return s;
  }
  uint32_t last = 0;
};

class Checker {
 public:
  Checker(const Topology& t, const RoutingTable& rt) : t_(t), rt_(rt) {}

  std::vector<std::string> run() {
    const size_t entries = size_t{t_.routers} * t_.nodes;
    if (rt_.routers != t_.routers || rt_.nodes != t_.nodes || rt_.port_mask.size() != entries ||
        rt_.vc.size() != entries)
      return {"table of " + std::to_string(rt_.port_mask.size()) + " port masks and " +
              std::to_string(rt_.vc.size()) + " VCs for " + std::to_string(rt_.routers) +
              " routers x " + std::to_string(rt_.nodes) + " destinations: allowed " +
              std::to_string(t_.routers) + " x " + std::to_string(t_.nodes) +
              " of each for this topology"};
    for (uint32_t d = 0; d < t_.nodes; ++d) {
      for (uint32_t r = 0; r < t_.routers; ++r) check_entry(r, d);
      check_routes(d);
    }
    check_dependencies();
    return problems_.done();
  }

 private:
  uint32_t dest_router(uint32_t d) const { return static_cast<uint32_t>(t_.node_router[d]); }
  int32_t peer(uint32_t r, uint32_t p) const {
    return p >= 1 && p < t_.ports && p < 32 ? t_.peer[r * t_.ports + p] : -1;
  }
  std::string at(uint32_t r, uint32_t d) const {
    return "router " + std::to_string(r) + ", destination " + std::to_string(d) + ": ";
  }

  void check_entry(uint32_t r, uint32_t d) {
    const uint32_t m = rt_.port_mask[rt_.at(r, d)];
    const uint8_t vc = rt_.vc[rt_.at(r, d)];
    if (r == dest_router(d)) {
      if (m)
        problems_.add("entries at destinations",
                      at(r, d) + "port_mask = " + hex(m) +
                          ": allowed 0 at the destination's router (it delivers to the terminal)");
      return;
    }
    if (!m) problems_.add("incomplete entries", at(r, d) + "port_mask = 0: no port permitted");
    uint32_t dead = 0;
    for (uint32_t p = 0; p < 32; ++p)
      if ((m >> p & 1u) && peer(r, p) < 0) dead |= 1u << p;
    if (dead)
      problems_.add("entries with ports without a link",
                    at(r, d) + "port_mask = " + hex(m) + " permits port(s) " + hex(dead) +
                        " that have no link: allowed network ports 1 to " +
                        std::to_string(t_.ports - 1) + " with a link");
    if (vc > 1)
      problems_.add("entries with a bad VC",
                    at(r, d) + "vc = " + std::to_string(vc) + ": allowed 0 or 1");
  }

  std::vector<uint32_t> next_routers(uint32_t r, uint32_t d) const {
    std::vector<uint32_t> out;
    if (r == dest_router(d)) return out;
    const uint32_t m = rt_.port_mask[rt_.at(r, d)];
    for (uint32_t p = 1; p < 32; ++p)
      if ((m >> p & 1u) && peer(r, p) >= 0) out.push_back(peer(r, p) / t_.ports);
    return out;
  }

  // Follows every permitted route to d: which routers can end somewhere other than d's router,
  // and one loop if the routes have any.
  void check_routes(uint32_t d) {
    const uint32_t R = t_.routers, target = dest_router(d);
    enum : uint8_t { kNew, kOpen, kReaches, kFails };
    std::vector<uint8_t> state(R, kNew);
    std::vector<uint32_t> ends;  // routers other than d's with no usable port
    std::vector<uint32_t> loop;
    for (uint32_t s = 0; s < R; ++s) {
      if (state[s] != kNew) continue;
      // Iterative depth-first walk; a router's state is settled when all its next hops are.
      std::vector<std::pair<uint32_t, size_t>> stack = {{s, 0}};
      std::vector<std::vector<uint32_t>> succ = {next_routers(s, d)};
      state[s] = kOpen;
      while (!stack.empty()) {
        auto& [r, i] = stack.back();
        if (i < succ.back().size()) {
          const uint32_t n = succ.back()[i++];
          if (state[n] == kNew) {
            state[n] = kOpen;
            stack.push_back({n, 0});
            succ.push_back(next_routers(n, d));
          } else if (state[n] == kOpen && loop.empty()) {
            auto from = std::find_if(stack.begin(), stack.end(),
                                     [&](const auto& e) { return e.first == n; });
            for (auto it = from; it != stack.end(); ++it) loop.push_back(it->first);
            loop.push_back(n);
          }
          continue;
        }
        bool fails = r != target && succ.back().empty();
        if (fails) ends.push_back(r);
        for (uint32_t n : succ.back()) fails |= state[n] != kReaches;
        state[r] = fails ? kFails : kReaches;
        stack.pop_back();
        succ.pop_back();
      }
    }
    std::vector<uint32_t> failing;
    for (uint32_t r = 0; r < R; ++r)
      if (state[r] == kFails) failing.push_back(r);
    const std::string dest = "destination " + std::to_string(d) + ": ";
    if (!loop.empty()) {
      std::string path;
      for (size_t i = 0; i < loop.size(); ++i) path += (i ? " -> " : "") + std::to_string(loop[i]);
      problems_.add("looping destinations", dest + "routes loop: routers " + path);
    }
    if (!failing.empty())
      problems_.add("destinations not reached",
                    dest + "routes from router(s) " + list_of(failing) + " may not reach router " +
                        std::to_string(target) +
                        (ends.empty() ? " (they loop)"
                                      : " (they can end at router(s) " + list_of(ends) +
                                            ", which permit no port)"));
  }

  // Edges of the buffer-class dependency graph, each with the destinations that make it; one
  // cycle if there is any.
  void check_dependencies() {
    const uint32_t R = t_.routers;
    auto cls = [&](uint32_t r, uint32_t d) {
      return 2 * r + std::min<uint32_t>(rt_.vc[rt_.at(r, d)], 1);
    };
    std::unordered_map<uint64_t, Witnesses> why;
    auto edge = [](uint32_t a, uint32_t b) { return uint64_t{a} << 32 | b; };
    std::vector<std::vector<uint32_t>> adj(2 * R);
    for (uint32_t d = 0; d < t_.nodes; ++d)
      for (uint32_t r = 0; r < R; ++r)
        for (uint32_t n : next_routers(r, d)) {
          if (n == dest_router(d)) continue;
          Witnesses& w = why[edge(cls(r, d), cls(n, d))];
          if (!w.count) adj[cls(r, d)].push_back(cls(n, d));
          w.add(d);
        }
    const std::vector<uint32_t> cycle = find_cycle(adj);
    if (cycle.empty()) return;
    std::string text = "dependency cycle of " + std::to_string(cycle.size() - 1) +
                       " buffer classes (router, VC): ";
    for (size_t i = 0; i < cycle.size(); ++i) {
      text += "(" + std::to_string(cycle[i] / 2) + ", " + std::to_string(cycle[i] % 2) + ")";
      if (i + 1 < cycle.size())
        text += " -[destinations " + why[edge(cycle[i], cycle[i + 1])].text() + "]-> ";
    }
    problems_.add("dependency cycles", text + ": a deadlock is possible");
  }

  // A cycle of a directed graph as its vertices, the first repeated at the end; empty if none.
  static std::vector<uint32_t> find_cycle(const std::vector<std::vector<uint32_t>>& adj) {
    enum : uint8_t { kNew, kOpen, kDone };
    std::vector<uint8_t> state(adj.size(), kNew);
    for (uint32_t s = 0; s < adj.size(); ++s) {
      if (state[s] != kNew) continue;
      std::vector<std::pair<uint32_t, size_t>> stack = {{s, 0}};
      state[s] = kOpen;
      while (!stack.empty()) {
        auto& [v, i] = stack.back();
        if (i == adj[v].size()) {
          state[v] = kDone;
          stack.pop_back();
          continue;
        }
        const uint32_t w = adj[v][i++];
        if (state[w] == kNew) {
          state[w] = kOpen;
          stack.push_back({w, 0});
        } else if (state[w] == kOpen) {
          std::vector<uint32_t> cycle;
          auto from =
              std::find_if(stack.begin(), stack.end(), [&](const auto& e) { return e.first == w; });
          for (auto it = from; it != stack.end(); ++it) cycle.push_back(it->first);
          cycle.push_back(w);
          return cycle;
        }
      }
    }
    return {};
  }

  const Topology& t_;
  const RoutingTable& rt_;
  Problems problems_;
};

}  // namespace

std::vector<std::string> check_routing_table(const Topology& t, const RoutingTable& table) {
  return Checker(t, table).run();
}

}  // namespace ls
