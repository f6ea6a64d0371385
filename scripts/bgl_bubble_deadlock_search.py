"""How often the original bubble rule's fragmentation deadlock forms, and that the paper's fix
never deadlocks (docs/design/bgl.md, "The fragmentation deadlock of the original bubble rule").

Rings of 4, 6 and 8 under tornado traffic, every packet on the bubble VC, 32-byte packets among
256-byte ones, senders favouring injection (bgl.in_network_fraction = 0): for each escape FIFO
size and small:large weight, seeds 1-20 run 200,000 cycles under each rule with the watchdog on.
Prints one row per (ring, escape_bytes, weight, rule): runs, deadlocks, the earliest cycle from
which nothing moved. About a minute on one core.

    .venv/bin/python scripts/bgl_bubble_deadlock_search.py [--seeds N] [--cycles C]
"""

import argparse
import re
from pathlib import Path

import pandas as pd

import lockstep as ls

CONFIG = Path(__file__).resolve().parent.parent / "configs" / "bgl_8x8x8.toml"


def stuck_since(cfg):
    """The cycle since which no packet moved, or None if the run finished."""
    try:
        ls.simulate(cfg)
    except ls.SimulationError as err:
        return int(re.search(r"since cycle (\d+)", str(err)).group(1))
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--cycles", type=int, default=200000)
    a = ap.parse_args()
    base = ls.load_config(CONFIG).with_(**{
        "traffic.pattern": "tornado", "traffic.offered": 2.0, "traffic.packet_sizes": [32, 256],
        "traffic.packet_size_weights": [1, 1],
        "bgl.deterministic": True, "bgl.in_network_fraction": 0.0, "run.warmup": 0,
        "run.measure": a.cycles, "run.drain": 0, "run.watchdog": 3000})
    rows = []
    for ring in (4, 6, 8):
        for escape in (512, 768, 1024):
            for weight in (1, 2, 8):
                for rule in ("original", "fixed"):
                    stuck = [stuck_since(base.with_(**{
                        "topology.radix": [ring], "bgl.escape_bytes": escape,
                        "traffic.packet_size_weights": [weight, 1], "bgl.bubble_rule": rule,
                        "run.seed": seed})) for seed in range(1, a.seeds + 1)]
                    hit = [s for s in stuck if s is not None]
                    rows.append({"ring": ring, "escape_bytes": escape, "small_weight": weight,
                                 "rule": rule, "runs": len(stuck), "deadlocks": len(hit),
                                 "earliest": min(hit) if hit else None})
                    print(rows[-1], flush=True)
    df = pd.DataFrame(rows)
    print(df.groupby(["rule", "ring", "escape_bytes"])[["runs", "deadlocks"]].sum().to_string())


if __name__ == "__main__":
    main()
