"""Points per second of a 200-point sweep run locally and on a local Dask cluster.

The sweep: the default network (8x8 torus, 2 VCs, uniform) at 20 loads from 0.02 to 0.40 x
10 seeds, with shortened windows. Run three ways: locally on one thread, locally on every
core (the batches' instances spread over threads), and as batches on a LocalCluster of
--workers processes of one thread each (lockstep.cluster.local_cluster, all on 127.0.0.1).
Checks that the cluster's table equals the local one, and asserts nothing about speed.

    PYTHONPATH=bindings python benchmarks/cluster_sweep.py [--workers 2] [--quick]
"""
import argparse
import time
from pathlib import Path

import numpy as np
import pandas as pd
from distributed import Client

import lockstep as ls
from lockstep.sweep import batches, plan

ROOT = Path(__file__).resolve().parents[1]


def timed(what: str, points: int, run) -> pd.DataFrame:
    start = time.perf_counter()
    df = run()
    wall = time.perf_counter() - start
    print(f"{what:<34} {points:>6} {wall:>8.2f} {points / wall:>10.2f}", flush=True)
    return df


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    ap.add_argument("--quick", action="store_true", help="4x shorter windows")
    args = ap.parse_args()
    scale = 4 if args.quick else 1
    cfg = ls.load_config(ROOT / "configs" / "default.toml").with_(
        warmup=2000 // scale, measure=4000 // scale, drain=4000 // scale, debug=False)
    loads = np.round(np.arange(0.02, 0.401, 0.02), 3)
    sweep = dict(offered=loads, seeds=10)
    points = len(loads) * 10
    print(f"{'run':<34} {'points':>6} {'wall s':>8} {'points/s':>10}")
    timed("local, 1 thread", points, lambda: ls.sweep(cfg.with_(threads=1), **sweep))
    local = timed("local, all cores", points, lambda: ls.sweep(cfg.with_(threads=0), **sweep))
    start = time.perf_counter()
    with ls.cluster.local_cluster(workers=args.workers) as cluster, Client(cluster) as client:
        started = time.perf_counter() - start
        remote = timed(f"LocalCluster, {args.workers} workers x 1 thread", points,
                       lambda: ls.sweep(cfg, client=client, **sweep))
        count = len(batches(plan(cfg, **sweep), 64, ls.cluster.min_batches(client)))
    print(f"(cluster start {started:.2f} s, not counted; {count} batches on the cluster)")
    what = [c for c in local.columns if c not in ("wall_s", "backend")]
    print("cluster table equals local table:", local[what].equals(remote[what]))


if __name__ == "__main__":
    main()
