#!/usr/bin/env bash
# Instructions, cycles, branch misses and L1 data misses per router-cycle of one network on one
# CPU thread: `perf stat` over build/lockstep_step for 2,000 and for 22,000 cycles, and the
# difference divided by 20,000 x routers (so set-up and the network filling up are left out).
# Instruction counts are exact; cycle counts drift with the host's load, so the script repeats
# the measurement (REPS, default 3) and one takes the minimum. Needs `perf` (Debian: linux-perf)
# and a build (make build). docs/performance.md says how to use the figures.
#   scripts/router_cycle_counts.sh [KIND] [RADIX] [LOAD] [FAMILY]   default: mesh 8x8 0.15 vc
set -euo pipefail
cd "$(dirname "$0")/.."
kind=${1:-mesh} radix=${2:-8x8} load=${3:-0.15} family=${4:-vc} reps=${REPS:-3}
step=${STEP:-build/lockstep_step}
command -v perf > /dev/null || { echo "perf not found: apt-get install linux-perf" >&2; exit 2; }
[ -x "$step" ] || { echo "$step not found: run make build first" >&2; exit 2; }
routers=$(echo "$radix" | tr 'x' '*' | bc)
events=instructions,cycles,branch-misses,L1-dcache-load-misses
count() {
  perf stat -x, -e "$events" "$step" "$kind" "$radix" "$load" "$1" "$family" 2>&1 >/dev/null |
    cut -d, -f1
}
echo "$family $kind $radix at $load, per router-cycle: instructions cycles branch-misses L1-misses"
for _ in $(seq "$reps"); do
  paste <(count 2000) <(count 22000) |
    awk -v n=$((20000 * routers)) '{ printf "%.1f ", ($2 - $1) / n } END { print "" }'
done
