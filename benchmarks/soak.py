"""Invariant soaks (issue 43, part 3): every family runs a spread of configurations below, at and
far beyond saturation with the debug invariants checked every cycle (flits and credits conserved,
no overflow, every packet delivered whole and once), until it has done its share of router-cycles
(default 10^9 a family). A broken invariant fails the soak; a deadlock fails it where the family
promises none (tests/python/random_networks.py, deadlock_free) and is counted otherwise.

    PYTHONPATH=bindings .venv/bin/python benchmarks/soak.py [--router-cycles 1e9]
        [--family t3e ...] [--threads 0] [--out results/soak]

`make soak` runs it all (about an hour of one core: 0.5-4 M router-cycles/s with the checks
on); `--router-cycles 1e7` is a quick look. Prints a row per configuration and writes
OUT/soak.csv, a row per finished configuration (a rerun starts again).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import pandas as pd

import lockstep as ls

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "python"))
from random_networks import deadlock_free  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
CHUNK = 5000  # cycles between watchdog checks and progress
SEEDS = 4  # instances of each configuration, one batch


def _shipped(name: str, **keys) -> ls.Config:
    return ls.load_config(REPO / "configs" / f"{name}.toml").with_(**keys)


def spread() -> dict[str, list[tuple[str, ls.Config]]]:
    """Each family's configurations: (label, config), loads from light to far past saturation."""
    vc = _shipped("default")
    t3e = _shipped("t3e_64")
    bgl = _shipped("bgl_8x8x8", radix=[4, 4, 4])
    metro = _shipped("metro_figure1")
    sc = _shipped("sconnect_random256", nodes=64)
    return {
        "vc": [(f"8x8 torus dor {o}", vc.with_(offered=o)) for o in (0.1, 0.4, 1.0)] + [
            ("8x8 mesh adaptive vct 0.8", vc.with_(kind="mesh", routing="min_adaptive",
                                                   flow_control="vct", packet_size=4,
                                                   offered=0.8)),
            ("4x4x4 torus tornado 0.6", vc.with_(radix=[4, 4, 4], pattern="tornado",
                                                 offered=0.6, vcs=4))],
        "t3e": [(f"4x4x4 adaptive {o}", t3e.with_(offered=o)) for o in (0.2, 0.5, 1.0)] + [
            ("4x4x4 deterministic 0.8", t3e.with_(adaptive=False, offered=0.8)),
            ("4x4x4 mix 0.6", t3e.with_(packet_mix=[1, 1, 1, 1], offered=0.6))],
        "bgl": [(f"4x4x4 {o}", bgl.with_(offered=o)) for o in (0.2, 0.6, 1.0)] + [
            ("4x4x4 dateline pair 0.9", bgl.with_(escape_vcs="dateline_pair", offered=0.9)),
            ("4x4x4 hot region 0.8", bgl.with_(pattern="hotregion", hot_region=[0, 0, 0, 2, 2, 2],
                                               offered=0.8))],
        "metro": [(f"figure 1 {o}", metro.with_(offered=o)) for o in (0.1, 0.3, 0.6)] + [
            ("figure 1 detailed 0.5", metro.with_(reclaim="detailed", offered=0.5)),
            ("fat tree 0.5", _shipped("metro_fat_tree", offered=0.5))],
        "sconnect": [(f"random 64 {o}", sc.with_(offered=o)) for o in (0.1, 0.3, 1.0)] + [
            ("random 64 near-optimal 0.5", sc.with_(assignment="near_optimal", offered=0.5)),
            ("cluster of 4 0.9", _shipped("sconnect_cluster4", offered=0.9))],
    }


def soak(label: str, cfg: ls.Config, router_cycles: float, threads: int) -> dict:
    """Runs SEEDS instances of `cfg` under the debug checks for about `router_cycles`."""
    batch = [cfg.with_(seed=s, debug=True, threads=threads, backend="cpu", watchdog=20000)
             for s in range(1, SEEDS + 1)]
    sim = ls.Simulator(batch)
    routers = sim.instances * ls._core.network_size(cfg.to_dict())["routers"]
    cycles = max(CHUNK, math.ceil(router_cycles / routers / CHUNK) * CHUNK)
    start, deadlock = time.perf_counter(), ""
    while sim.cycle < cycles and not deadlock:
        try:
            sim.step(CHUNK)
        except ls.SimulationError as e:
            if not str(e).startswith("deadlock") or deadlock_free(cfg):
                raise
            deadlock = str(e).splitlines()[0]
    wall = time.perf_counter() - start
    return {"config": label, "routers": routers, "cycles": sim.cycle,
            "router_cycles": routers * sim.cycle, "wall_s": round(wall, 1),
            "router_cycles_per_s": round(routers * sim.cycle / wall), "violations": 0,
            "deadlock": deadlock}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--router-cycles", type=float, default=1e9, help="per family")
    p.add_argument("--family", action="append", choices=sorted(spread()), help="repeatable")
    p.add_argument("--threads", type=int, default=0, help="CPU threads (0: all cores)")
    p.add_argument("--out", type=Path, default=REPO / "results" / "soak")
    args = p.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    rows = []
    for family, configs in spread().items():
        if args.family and family not in args.family:
            continue
        for label, cfg in configs:
            try:
                row = soak(label, cfg, args.router_cycles / len(configs), args.threads)
            except ls.SimulationError as e:
                print(f"{family} {label}: {e}", file=sys.stderr)
                return 1
            rows.append({"family": family, **row})
            print(f"{family:9} {label:28} {row['cycles']:>11,} cycles "
                  f"{row['router_cycles']:>15,.0f} router-cycles {row['wall_s']:>8} s "
                  f"{row['router_cycles_per_s']:>11,} /s {row['deadlock'][:40]}", flush=True)
            pd.DataFrame(rows).to_csv(args.out / "soak.csv", index=False)
    df = pd.DataFrame(rows)
    print(df.groupby("family")[["router_cycles", "wall_s"]].sum().to_string())
    return 0


if __name__ == "__main__":
    sys.exit(main())
