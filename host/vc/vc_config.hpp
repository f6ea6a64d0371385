// The generic virtual-channel router's configuration section: its keys are [router]'s.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace ls {

// The generic virtual-channel router (router.family = "vc"): the [router] section's keys but
// family.
struct VcConfig {
  int64_t vcs = 2;
  int64_t vc_depth = 8;
  std::string routing = "dor";
  bool dateline = true;
  std::string flow_control = "wormhole";
  std::string vc_allocator = "islip";
  std::string sw_allocator = "islip";
  int64_t alloc_iters = 1;
  int64_t routing_delay = 1;
  int64_t vc_alloc_delay = 1;
  int64_t sw_alloc_delay = 1;
  int64_t st_delay = 1;
  int64_t credit_delay = 0;
};

}  // namespace ls
