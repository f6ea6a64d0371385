// How a backend runs a family's cycles between two host events (run.schedule and the keys
// beside it). Every schedule gives the same state, bit for bit; they differ only in speed:
//   launch  one parallel step over the batch's elements per cycle (a GPU launch per cycle);
//   block   one group of threads per instance runs many cycles with a barrier between them
//           (a GPU thread block per instance, the view in its shared memory or, with
//           run.block_view = "parameter", in the kernel's parameter);
//   grid    one group spanning the whole batch does the same (a cooperative GPU grid, a
//           grid-wide sync per cycle), for instances larger than a block;
//   auto    the backend's own choice: on the CPU its production schedule (each thread runs
//           whole instances, stage by stage), on CUDA what an H100 measured fastest
//           (cuda_plan).
// The CPU runs `block` and `grid` through the same source as the GPU (block_cycles.hpp), with a
// block's threads as a loop in run.block_order, so CPU tests show the schedule is exact.
// run.lanes = "tile" gives each element of the launch, block and grid schedules a tile of
// kTileLanes threads instead of one (kernels/common/tile.hpp); the CPU's `auto` ignores it.
// run.lanes = "auto" is one lane on the CPU and what the H100 measured fastest on CUDA.
// run.roles (launch and block) runs a family's role form (tile.hpp): each element without its
// one-lane stages (the vc terminals), on its tile or one lane, and those stages each on a thread
// of its own, in warps after the elements', so the two overlap instead of a warp running one
// after the other.
#pragma once
#include <cstdint>
#include <string>
#include <type_traits>

#include "../../kernels/common/tile.hpp"

namespace ls {

enum class ScheduleKind : uint8_t { kAuto, kLaunch, kBlock, kGrid };
enum class BlockOrder : uint8_t { kForward, kReversed, kShuffled };

struct Schedule {
  ScheduleKind kind = ScheduleKind::kAuto;
  uint64_t cycles_per_launch = 0;  // 0: every cycle up to the next host event in one launch
  uint32_t block_threads = 0;      // 0: the instance's elements rounded up to a warp, <= 1,024
  BlockOrder order = BlockOrder::kForward;
  bool hot_shared = false;  // block: the family's hot arrays on chip (kernels/common/hot_state.hpp)
  bool view_shared = true;  // block: the cycle's view copied into shared memory for a launch
  // Threads an element: 1, kTileLanes (run.lanes = "tile", or "auto" with run.roles), or 0 for
  // auto (one on the CPU).
  uint32_t lanes = 0;
  bool roles = false;  // run.roles: the one-lane stages on threads of their own
};

// CUDA's `auto`, from every family measured on an H100 (2026-11-27, docs/performance.md, "Many
// cycles per launch, measured" and "Lanes over a router, measured"). A batch of at most
// kTileElements elements: `launch` with a tile an element (1.06-2.2x the best schedule on one
// lane for single networks of 64-512 routers, but the 8x8 mesh's `block`, 0.88x). Larger: tiles
// lose 2-5x (the device is already full of one-lane elements), so one lane, `block` for instances
// of up to 256 elements (1.2-1.6x `launch`) and for batches of instances up to 1,024 elements
// that give every multiprocessor one (1.2-1.3x with 256 instances of 512), `launch` for a few
// larger instances, whose one block each leaves most of the device idle (a single 512-router
// network: 0.65-0.96x). What run.schedule or run.lanes name is kept.
constexpr uint64_t kTileElements = 1024;
struct CudaPlan {
  ScheduleKind kind;
  uint32_t lanes;
  bool roles = false;
};
CudaPlan cuda_plan(const Schedule& s, uint64_t instances, uint64_t per_instance, uint64_t sms);

// f(std::integral_constant<uint32_t, lanes>{}) for run.lanes' compile-time lanes an element
// (auto, 0, as one).
template <class F>
void with_lanes(uint32_t lanes, const F& f) {
  if (lanes == kTileLanes)
    f(std::integral_constant<uint32_t, kTileLanes>{});
  else
    f(std::integral_constant<uint32_t, 1>{});
}

// f(std::true_type{}) or f(std::false_type{}) for a run-time flag b (run.roles, where the
// view lives): a kernel of its own for each; with kAllowed false only the false one is compiled
// (roles for a functor without a role form).
template <bool kAllowed = true, class F>
void with_flag(bool b, const F& f) {
  if constexpr (kAllowed)
    if (b) return f(std::true_type{});
  f(std::false_type{});
}

// A schedule's name as results report it (Engine::schedule): the CPU's `auto` is "stages".
std::string schedule_name(ScheduleKind kind, uint32_t lanes, bool roles = false);

struct RunConfig;
// The schedule run's keys ask for (the schema has checked their values).
Schedule schedule_of(const RunConfig& run);

}  // namespace ls
