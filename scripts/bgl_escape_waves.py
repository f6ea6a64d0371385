"""Blue Gene/L: throughput, per-VC traffic and unblocking probability against time (Figures 7-9).

The paper ran hot-region traffic (25% of packets to the lower half of every dimension) on a
16x16x16 torus with two dynamic 2 KB VCs, two paths and 2 KB escape buffers, under its
simulator's "early assumptions" (infinite injection FIFOs, filled as early as possible), and
found the dimension-ordered dateline pair's throughput falling and rising in waves that the
unblocking probability follows, while the bubble escape VC stays level. This runs one escape
architecture at the offered load the notebook uses (1.2 times the uniform bound) and writes one
row per interval to a CSV file as it goes (an interrupted run keeps the rows it finished):
bytes delivered per node per cycle, bytes sent per node per cycle on each VC (vc0, vc1 dynamic;
then the escape VCs; the last, high priority), the fraction of token-acks that freed a
blocked packet, how many dynamic and escape (with the high-priority) input VCs held packets
whose front never left in the whole interval (stalled_dynamic, stalled_escape), and how many were
so in each of the last --stuck intervals (stuck_dynamic, stuck_escape) with the longest such run
of any VC in cycles (longest_stall): VCs stuck for 50,000 cycles under random arbitration mean
a part of the network locked up while the rest moves, or starved behind a slow one. The knot
column tells them apart: how many stuck VCs wait, on every move their front packet may make,
for tokens of VCs that are themselves in that set (a deadlock; 0: each waits, through full VCs,
on one that still moves). --stuck-out writes the stuck VCs after each interval (router, its
coordinates, direction, VC, intervals stalled). On a 2-core CPU with two runs side by side, 16x16x16
takes about 40 minutes for 400,000 cycles each with random arbitration (docs/design/bgl.md,
"Escape VC architectures", has the results).

    python scripts/bgl_escape_waves.py --escape dateline_pair --order dimension \\
        --radix 16 16 16 --intervals 30 --interval 10000 --out waves_pair.csv
"""

import argparse
import csv
import math
import time

import numpy as np

import lockstep as ls
from lockstep import bgl
from lockstep.bgl import view as bgl_view


def step_watching_fronts(sim: ls.Simulator, cycles: int, looks: int = 10):
    """Steps `cycles` cycles, looking at every input VC `looks` times on the way; returns per VC
    [router, direction, VC] whether it held packets at every look and its front (vc_head) never
    changed: a front stuck for the whole interval, which a VC of a network that still moves
    everywhere does not show for long. The deadlock watchdog sees only a network where nothing
    moves; this sees a part locked up while the rest moves."""
    head = sim.state("vc_head").copy()
    stalled = sim.state("vc_count") > 0
    for k in range(looks):
        sim.step(cycles * (k + 1) // looks - cycles * k // looks)
        now = sim.state("vc_head").copy()
        stalled &= (now == head) & (sim.state("vc_count") > 0)
        head = now
    return stalled


def coords(nodes, radix: list[int]):
    """[dimension, ...]: the coordinates of node numbers, the first dimension fastest."""
    return np.stack(np.unravel_index(nodes, radix[::-1])[::-1])


def knot(sim: ls.Simulator, stuck, config: ls.Config) -> int:
    """How many of the stuck input VCs form a knot: VCs whose front packet finds too few tokens
    on every (direction, VC) it may ask for (lockstep.bgl.view.phase1_pairs, the mirror of
    kernels/bgl/jsq_request.hpp) and each of those downstream VCs is in the knot too. Tokens come
    back only as a downstream VC drains, so a knot never moves again: a deadlock. 0: every stuck
    VC waits, through full VCs, on one that still moves (congestion, however slow)."""
    fifo, tokens = sim.state("vc_fifo"), sim.state("tokens")
    head, peer = sim.state("vc_head"), sim.state("peer")  # peer: the far router x ports + port
    member, waits = np.zeros(tokens.shape, bool), {}
    for r, d, v in zip(*np.nonzero(stuck)):
        dest, src, meta = (int(x) for x in fifo[r, d, v, head[r, d, v]][[0, 1, 5]])
        if meta >> bgl_view.HINTS & 63 == 0:
            continue  # at its destination: the reception bus
        pairs = bgl_view.phase1_pairs(config, tokens.shape[2], int(r), meta, dest, int(d),
                                      int(v), src)
        if all(tokens[r, e, w] < need for e, w, need in pairs):
            member[r, d, v] = True
            waits[r, d, v] = [(peer[r, e + 1] // peer.shape[1], e ^ 1, w) for e, w, _ in pairs]
    while True:  # drop VCs that wait on one outside the set, until none does
        out = [vc for vc, down in waits.items() if not all(member[x] for x in down)]
        if not out:
            return len(waits)
        for vc in out:
            member[vc] = False
            del waits[vc]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--escape", choices=["bubble", "dateline_pair"], default="dateline_pair")
    ap.add_argument("--order", choices=["dimension", "direction"], default="dimension")
    ap.add_argument("--radix", type=int, nargs="+", default=[16, 16, 16])
    ap.add_argument("--intervals", type=int, default=30)
    ap.add_argument("--interval", type=int, default=10000, help="cycles per row")
    ap.add_argument("--uncrossed", choices=["lower", "higher"], default="lower",
                    help="the pair's VC for packets that never cross (bgl.dateline_uncrossed)")
    ap.add_argument("--pair-entry", choices=["one", "two"], default="one",
                    help="full packets' tokens to enter the pair's escape VCs (bgl.pair_entry)")
    ap.add_argument("--random", action="store_true",
                    help="the paper's random arbitration (no JSQ, no SLQ cycles)")
    ap.add_argument("--buffer-bytes", type=int, default=2048,
                    help="bytes of each dynamic and escape VC (the paper's 2 KB)")
    ap.add_argument("--finite-fifos", action="store_true",
                    help="the hardware's injection FIFOs instead of the paper's infinite ones")
    ap.add_argument("--backend", default="auto", help="run.backend (cuda on a GPU machine)")
    ap.add_argument("--stuck", type=int, default=5,
                    help="intervals in a row a VC's front must not leave to count as stuck")
    ap.add_argument("--stuck-out", help="CSV file of the stuck VCs, rewritten each interval")
    ap.add_argument("--out", required=True, help="CSV file, one row per interval")
    args = ap.parse_args()
    nodes = math.prod(args.radix)
    cfg = bgl.hot_region_traffic(args.radix, **{
        "bgl.vc_bytes": args.buffer_bytes, "bgl.escape_bytes": args.buffer_bytes,
        "bgl.escape_vcs": args.escape, "bgl.escape_order": args.order,
        "bgl.dateline_uncrossed": args.uncrossed, **(bgl.RANDOM if args.random else {}),
        "bgl.pair_entry": args.pair_entry,
        "bgl.infinite_injection_fifos": not args.finite_fifos, "run.backend": args.backend})
    sim = ls.Simulator(cfg)
    dynamic = int(cfg.get("bgl.dynamic_vcs"))  # the VCs before the escape ones
    delivered0, sent0, acks0, unblocking0 = 0, 0, 0, 0
    runs = None  # per input VC, the intervals in a row it has been stalled
    start = time.time()
    with open(args.out, "w", newline="") as f:
        out = None
        for i in range(args.intervals):
            stalled = step_watching_fronts(sim, args.interval)
            runs = np.where(stalled, (0 if runs is None else runs) + 1, 0)
            stuck = runs >= args.stuck
            delivered = int(sim.state("packets_delivered").sum())
            sent = sim.state("chunks_sent").astype("int64").sum(axis=(0, 1))  # per VC
            acks = int(sim.state("token_acks").sum())
            unblocking = int(sim.state("unblocking_acks").sum())
            row = {"cycle": (i + 1) * args.interval,
                   "throughput": (delivered - delivered0) * 256 / (nodes * args.interval),
                   "unblocking": (unblocking - unblocking0) / max(1, acks - acks0),
                   **{f"vc{w}": x * 32 / (nodes * args.interval)
                      for w, x in enumerate(sent - sent0)},
                   "stalled_dynamic": int(stalled[..., :dynamic].sum()),
                   "stalled_escape": int(stalled[..., dynamic:].sum()),
                   "stuck_dynamic": int(stuck[..., :dynamic].sum()),
                   "stuck_escape": int(stuck[..., dynamic:].sum()),
                   "longest_stall": int(runs.max()) * args.interval,
                   "knot": knot(sim, stuck, cfg)}
            if out is None:
                out = csv.DictWriter(f, fieldnames=list(row))
                out.writeheader()
            out.writerow({k: round(v, 5) if isinstance(v, float) else v for k, v in row.items()})
            f.flush()
            print(f"cycle {row['cycle']:>8}: throughput {row['throughput']:.3f}, "
                  f"unblocking {row['unblocking']:.3f} ({time.time() - start:.0f} s)", flush=True)
            delivered0, sent0, acks0, unblocking0 = delivered, sent, acks, unblocking
            if args.stuck_out:  # every interval, so an interrupted run keeps the latest
                write_stuck(args.stuck_out, runs, args.stuck, args.radix)


def write_stuck(path: str, runs, least: int, radix: list[int]) -> None:
    """The input VCs stalled for at least `least` intervals in a row: router (and its
    coordinates, the first dimension fastest), direction, VC and intervals."""
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["router", *"xyz"[:len(radix)], "direction", "vc", "intervals"])
        r, d, v = np.nonzero(runs >= least)
        for row in zip(r, *coords(r, radix), d, v, runs[r, d, v]):
            w.writerow([int(x) for x in row])


if __name__ == "__main__":
    main()
