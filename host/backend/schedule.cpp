#include "schedule.hpp"

#include "../config/config.hpp"

namespace ls {

Schedule schedule_of(const RunConfig& run) {
  Schedule s;
  s.kind = run.schedule == "launch"  ? ScheduleKind::kLaunch
           : run.schedule == "block" ? ScheduleKind::kBlock
           : run.schedule == "grid"  ? ScheduleKind::kGrid
                                     : ScheduleKind::kAuto;
  s.cycles_per_launch = static_cast<uint64_t>(run.cycles_per_launch);
  s.block_threads = static_cast<uint32_t>(run.block_threads);
  s.order = run.block_order == "reversed"   ? BlockOrder::kReversed
            : run.block_order == "shuffled" ? BlockOrder::kShuffled
                                            : BlockOrder::kForward;
  s.hot_shared = run.hot_state == "shared";
  s.view_shared = run.block_view == "shared";
  s.roles = run.roles;
  s.lanes = run.lanes == "tile" || (s.roles && run.lanes == "auto") ? kTileLanes
            : run.lanes == "one"                                    ? 1
                                                                    : 0;
  return s;
}

std::string schedule_name(ScheduleKind kind, uint32_t lanes, bool roles) {
  const std::string name = kind == ScheduleKind::kLaunch  ? "launch"
                           : kind == ScheduleKind::kBlock ? "block"
                           : kind == ScheduleKind::kGrid  ? "grid"
                                                          : "stages";
  if (kind == ScheduleKind::kAuto) return name;
  return name + (lanes == kTileLanes ? ", tile" : "") + (roles ? ", roles" : "");
}

CudaPlan cuda_plan(const Schedule& s, uint64_t instances, uint64_t per_instance, uint64_t sms) {
  if (s.roles)  // (validate() keeps it to launch and block; `auto` is launch)
    return {s.kind == ScheduleKind::kBlock ? ScheduleKind::kBlock : ScheduleKind::kLaunch, s.lanes,
            true};
  const bool few = instances * per_instance <= kTileElements;
  // (Hot state on chip is the block schedule's: asked for, `auto` keeps to it.)
  if (s.kind == ScheduleKind::kAuto && s.lanes == 0 && few && !s.hot_shared)
    return {ScheduleKind::kLaunch, kTileLanes};
  ScheduleKind kind = s.kind;
  if (kind == ScheduleKind::kAuto)
    kind = per_instance <= 256 || (per_instance <= 1024 && instances >= sms)
               ? ScheduleKind::kBlock
               : ScheduleKind::kLaunch;
  const uint32_t lanes = s.lanes ? s.lanes : kind == ScheduleKind::kLaunch && few ? kTileLanes : 1;
  return {kind, lanes};
}

}  // namespace ls
