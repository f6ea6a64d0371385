"""Blue Gene/L's studies (Adiga et al., IBM J. R&D 2005; docs/design/bgl.md): the bounds the paper
reckons its results against, and throughput in time under hot-region traffic (Figures 3, 5, 7-9),
shared by notebooks/05_bluegene_l.ipynb, scripts/bgl_escape_waves.py and the fidelity ledger."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from ..config import Config, load_config
from ..simulate import Result, Simulator, simulate

OFFERED_UNIT = "bytes/node/cycle"  # what traffic.offered counts
MIDPLANE = Path(__file__).resolve().parents[3] / "configs" / "bgl_8x8x8.toml"
# The paper's random arbitration ("random arbitration rules simpler than SLQ and JSQ").
RANDOM = {"bgl.jsq": False, "bgl.slq_fraction": 0.0}


def midplane(radix: list[int] | None = None, **keys) -> Config:
    """configs/bgl_8x8x8.toml, on another torus and with other keys if given."""
    cfg = load_config(MIDPLANE)
    return cfg.with_(**{"topology.radix": radix or cfg.get("topology.radix"), **keys})


def bubble_waits(cfg: Config, cycles: int, every: int = 50) -> dict[str, int]:
    """Every bubble VC head's wait over `cycles` byte times of run `cfg` (one instance),
    looked at every `every` (a head that came and went between two looks waited less and is
    not counted): the heads that left and the longest of their waits, the heads still waiting
    at the end and the longest of those (the SLQ block-out, bgl.slq_block_out)."""
    bubble = cfg.get("bgl.dynamic_vcs")  # the VCs: dynamic ones, bubble, high priority
    sim = Simulator(cfg)
    head, count = sim.state("vc_head")[..., bubble], sim.state("vc_count")[..., bubble]
    since, left = np.zeros(head.shape, np.int64), []
    for t in range(every, cycles + 1, every):
        sim.step(every)
        h, c = sim.state("vc_head")[..., bubble], sim.state("vc_count")[..., bubble]
        popped = h != head
        left += (t - since[popped & (count > 0)]).tolist()
        since = np.where(popped | ((count == 0) & (c > 0)), t, since)
        head, count = h, c
    waiting = (cycles - since)[count > 0]
    return {"heads that left": len(left), "longest wait": max(left, default=0),
            "still waiting": len(waiting),
            "longest still waiting": int(waiting.max()) if len(waiting) else 0}


# Figures 3, 5 and 7-9's hot-region load: past the region's saturation, 1.2 times the uniform
# bound (the paper gives no number; notebook 05 and the ledger use this one).
HOT_LOAD = 1.2


def hot_region_traffic(radix: list[int], **keys) -> Config:
    """The midplane's set-up on torus `radix` under hot-region traffic at HOT_LOAD times the
    uniform bound, with other keys if given."""
    return midplane(radix, **{"traffic.pattern": "hotregion",
                              "traffic.offered": HOT_LOAD * uniform_bound(radix), **keys})


def alltoall(radix: list[int], packets: int = 1, **keys) -> Result:
    """The alltoall of Figure 6 on the midplane's set-up and torus `radix`: every node sends
    `packets` 256-byte packets to every other, run to completion (or for run.drain cycles, if
    given, its links' utilisation over them)."""
    return simulate(midplane(radix, **{"traffic.pattern": "alltoall", "run.drain": 10**8,
                                       "traffic.alltoall_packets": packets, **keys}))


def uniform_bound(radix: list[int]) -> float:
    """Bytes per node per cycle uniform traffic is bound by: 6 links carry the mean hops, and
    each data byte costs 270/256 link bytes."""
    hops = sum(sum(min(o, k - o) for o in range(k)) / k for k in radix)
    return 2 * len(radix) / hops * 256 / 270


def hot_region(radix: list[int]) -> np.ndarray:
    """Whether each node (x fastest) is in the hot region, the lower half of every dimension."""
    coords = np.stack(np.unravel_index(np.arange(int(np.prod(radix))), radix[::-1])[::-1])
    return np.all(coords < np.array(radix)[:, None] // 2, axis=0)


def hot_region_share(radix: list[int]) -> float:
    """Bytes per cycle each source outside the hot region can send when the links entering the
    region (two faces a dimension; 256 data bytes per 270 byte times) are shared evenly by the
    hot-region traffic crossing them (25% of packets into the region, 75% anywhere)."""
    nodes, region = int(np.prod(radix)), int(np.prod([k // 2 for k in radix]))
    entering = sum(2 * region // (k // 2) for k in radix)
    into = 0.25 + 0.75 * region / nodes  # of an outside source's packets, those that enter
    return entering * 256 / 270 / ((nodes - region) * into)


def throughput_in_time(cfg: Config, intervals: int, interval: int) -> pd.DataFrame:
    """One row per interval: bytes delivered per node per cycle, the fraction of token-acks that
    freed a blocked packet (Figure 9), bytes per node per cycle sent on each VC (vc0.. dynamic,
    then the escape VCs, the last high priority: Figure 8) and what the sources outside the hot
    region injected per node per cycle."""
    sim = Simulator(cfg)
    radix = cfg.get("topology.radix")
    nodes, outside = int(np.prod(radix)), ~hot_region(radix)
    before = (0, 0, 0, 0, 0)
    rows = []
    for i in range(intervals):
        sim.step(interval)
        now = (int(sim.state("packets_delivered").sum()),
               sim.state("chunks_sent").astype(np.int64).sum(axis=(0, 1)),
               int(sim.state("token_acks").sum()), int(sim.state("unblocking_acks").sum()),
               int(sim.state("packets_injected")[outside].sum()))
        d = [a - b for a, b in zip(now, before)]
        rows.append({"cycle": (i + 1) * interval,
                     "throughput": d[0] * 256 / (nodes * interval),
                     "unblocking": d[3] / max(1, d[2]),
                     "outside": d[4] * 256 / (outside.sum() * interval),
                     **{f"vc{w}": x * 32 / (nodes * interval) for w, x in enumerate(d[1])}})
        before = now
    return pd.DataFrame(rows)
