"""Figures 7 and 8 of Scott & Thorson, "The Cray T3E Network" (section 11), computed the way the
paper describes them, for comparison with what the emulator measures
(notebooks/03_cray_t3e.ipynb):

    from lockstep import t3e
    t3e.round_trip([8, 8, 8])        # Figure 7: zero-load round trips, uniform destinations
    t3e.global_bandwidth([8, 16, 8]) # Figure 8: per-PE global bandwidth, bisection and port

Figure 7, "Round-trip network latency": "the maximum and average round-trip packet latencies
vs. system size, assuming uniformly random destinations and using the latencies from Table 2
... twice the delay from the input of the router at the source node to the input of the
control chip at the destination node". Table 2: straight through 3 clocks, turn 6, end point
about 10. A route here is the model's (docs/design/t3e.md): minimal in every dimension, the
directions in the order +X, +Y, +Z, -X, -Y, -Z. Its H hops pass H - 1 routers between the two
end points, and it turns in one of them each time it changes direction: (directions used - 1)
turns, the rest straight. The sign a tie takes at half a ring changes neither count, nor does
adaptive routing at zero load (it takes the directions in the reverse order, as many turns), so
the latency depends on the destination's offset alone, and the torus looks the same from every
node: the distribution from node 0 is the machine's.

Figure 8, "Bandwidth profile": "the bandwidth available to each PE assuming all PEs are making
requests uniformly across the whole machine (no locality). It is equal to twice the bisection
bandwidth, divided by the number of nodes", with "the peak link bandwidth of 600 MB/s" (a flit,
one 64-bit word, per 13.3 ns clock), and "for system sizes up to 64 nodes, the processor-network
port is the bottleneck". Both counts are of flits, headers included; Table 4's efficiencies turn
them into payload.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
import pandas as pd

LINK_MB_S = 600.0  # section 1: five 14-bit phits, one flit, per 13.3 ns clock; 8 bytes x 75 MHz
CLOCK_NS = 1000.0 / 75.0  # 13.3 ns (75 MHz)
TABLE2 = {"straight": 3, "turn": 6, "end_point": 10}  # clocks


def _radix(radix: Sequence[int]) -> np.ndarray:
    k = np.asarray(list(radix) + [1] * (3 - len(radix)), dtype=np.int64)
    if k.shape != (3,) or (k < 1).any():
        raise ValueError(f"radix {list(radix)}: allowed 1 to 3 ring sizes >= 1 (X, Y, Z)")
    return k


def routes(radix: Sequence[int]) -> pd.DataFrame:
    """The route from node 0 to every node of a kx x ky x kz torus (linear numbering, X
    fastest): ``hops`` (minimal in each dimension), ``directions`` (how many of the six it
    travels in) and ``turns`` (directions - 1; 0 for the node itself), one row per node."""
    k = _radix(radix)
    n = int(np.prod(k))
    node = np.arange(n)
    coord = np.stack([node % k[0], node // k[0] % k[1], node // (k[0] * k[1])], axis=1)
    per_dim = np.minimum(coord, k - coord)  # hops in each dimension
    hops = per_dim.sum(axis=1)
    directions = (per_dim > 0).sum(axis=1)
    return pd.DataFrame({"hops": hops, "directions": directions,
                         "turns": np.maximum(directions - 1, 0)}, index=node)


def one_way(radix: Sequence[int], straight: int = 3, turn: int = 6,
            end_point: int = 10) -> np.ndarray:
    """Clocks from the input of the source router to the input of the destination's control
    chip (Figure 7's half round trip) with no contention, from node 0 to every node: an end
    point at each end and the routers in between, 3 straight through or 6 turning (Table 2).
    The entry of node 0 itself is NaN (the paper's traffic never addresses its own PE)."""
    r = routes(radix)
    between = straight * (r.hops - 1 - r.turns) + turn * r.turns
    out = (2 * end_point + between).to_numpy(dtype=float)
    out[0] = np.nan
    return out


def round_trip(radix: Sequence[int], straight: int = 3, turn: int = 6, end_point: int = 10,
               request_flits: int = 2, response_flits: int = 2) -> pd.Series:
    """Zero-load round trips under uniform random destinations, in clocks:

    * ``paper_mean``, ``paper_max``: Figure 7's definition, twice `one_way`, over the
      destinations other than the source;
    * ``model_mean``, ``model_max``: what the emulator's ``round_trip_mean`` and
      ``round_trip_max`` come to with no contention (test ``T3e.ZeroLoadLatencyFollowsTable2``):
      its latencies run from a packet's creation to the arrival of its tail, so each way adds
      1 clock (a packet is sent the clock after it is created) and size - 1 clocks of
      serialisation; its uniform traffic addresses the source's own PE too (1 in N), a packet
      that crosses only its own router and reaches the PE 2 x end_point - turn clocks after
      entering it.
    """
    way = one_way(radix, straight, turn, end_point)
    model = 2 * 1 + 2 * way + (request_flits - 1) + (response_flits - 1)
    model[0] = 2 * 1 + 2 * (2 * end_point - turn) + (request_flits - 1) + (response_flits - 1)
    n = len(way)
    return pd.Series({
        "nodes": n,
        "paper_mean": 2 * np.nanmean(way) if n > 1 else np.nan,
        "paper_max": 2 * np.nanmax(way) if n > 1 else np.nan,
        "model_mean": model.mean(),
        "model_max": model.max(),
    })


def global_bandwidth(radix: Sequence[int], link_mb_s: float = LINK_MB_S) -> pd.Series:
    """Figure 8's per-PE global bandwidth of a kx x ky x kz torus, in MB/s:

    * ``bisection_gb_s``: the bisection bandwidth, both directions counted (the paper's
      153.6 GB/s for 8 x 16 x 8 and 8 x 32 x 8): the smallest cut across one dimension, a
      ring of k >= 2 nodes crossing it on two links (a ring of two has two links too, but a
      Y dimension of two is a line of one link: the manual's Y = 2 machine);
    * ``network``: twice that divided by the nodes (= 8 / k_max flits per PE per clock, the
      uniform-traffic channel-load bound of a torus);
    * ``port``: the processor-network port, one flit a clock (600 MB/s);
    * ``global``: the smaller of the two;
    * ``bound_flits``: ``global`` in flits per PE per clock, what the emulator's
      ``accepted`` counts.
    """
    k = _radix(radix)
    n = int(np.prod(k))
    # links crossing x 2 directions
    rings = [n // kd * (1 if d == 1 and kd == 2 else 2) * 2 for d, kd in enumerate(k) if kd >= 2]
    channels = min(rings) if rings else 0
    bisection = channels * link_mb_s / 1000.0
    network = 2 * bisection * 1000.0 / n if channels else np.inf
    glob = min(network, link_mb_s)
    return pd.Series({"nodes": n, "bisection_gb_s": bisection, "network": network,
                      "port": link_mb_s, "global": glob, "bound_flits": glob / link_mb_s})
