"""Blue Gene/L: how many pairs of live nodes software's hint bits still connect around dead nodes.

The paper ("Torus network"): "software can set the hint bits appropriately so that such nodes
are avoided; full connectivity can be maintained when there are up to three noncolinear faulty
nodes". For 1, 2 and 3 dead nodes placed at random on an 8x8x8 torus, no two on one ring
(noncolinear), this counts the ordered pairs of live nodes that no choice of hint bits reaches
with one route (kernels/bgl/dead_nodes.hpp: dynamic inside a box free of dead nodes or
deterministic along the escape order), those software then sends in two legs through an
intermediate node, and those neither reaches, with the escape VC in dimension order (the
hardware's) and in direction order. About 30 s. With --links, 1, 3 and 8 dead links at random
(bgl.dead_links) instead.

    python scripts/bgl_dead_node_reach.py [--trials N] [--radix 8 8 8] [--links]
"""

import argparse
import itertools
import math
import random

import lockstep as ls


def noncolinear(nodes: list[int], radix: list[int]) -> bool:
    """No two nodes on one ring: they differ in at least two coordinates."""
    def coords(n):
        out = []
        for k in radix:
            out.append(n % k)
            n //= k
        return out
    for a, b in itertools.combinations(nodes, 2):
        if sum(x != y for x, y in zip(coords(a), coords(b))) < 2:
            return False
    return True


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trials", type=int, default=20)
    ap.add_argument("--radix", type=int, nargs="+", default=[8, 8, 8])
    ap.add_argument("--links", action="store_true",
                    help="1, 3 and 8 dead links (bgl.dead_links) at random instead of nodes")
    args = ap.parse_args()
    nodes = math.prod(args.radix)
    rng = random.Random(1)
    base = ls.Config().with_(**{"router.family": "bgl", "topology.radix": args.radix,
                                "traffic.packet_size": 256, "run.warmup": 1, "run.measure": 1,
                                "run.drain": 1})
    print(f"{'dead':>4} {'order':>9} {'sets fully connected':>21} {'unreachable pairs: max':>23}"
          f" {'two-leg pairs: mean':>26} {'max':>6} {'deterministic pairs: mean':>26}")
    dims = [d for d, k in enumerate(args.radix) if k > 1]
    for k in (1, 3, 8) if args.links else (1, 2, 3):
        sets = []
        while len(sets) < args.trials:
            if args.links:  # distinct (node, dimension) pairs, flattened
                pairs = set()
                while len(pairs) < k:
                    pairs.add((rng.randrange(nodes), rng.choice(dims)))
                sets.append([x for pair in sorted(pairs) for x in pair])
                continue
            s = rng.sample(range(nodes), k)
            if noncolinear(s, args.radix):
                sets.append(s)
        for order in ("dimension", "direction"):
            df = ls.sweep(base.with_(**{"bgl.escape_order": order}), offered=[0.01],
                          **{"dead_links" if args.links else "dead_nodes": sets})
            live = nodes if args.links else nodes - k
            live_pairs = live * (live - 1)
            u, t, d = df["unreachable_pairs"], df["relayed_pairs"], df["deterministic_pairs"]
            print(f"{k:>4} {order:>9} {int((u == 0).sum()):>10} of {len(sets):<7}"
                  f" {int(u.max()):>23} {t.mean():>16.1f} ({100 * t.mean() / live_pairs:.2f}%)"
                  f" {int(t.max()):>6} {d.mean():>15.0f} ({100 * d.mean() / live_pairs:.1f}%)")

if __name__ == "__main__":
    main()
