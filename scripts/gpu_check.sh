#!/usr/bin/env bash
# A lease of 15 minutes (the device tool's budget since 2026-11-28, the machine's start and idle
# waits included) fits three calls, each prepared beforehand, .gpu-deps/ carried
# (scripts/gpu_deps.sh) and LOG_DIR=$OUT so that the logs come back:
#   1. timeout 480 bash scripts/gpu_check.sh build test   (~2 min, then ~4: the CUDA equality)
#   2. GOALS_SECONDS=0.3 PAPERS=asym timeout 540 bash scripts/gpu_check.sh goals papers
#      (~2.5 min, then the 32x16x16 alltoall); goals ends with a summary a network: the three
#      fastest GPU schedules, the target and the host's cores
#   3. with the time left: ncu, or PAPERS=fig6 papers (PAPERS_SET: the schedule call 2's
#      "32x32x32 Blue Gene/L alltoall" summary line names fastest)
# On a machine with a CUDA GPU, in stages (each under the device tool's 10 minutes a command on an
# H100; run them as separate calls while the machine is warm, build first):
#   build     CUDA build of everything (~50 s on 16 cores)
#   test      the tests that touch CUDA: every ctest test (CPU/GPU bit-equality of every
#             family under every schedule, the golden traces and invariant checks; ~20 s) and
#             the pytest tests that run on CUDA (the state fingerprints of every configuration
#             on CUDA against the CPU's golden file, the Simulator and sweeps on CUDA); the rest
#             of pytest runs on the CPU alone, as in CI (all of it: ~6.5 min on an H100's host,
#             2026-11-27; `ALL_PYTEST=1` runs it)
#   equality  every fingerprint configuration on CUDA and the CPU after 30,000 cycles (~4 min)
#   large     each of them again on ~1,024 routers, so the GPU's grid has many blocks, after
#             10,000 cycles (~5 min)
#   bench     `lockstep bench` on CUDA and on one CPU core of the same machine, lockstep_bench
#             and benchmarks/scaling.py (~5 min)
#   schedules every fingerprint configuration on CUDA under run.schedule = block and grid,
#             launch and block with run.lanes = tile, block with run.block_view = parameter,
#             and with run.roles (the vc and T3E ones) launch on tiles and block on one lane,
#             against the golden file (the CPU's state; ~4 min without roles and the parameter
#             view)
#   goals     benchmarks/gpu_goals.py: issue 40's goals, every family alone, alone with no
#             traffic (idle: the floor of a schedule's cycle) and in batches of
#             256, 1,024 8x8 meshes, the 64x64x64 torus and Blue Gene/L's 32x32x32 alltoall
#             (timed past its backlog's 32,767 cycles; no host row), under every run.schedule
#             (launch and block also with run.lanes = tile, block also with run.block_view =
#             parameter, launch on tiles and block on one lane with run.roles where the family
#             has them; auto with both keys auto, as it resolved) and on the host's cores, into
#             $LOG_DIR/gpu_goals.csv (~5.5 min; 107 s with GOALS_SECONDS=0.3 on an H200 before
#             the idle and roles rows, 2026-11-28; they add ~60 rows, ~30 s; the alltoall's
#             warm-up ~2 s a schedule at ~50 us a cycle)
#   ncu       the same table's single networks again, with Nsight Compute's active lanes per
#             warp, DRAM and L2 bytes per router-cycle and bandwidth, warp instructions a cycle
#             and clocks per warp instruction (the cycle's two factors), launch and block with and
#             without tiles, launch with roles, and the warp state section's stall reasons in
#             ncu_*.csv (~4 min before roles and stall reasons; 170 s reached the S-Connect rows
#             with grid too, 2026-11-27)
#   sweep     `make sweep`'s 20 points on the CPU's cores and on CUDA (launch, block), Python's
#             start included, into $LOG_DIR/gpu_sweep.csv (~2 min)
#   ptxas     registers, stack and spills of every family's cycle kernels (scripts/
#             ptxas_report.py; needs no GPU)
#   papers    Blue Gene/L at the paper's sizes for the fidelity ledger, on CUDA, one run at a
#             time, into $LOG_DIR/papers: scripts/paper_sizes.py (fig6: Figure 6's alltoall on
#             32x32x32, its first 250,000 then 2,000,000 cycles; asym: the 32x16x16 alltoall's
#             first 1,000,000 cycles, then to completion; each window's row written as it ends)
#             and scripts/bgl_escape_waves.py (waves: Figures 7-9, 16x16x16, random
#             arbitration, the dimension-ordered pair and the bubble, 100 intervals of 10,000
#             cycles, with the VCs stuck for 5 intervals at the end in stuck_*.csv). PAPERS
#             picks among asym, fig6 and waves (default: all three); PAPERS_SET, KEY=VALUE
#             items, runs the alltoalls another way (PAPERS_SET="run.lanes=tile
#             run.schedule=launch": the schedule the goals' "32x32x32 Blue Gene/L alltoall"
#             row found fastest, whose summary line says how long the run to completion
#             would take). Not yet
#             timed alone: on an H200 sharing the GPU with four other runs, the waves took 35 us
#             a cycle and neither alltoall ended in 6 min (2026-11-28); give each its own call
# No stage named: build, test, equality, large, bench, in that order. Logs go to $LOG_DIR
# (default: build-gpu/logs); the last lines printed are the summaries.
# Dependencies come from the machine (cmake, nvcc, python3 with numpy/pandas/matplotlib/pytest/
# pybind11) or, where it has no package registry, from .gpu-deps/ (scripts/gpu_deps.sh).
#   bash scripts/gpu_check.sh [build] [test] [equality] [large] [bench] [schedules] [goals] [ncu]
#                             [sweep] [ptxas] [papers]
set -uo pipefail
cd "$(dirname "$0")/.."
stages=("$@")
[ ${#stages[@]} -gt 0 ] || stages=(build test equality large bench)
for st in "${stages[@]}"; do
  case $st in build|test|equality|large|bench|schedules|goals|ncu|sweep|ptxas|papers) ;;
    *) echo "gpu_check: stage '$st': allowed build, test, equality, large, bench, schedules, goals," \
            "ncu, sweep, ptxas, papers"; exit 2 ;;
  esac
done
build=build-gpu
logs=${LOG_DIR:-$build/logs}
deps=$PWD/.gpu-deps
mkdir -p "$logs"
# The system compiler, not a $CXX that links libstdc++ statically (the CUDA image's /opt/gcc
# does): a module carrying its own libstdc++ crashes in iostreams once pandas has loaded another.
if [ -x /usr/bin/g++ ]; then export CC=/usr/bin/gcc CXX=/usr/bin/g++ CUDAHOSTCXX=/usr/bin/g++; fi
# The first Python with the test dependencies: $PYTHON, python3, the system's.
py=
for c in ${PYTHON:-} python3 /usr/bin/python3; do
  if "$c" -c 'import numpy, pandas, matplotlib, pytest' 2>/dev/null; then py=$(command -v "$c"); break; fi
done
[ -n "$py" ] || { echo "no Python with numpy, pandas, matplotlib and pytest"; exit 1; }
export PYTHONPATH=$PWD/bindings${PYTHONPATH:+:$PYTHONPATH}
[ -d "$deps/py" ] && export PYTHONPATH=$PYTHONPATH:$deps/py

machine() {
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv
  nvcc --version | tail -2
  g++ --version | head -1
  cmake --version | head -1
  "$py" --version
  nproc
}

stage_build() {
  machine 2>&1 | tee "$logs/machine.txt"
  local args=(-DCMAKE_BUILD_TYPE=Release -DLOCKSTEP_CUDA=ON -DPython_EXECUTABLE="$py") pb
  pb=$("$py" -m pybind11 --cmakedir 2>/dev/null) && args+=(-Dpybind11_DIR="$pb")
  if [ -d "$deps/usr" ]; then
    args+=(-DGTest_DIR="$deps/usr/lib/x86_64-linux-gnu/cmake/GTest")
  fi
  local start=$(date +%s)
  # Without Python headers or pybind11 the C++ tests still run: configure again without the module.
  cmake -S . -B "$build" "${args[@]}" > "$logs/configure.log" 2>&1 ||
    cmake -S . -B "$build" "${args[@]}" -DLOCKSTEP_PYTHON=OFF >> "$logs/configure.log" 2>&1
  cmake --build "$build" -j"$(nproc)" -- -k > "$logs/build.log" 2>&1  # -k: build what builds
  echo "build: rc=$? in $(( $(date +%s) - start )) s"
  grep -E "error|Error" "$logs/configure.log" "$logs/build.log" | head -20
  [ -x "$build/lockstep_tests" ]
}

stage_test() {
  local rc=0
  (cd "$build" && ctest -j8 --output-on-failure > "$logs/ctest.log" 2>&1) || rc=1
  local pyargs=()
  [ -n "${ALL_PYTEST:-}" ] || pyargs+=(-k cuda)
  # Tests of what a GPU machine's image may lack (Jupyter, Dask, ipywidgets, Selenium,
  # Hypothesis, a package index) are left out there, each named: CI runs them. Modules that
  # import what is missing are left out even under -k cuda, which collects every module.
  # The notebooks also need the "lockstep" Jupyter kernel that scripts/setup.sh installs.
  has "import nbclient, nbformat, ipykernel; from jupyter_client.kernelspec import \
find_kernel_specs as k; assert 'lockstep' in k()" "the notebooks and Jupyter" ||
    pyargs+=(--ignore=tests/python/test_notebooks.py --ignore=tests/python/test_jupyter.py)
  has "import distributed" "the Dask cluster sweeps" ||
    pyargs+=(--ignore=tests/python/test_cluster.py)
  if [ -n "${ALL_PYTEST:-}" ]; then
    has "import ipywidgets" "the viz player and the guide's examples" ||
      pyargs+=(--deselect=tests/python/test_viz.py::test_player_steps_the_simulator_as_far_as_the_user_goes
               --deselect=tests/python/test_readme.py::test_guide_python_examples_run)
    has "import selenium" "the browser tests" ||
      pyargs+=(--deselect=tests/python/test_viz.py::test_exported_html_plays_offline_in_a_browser)
    has "import hypothesis" "the configuration fuzzing" ||
      pyargs+=(--ignore=tests/python/test_config_fuzz.py)
    # The wheel's test installs its dependencies from the package index, which a lent GPU
    # machine cannot reach.
    echo "the wheel's installation left to CI: it needs a package index"
    pyargs+=(--deselect=tests/python/test_packaging.py::test_wheel_installs_into_a_new_environment_and_sweeps)
  fi
  has "import xdist" "" > /dev/null && pyargs+=(-n 8 -p no:benchmark)  # pytest-xdist: 8 workers
  ls bindings/lockstep/_core*.so > /dev/null 2>&1 || { echo "no Python module built"; rc=1; }
  "$py" -m pytest tests/python -v -rs "${pyargs[@]}" > "$logs/pytest.log" 2>&1 || rc=1
  grep -E "Failed|FAILED|\*\*\*|tests passed|tests failed" "$logs/ctest.log" | tail -30
  grep -E "CpuAndCuda|cuda" "$logs/ctest.log" | grep -Ev "Passed|Start" | head -5
  grep -E "FAILED|ERROR|SKIPPED|cuda|passed|failed" "$logs/pytest.log" | tail -30
  return $rc
}
# has STATEMENT WHAT: whether this Python runs STATEMENT (imports); if not, WHAT is left to CI.
has() { "$py" -c "$1" 2>/dev/null || { echo "$2 left to CI: here '$1' fails"; return 1; }; }

# CPU/GPU comparisons of every fingerprint configuration; where one differs, the first cycle and
# the arrays that differ (scripts/first_divergence.py, on the first such configuration).
compare() {  # compare LOG CYCLES [state_fingerprints.py options]
  local log=$1 cycles=$2
  shift 2
  "$py" scripts/state_fingerprints.py --backend cuda --against cpu --cycles "$cycles" "$@" \
    > "$logs/$log" 2>&1
  local rc=$? first
  grep differs "$logs/$log"; tail -1 "$logs/$log"
  first=$(grep -m1 '^differs: ' "$logs/$log" | sed 's/^differs: //')
  if [ -n "$first" ]; then
    timeout 300 "$py" scripts/first_divergence.py "fingerprints:$first" --b cuda \
      --cycles "$cycles" --every 500 | head -40
  fi
  return $rc
}
stage_equality() { compare equality.log 30000; }
stage_large() { compare large.log 10000 --only-large; }

stage_bench() {
  local rc=0
  "$py" -m lockstep bench --backend cuda > "$logs/bench_cuda.log" 2>&1 || rc=1
  "$py" -m lockstep bench --backend cpu --threads 1 > "$logs/bench_cpu.log" 2>&1 || rc=1
  "$build/lockstep_bench" 5000 3 > "$logs/bench.log" 2>&1 || rc=1
  "$py" benchmarks/scaling.py --backend cuda > "$logs/scaling.log" 2>&1 || rc=1
  cat "$logs/bench_cuda.log" "$logs/bench_cpu.log" "$logs/bench.log" "$logs/scaling.log"
  return $rc
}

stage_schedules() {
  local rc=0 s
  for s in block grid; do
    "$py" scripts/state_fingerprints.py --backend cuda --schedule "$s" > "$logs/schedule_$s.log" 2>&1 ||
      rc=1
    echo "fingerprints on CUDA, run.schedule = $s: rc=$rc"; grep changed "$logs/schedule_$s.log" | head
  done
  local kind lanes view roles
  for s in "launch tile shared -" "block tile shared -" "launch tile shared --roles" \
    "block one parameter -" "block one parameter --roles"; do
    read -r kind lanes view roles <<< "$s"
    [ "$roles" = - ] && roles=
    "$py" scripts/state_fingerprints.py --backend cuda --schedule "$kind" --lanes "$lanes" \
      --block-view "$view" $roles > "$logs/schedule_${kind}_${lanes}_$view$roles.log" 2>&1 || rc=1
    echo "fingerprints on CUDA, run.schedule = $kind, run.lanes = $lanes," \
      "run.block_view = $view $roles: rc=$rc"
    grep changed "$logs/schedule_${kind}_${lanes}_$view$roles.log" | head
  done
  return $rc
}

# The goals' table (benchmarks/gpu_goals.py); ncu adds the profiler's figures to its rows.
# GOALS_SECONDS: stepping per row (default 1; 0.3 measured all 97 rows in 67 s on an H100).
stage_goals() {
  "$py" benchmarks/gpu_goals.py --out "$logs" --seconds "${GOALS_SECONDS:-1.0}" 2>&1 |
    tee "$logs/goals.log" | tail -60
}
stage_ncu() {
  command -v ncu > /dev/null || { echo "no ncu on this machine"; return 1; }
  "$py" benchmarks/gpu_goals.py --out "$logs/ncu" --goal small --ncu 2>&1 | tee "$logs/ncu.log" |
    tail -60
}
stage_sweep() { "$py" benchmarks/gpu_goals.py --out "$logs" --sweep 2>&1 | tee "$logs/sweep.log"; }
stage_ptxas() { "$py" scripts/ptxas_report.py 2>&1 | tee "$logs/ptxas.md"; }
# shellcheck disable=SC2206  # PAPERS is a list of runs
stage_papers() {
  local runs=(${PAPERS:-asym fig6 waves}) sizes=() r rc=0
  for r in "${runs[@]}"; do
    case $r in asym|fig6) sizes+=("$r") ;; waves) ;;
      *) echo "gpu_check: PAPERS run '$r': allowed asym, fig6, waves"; return 2 ;;
    esac
  done
  mkdir -p "$logs/papers"
  local sets=() kv
  for kv in ${PAPERS_SET:-}; do sets+=(--set "$kv"); done
  if [ ${#sizes[@]} -gt 0 ]; then
    "$py" scripts/paper_sizes.py "${sizes[@]}" --backend cuda --out "$logs/papers" "${sets[@]}" \
      2>&1 | tee -a "$logs/papers.log" || rc=1
  fi
  [[ " ${runs[*]} " == *" waves "* ]] || return $rc
  for escape in dateline_pair bubble; do
    "$py" scripts/bgl_escape_waves.py --escape "$escape" --random --intervals 100 \
      --backend cuda --stuck-out "$logs/papers/stuck_$escape.csv" \
      --out "$logs/papers/waves_$escape.csv" 2>&1 | tail -3 |
      tee -a "$logs/papers.log" || rc=1
  done
  return $rc
}

rc=0
for st in "${stages[@]}"; do
  start=$(date +%s)
  "stage_$st"
  r=$?
  [ $r -eq 0 ] || rc=1
  echo "gpu_check $st: rc=$r after $(( $(date +%s) - start )) s"
done
exit $rc
