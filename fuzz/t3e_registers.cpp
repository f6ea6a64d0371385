// Fuzz target: the T3E's router registers as software (Python's set_state) loads them between
// clocks: R_PWHO, R_LWHO, the PE numbering, R_NET_LUT, R_LUT_OVERRIDE, R_VCSEL, R_CHAN, the BSUs
// and the partition registers of a 4x2x2 torus. The first byte picks the register array, the
// rest are XORed onto the values make_registers loaded (mostly sensible tables, some bits
// wrong), the array is written and the machine runs 64 clocks with the invariants checked.
// Registers are the program's to get right: the router may stop a packet and flag an error (its
// config_error state, reported as "configuration error", as the hardware does), a refusal of
// the write is fine too (a number outside the machine), and a packet that wrong registers
// (R_PWHO, R_NET_LUT...) deliver to another PE than its own trips the debug check "a packet for
// router r reached this PE", which is the tables' fault, not the simulator's. A crash, a
// sanitizer's report or any other invariant broken is a finding.
#include <cstring>

#include "fuzz_target.hpp"
#include "host/config/schema.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ls;
  static const char* const kRegisters[] = {
      "r_pwho",  "r_lwho", "pe_router", "r_net_lut", "r_lut_override",
      "r_vcsel", "r_chan", "r_bsu",     "base_lpe",  "virtual_limit"};
  constexpr size_t kCount = sizeof(kRegisters) / sizeof(kRegisters[0]);
  if (size < 1 || size > 4096) return 0;
  Config c;
  c.router.family = "t3e";
  c.topology.kind = "torus";
  c.topology.radix = {4, 2, 2};
  c.traffic.offered = 0.5;
  c.run.watchdog = 400;
  validate(c);
  std::unique_ptr<Engine> e = make_engine({c}, fuzz::checked_cpu());
  HostArray a = e->state(kRegisters[data[0] % kCount]);
  for (size_t i = 1; i < size && i - 1 < a.bytes.size(); ++i) a.bytes[i - 1] ^= data[i];
  if (!fuzz::accepted([&] { e->set_state(kRegisters[data[0] % kCount], a); })) return 0;
  fuzz::run_cycles(*e, 64, {"reached this PE", "configuration error"});
  return 0;
}
