"""T3E barrier/eureka trees from Python (paper section 6): trees over a partition loaded into the
BSU registers, and barrier latency against system size beside the round trip of a read."""

import numpy as np
import pytest

import lockstep as ls
from lockstep.t3e import barrier


def t3e(radix, **extra):
    return ls.Config().with_(**{"router.family": "t3e", "topology.radix": radix, **extra})


def torus_distance(a, b, radix):
    step = [1, radix[0], radix[0] * radix[1]]
    d = 0
    for k, s in zip(radix, step):
        x = (a // s % k - b // s % k) % k
        d += min(x, k - x)
    return d


@pytest.mark.parametrize("radix,orient", [([4, 4, 2], 0), ([4, 4, 2], 5), ([5, 3, 3], 2)])
def test_tree_depth_is_torus_distance_and_links_agree(radix, orient):
    cfg = t3e(radix, **{"t3e.r_orient": orient})
    n = int(np.prod(radix))
    members = list(range(0, n, 3))
    root = 7
    words = barrier.spanning_tree(cfg, members, root)
    depth = barrier.depths(words, cfg)
    for m in members:
        assert depth[m] == torus_distance(m, root, radix)
        assert words[m] & 1  # the PE bit
    assert not any(words[r] & 1 for r in range(n) if r not in members)
    # Every router in the tree is a child of its parent: count children = count parents.
    kids = sum(len(barrier.children(w)) - (w & 1) for w in words)
    assert kids == sum(1 for w in words if w and barrier.parent(w))
    assert barrier.parent(words[root]) is None
    assert barrier.describe(words).loc[root, "parent"] == "root"


def test_partition_tree_synchronises_only_its_members():
    cfg = t3e([4, 4, 4], **{"t3e.barrier": "barrier", "t3e.barrier_period": 100,
                            "run.warmup": 500, "run.measure": 1000, "traffic.offered": 0.2})
    members, root = [1, 6, 21, 42, 63], 21
    words = barrier.spanning_tree(cfg, members, root)
    deepest = max(barrier.depths(words, cfg)[m] for m in members)
    sim = ls.Simulator(cfg)
    barrier.load_tree(sim, words)
    r = sim.run()
    assert r.barrier_completions == 10 * len(members)
    assert r.barrier_latency_max == 2 * 3 * (deepest + 1)
    assert r.barrier_overruns == 0


def test_load_tree_refuses_bad_arguments():
    sim = ls.Simulator(t3e([2, 2, 2]))
    with pytest.raises(ValueError, match="bsu = 32"):
        barrier.load_tree(sim, [0] * 8, bsu=32)
    with pytest.raises(ValueError, match="one per router"):
        barrier.load_tree(sim, [0] * 7)
    with pytest.raises(ValueError, match="root = 8"):
        barrier.spanning_tree(t3e([2, 2, 2]), root=8)


def test_barriers_beat_a_remote_read():
    """Barrier latency follows the tree's depth and stays below the mean round trip of a
    single-word Get at light load (the paper's claim, with a barrier hop of 3 clocks)."""
    df = barrier.latency_vs_size([[2, 2, 2], [4, 4, 4]])
    assert (df.barrier_max == df.barrier_max_computed).all()
    assert (df.barrier_max < df.round_trip_mean).all()
    assert (df.eureka_max < df.barrier_max).all()
    assert list(df.depth) == [3, 6]
