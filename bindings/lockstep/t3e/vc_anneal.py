"""Simulated annealing of R_VCSEL SELECT bits for VC balance (Scott & Thorson, "The Cray T3E
Network", section 4: "a hierarchical traffic model ... uniform communication over the whole
ring, as well as uniform communication over power-of-two sized subrings ... a technique based
on simulated annealing").

One table per ring size serves the whole ring and all its power-of-two subrings down to 4
(smaller ones have one route per link: nothing to balance), so the objective sums over those
traffic levels (see ``objective``). The variables are the unconstrained bits only: in full
tables one per route that does not travel through the dateline node, in 8-entry tables one
per (source, entry) that no constrained route shares; flipping an 8-entry bit moves every
route that uses it. Each level's per-link VC0-minus-VC1 counts are kept and a move adds its
bits' precomputed changes, so weighing a move costs O(levels x k), not a recount of routes.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .vc_balance import COLUMNS, SELECT_BITS, link_diff, printed_table1, ring, subring_sizes

SEED = 19960201  # fixed: the shipped tables and the tests are reproducible


def levels(k: int) -> list[int]:
    """The traffic levels one table is optimised for: the whole ring and its subrings >= 4."""
    return [k] + [m for m in subring_sizes(k)[1:] if m >= 4]


@dataclass
class Problem:
    """The annealing problem of one ring size and table kind. Variable ``nvar`` (one past
    the last bit) is a dummy with no effect, used to pad moves of fewer than four bits."""

    k: int
    full: bool
    levels: list[int]
    var_src: np.ndarray  # [var] source node of the bit
    var_col: np.ndarray  # [var] its column: destination (full) or destination mod 8
    delta: np.ndarray  # [link, var + 1, level] change of VC0 - VC1 when the bit goes 0 -> 1
    base: np.ndarray  # [link, level] VC0 - VC1 with every bit 0 (time of crossing)
    busiest: np.ndarray  # [level] routes on the busiest link
    same_src: np.ndarray  # [var + 1, n] the other bits of its source (padded with the dummy)
    same_col: np.ndarray  # [var + 1, n] the other bits of its column (padded with the dummy)
    lookup: np.ndarray  # [source, column] the bit's variable, or the dummy if forced

    @property
    def nvar(self) -> int:
        return len(self.var_src)

    def table(self, x: np.ndarray) -> np.ndarray:
        """The SELECT bits of variable values x as a (k, 8) or (k, k) table."""
        t = np.zeros((self.k, self.k if self.full else SELECT_BITS), dtype=np.int8)
        t[self.var_src, self.var_col] = x[:self.nvar]
        return t


def problem(k: int, full: bool) -> Problem:
    r = ring(k)
    lv = levels(k)
    width = k if full else SELECT_BITS
    key = r.src * width + r.entry(full)
    forced = np.isin(key, key[r.constrained])  # shares its bit with a constrained route
    free_keys, route_var = np.unique(key[~forced], return_inverse=True)
    nvar = len(free_keys)
    member = np.stack([r.member(m) for m in lv], axis=-1)  # [route, level]
    # Links first: reductions over links then run along contiguous memory, which numpy does
    # several times faster than over a short last axis.
    contrib = r.uses.T[:, :, None] & member[None]  # [link, route, level]
    delta = np.zeros((k, nvar + 1, len(lv)), dtype=np.int16)  # exact: counts < 2**15
    # A free route never passes the dateline node: VC0 -> VC1 on all its links changes -2.
    # (numpy's stubs allow no slice in ufunc.at's index; numpy itself does)
    np.add.at(delta, (slice(None), route_var), -2 * contrib[:, ~forced])  # type: ignore[arg-type]
    zeros = np.zeros(len(r.src), dtype=np.int8)
    base = np.stack([link_diff(k, zeros, member[:, i]) for i in range(len(lv))], axis=-1)
    busiest = contrib.sum(axis=1).max(axis=0)
    src, col = free_keys // width, free_keys % width
    lookup = np.full((k, width), nvar)
    lookup[src, col] = np.arange(nvar)

    def others(group):
        same = group[:, None] == group[None, :]
        np.fill_diagonal(same, False)
        out = np.full((nvar + 1, max(1, int(same.sum(axis=1).max(initial=0)))), nvar)
        for v in range(nvar):
            near = np.flatnonzero(same[v])
            out[v, :len(near)] = near
        return out

    return Problem(k, full, lv, src, col, delta, base.astype(np.int16), busiest,
                   others(src), others(col), lookup)


# The objective, lower is better, summed over the levels: the level's weight (WHOLE_RING for
# the whole ring, 1 for each subring) x (average balance + MAX_WEIGHT x maximum balance),
# plus PENALTY x the same terms by which a level exceeds its caps, where caps are given.
# The whole ring weighs most because it is the traffic every partition size shares and the
# one the dateline hurts; the maximum weighs little because one link's worst case should not
# cost many links' imbalance. scripts/t3e_vc_tables.py caps the printed ring sizes at the
# T3E's own values (Table 1), so the annealer looks for tables at least as good as the
# T3E's on every row and, among those, the lowest weighted imbalance.
WHOLE_RING = 3.0
MAX_WEIGHT = 0.05
PENALTY = 20.0


def objective(p: Problem, caps: dict | None = None, whole_ring: float = WHOLE_RING,
              max_weight: float = MAX_WEIGHT):
    """(cost, unit): cost(d) of VC0-minus-VC1 counts d[link, ..., level], and the smallest
    change one flip can make to it. ``caps``: {subring: (average, maximum)} balances not to
    exceed, either may be None."""
    level = np.ones(len(p.levels))
    level[0] = whole_ring
    w_sum = level / p.busiest / p.k  # sum over links / k = average
    w_max = level / p.busiest * max_weight
    cap_sum = np.full(len(p.levels), np.inf)
    cap_max = np.full(len(p.levels), np.inf)
    for i, m in enumerate(p.levels):
        avg, top = (caps or {}).get(m, (None, None))
        if avg is not None:  # counts are integers: the largest count within the cap
            cap_sum[i] = np.floor(avg * p.k * p.busiest[i] + 1e-9)
        if top is not None:
            cap_max[i] = np.floor(top * p.busiest[i] + 1e-9)

    def cost(d):
        a = np.abs(d)
        s, m = a.sum(axis=0, dtype=np.int32), a.max(axis=0)
        over = np.maximum(s - cap_sum, 0) @ w_sum + np.maximum(m - cap_max, 0) @ w_max
        return s @ w_sum + m @ w_max + PENALTY * over

    return cost, 2 * w_sum.min()


def anneal(k: int, full: bool, steps: int = 5_000, chains: int = 16, batch: int = 32,
           seed: int = SEED, caps: dict | None = None, t_hot: float = 5.0,
           t_cold: float = 0.2, swap_every: int = 4, moves=(0.4, 0.3, 0.3),
           whole_ring: float = WHOLE_RING, max_weight: float = MAX_WEIGHT) -> np.ndarray:
    """Anneal the SELECT bits of a k-node ring; returns the table ((k, k) when full, else
    (k, 8)) with the lowest objective seen. Deterministic for a given seed.

    Moves, with probabilities ``moves``: flip one bit; flip two bits of one source or of
    one column (done opposite ways, it moves VC1 traffic only on the links between their
    destinations or sources); flip a rectangle, bits (s1, c1), (s1, c2), (s2, c1), (s2, c2)
    (done alternately, it leaves every level whose traffic holds all four routes unchanged
    and trades balance between the others: how a subring gives way to the whole ring).
    Single flips, which change whole routes on every level at once, must climb to make
    those.

    Replica exchange ("parallel tempering"): ``chains`` copies at fixed temperatures from
    ``t_hot`` to ``t_cold`` (in units of the smallest change one flip can make, so one ladder
    suits every ring); every ``swap_every`` steps neighbouring temperatures may swap states,
    so a cold chain stuck in a local minimum is relieved by a warmer one. Each step every
    chain weighs ``batch`` moves from its state at once and makes the first that passes the
    Metropolis test: at the cold end nearly all moves fail, so this is sequential Metropolis
    up to ``batch`` times faster, all chains and moves being array operations. The best
    state seen is then polished by steepest descent.
    """
    p = problem(k, full)
    cost, unit = objective(p, caps, whole_ring, max_weight)
    nvar = p.nvar
    if nvar == 0:
        return p.table(np.zeros(1, dtype=np.int8))
    rng = np.random.default_rng(seed)
    temp = unit * t_hot * (t_cold / t_hot) ** (np.arange(chains) / max(chains - 1, 1))
    # signed[link, bit now * (nvar + 1) + var, level]: the change flipping var makes.
    signed = np.concatenate([p.delta, -p.delta], axis=1)
    src = np.append(p.var_src, 0)
    col = np.append(p.var_col, 0)
    x = np.zeros((chains, nvar + 1), dtype=np.int64)  # every chain starts at time of crossing
    d = np.repeat(p.base[:, None], chains, axis=1)  # [link, chain, level]
    c = cost(d)
    best_c, best_x, best_d = c[0], x[0].copy(), d[:, 0].copy()
    ar = np.arange(chains)[:, None]
    block = 100
    for start in range(0, steps, block):
        n = min(block, steps - start)
        # Random numbers and moves a block at a time: a generator call per step costs as
        # much as the step's arithmetic. slots[:, t, chain, move]: the bits a move flips.
        shape = (n, chains, batch)
        v = rng.integers(nvar, size=shape)
        u = p.same_src[v, rng.integers(p.same_src.shape[1], size=shape)]
        w = p.same_col[v, rng.integers(p.same_col.shape[1], size=shape)]
        z = np.where((u < nvar) & (w < nvar), p.lookup[src[w], col[u]], nvar)
        kind = rng.choice(3, size=shape, p=np.asarray(moves) / np.sum(moves))
        second = np.where(rng.random(shape) < 0.5, u, w)
        slots = np.stack([v, np.where(kind == 0, nvar, np.where(kind == 1, second, u)),
                          np.where(kind == 2, w, nvar), np.where(kind == 2, z, nvar)])
        coins = np.log(rng.random(shape)) * temp[:, None]
        swaps = np.log(rng.random((n, chains // 2)))
        for t in range(n):
            sl = slots[:, t]  # [slot, chain, move]
            pick = x[ar, sl] * (nvar + 1) + sl
            dn = d[:, :, None] + np.take(signed, pick[0], axis=1)  # [link, chain, move, level]
            for i in range(1, 4):
                dn += np.take(signed, pick[i], axis=1)
            cn = cost(dn)  # [chain, move]
            ok = c[:, None] - cn >= coins[t]  # Metropolis: accept with exp(-increase / T)
            first = ok.argmax(axis=1)
            go = np.flatnonzero(ok[ar[:, 0], first])
            if len(go):
                f = first[go]
                d[:, go], c[go] = dn[:, go, f], cn[go, f]
                for i in range(4):
                    x[go, sl[i, go, f]] ^= 1
                i = int(np.argmin(c))
                if c[i] < best_c - 1e-12:
                    best_c, best_x, best_d = c[i], x[i].copy(), d[:, i].copy()
            step = start + t
            if step % swap_every == 0:
                # Metropolis swap of neighbours i, i+1 (even or odd pairs by turns).
                lo = np.arange(step // swap_every % 2, chains - 1, 2)
                hi = lo + 1
                swap = (c[lo] - c[hi]) * (1 / temp[lo] - 1 / temp[hi]) >= swaps[t, :len(lo)]
                a, b = lo[swap], hi[swap]
                x[a], x[b] = x[b].copy(), x[a].copy()
                c[a], c[b] = c[b].copy(), c[a].copy()
                d[:, a], d[:, b] = d[:, b].copy(), d[:, a].copy()
    return p.table(polish(p, best_x[:nvar], best_d, cost))


def polish(p: Problem, x: np.ndarray, d: np.ndarray, cost, limit: int = 200_000) -> np.ndarray:
    """Descent from x over the annealer's moves until none improves: the best single flip
    while one improves, else the best of the first 20,000 pairs of one source or column that
    holds an improving one, else the same for rectangles; at most ``limit`` of each kind."""
    nvar = len(x)
    x = np.append(x, 0)  # the dummy bit
    src = np.append(p.var_src, 0)
    col = np.append(p.var_col, 0)
    v = np.arange(nvar)
    pairs = np.concatenate([np.stack(np.broadcast_arrays(v[:, None], nb[:nvar]), -1)
                            .reshape(-1, 2) for nb in (p.same_src, p.same_col)])
    pairs = pairs[(pairs[:, 1] < nvar) & (pairs[:, 0] < pairs[:, 1])][:limit]
    vv, uu, ww = np.broadcast_arrays(v[:, None, None], p.same_src[:nvar, :, None],
                                     p.same_col[:nvar, None, :])
    zz = p.lookup[src[ww], col[uu]]
    rect = np.stack([vv, uu, ww, zz], -1).reshape(-1, 4)
    rect = rect[(rect < nvar).all(axis=1) & (rect[:, 0] < rect[:, 3])][:limit]
    moves = [m for m in (v[:, None], pairs, rect) if len(m)]
    c = cost(d)
    while True:
        step = np.where(x[None, :, None] == 1, -p.delta, p.delta)  # [link, var, level]
        # Cheapest kind first; the first chunk that improves gives its best move.
        for m in moves:
            for lo in range(0, len(m), 20_000):  # bounded memory
                chunk = m[lo:lo + 20_000]
                change = step[:, chunk[:, 0]]
                for j in range(1, chunk.shape[1]):
                    change = change + step[:, chunk[:, j]]
                mc = cost(d[:, None] + change)
                i = int(np.argmin(mc))
                if mc[i] < c - 1e-12:
                    break
            else:
                continue
            break
        else:
            return x[:nvar]
        c, flip = mc[i], chunk[i]
        d = d + step[:, flip].sum(axis=1)
        x[flip] ^= 1


def printed_caps(k: int, scheme: str) -> dict | None:
    """{subring: (average, maximum)} of the paper's Table 1 for ``scheme`` ("optimized" or
    "full") on a k-node ring, each raised to just below where it would round (half up) to
    the next printed value; None where the paper printed no such ring."""
    paper = printed_table1()
    rows = paper[paper["ring"] == k]
    if rows.empty:
        return None
    short = COLUMNS[scheme]
    return {int(r.subring): (getattr(r, f"{short}_avg") + 0.0005 - 1e-9,
                             getattr(r, f"{short}_max") + 0.0005 - 1e-9)
            for r in rows.itertuples()}


def default_steps(k: int) -> int:
    """Annealing steps for a k-node ring: rings up to 16 settle within 1,000; larger ones
    that the paper printed, and must meet its values, get 10,000 (the 32-node full tables
    need them), the rest 3,000."""
    if k <= 16:
        return 1_000
    return 10_000 if printed_caps(k, "full") is not None else 3_000


def anneal_table(k: int, scheme: str, steps: int | None = None, seed: int = SEED) -> np.ndarray:
    """The annealed table of ``scheme`` for a k-node ring as scripts/t3e_vc_tables.py makes
    it: (k, 8) R_VCSEL SELECT bits for "optimized", (k, k) for "full", capped at the paper's
    values where it printed the ring. For k <= 8 the 8-entry table is the full one (entry d
    mod 8 = d), padded with unused zero columns."""
    if scheme not in ("optimized", "full"):
        raise ValueError(f"scheme = {scheme!r}: allowed 'optimized' or 'full'")
    steps = default_steps(k) if steps is None else steps
    if scheme == "optimized" and k <= SELECT_BITS:
        full = anneal_table(k, "full", steps, seed)
        return np.pad(full, ((0, 0), (0, SELECT_BITS - k)))
    return anneal(k, scheme == "full", steps, seed=seed, caps=printed_caps(k, scheme))
