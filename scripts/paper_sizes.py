"""Blue Gene/L studies at the paper's sizes, for a machine with a GPU (issue 41's claims that this
project's 2-core CPU cannot run in minutes; `bash scripts/gpu_check.sh papers`).

Two runs, each printing one line of figures and writing a CSV file to --out:
  fig6   the alltoall on 32x32x32 (Figure 6: "approximately 98%" link and 87% payload
         utilisation), one 256-byte packet a pair. Run to completion it takes about 3.5e7
         cycles (1.2e12 router-cycles, about 20 minutes at 1e9 a second, more than a device
         session has), so it runs the first 2,000,000 cycles and reports the links'
         utilisation over them.
  asym   the alltoall on 32x16x16 to completion (49% link, 44% payload, 74% of peak;
         about 6e6 cycles, 5e10 router-cycles).
Figures 7-9 at their size are scripts/bgl_escape_waves.py's (gpu_check.sh's papers stage runs
both). --small runs each on a small torus (the tests run it on the CPU).

    python scripts/paper_sizes.py --backend cuda --out build-gpu/logs/papers
"""

import argparse
import time
from pathlib import Path

import numpy as np
import pandas as pd

from lockstep import bgl


def fig6(small: bool, backend: str, out: Path) -> str:
    # The engine measures a finite workload from cycle 0 (run.drain its cycles), so the links'
    # utilisation is over the first `cycles` of the alltoall: the paper's average over the whole
    # run also holds its last pairs' tail, a few per cent of it on 32x32x32.
    radix = [4, 4, 4] if small else [32, 32, 32]
    cycles = 4000 if small else 2_000_000
    pairs = int(np.prod(radix)) * (int(np.prod(radix)) - 1)
    r = bgl.alltoall(radix, **{"run.drain": cycles, "run.backend": backend})
    row = {"cycles": r.cycles, "link": r.link_util_mean, "payload": r.payload_util_mean,
           "delivered": r.packets / pairs, "wall_s": r.wall_s}
    pd.DataFrame([row]).to_csv(out / "fig6_alltoall.csv", index=False)
    return (f"fig6 {'x'.join(map(str, radix))} alltoall on {r.backend}: the first {r.cycles:,} "
            f"cycles, link {row['link']:.4f}, payload {row['payload']:.4f}, "
            f"{row['delivered']:.1%} of the packets delivered")


def asym(small: bool, backend: str, out: Path) -> str:
    radix = [8, 4, 4] if small else [32, 16, 16]
    r = bgl.alltoall(radix, **{"run.backend": backend})
    row = {"cycles": r.completion_cycles, "link": r.link_util_mean,
           "payload": r.payload_util_mean, "peak_percent": r.peak_percent}
    pd.DataFrame([row]).to_csv(out / "asym_alltoall.csv", index=False)
    return (f"asym {'x'.join(map(str, radix))} alltoall on {r.backend}: {row['cycles']:,.0f} "
            f"cycles, link {row['link']:.4f}, payload {row['payload']:.4f}, "
            f"{row['peak_percent']:.1f}% of peak")


RUNS = {"fig6": fig6, "asym": asym}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("runs", nargs="*", help=f"which of {', '.join(RUNS)} (default: all)")
    ap.add_argument("--backend", default="auto", help="run.backend (cuda on a GPU machine)")
    ap.add_argument("--small", action="store_true", help="small tori, a few thousand cycles")
    ap.add_argument("--out", default="paper_sizes", help="folder for the CSV files")
    args = ap.parse_args()
    unknown = [r for r in args.runs if r not in RUNS]
    if unknown:
        ap.error(f"runs {unknown}: allowed {', '.join(RUNS)}")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for name in args.runs or list(RUNS):
        start = time.time()
        print(f"{RUNS[name](args.small, args.backend, out)} ({time.time() - start:.0f} s)",
              flush=True)


if __name__ == "__main__":
    main()
