// A router's register for one of the 32 barrier/eureka synchronisation units (paper section 6):
// which of the six directions and the local PE are children in the BSU's spanning tree, which
// direction (if any) is the parent, and which children have signalled the barrier. Shared by
// the kernel and the host that builds trees (host/t3e/barrier_tree.cpp). The paper gives no
// bit layout; this packing is ours.
#pragma once
#include <cstdint>

#include "../common/hd.hpp"

namespace ls::t3e {

constexpr uint32_t kBsus = 32;
// Members of a BSU register's sets: bit 0 the PE, bit 1 + d direction d (+X, +Y, +Z, -X, -Y,
// -Z, direction order).
constexpr uint32_t kBsuLinks = 7, kBsuPe = 0;

// What a barrier/eureka packet says: up the tree, a child's barrier or eureka; down, the root's
// completion or eureka notification. The order is the priority among the signals of one BSU
// waiting for one link (barrier_network.hpp).
enum BsuSignal : uint32_t { kCompletion = 0, kEurekaDown = 1, kEurekaUp = 2, kBarrierUp = 3 };
constexpr uint32_t kBsuSignals = 4;

struct BsuReg {
  // CHILDREN<6:0>, PARENT<10:8> (a direction, 7 none: the root), ARRIVED<22:16> (children whose
  // barrier is in), EUREKA<24> (this round's eureka has passed: later ones are dropped).
  static constexpr uint32_t kNoParent = 7, kParentShift = 8, kArrivedShift = 16;
  static constexpr uint32_t kEureka = 1u << 24;

  LS_HD static uint32_t make(uint32_t children, uint32_t parent) {
    return children | parent << kParentShift;
  }
  LS_HD static uint32_t children(uint32_t w) { return w & 0x7Fu; }
  LS_HD static uint32_t parent(uint32_t w) { return w >> kParentShift & 7u; }
  LS_HD static uint32_t arrived(uint32_t w) { return w >> kArrivedShift & 0x7Fu; }
  LS_HD static uint32_t with_arrived(uint32_t w, uint32_t a) {
    return (w & ~(0x7Fu << kArrivedShift)) | a << kArrivedShift;
  }
  // The set bit of link l: the PE (kBsuPe) or direction l - 1.
  LS_HD static uint32_t link_of_dir(uint32_t d) { return 1 + d; }
};

// The processor shell's BSU states (paper Figure 6).
enum BsuState : uint8_t { kSBar = 0, kSArm = 1, kSEur = 2 };

}  // namespace ls::t3e
