"""Blue Gene/L studies at the paper's sizes, for a machine with a GPU (issue 41's claims that this
project's 2-core CPU cannot run in minutes; `bash scripts/gpu_check.sh papers`).

Two runs, each printing a line of figures per window and appending a row to a CSV file in --out
as soon as the window ends, so a run stopped at a device call's limit keeps its shorter windows:
  fig6   the alltoall on 32x32x32 (Figure 6: "approximately 98%" link and 87% payload
         utilisation), one 256-byte packet a pair. Run to completion it takes about 3.5e7
         cycles (1.2e12 router-cycles, about 20 minutes at 1e9 a second, more than a device
         session has), so it reports the links' utilisation over its first cycles: 250,000,
         then 2,000,000 (--cycles).
  asym   the alltoall on 32x16x16 (49% link, 44% payload, 74% of peak; about 6e6 cycles to
         completion, 5e10 router-cycles): its first 1,000,000 cycles, then to completion.
Each window is a run of its own from cycle 0 (the engine measures a finite workload from its
start), so the shorter ones cost their cycles again: an eighth more for fig6, a sixth for asym.
Figures 7-9 at their size are scripts/bgl_escape_waves.py's (gpu_check.sh's papers stage runs
both). --small runs each on a small torus (the tests run it on the CPU).

    python scripts/paper_sizes.py [fig6] [asym] --backend cuda --out build-gpu/logs/papers
        [--cycles N ...]   (0: to completion)   [--set run.lanes=\"tile\" ...]
"""

import argparse
import time
from pathlib import Path

import numpy as np
import pandas as pd

from lockstep import bgl
from lockstep.cli import UsageError, parse_sets

# Each run's torus (full, --small) and its windows: cycles from the start, 0 to completion.
SIZES = {"fig6": ([32, 32, 32], [4, 4, 4]), "asym": ([32, 16, 16], [8, 4, 4])}
WINDOWS = {"fig6": ([250_000, 2_000_000], [1000, 4000]), "asym": ([1_000_000, 0], [2000, 0])}
FILES = {"fig6": "fig6_alltoall.csv", "asym": "asym_alltoall.csv"}


def window(name: str, radix: list[int], cycles: int, backend: str, keys: dict) -> dict:
    """The alltoall on `radix` over its first `cycles` (0: to completion), with other keys (run.*:
    how it runs): the links' and the payload's utilisation over them, the share of packets
    delivered, and the share of peak when it completed."""
    keys = {**keys, "run.backend": backend, **({"run.drain": cycles} if cycles else {})}
    start = time.time()
    r = bgl.alltoall(radix, **keys)
    nodes = int(np.prod(radix))
    delivered = r.packets / (nodes * (nodes - 1))
    return {"run": name, "torus": "x".join(map(str, radix)), "window": cycles or "completion",
            "cycles": r.cycles, "link": r.link_util_mean, "payload": r.payload_util_mean,
            "delivered": delivered,  # the share of peak only for a completed alltoall
            "peak_percent": getattr(r, "peak_percent", float("nan")),
            "backend": r.backend, "wall_s": round(time.time() - start, 1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("runs", nargs="*", help=f"which of {', '.join(SIZES)} (default: all)")
    ap.add_argument("--backend", default="auto", help="run.backend (cuda on a GPU machine)")
    ap.add_argument("--small", action="store_true", help="small tori, a few thousand cycles")
    ap.add_argument("--cycles", type=int, nargs="*",
                    help="the windows, cycles from the start (0: to completion); default: "
                         "each run's own")
    ap.add_argument("--out", default="paper_sizes", help="folder for the CSV files")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                    help="a key of the runs' configuration, TOML value (e.g. run.lanes=\"tile\", "
                         "the schedule gpu_goals.py found fastest); repeatable")
    args = ap.parse_args()
    try:
        keys = parse_sets(args.set)
    except UsageError as e:
        ap.error(str(e))
    unknown = [r for r in args.runs if r not in SIZES]
    if unknown:
        ap.error(f"runs {unknown}: allowed {', '.join(SIZES)}")
    if args.cycles and any(c < 0 for c in args.cycles):
        ap.error(f"--cycles {args.cycles}: allowed 0 (to completion) or more cycles")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for name in args.runs or list(SIZES):
        radix = SIZES[name][args.small]
        path = out / FILES[name]
        path.unlink(missing_ok=True)
        for cycles in args.cycles or WINDOWS[name][args.small]:
            row = window(name, radix, cycles, args.backend, keys)
            pd.DataFrame([row]).to_csv(path, mode="a", header=not path.exists(), index=False)
            peak = "" if np.isnan(row["peak_percent"]) else f", {row['peak_percent']:.1f}% of peak"
            print(f"{name} {row['torus']} alltoall on {row['backend']}: "
                  f"{'to completion' if not cycles else f'the first {cycles:,} cycles'} "
                  f"({row['cycles']:,} cycles), link {row['link']:.4f}, payload "
                  f"{row['payload']:.4f}, {row['delivered']:.1%} of the packets delivered{peak} "
                  f"({row['wall_s']:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
