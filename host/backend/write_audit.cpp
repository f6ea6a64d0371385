// The write audit's bookkeeping and GCC's store callbacks (write_audit.hpp). Compiled without
// the sanitizer; a standard-library function this file shares with instrumented files may still
// report its own stores, which `busy` ignores. Single-threaded: the audit runs with one thread.
#include "write_audit.hpp"

#include <algorithm>
#include <unordered_map>

namespace ls::audit {
namespace {

struct Region {
  uintptr_t lo, hi;
  const char* name;
};
struct Writer {  // the last store to a byte in this cycle, and the value it left
  uint64_t agent, epoch;
  uint32_t lane;
  uint8_t value;
};
struct Store {  // a store reported and not yet judged: its value is known once it has happened
  uintptr_t a = 0;
  size_t n = 0;
  uint64_t agent = 0, epoch = 0;
  uint32_t lane = 0;
};

bool on = false, in_item = false, busy = false;
uint64_t now_agent = 0, now_epoch = 0;
uint32_t now_lane = 0;
uint64_t cycles = 0, found = 0;
std::vector<Region> regions;  // sorted by lo, disjoint
std::unordered_map<uintptr_t, Writer> writers;
std::vector<std::string> conflicts;
Store pending;

const Region* region_of(uintptr_t a) {
  auto it = std::upper_bound(regions.begin(), regions.end(), a,
                             [](uintptr_t x, const Region& r) { return x < r.lo; });
  return it != regions.begin() && a < (--it)->hi ? &*it : nullptr;
}

std::string who(uint64_t agent, uint32_t lane) {
  std::string s = agent >= kRole ? "role item " + std::to_string(agent - kRole)
                                 : "element " + std::to_string(agent);
  return s + " lane " + std::to_string(lane);
}

// The pending store has happened (GCC reports a store before making it, and nothing is stored
// between that and the next report or hook): each byte it wrote against the byte's last writer
// in this cycle. Two threads writing the same value is no conflict: a GPU keeps one of them,
// which is that value (the lanes of a METRO crossbar each note the cycle in last_move). Two that
// add to one counter write different values here, one after the other.
void judge() {
  const Store s = pending;
  pending.n = 0;
  for (uintptr_t b = s.a; b < s.a + s.n; ++b) {
    const Region* r = region_of(b);
    if (!r) continue;
    const Writer now{s.agent, s.epoch, s.lane, *reinterpret_cast<const uint8_t*>(b)};
    auto [it, fresh] = writers.try_emplace(b, now);
    const Writer w = it->second;
    it->second = now;
    if (fresh || w.value == now.value ||
        (w.agent == now.agent && (w.lane == now.lane || w.epoch != now.epoch)))
      continue;
    if (++found <= 20)
      conflicts.push_back(std::string(r->name) + " byte " + std::to_string(b - r->lo) + ", cycle " +
                          std::to_string(cycles) + ": " + who(w.agent, w.lane) + " and " +
                          who(now.agent, now.lane));
  }
}

void settle() {
  if (pending.n == 0 || busy) return;
  busy = true;
  judge();
  busy = false;
}

void note(uintptr_t a, size_t n) {
  if (busy) return;
  settle();
  if (on && in_item) pending = Store{a, n, now_agent, now_epoch, now_lane};
}

}  // namespace

void region(const void* p, size_t bytes, const char* name) {
  settle();  // a store before it (the array's own zeroing, say) is not one to watch
  busy = true;
  const uintptr_t lo = reinterpret_cast<uintptr_t>(p), hi = lo + bytes;
  regions.erase(std::remove_if(regions.begin(), regions.end(),
                               [&](const Region& r) { return r.lo < hi && lo < r.hi; }),
                regions.end());
  const Region r{lo, hi, name ? name : "an unnamed state array"};
  regions.insert(std::upper_bound(regions.begin(), regions.end(), lo,
                                  [](uintptr_t x, const Region& q) { return x < q.lo; }),
                 r);
  busy = false;
}

void forget(const void* p) {
  settle();
  busy = true;
  const uintptr_t lo = reinterpret_cast<uintptr_t>(p);
  regions.erase(
      std::remove_if(regions.begin(), regions.end(), [&](const Region& r) { return r.lo == lo; }),
      regions.end());
  busy = false;
}

void begin() {
  busy = true;
  pending.n = 0;
  writers.clear();
  conflicts.clear();
  found = cycles = now_epoch = 0;
  on = true;
  in_item = false;
  busy = false;
}

std::vector<std::string> end() {
  settle();
  busy = true;
  on = false;
  std::vector<std::string> out = conflicts;
  if (found > conflicts.size())
    out.push_back("... " + std::to_string(found - conflicts.size()) + " more");
  busy = false;
  return out;
}

void agent(uint64_t id) {
  settle();
  now_agent = id;
  now_lane = 0;
  ++now_epoch;
  in_item = true;
}

void lane(uint32_t k) {
  settle();
  now_lane = k;
}

void sync() {
  settle();
  ++now_epoch;
}

void cycle() {
  settle();
  if (busy) return;
  busy = true;
  writers.clear();
  ++cycles;
  ++now_epoch;
  in_item = false;
  busy = false;
}

}  // namespace ls::audit

// GCC's callbacks for -fsanitize=kernel-address with calls instead of inline checks and only
// writes instrumented (CMakeLists.txt, LOCKSTEP_WRITE_AUDIT); the rest have nothing to do.
extern "C" {
#define LS_AUDIT_STORE(n)                               \
  void __asan_store##n##_noabort(void* a) {             \
    ls::audit::note(reinterpret_cast<uintptr_t>(a), n); \
  }                                                     \
  void __asan_load##n##_noabort(void*) {}
LS_AUDIT_STORE(1)
LS_AUDIT_STORE(2)
LS_AUDIT_STORE(4)
LS_AUDIT_STORE(8)
LS_AUDIT_STORE(16)
void __asan_storeN_noabort(void* a, size_t n) {
  ls::audit::note(reinterpret_cast<uintptr_t>(a), n);
}
void __asan_loadN_noabort(void*, size_t) {}
void __asan_handle_no_return() {}
void __asan_before_dynamic_init(const char*) {}
void __asan_after_dynamic_init() {}
}
