// Fuzz target: any named state array of a small network of each family written as Python's
// Simulator.set_state writes it (to stage a scenario, or by mistake). The first byte picks the
// family, the second the array (state_names() order), the next two a byte offset into it; the
// rest is XORed onto the array's bytes from there, the array is written and the network runs 32
// clocks with the invariants checked. State that is wrong but within the machine is the
// writer's fault: the debug checks report it (a SimulationError: conservation, overflow, a
// packet misdelivered, a deadlock), and that is a fine end. A write the engine cannot run (a
// port, VC, router or slot number past the network's) must be refused by set_state, naming the
// array and what is allowed. A crash, a sanitizer's report or another exception is a finding.
#include <memory>
#include <string>
#include <vector>

#include "fuzz_target.hpp"
#include "host/config/schema.hpp"

namespace {
using namespace ls;

Config small(uint8_t pick) {
  Config c;
  const auto set = [&c](const char* section, const char* key, Value v) {
    set_key(c, section, key, v);
  };
  switch (pick % 5) {
    case 0:  // the generic router: a 3x3 mesh, two VCs
      set("topology", "kind", std::string("mesh"));
      set("topology", "radix", std::vector<int64_t>{3, 3});
      set("router", "vcs", int64_t{2});
      set("traffic", "offered", 0.5);
      break;
    case 1:
      set("router", "family", std::string("t3e"));
      set("topology", "kind", std::string("torus"));
      set("topology", "radix", std::vector<int64_t>{2, 2, 2});
      set("traffic", "offered", 0.5);
      break;
    case 2:
      set("router", "family", std::string("bgl"));
      set("topology", "kind", std::string("torus"));
      set("topology", "radix", std::vector<int64_t>{2, 2, 2});
      set("traffic", "packet_size", int64_t{64});
      set("traffic", "offered", 10.0);
      break;
    case 3:
      set("router", "family", std::string("metro"));
      set("topology", "kind", std::string("multibutterfly"));
      set("topology", "radix", std::vector<int64_t>{2, 2});
      set("topology", "dilation", std::vector<int64_t>{2, 1});
      set("traffic", "packet_size", int64_t{4});
      set("traffic", "offered", 0.3);
      break;
    default:
      set("router", "family", std::string("sconnect"));
      set("topology", "kind", std::string("hypercube"));
      set("topology", "dimension", int64_t{3});
      set("traffic", "offered", 0.5);
  }
  set("run", "watchdog", int64_t{200});
  validate(c);
  return c;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 5 || size > 4096) return 0;
  std::unique_ptr<Engine> e = make_engine({small(data[0])}, fuzz::checked_cpu());
  e->step(8);  // some flits in flight, so the write meets live state
  const std::vector<std::string> names = e->state_names();
  const std::string& name = names[data[1] % names.size()];
  HostArray a = e->state(name);
  if (a.bytes.empty()) return 0;
  const size_t at = (data[2] | size_t{data[3]} << 8) % a.bytes.size();
  for (size_t i = 4; i < size; ++i) a.bytes[(at + i - 4) % a.bytes.size()] ^= data[i];
  if (!fuzz::accepted([&] { e->set_state(name, a); })) return 0;
  try {
    e->step(32);
  } catch (const SimulationError&) {  // the debug checks found the written state wrong
  } catch (const std::exception& x) {
    fuzz::finding("state \"" + name + "\" written, stepping threw: " + x.what());
  }
  return 0;
}
