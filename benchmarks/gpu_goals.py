"""The GPU goals of docs/performance.md ("Many cycles per launch"), measured side by side: every
family's reference network (the `lockstep bench` rows) alone, alone with no traffic (`idle`: what
a schedule's cycle costs when no router has work, the floor under the 2 us goal) and in batches
of 256, 1,024 8x8 meshes and the 64x64x64 torus, each on CUDA under every run.schedule and on
the host's CPU cores, written as one CSV table (gpu_goals.csv). Prints figures; asserts nothing.

    PYTHONPATH=bindings python benchmarks/gpu_goals.py --out DIR [--goal small batch ...]
        [--seconds 1.0] [--cpu-only]
    PYTHONPATH=bindings python benchmarks/gpu_goals.py --out DIR --ncu   # Nsight Compute figures
    PYTHONPATH=bindings python benchmarks/gpu_goals.py --out DIR --sweep # make sweep's 20 points

A row's time (wall_s) is `Simulator.step` over as many cycles as take about --seconds, after a
warm-up that fills the network (its first launch included, so the view's upload and the
kernel's first loads are not timed). --ncu runs each family's single network once more under
`ncu`, one kernel launch of each schedule, and adds the active lanes per warp, the DRAM and L2
bytes per router-cycle and the achieved DRAM bandwidth to the table's rows (ncu_*.csv keep the
raw figures, and the warp state section's stall reasons: what a warp waits on per instruction
issued). Rows of backends this machine lacks are left out, and say so. The output ends with a
summary, a line a network: its three fastest GPU schedules, the best one's rate against its
target, and the host's rows (a device call returns only the end of its output).
"""
import argparse
import csv
import math
import os
import pathlib
import re
import subprocess
import sys
import time

import lockstep as ls
from lockstep import _core, bgl
from lockstep.cli import BENCH_NETWORKS

ROOT = pathlib.Path(__file__).resolve().parent.parent
FIELDS = ["goal", "family", "network", "routers_per_instance", "instances", "backend", "schedule",
          "cycles_per_launch", "block_threads", "lanes", "block_view", "threads", "cycles",
          "wall_s", "router_cycles_per_s", "us_per_cycle", "target_router_cycles_per_s",
          "meets_target", "bytes_per_router_cycle", "l2_bytes_per_router_cycle", "lanes_per_warp",
          "dram_gb_per_s", "warp_inst_per_cycle", "clocks_per_warp_inst",
          "completion_bound_cycles"]
# The GPU schedules a row is measured under: (run.schedule, cycles_per_launch, block_threads,
# run.lanes, run.block_view). "tile": an element's cycle over 16 lanes (every family's lane
# form); ", roles" (run.roles): the tile, or the one lane, without the one-lane stages, which run
# on warps of their own (the families with a role form; the others refuse it and their rows are
# left out, saying why);
# "parameter": the block schedule's view in the kernel's parameter instead of shared memory;
# "auto" and "auto": what a user gets (host/backend/schedule.hpp, cuda_plan).
GPU_SCHEDULES = [("auto", 0, 0, "auto", "shared"), ("launch", 0, 0, "one", "shared"),
                 ("block", 0, 0, "one", "shared"), ("block", 0, 0, "one", "parameter"),
                 ("grid", 0, 32, "one", "shared"), ("grid", 0, 128, "one", "shared"),
                 ("launch", 0, 0, "tile", "shared"), ("block", 0, 0, "tile", "shared"),
                 ("block", 0, 0, "tile", "parameter"), ("launch", 0, 0, "tile, roles", "shared"),
                 ("block", 0, 0, "one, roles", "parameter")]
CPU_SCHEDULE = ("auto", 0, 0, "one", "shared")
# Nsight Compute's metrics (--ncu): lanes active per instruction, bytes from DRAM and L2.
NCU_METRICS = ["smsp__thread_inst_executed_per_inst_executed.ratio", "dram__bytes.sum",
               "lts__t_bytes.sum", "gpu__time_duration.sum", "l1tex__t_sector_hit_rate.pct",
               "lts__t_sector_hit_rate.pct"]
# And what a single network's cycle is made of (the issue interval): the warp instructions an
# average warp executes a simulated cycle, and the SM clocks a cycle takes over them, so that
# us a cycle = instructions x clocks an instruction / clock rate, and the 2 us goal asks at most
# 2 us x clock rate of their product. Asked for apart, so that a name the device's ncu lacks
# costs these two columns, not the others.
NCU_ISSUE = ["smsp__inst_executed.sum", "smsp__warps_launched.sum", "sm__cycles_elapsed.max"]
KERNELS = "regex:(for_each|for_each_tile|for_each_roles|block_cycles|grid_cycles)_kernel"


def family_of(keys: dict) -> str:
    return keys.get("router.family", "vc")


def reference_rows() -> list[tuple[str, dict]]:
    """Each family's single reference networks from `lockstep bench` (not its batch or its
    32x32x32 torus, which are goals of their own)."""
    return [(name, keys) for name, keys, n in BENCH_NETWORKS
            if n == 1 and "32x32x32" not in name]


def cases(goals: list[str]) -> list[dict]:
    """(goal, network, keys, instances, target router-cycles/s on the GPU or None)."""
    out = []
    mesh = dict(BENCH_NETWORKS[0][1])
    if "small" in goals:  # at most 2 us per cycle: routers / 2e-6 router-cycles/s
        for name, keys in reference_rows():
            out.append(dict(goal="small", network=name, keys=keys, instances=1, target=None))
    if "idle" in goals:  # the same networks with no traffic: what a schedule's cycle costs when
        # no router has anything to do, a floor under the small goal's cycle
        for name, keys in reference_rows():
            out.append(dict(goal="idle", network=f"{name}, idle", keys=dict(keys, offered=0.0),
                            instances=1, target=None))
    if "batch" in goals:
        out.append(dict(goal="batch", network="1,024 x 8x8 mesh", keys=mesh, instances=1024,
                        target=5e9))
        for name, keys in reference_rows():  # 10x the host's cores: filled in from its row
            out.append(dict(goal="batch256", network=f"256 x {name}", keys=keys, instances=256,
                            target=None))
    if "large" in goals:
        keys = dict(mesh, kind="torus", radix=[64, 64, 64], offered=0.015625, link_delay=2)
        out.append(dict(goal="large", network="64x64x64 torus", keys=keys, instances=1,
                        target=3e9))
        # Blue Gene/L's Figure 6, to be run to completion (about 3.5e7 cycles): which schedule
        # runs it fastest, timed past the backlog's making (one packet a cycle for 32,767 cycles,
        # every router awake), with no host row (its warm-up alone would take the host minutes).
        fig6 = bgl.midplane([32, 32, 32], **{"traffic.pattern": "alltoall", "run.drain": 10**8})
        out.append(dict(goal="large", network="32x32x32 Blue Gene/L alltoall", keys=flat(fig6),
                        instances=1, target=None, warm=40_000, host=False,
                        completion=_core.completion_peak_cycles(fig6.to_dict())))
    return out


def flat(cfg: ls.Config) -> dict:
    """A configuration's keys that differ from the defaults, as "section.key": value."""
    def keys(c: ls.Config) -> dict:
        return {f"{s}.{k}": v for s, d in c.to_dict().items() for k, v in d.items()}
    default = keys(ls.Config())
    return {k: v for k, v in keys(cfg).items() if default.get(k) != v}


def simulator(keys: dict, instances: int, backend: str, schedule=CPU_SCHEDULE,
              threads: int = 0) -> ls.Simulator:
    kind, per_launch, block, lanes, view = schedule
    lanes, _, roles = lanes.partition(", ")  # "tile, roles": run.lanes and run.roles
    cfg = ls.Config().with_(**keys).with_(**{
        "run.schedule": kind, "run.cycles_per_launch": per_launch, "run.block_threads": block,
        "run.lanes": lanes, "run.roles": roles == "roles", "run.block_view": view,
        "run.threads": threads, "run.debug": False})
    seed = cfg.get("run.seed")
    return ls.Simulator([cfg.with_(seed=seed + i) for i in range(instances)], backend=backend)


def routers(keys: dict) -> int:
    return _core.network_size(ls.Config().with_(**keys).to_dict())["routers"]


def timed(sim: ls.Simulator, seconds: float, warm: int = 200) -> tuple[int, float]:
    """(cycles, wall seconds) of a step long enough to take about `seconds`, after `warm`
    cycles (traffic in flight, the first launch paid)."""
    sim.step(warm)
    t0 = time.perf_counter()
    sim.step(50)
    probe = max(time.perf_counter() - t0, 1e-6)
    cycles = max(100, min(200_000, int(50 * seconds / probe)))
    t0 = time.perf_counter()
    sim.step(cycles)
    return cycles, time.perf_counter() - t0


def measure(case: dict, backend: str, schedule, threads: int, seconds: float) -> dict:
    r = routers(case["keys"])
    sim = simulator(case["keys"], case["instances"], backend, schedule, threads)
    cycles, wall = timed(sim, seconds, case.get("warm", 200))
    rate = r * case["instances"] * cycles / wall
    return {"goal": case["goal"], "family": family_of(case["keys"]), "network": case["network"],
            "routers_per_instance": r, "instances": case["instances"], "backend": sim.backend,
            # CUDA's auto as it resolved ("auto: launch, tile")
            "schedule": f"auto: {sim.schedule}" if backend == "cuda" and schedule[0] == "auto"
            else schedule[0], "cycles_per_launch": schedule[1],
            "block_threads": schedule[2], "lanes": schedule[3],
            "block_view": schedule[4] if schedule[0] == "block" else "",
            "threads": threads if backend == "cpu" else "",
            "cycles": cycles, "wall_s": f"{wall:.3f}", "router_cycles_per_s": f"{rate:.4g}",
            "us_per_cycle": f"{1e6 * wall / cycles:.3f}",
            "completion_bound_cycles": case.get("completion", "")}


def set_targets(rows: list[dict]) -> None:
    """Each GPU row's target: small networks 2 us per cycle; batches of 256, ten times the
    host's cores on the same batch; others as the case says."""
    cpu_all = {r["network"]: float(r["router_cycles_per_s"]) for r in rows
               if r["backend"] == "cpu" and r["threads"] == 0}
    for r in rows:
        if r["backend"] != "cuda":
            continue
        if r["goal"] in ("small", "idle"):
            target = r["routers_per_instance"] / 2e-6
        elif r["goal"] == "batch256":
            target = 10 * cpu_all.get(r["network"], math.nan)
        else:
            target = r.get("target_router_cycles_per_s") or math.nan
        r["target_router_cycles_per_s"] = f"{target:.4g}"
        r["meets_target"] = "" if math.isnan(target) else float(r["router_cycles_per_s"]) >= target


def label(row: dict) -> str:
    """A GPU row's schedule as the summary names it: "block, one, parameter"."""
    return ", ".join(x for x in (str(row["schedule"]), str(row["lanes"]), row["block_view"],
                                 f"{row['block_threads']} threads" if row["block_threads"] else "")
                     if x)


def summary(rows: list[dict]) -> list[str]:
    """One line per network, for the end of a device call's output: the three fastest GPU
    schedules (us per cycle), the target and whether the fastest meets it, and the host's."""
    lines = []
    for network in dict.fromkeys(r["network"] for r in rows):
        mine = [r for r in rows if r["network"] == network]
        gpu = sorted((r for r in mine if r["backend"] == "cuda"),
                     key=lambda r: float(r["us_per_cycle"]))
        host = "; ".join(f"cpu {r['threads'] or 'all'} {float(r['us_per_cycle']):.1f} us"
                         for r in mine if r["backend"] == "cpu")
        if not gpu:
            lines.append(f"{network}: no GPU rows; {host}")
            continue
        best = gpu[0]
        met = {True: "met", False: "not met", "": "no target"}[best.get("meets_target", "")]
        top = "; ".join(f"{label(r)} {float(r['us_per_cycle']):.1f} us" for r in gpu[:3])
        whole = ""
        bound = best.get("completion_bound_cycles")
        if bound:  # a finite workload to completion at the best schedule's rate, at the least
            whole = (f", to completion (at least {float(bound):.2g} cycles) about "
                     f"{float(bound) * float(best['us_per_cycle']) / 6e7:.0f} min")
        lines.append(f"{network}: {top}; best {float(best['router_cycles_per_s']):.3g} "
                     f"router-cycles/s against {best['target_router_cycles_per_s']} ({met})"
                     f"{whole}; {host or 'no host rows'}")
    return lines


def write(rows: list[dict], path: pathlib.Path) -> None:
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, FIELDS)
        w.writeheader()
        for r in rows:
            w.writerow({k: r.get(k, "") for k in FIELDS})


def run_goals(args) -> list[dict]:
    rows = []
    have_cuda = "cuda" in ls.available_backends() and not args.cpu_only
    if not have_cuda:
        print("no CUDA device (or --cpu-only): CPU rows only", flush=True)
    for case in cases(args.goal):
        plans = []
        if have_cuda:
            plans += [("cuda", s, 0) for s in GPU_SCHEDULES]
        if case["goal"] in ("small", "idle"):
            plans.append(("cpu", CPU_SCHEDULE, 1))  # one core: the goals' "one CPU core"
        if case.get("host", True):
            plans.append(("cpu", CPU_SCHEDULE, 0))  # every core of the host
        for backend, schedule, threads in plans:
            if case["goal"] == "large" and backend == "cuda" and schedule[0] == "block":
                continue  # one block for 262,144 routers: not a candidate
            try:
                row = measure(case, backend, schedule, threads, args.seconds)
            except Exception as e:  # a schedule the device refuses: its reason, then the rest
                print(f"{case['network']} {backend} {schedule}: {e}", flush=True)
                continue
            row["target_router_cycles_per_s"] = case["target"]
            rows.append(row)
            print(",".join(str(row.get(k, "")) for k in FIELDS[:15]), flush=True)
    set_targets(rows)
    return rows


def ncu_profile(args) -> None:
    """One kernel launch of a case under a schedule (run by --ncu inside ncu)."""
    name, kind, block, lanes, view = args.profile.split("|")
    keys = dict(next(k for n, k in reference_rows() if n == name))
    sim = simulator(keys, 1, "cuda", (kind, 0, int(block), lanes, view))
    sim.step(2000)  # launch schedule: 2,000 launches to skip; block and grid: one
    sim.step(args.profile_cycles)


def ncu_metrics(options: list[str], profile: list[str], metrics: list[str],
                log: pathlib.Path) -> dict[str, float]:
    """The metrics ncu reports for the profiled command, its output kept in `log`. Where ncu
    refuses the list (a name its version lacks), it runs again without NCU_ISSUE's names."""
    m: dict[str, float] = {}
    for names in (metrics, [n for n in metrics if n not in NCU_ISSUE]):
        cmd = ["ncu", "--clock-control", "none", "--csv", *options, "--metrics", ",".join(names),
               *profile]
        p = subprocess.run(cmd, capture_output=True, text=True, env=dict(os.environ))
        log.write_text(p.stdout + p.stderr)
        for rec in csv.reader(x for x in p.stdout.splitlines() if x.startswith('"')):
            if len(rec) >= 3 and rec[-3] in names:
                m[rec[-3]] = float(rec[-1].replace(",", "")) if rec[-1] else math.nan
        if m:
            break
    return m


def ncu_rows(args, rows: list[dict]) -> None:
    """Runs each family's single network under ncu, one launch per schedule, and puts the
    figures into the matching rows of `rows`."""
    out = pathlib.Path(args.out)
    for name, keys in reference_rows():
        r = routers(keys)
        for kind, _, block, lanes, view in GPU_SCHEDULES:
            if kind in ("auto", "grid"):  # auto is one of the others; grid never measured faster
                continue
            shown = view if kind == "block" else ""
            if not any((row["network"], row["backend"], row["schedule"], row["lanes"],
                        row["block_view"]) == (name, "cuda", kind, lanes, shown) for row in rows):
                continue  # a schedule this family refuses (its reason printed with the rows)
            skip, per_launch = (2000, 1) if kind == "launch" else (1, args.profile_cycles)
            log = out / (f"ncu_{re.sub(r'[^A-Za-z0-9]+', '_', name)}_{kind}{block}_"
                         f"{re.sub(r'[^A-Za-z0-9]+', '_', lanes)}{'_' + shown if shown else ''}"
                         ".csv")
            profile = [sys.executable, __file__, "--profile",
                       f"{name}|{kind}|{block}|{lanes}|{view}",
                       "--profile-cycles", str(args.profile_cycles)]
            m = ncu_metrics(["--section", "WarpStateStats", "--kernel-name", KERNELS,
                             "--launch-skip", str(skip), "--launch-count", "1"], profile,
                            NCU_METRICS + NCU_ISSUE, log)
            if not all(k in m for k in NCU_METRICS):
                print(f"ncu {name} {kind}: figures missing, see {log}", flush=True)
                continue
            work = r * per_launch
            figures = {
                "lanes_per_warp": f"{m[NCU_METRICS[0]]:.1f}",
                "bytes_per_router_cycle": f"{m['dram__bytes.sum'] / work:.1f}",
                "l2_bytes_per_router_cycle": f"{m['lts__t_bytes.sum'] / work:.1f}",
                "dram_gb_per_s": f"{m['dram__bytes.sum'] / m['gpu__time_duration.sum']:.1f}",
            }
            if all(k in m for k in NCU_ISSUE) and m["smsp__warps_launched.sum"] > 0:
                inst = m["smsp__inst_executed.sum"] / m["smsp__warps_launched.sum"] / per_launch
                figures["warp_inst_per_cycle"] = f"{inst:.0f}"
                figures["clocks_per_warp_inst"] = (
                    f"{m['sm__cycles_elapsed.max'] / per_launch / inst:.2f}")
            print(f"ncu {name} {kind} block {block} lanes {lanes} {shown}: {figures}", flush=True)
            for row in rows:
                if (row["network"], row["backend"], row["schedule"], str(row["block_threads"]),
                        row["lanes"], row["block_view"]) == (name, "cuda", kind, str(block),
                                                              lanes, shown):
                    row.update(figures)


def sweep_rows(args) -> list[dict]:
    """`make sweep`'s 20 points, Python's start included, on each backend present."""
    rows = []
    backends = ["cpu"] + (["cuda"] if "cuda" in ls.available_backends() else [])
    for backend in backends:
        for schedule in (["auto"] if backend == "cpu" else ["launch", "block"]):
            out = pathlib.Path(args.out) / f"sweep_{backend}_{schedule}"
            cmd = [sys.executable, "-m", "lockstep", "sweep", str(ROOT / "configs/default.toml"),
                   "--offered", "0.02:0.40:0.02", "--out", str(out), "--backend", backend,
                   "--set", f'run.schedule="{schedule}"']
            t0 = time.perf_counter()
            p = subprocess.run(cmd, capture_output=True, text=True)
            wall = time.perf_counter() - t0
            if p.returncode != 0:
                print(f"sweep on {backend} ({schedule}) failed:\n{p.stderr[-2000:]}", flush=True)
                continue
            rows.append({"goal": "sweep", "family": "vc", "network": "make sweep (20 points)",
                         "backend": backend, "schedule": schedule,
                         "threads": 0 if backend == "cpu" else "", "routers_per_instance": 64,
                         "instances": 20, "wall_s": f"{wall:.1f}"})
            print(f"sweep {backend} {schedule}: {wall:.1f} s", flush=True)
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="build/gpu_goals", help="folder for gpu_goals.csv and logs")
    ap.add_argument("--goal", nargs="*", default=["small", "idle", "batch", "large"],
                    choices=["small", "idle", "batch", "large"])
    ap.add_argument("--seconds", type=float, default=1.0, help="time per row, about")
    ap.add_argument("--cpu-only", action="store_true", help="leave the GPU rows out")
    ap.add_argument("--ncu", action="store_true",
                    help="add Nsight Compute figures to the rows of the small networks")
    ap.add_argument("--sweep", action="store_true", help="time make sweep's points instead")
    ap.add_argument("--profile", help=argparse.SUPPRESS)
    ap.add_argument("--profile-cycles", type=int, default=256, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.profile:
        ncu_profile(args)
        return 0
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    table = out / ("gpu_sweep.csv" if args.sweep else "gpu_goals.csv")
    rows = sweep_rows(args) if args.sweep else run_goals(args)
    if args.ncu and not args.sweep:
        ncu_rows(args, rows)
    write(rows, table)
    print(f"wrote {table} ({len(rows)} rows)")
    if not args.sweep:  # last, so a device call's output ends with it
        print("\n".join(["summary: the three fastest GPU schedules a network, then the host's",
                          *summary(rows)]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
