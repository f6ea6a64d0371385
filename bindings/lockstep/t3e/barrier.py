"""The T3E's virtual barrier/eureka networks (Scott & Thorson, "The Cray T3E Network", section
6): spanning trees for the BSU registers, and barrier latency against system size beside the
round trip of a remote read (the paper: barriers take less than a single remote reference).

    words = ls.t3e.barrier.spanning_tree(cfg, members=[0, 5, 10], root=5)
    ls.t3e.barrier.describe(words)          # children and parent of each router, by name
    sim = ls.Simulator(cfg.with_(**{"t3e.barrier": "barrier"}))
    ls.t3e.barrier.load_tree(sim, words)    # BSU 0 of every instance: a partition's tree
    ls.t3e.barrier.latency_vs_size([[2, 2, 2], [4, 4, 4], [8, 8, 8]])

A BSU register word (kernels/t3e/bsu_register.hpp): CHILDREN<6:0> (bit 0 the PE, bit 1 + d
direction d of +X, +Y, +Z, -X, -Y, -Z), PARENT<10:8> (a direction, 7 at the root),
ARRIVED<22:16>, EUREKA<24>. The PEs' program (``t3e.barrier``) runs on the BSUs whose register
has the PE bit set: a tree's members.
"""

from __future__ import annotations

from typing import Iterable, Sequence

import numpy as np
import pandas as pd

from .. import _core
from ..config import ConfigLike, as_config
from ..simulate import Simulator, simulate

LINKS = ("PE", "+X", "+Y", "+Z", "-X", "-Y", "-Z")
NO_PARENT = 7


def spanning_tree(cfg: ConfigLike, members: Iterable[int] | None = None,
                  root: int = 0) -> np.ndarray:
    """BSU register words [routers] for a tree over the PEs of routers `members` (default:
    every installed PE) rooted at router `root`. A router's parent is its neighbour one hop
    nearer the root, the highest dimension first (on a full torus: the highest dimension where
    they differ, the shorter way round, + on a tie), so every member's depth is its distance
    from the root; routers with no member below them are left out (word 0). The machine (torus,
    partial plane) and its R_ORIENT are `cfg`'s."""
    c = as_config(cfg).with_(**{"router.family": "t3e"})
    return _core.t3e.barrier_tree(c.to_dict(), sorted(set(members or [])), int(root))


def children(word: int) -> list[str]:
    return [name for i, name in enumerate(LINKS) if int(word) >> i & 1]


def parent(word: int) -> str | None:
    p = int(word) >> 8 & 7
    return None if p == NO_PARENT else LINKS[1 + p]


def describe(words: Sequence[int]) -> pd.DataFrame:
    """The routers of a tree: children and parent by name, whether the PE is a member."""
    rows = [{"router": r, "member": bool(int(w) & 1),
             "children": " ".join(children(w)[int(w) & 1:]), "parent": parent(w) or "root"}
            for r, w in enumerate(words) if int(w)]
    return pd.DataFrame(rows).set_index("router")


def depths(words: Sequence[int] | np.ndarray, cfg: ConfigLike) -> dict[int, int]:
    """Hops from each router of the tree up to the root (following PARENT over the torus; a full
    torus, not a partial plane's short rings)."""
    shape = as_config(cfg).get("topology.radix")
    orient = as_config(cfg).get("t3e.r_orient")
    step = {0: 1, 1: shape[0], 2: shape[0] * shape[1]}

    def up(r: int, p: int) -> int:
        d, plus = p % 3, p < 3
        if orient >> d & 1:  # R_ORIENT: + runs against the cube's numbering
            plus = not plus
        k, c = shape[d], r // step[d] % shape[d]
        return r + (((c + (1 if plus else -1)) % k) - c) * step[d]

    out = {}
    for r, w in enumerate(words):
        if not int(w):
            continue
        n, here = 0, r
        while (p := int(words[here]) >> 8 & 7) != NO_PARENT:
            here, n = up(here, p), n + 1
        out[r] = n
    return out


def load_tree(sim: Simulator, words: Sequence[int], bsu: int = 0) -> Simulator:
    """Writes a tree into BSU `bsu` of every instance of `sim` (the r_bsu state array)."""
    if not 0 <= bsu < 32:
        raise ValueError(f"bsu = {bsu}: allowed 0 to 31")
    reg = sim.state("r_bsu")
    routers = reg.shape[-2]  # [instance,] router, BSU
    if len(words) != routers:
        raise ValueError(f"words: {len(words)} given, allowed one per router ({routers})")
    reg[..., bsu] = np.asarray(words, dtype=reg.dtype)
    return sim.set_state("r_bsu", reg)


def latency_vs_size(shapes: Sequence[Sequence[int]], offered: float = 0.02, hop: int = 3,
                    rounds: int = 8, seed: int = 1) -> pd.DataFrame:
    """For each torus shape: barrier and eureka latency measured (rounds of every PE, each a
    round begun every period) beside 2 h (D + 1), the barrier latency the tree's depth D
    gives, and the round trip of a single-word Get measured at the same light load (paper
    Figure 7: request sent to response home)."""
    rows = []
    for shape in shapes:
        base = {"router": {"family": "t3e"}, "topology": {"kind": "torus", "radix": list(shape)},
                "traffic": {"offered": offered}}
        depth = max(depths(spanning_tree(base), base).values())
        period = 4 * hop * (depth + 2) + 20  # an eureka round takes h (d + 3 D + 4) + 1
        run = {"warmup": period, "measure": rounds * period, "drain": 4 * period, "seed": seed}
        out = {"shape": "x".join(map(str, shape)), "PEs": int(np.prod(shape)), "depth": depth}
        for program in ("barrier", "eureka"):
            r = simulate(base | {"run": run, "t3e": {"barrier": program, "barrier_hop": hop,
                                                       "barrier_period": period}})
            if program == "barrier":
                out |= {"barrier_mean": r.barrier_latency_mean,
                        "barrier_max": r.barrier_latency_max,
                        "barrier_max_computed": 2 * hop * (depth + 1),
                        "round_trip_mean": r.round_trip_mean, "round_trip_max": r.round_trip_max}
            else:
                out |= {"eureka_mean": r.eureka_latency_mean, "eureka_max": r.eureka_latency_max,
                        "eureka_barrier_max": r.barrier_latency_max}
        rows.append(out)
    return pd.DataFrame(rows).set_index("shape")
