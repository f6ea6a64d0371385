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
  s.lanes = run.lanes == "tile" ? kTileLanes : 1;
  return s;
}

std::string schedule_name(ScheduleKind kind, uint32_t lanes) {
  const std::string name = kind == ScheduleKind::kLaunch  ? "launch"
                           : kind == ScheduleKind::kBlock ? "block"
                           : kind == ScheduleKind::kGrid  ? "grid"
                                                          : "stages";
  return lanes > 1 && kind != ScheduleKind::kAuto ? name + ", tile" : name;
}

ScheduleKind cuda_auto_schedule(uint64_t instances, uint64_t per_instance, uint64_t sms) {
  if (per_instance <= 256) return ScheduleKind::kBlock;
  if (per_instance <= 1024 && instances >= sms) return ScheduleKind::kBlock;
  return ScheduleKind::kLaunch;
}

}  // namespace ls
