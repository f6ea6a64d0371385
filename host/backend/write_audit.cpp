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
struct Writer {  // the last store to a byte in this cycle
  uint64_t agent, epoch;
  uint32_t lane;
};

bool on = false, in_item = false, busy = false;
uint64_t now_agent = 0, now_epoch = 0;
uint32_t now_lane = 0;
uint64_t cycles = 0, found = 0;
std::vector<Region> regions;  // sorted by lo, disjoint
std::unordered_map<uintptr_t, Writer> writers;
std::vector<std::string> conflicts;

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

// A store of n bytes at a, by the item and lane now running: each byte against the byte's last
// writer in this cycle. Two threads writing even the same value conflict: the CUDA memory model
// calls it a data race, whatever the hardware keeps. Two that add to one counter conflict too.
void note(uintptr_t a, size_t n) {
  if (busy || !on || !in_item) return;
  busy = true;
  const Writer now{now_agent, now_epoch, now_lane};
  for (uintptr_t b = a; b < a + n; ++b) {
    const Region* r = region_of(b);
    if (!r) continue;
    auto [it, fresh] = writers.try_emplace(b, now);
    const Writer w = it->second;
    it->second = now;
    if (fresh || (w.agent == now.agent && (w.lane == now.lane || w.epoch != now.epoch))) continue;
    if (++found <= 20)
      conflicts.push_back(std::string(r->name) + " byte " + std::to_string(b - r->lo) + ", cycle " +
                          std::to_string(cycles) + ": " + who(w.agent, w.lane) + " and " +
                          who(now.agent, now.lane));
  }
  busy = false;
}

}  // namespace

void region(const void* p, size_t bytes, const char* name) {
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
  busy = true;
  const uintptr_t lo = reinterpret_cast<uintptr_t>(p);
  regions.erase(
      std::remove_if(regions.begin(), regions.end(), [&](const Region& r) { return r.lo == lo; }),
      regions.end());
  busy = false;
}

void begin() {
  busy = true;
  writers.clear();
  conflicts.clear();
  found = cycles = now_epoch = 0;
  on = true;
  in_item = false;
  busy = false;
}

std::vector<std::string> end() {
  busy = true;
  on = false;
  std::vector<std::string> out = conflicts;
  if (found > conflicts.size())
    out.push_back("... " + std::to_string(found - conflicts.size()) + " more");
  busy = false;
  return out;
}

void agent(uint64_t id) {
  now_agent = id;
  now_lane = 0;
  ++now_epoch;
  in_item = true;
}

void lane(uint32_t k) {
  now_lane = k;
}

void sync() {
  ++now_epoch;
}

void cycle() {
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
