"""S-Connect's claims (document 004, Nowatzyk et al., ISCA 1995) measured on the `sconnect`
family, on its host-side models (`ls.sconnect.ideal_router`, `ls.sconnect.pll`) and, for the
paper's wormhole against cut-through comparison, on the generic `vc` router.

Times: the model counts routing cycles (one message slot). Where the paper counts clock cycles
or nanoseconds we read a routing cycle as 6 clocks: the CM moves messages over 16-bit paths,
"the parallel ports transfer data only on 5 out of 6 cycles" and the serial links add 16 CRC and
handshake bits, so a message is 5 x 16 = 80 bits and a slot 96 (the paper's "100 bit message").
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .._core import SimulationError
from ..config import Config, load_config
from ..fidelity.claim import (DIVERGES, NOT_REPRODUCIBLE, REPRODUCED, Between, Claim, Measured,
                              Near)
from ..simulate import Result, Simulator, simulate
from ..sweep import saturation_throughput
from ..routing import table as routing_table
from . import ideal_router as ir
from . import pll
from .control import ERRORS, Controller

CONFIGS = Path(__file__).resolve().parents[3] / "configs"
CLOCKS_PER_CYCLE = 6  # our reading of a routing cycle (module docstring)
ALPHA_CLOCK_HZ = pll.TIC_CLOCK_HZ  # the alpha boards' 51.84 MHz (section 4)


def _windows(quick: bool) -> dict:
    return (dict(warmup=500, measure=1000, drain=500, threads=1) if quick
            else dict(warmup=1000, measure=4000, drain=2000, threads=1))


def _cube(quick: bool) -> Config:
    return load_config(CONFIGS / "sconnect_hypercube64.toml").with_(**_windows(quick))


def _tic_cube(quick: bool, **keys: Any) -> Config:
    """Figure 5's hypercube of TICs: 64 buffers, a sent message locked in its buffer until
    acknowledged (section 3.2)."""
    return _cube(quick).with_(buffers=64, unacknowledged="pool", **keys)


# --- Figure 1: the ideal 8 x 8 router (section 2) --------------------------------------------

@functools.lru_cache(maxsize=None)
def _fig1_sat(structure: str, lengths: str, quick: bool) -> float:
    kw: dict[str, Any] = (dict(replicas=8) if quick and lengths == "fixed" else
          dict(replicas=16, duration=250) if quick else
          dict(replicas=64, duration=20000 if lengths == "fixed" else 4000))
    return ir.saturation(structure, lengths, **ir.figure1(structure), **kw)


def _fig1_saturation(lengths: str):
    def measure(quick: bool) -> Measured:
        sat = {s: _fig1_sat(s, lengths, quick) for s in ir.STRUCTURES}
        return Measured(sat["pool"], f"pool of 8 {sat['pool']:.4f}, crossbar "
                                     f"{sat['crossbar']:.4f}")
    return measure


def _fig1_same(quick: bool) -> Measured:
    sat = {s: _fig1_sat(s, "fixed", quick) for s in ir.STRUCTURES}
    return Measured(sat["crossbar"] / sat["pool"],
                    f"fixed lengths: crossbar {sat['crossbar']:.4f}, pool {sat['pool']:.4f}")


def _fig1_latency(quick: bool) -> Measured:
    loads = [0.3, 0.5, 0.65]
    kw: dict[str, Any] = dict(duration=1500 if quick else 10000, replicas=2 if quick else 8,
                              seed=2)
    lat = {s: ir.simulate(s, "fixed", loads, **ir.figure1(s), **kw).latency_mean.to_numpy()
           for s in ir.STRUCTURES}
    return Measured(lat["pool"][-1] / lat["crossbar"][-1],
                    "mean latency at 0.3, 0.5, 0.65 (message times): pool "
                    + ", ".join(f"{x:.2f}" for x in lat["pool"]) + "; crossbar "
                    + ", ".join(f"{x:.2f}" for x in lat["crossbar"]))


def _fig1_kw(quick: bool) -> dict[str, Any]:
    return dict(replicas=8) if quick else dict(replicas=64, duration=20000)


def _fig1_buffers(quick: bool) -> Measured:
    sat = {k: ir.saturation("pool", "fixed", buffers=8 * k, release="start", **_fig1_kw(quick))
           for k in ((2,) if quick else (2, 4))}
    one = _fig1_sat("pool", "fixed", quick)  # Figure 1's: k = 1
    return Measured(sat[2] / one, f"pool with 1, 2{'' if quick else ', 4'} buffers per "
                                  "channel: " + ", ".join(f"{x:.4f}" for x in
                                                          (one, *sat.values())))


def _fig1_bimodal(quick: bool) -> Measured:
    fixed = _fig1_sat("pool", "fixed", quick)
    bi = {b: ir.saturation("pool", "bimodal", bimodal=b, **ir.figure1("pool"), **_fig1_kw(quick))
          for b in ((4, 0.05),) + (() if quick else ((4, 0.02), (20, 0.05)))}
    return Measured(bi[4, 0.05] / fixed, f"pool of 8, fixed lengths {fixed:.4f}; 1-slot "
                                         "messages with " + ", ".join(
                                             f"{p:.0%} of {n} slots {x:.4f}"
                                             for (n, p), x in bi.items()))


# --- Figures 2 and 3: wormhole against virtual cut-through (sections 2.1, 6) -----------------

# The paper's set-up as far as it gives it: 256 nodes, messages of mean length 10 to uniformly
# random destinations, the same network for both routers. It gives neither the topology nor the
# buffers. We take a 16 x 16 mesh (an 8 x 8 mesh in the quick runs), 10-flit messages, wormhole
# with dimension-order routing and one VC of 4 flits (less than half a message: "the
# communication channels serve also as buffers"), and cut-through buffers of 4 messages a port.
# The VC router is S-Connect's own, which routes adaptively ("S-Connect does not use wormhole
# routing, which more than doubles the saturation throughput. Unlike Myrinet ... the adaptive
# routing algorithm in S-Connect", section 1; section 2.2): minimal adaptive cut-through, its 40
# flits a port as 2 VCs of 20 (min_adaptive needs an escape VC). The other reading, dimension
# order with one VC of 40 flits, is measured beside it in the full runs.
WORMHOLE = dict(flow_control="wormhole", vc_depth=4)
CUT_THROUGH = dict(flow_control="vct", vcs=2, vc_depth=20, routing="min_adaptive")
DOR_CUT_THROUGH = dict(flow_control="vct", vc_depth=40)
ROUTERS = {"wormhole": WORMHOLE, "vct": CUT_THROUGH, "vct_dor": DOR_CUT_THROUGH}


def _mesh(quick: bool) -> tuple[Config, float]:
    k = 8 if quick else 16
    cfg = Config().with_(kind="mesh", radix=[k, k], pattern="uniform", packet_size=10, vcs=1,
                         warmup=1000, measure=2000, drain=1500, threads=1)
    return cfg, 4 / k  # the bisection bound, flits per node per cycle


@functools.lru_cache(maxsize=None)
def _router_saturation(quick: bool, kind: str) -> float:
    mesh, _ = _mesh(quick)
    return saturation_throughput(mesh.with_(**ROUTERS[kind]), tol=0.02, points=4)


def _wormhole_share(quick: bool) -> Measured:
    mesh, bound = _mesh(quick)
    wh = _router_saturation(quick, "wormhole")
    k = mesh.get("topology.radix")[0]
    return Measured(wh / bound, f"{k} x {k} mesh: wormhole saturates at {wh:.3f} "
                                f"flits/node/cycle, bisection bound {bound:.3f}")


def _dor_reading(ct_dor: float | None, wh: float) -> str:
    return "" if ct_dor is None else (f"; dimension-order cut-through (1 VC of 40) {ct_dor:.3f}, "
                                      f"{ct_dor / wh:.2f}x")


def _cut_through_gain(quick: bool) -> Measured:
    wh, ct = _router_saturation(quick, "wormhole"), _router_saturation(quick, "vct")
    dor = None if quick else _router_saturation(quick, "vct_dor")
    return Measured(ct / wh, f"adaptive cut-through {ct:.3f}, wormhole {wh:.3f} flits/node/cycle"
                             + _dor_reading(dor, wh))


# Figures 2 and 3's "difficult" patterns, defined in the paper's reference [13], not in the
# document: transpose, bit reversal and FFT (traffic.pattern "fft": each packet to the node
# whose number differs in one bit, a radix-2 FFT's butterflies) as the generic router has them.
# The hot spot's share is not given either: 20% of all packets to one node would bind both
# routers to that node's ejection (1 flit a cycle, 0.019 a node on 256 nodes), so the hot node,
# at the centre, receives k / 4 times an average node's traffic, which puts its ejection bound
# at the mesh's bisection bound 4 / k: a second bottleneck, not the only one.
def _difficult(quick: bool, pattern: str) -> Config:
    mesh, _ = _mesh(quick and pattern != "hotspot")  # the hot spot: 16 x 16 (its row says why)
    if pattern == "hotspot":
        k, n = 16, 256
        return mesh.with_(pattern=pattern, hotspot_nodes=[n // 2 + k // 2],
                          hotspot_fraction=(k / 4 - 1) / (n - 1),
                          **(dict(warmup=500, measure=1000, drain=1000) if quick else {}))
    return mesh.with_(pattern=pattern)


def _saturation(cfg: Config, rel: float = 0.02) -> float:
    """Saturation within `rel` of itself (ls.saturation_throughput's tol is absolute: 0.02 would
    be a third of transpose's 0.06 on 16 x 16): a coarse search, then a fine one in its bracket."""
    s0 = saturation_throughput(cfg, tol=0.02, points=4)
    return saturation_throughput(cfg, lo=s0, hi=s0 + 0.02, tol=max(rel * s0, 0.001), points=4)


@functools.lru_cache(maxsize=None)
def _pattern_saturation(quick: bool, pattern: str, kind: str) -> float:
    return _saturation(_difficult(quick, pattern).with_(**ROUTERS[kind]))


def _pattern_gain(pattern: str):
    def measure(quick: bool) -> Measured:
        wh, ct = (_pattern_saturation(quick, pattern, k) for k in ("wormhole", "vct"))
        dor = None if quick else _pattern_saturation(quick, pattern, "vct_dor")
        k = _difficult(quick, pattern).get("topology.radix")[0]
        return Measured(ct / wh, f"{k} x {k} mesh, {pattern}: adaptive cut-through {ct:.3f}, "
                                 f"wormhole {wh:.3f} flits/node/cycle" + _dor_reading(dor, wh))
    return measure


def _adaptive_wormhole(quick: bool) -> Measured:
    # min_adaptive needs 2 VCs on a mesh (one an escape) and VCs of a whole packet: both
    # routings get 2 VCs of 10 flits
    mesh, _ = _mesh(quick)
    sat = {r: _saturation(mesh.with_(flow_control="wormhole", vcs=2, vc_depth=10, routing=r),
                          0.05 if quick else 0.02) for r in ("min_adaptive", "dor")}
    k = mesh.get("topology.radix")[0]
    return Measured(sat["min_adaptive"] / sat["dor"],
                    f"{k} x {k} mesh, uniform, wormhole with 2 VCs of 10 flits: minimal adaptive "
                    f"{sat['min_adaptive']:.3f}, dimension order {sat['dor']:.3f} "
                    "flits/node/cycle")


# --- Figures 4 and 5, section 3: the adaptive assignments ------------------------------------

def _knee_latency(cfg: Config, load: float) -> dict:
    return {a: simulate(cfg, offered=load, assignment=a).latency_mean
            for a in ("tic", "near_optimal")}


def _tic_efficiency(buffers: int):
    def measure(quick: bool) -> Measured:
        cfg = _cube(quick).with_(buffers=buffers)
        lat = _knee_latency(cfg, 0.8)
        return Measured(lat["tic"] / lat["near_optimal"],
                        f"64-node hypercube, pool of {buffers}, offered 0.8: mean latency TIC "
                        f"{lat['tic']:.1f}, Figure 4 {lat['near_optimal']:.1f} cycles")
    return measure


def _pool_counters(quick: bool) -> Measured:
    tic64 = simulate(_tic_cube(quick, reserve=-1), offered=1.0).accepted
    fig4 = simulate(_cube(quick), offered=1.0, assignment="near_optimal").accepted
    return Measured(tic64 / fig4, f"offered 1.0: TIC with 64 buffers accepts {tic64:.3f}, "
                                  f"Figure 4 with 10 {fig4:.3f}")


def _assignments_at_saturation(cfg: Config, load: float, quick: bool) -> Measured:
    """Accepted throughput past the knee under Figure 4's assignment over the optimal one's,
    each the mean over seeds (the paper's "statistical error limits")."""
    seeds = range(1, 3 if quick else 6)
    acc = {a: np.array([simulate(cfg, offered=load, assignment=a, seed=s).accepted
                        for s in seeds]) for a in ("near_optimal", "optimal")}
    spread = max(float(np.std(x, ddof=1)) for x in acc.values())
    fig4, best = float(acc["near_optimal"].mean()), float(acc["optimal"].mean())
    return Measured(fig4 / best, f"offered {load}: Figure 4 accepts {fig4:.3f}, the optimal "
                                 f"assignment {best:.3f} (mean of {len(seeds)} seeds; one run's "
                                 f"standard deviation over seeds {spread:.3f})")


def _near_optimal(quick: bool) -> Measured:
    return _assignments_at_saturation(_cube(quick), 1.0, quick)


def _misroutes(quick: bool) -> Measured:
    cfg = _cube(quick).with_(assignment="near_optimal", offered=1.0)
    r = simulate(cfg)
    per_message = r.misroute_fraction * r.hops_mean / (1 - r.reject_fraction)
    return Measured(per_message, f"accepted {r.accepted:.3f}; {r.misroute_fraction:.2%} of "
                                 f"transmissions sent off the table, {r.reject_fraction:.1%} "
                                 "refused")


# --- Sections 2.3, 2.4 and the conclusion: priorities, tables, topologies --------------------

def _priority_guarantee(quick: bool) -> Measured:
    per_source = 30 if quick else 150
    cfg = _tic_cube(quick, priorities=4, reserve=1, offered=0.5,
                    priority_weights=[0.9, 0.1], sink_min_priority=1, max_packets=per_source)
    sim = Simulator(cfg)
    while sim.cycle < 12000:
        sim.step(250)
        if sim.state("delivered_messages")[:, 1].sum() == 64 * per_source:
            break
    got = sim.state("delivered_messages")
    return Measured(got[:, 1].sum() / (64 * per_source),
                    f"priority 1: {got[:, 1].sum()} of {64 * per_source} delivered by cycle "
                    f"{sim.cycle}; priority 0 (never removed): {got[:, 0].sum()} delivered, "
                    f"{int(sim.state('class_used')[:, 0].sum())} buffers held of "
                    f"{64 * 64}")


def _random256() -> Config:
    return load_config(CONFIGS / "sconnect_random256.toml")


@functools.lru_cache(maxsize=None)
def _random256_table():
    """The random graph's routing table and distances, built once for the rows that read them."""
    return routing_table(_random256())


def _shortest_paths(quick: bool) -> Measured:
    s = _random256_table().stats
    return Measured(s["minimal"], f"random 4-regular graph of 256 nodes: mean stretch "
                                  f"{s['stretch']:.3f}")


def _designated_node(quick: bool) -> Measured:
    t = _random256_table()
    d = np.asarray(t.dist, dtype=float)
    ecc, total = d.max(axis=1), d.sum(axis=1)
    r = int(np.lexsort((total, ecc))[0])  # the most central router: the designated node
    via = d[:, r][:, None] + d[r, :][None, :]
    pairs = ~np.eye(len(d), dtype=bool)
    stretch = (via[pairs] / d[pairs]).mean()
    return Measured(float(via[pairs].max() / d.max()),
                    f"random 4-regular graph of 256 nodes, designated router {r} (eccentricity "
                    f"{ecc[r]:.0f}): longest route {via[pairs].max():.0f} hops against a "
                    f"diameter of {d.max():.0f}; per pair the route is {stretch:.2f} times the "
                    f"shortest on average (the table's: {t.stats['stretch']:.2f})")


def _alternate_paths(quick: bool) -> Measured:
    s = _random256_table().stats
    return Measured(s["options"] / s["minimal_options"],
                    f"random 4-regular graph of 256 nodes: {s['options']:.2f} permitted ports "
                    f"per (router, destination), {s['minimal_options']:.2f} on shortest paths")


def _random64(quick: bool) -> Config:
    return Config().with_(family="sconnect", kind="random_regular", nodes=64, degree=4,
                          max_ports=4, pattern="uniform", packet_size=1, **_windows(quick))


def _near_optimal_random(quick: bool) -> Measured:
    cfg = _random64(quick) if quick else _random256().with_(**_windows(quick))
    return _assignments_at_saturation(cfg, 1.0, quick)


@functools.lru_cache(maxsize=None)
def _random256_saturation(quick: bool) -> float:
    cfg = _random256().with_(**_windows(quick))
    return saturation_throughput(cfg, lo=0.1, hi=0.5, tol=0.05 if quick else 0.02, points=4)


def _random_balanced(quick: bool) -> Measured:
    cfg = _random256().with_(**_windows(quick))
    t = _random256_table()
    channels = int((t.peer >= 0).sum())
    hops = simulate(cfg, offered=0.05).hops_mean
    balanced = channels / (len(t.node_router) * hops)  # every channel equally loaded
    sat = _random256_saturation(quick)
    return Measured(sat / balanced, f"saturation {sat:.3f} messages/node/cycle against a "
                                    f"balanced bound of {balanced:.3f} ({channels} channels, "
                                    f"{hops:.2f} hops); the table's even split bounds it at "
                                    f"{1 / t.stats['max_channel_load']:.3f}")


def _past_saturation(quick: bool) -> Measured:
    cfg = _random64(quick)
    acc = {x: simulate(cfg, offered=x).accepted for x in (0.6, 0.7, 0.8, 1.0)}
    return Measured(acc[1.0] / max(acc.values()),
                    "random 4-regular graph of 64 nodes, accepted at 0.6, 0.7, 0.8, 1.0: "
                    + ", ".join(f"{a:.3f}" for a in acc.values()))


# --- Sections 3 and 6: one channel's slots --------------------------------------------------

SENT_ON_PORT = 16  # perf_select event: messages sent on channel p is 16 + p (monitor.hpp)


def _line(delay: int, **keys: Any) -> tuple[Simulator, int]:
    """A line of 4 routers, all traffic to nodes 2 and 3 (at offered 1.0 unless `keys` say),
    and router 1's channel to router 2."""
    cfg = Config().with_(family="sconnect", kind="mesh", radix=[4], pattern="hotspot",
                         hotspot_nodes=[2, 3], hotspot_fraction=1.0, packet_size=1,
                         offered=1.0, link_delay=delay, threads=1).with_(**keys)
    sim = Simulator(cfg)
    peer = sim.state("peer")
    return sim, int(np.flatnonzero(peer[1] // peer.shape[1] == 2)[0])


@functools.lru_cache(maxsize=None)
def _channel_slots(quick: bool, vcs: tuple[int, int], delay: int) -> tuple[int, int, int, int]:
    """A line of 4 routers with all traffic to nodes 2 and 3 at offered 1.0: the channel from
    router 1 to router 2 carries nodes 0's and 1's, twice what it can. Router 1's table puts
    destinations 2 and 3 on `vcs`. Stepping one routing cycle at a time, with the router's
    counter on the channel: (cycles with a message queued for it, slots it sent in them, slots
    sent while both VCs had messages queued, of those on VC 1)."""
    sim, port = _line(delay)
    vc, sel = sim.state("route_vc"), sim.state("perf_select")
    vc[1, 2:] = vcs
    sel[1] = SENT_ON_PORT + port
    sim.set_state("route_vc", vc).set_state("perf_select", sel)
    sim.step(500)
    queued = sim.state("queue_count")[1, port, 0]  # [VC] at priority 0
    count = sim.state("perf_count")[1]
    backlogged = busy = both = on_vc1 = 0
    for _ in range(3000 if quick else 20000):
        sim.step(1)
        sent = int(sim.state("perf_count")[1] - count)
        count += sent
        if queued.any():
            backlogged += 1
            busy += sent
        if queued.all():
            both += sent
            on_vc1 += sent * int(sim.state("tx_vc")[1, port] & 1)  # bit 0: the VC sent last
        queued = sim.state("queue_count")[1, port, 0]
    return backlogged, busy, both, on_vc1


def _vc_fair(quick: bool) -> Measured:
    backlogged, busy, both, on_vc1 = _channel_slots(quick, (0, 1), 1)
    return Measured(on_vc1 / both, f"{both} slots sent while both VCs had messages queued "
                                   f"({both / busy:.0%} of the {busy} sent), {on_vc1} of them "
                                   "on VC 1")


def _vc_whole(quick: bool) -> Measured:
    backlogged, busy, _, _ = _channel_slots(quick, (0, 0), 1)
    return Measured(busy / backlogged, f"VC 1 silent: VC 0 sent {busy} slots in {backlogged} "
                                       "routing cycles")


def _no_gaps(quick: bool) -> Measured:
    runs = {d: _channel_slots(quick, (0, 1), d) for d in (1, 4)}
    return Measured(min(b / q for q, b, _, _ in runs.values()),
                    "slots sent in routing cycles with a message queued, channel delay 1 and 4: "
                    + ", ".join(f"{b} of {q}" for q, b, _, _ in runs.values()))


# --- Section 6: random topologies against meshes ---------------------------------------------

def _hops(kind: str, nodes: int) -> np.ndarray:
    """Shortest-path lengths between distinct routers of a random 4-regular graph or a square
    mesh of `nodes` nodes."""
    topo = (dict(kind="random_regular", nodes=nodes, degree=4, max_ports=4) if kind == "random"
            else dict(kind="mesh", radix=[int(np.sqrt(nodes))] * 2))
    d = np.asarray(routing_table({"topology": topo}, roots=1).dist, dtype=float)
    return d[~np.eye(nodes, dtype=bool)]


def _random_diameter(quick: bool) -> Measured:
    sizes = (64, 256) if quick else (64, 256, 1024)
    diam = {k: {n: _hops(k, n).max() for n in sizes} for k in ("random", "mesh")}
    big = sizes[-1]
    log_ratio = np.log(big) / np.log(64)
    return Measured(float(diam["random"][big] / diam["random"][64] / log_ratio),
                    f"diameters at {', '.join(map(str, sizes))} nodes: random 4-regular "
                    + ", ".join(f"{x:.0f}" for x in diam["random"].values()) + "; square mesh "
                    + ", ".join(f"{x:.0f}" for x in diam["mesh"].values())
                    + f" (the mesh's ratio over log's: "
                    f"{diam['mesh'][big] / diam['mesh'][64] / log_ratio:.2f})")


def _random_fewer_hops(quick: bool) -> Measured:
    sizes = (256,) if quick else (64, 256, 1024)
    mean = {k: {n: _hops(k, n).mean() for n in sizes} for k in ("random", "mesh")}
    return Measured(float(mean["random"][256] / mean["mesh"][256]),
                    "mean hops between distinct routers at " + ", ".join(map(str, sizes))
                    + " nodes: random 4-regular " + ", ".join(f"{x:.2f}" for x in
                                                              mean["random"].values())
                    + "; square mesh " + ", ".join(f"{x:.2f}" for x in mean["mesh"].values()))


def _against_myrinet(quick: bool) -> Measured:
    # At equal channel speed a channel carries one S-Connect message a routing cycle or one
    # flit a cycle, so a message of 10 flits takes a routing cycle's time: both rates are then
    # messages per node per message time
    mesh, _ = _mesh(quick)
    k = mesh.get("topology.radix")[0]
    wormhole = _router_saturation(quick, "wormhole")
    tic = (saturation_throughput(_random64(quick), tol=0.02, points=4) if quick
           else _random256_saturation(quick))
    return Measured(tic / wormhole,
                    f"{k * k} nodes: S-Connect on a random 4-regular graph saturates at "
                    f"{tic:.3f} messages/node/routing cycle, wormhole on the {k} x {k} mesh at "
                    f"{wormhole:.3f} flits/node/cycle, {wormhole:.3f} 10-flit messages/node per "
                    "10 cycles")


# --- Section 3.2: the channel protocol --------------------------------------------------------

def _no_drop_no_duplicate(quick: bool) -> Measured:
    per_source = 40 if quick else 200
    cfg = Config().with_(family="sconnect", kind="torus", radix=[4, 4], offered=0.5,
                         pattern="uniform", packet_size=1, max_packets=per_source,
                         bit_error_rate=0.0029, message_bits=100, threads=1)
    sim = Simulator(cfg)
    sim.step(4000 if quick else 12000)
    got = int(sim.state("delivered_messages").sum())
    return Measured(got / (16 * per_source), f"{got} delivered of {16 * per_source} created, "
                                             "a quarter of all slots corrupted")


# --- Latency in clocks and nanoseconds (sections 3.1, 4.1) ------------------------------------

def _router_clocks(quick: bool) -> Measured:
    cfg = _tic_cube(quick, reserve=-1, offered=0.01)
    r = simulate(cfg)
    extra = (r.latency_mean - 1 - r.hops_mean) / r.hops_mean  # routing cycles a router adds
    slow = simulate(cfg.with_(**{"sconnect.bypass": False}))
    slow_extra = (slow.latency_mean - 1 - slow.hops_mean) / slow.hops_mean
    return Measured(extra * CLOCKS_PER_CYCLE,
                    f"zero load: {r.latency_mean:.2f} cycles over {r.hops_mean:.2f} hops; "
                    f"without bypass a router adds {slow_extra * CLOCKS_PER_CYCLE:.1f} clocks")


def _hop_ns(quick: bool) -> Measured:
    # A hop: the router (< 6 clocks), serialisation (about 5, section 1.2) and 2 m of cable
    # (10 ns), rounded up to whole routing cycles, as the CM requires a channel to be.
    clocks = 6 + 5 + 10e-9 * ALPHA_CLOCK_HZ
    delay = int(np.ceil(clocks / CLOCKS_PER_CYCLE))
    cfg = _tic_cube(quick, reserve=-1, offered=0.01, link_delay=delay)
    r = simulate(cfg)
    per_hop = (r.latency_mean - 1) / r.hops_mean * CLOCKS_PER_CYCLE / ALPHA_CLOCK_HZ * 1e9
    return Measured(per_hop, f"link_delay {delay} routing cycles ({clocks:.1f} clocks rounded "
                             f"up): {per_hop:.0f} ns a hop at 51.84 MHz")


# --- Section 3: the host interface and the reservation; sections 3.1, 3.2: rejected messages --

def _host_port_cycles(host_ports: int, cycles: int) -> tuple[np.ndarray, np.ndarray]:
    """An 8 x 8 torus of TICs (4 channels and the host port, 64 buffers) at offered 1.0, past
    its saturation (0.58), so sources back up and inject in bursts: per routing cycle and
    router, the messages its host injected and those it took."""
    cfg = Config().with_(family="sconnect", kind="torus", radix=[8, 8], pattern="uniform",
                         packet_size=1, offered=1.0, buffers=64, host_ports=host_ports,
                         threads=1)
    sim = Simulator(cfg)
    sim.step(200)
    seen = [sim.state(n).sum(axis=1) for n in ("injected_messages", "delivered_messages")]
    ins, outs = [], []
    for _ in range(cycles):
        sim.step(1)
        now = [sim.state(n).sum(axis=1) for n in ("injected_messages", "delivered_messages")]
        ins.append(now[0] - seen[0])
        outs.append(now[1] - seen[1])
        seen = now
    return np.array(ins), np.array(outs)


def _two_in_two_out(quick: bool) -> Measured:
    cycles = 1000 if quick else 10000
    ins, outs = _host_port_cycles(2, cycles)
    one_in, one_out = _host_port_cycles(1, cycles)
    both = int(((ins == 2) & (outs == 2)).sum())
    return Measured(float(np.minimum(ins, outs).max()),
                    f"{cycles} routing cycles x 64 routers: {both} router-cycles injected 2 while "
                    f"taking 2, {int((ins == 2).sum())} injected 2, {int((outs == 2).sum())} took "
                    f"2 (at most {ins.max()} and {outs.max()}), accepted {outs.mean():.3f} "
                    f"messages/node/cycle; with sconnect.host_ports 1 at most {one_in.max()} in "
                    f"and {one_out.max()} out, accepted {one_out.mean():.3f}")


def _low_priority_buffers(quick: bool) -> Measured:
    # Priority 0 only, and no host takes it (sink_min_priority 1): the pools fill with it as
    # far as the reservation lets them.
    cfg = _tic_cube(quick, priorities=4, reserve=-1, offered=1.0, priority_weights=[1.0],
                    sink_min_priority=1)
    sim = Simulator(cfg)
    most = 0
    for _ in range(20 if quick else 200):
        sim.step(25)
        most = max(most, int(sim.state("class_used")[:, 0, :].sum(axis=1).max()))
    held = sim.state("class_used")[:, 0, :].sum(axis=1)
    return Measured(most, f"by cycle {sim.cycle} the fullest pool held {most} priority-0 "
                          f"messages of 64 (every pool now {held.min()} to {held.max()}), "
                          f"{int(sim.state('delivered_messages').sum())} delivered")


def _never_stuck(quick: bool) -> Measured:
    per_source = 300 if quick else 2000
    cfg = _random64(quick).with_(offered=1.0, max_packets=per_source, bit_error_rate=0.0029,
                                 message_bits=100)
    sim = Simulator(cfg)
    total, most, aged = 64 * per_source, 0, []
    while sim.cycle < 40 * per_source and sim.state("delivered_messages").sum() < total:
        sim.step(1)
        held = sim.state("buf_state") != 0
        age = sim.state("pool_meta")[held] >> 11 & 255  # the age field: failed transmissions
        if age.size:
            most = max(most, int(age.max()))
            aged.append(float((age > 0).mean()))
    got = int(sim.state("delivered_messages").sum())
    return Measured(got / total, f"{got} of {total} messages delivered by cycle {sim.cycle}; "
                                 f"the most failures any message had counted {most}; "
                                 f"{np.mean(aged):.0%} of the messages held had failed at least "
                                 "once")


@functools.lru_cache(maxsize=None)
def _rejections(quick: bool) -> dict[str, int]:
    """A 2 x 2 mesh where only node 0 sends, all to node 3, at offered 1.0. Router 0 may send on
    either of its two channels (its table permits both), and each corrupts 60% of the messages
    it carries (channel_error_threshold), so the receiver refuses them: more than the channels
    can carry, so new messages queue. The X and Y channels have delays 1 and 2, which tells a
    message's channel from when its acknowledgement is due (buf_ready). Stepping one routing
    cycle at a time, each rejection (the age field of a message at router 0 grew: router 0
    holds only its host's messages, so every grown age is a rejection there) is counted: with
    the channel it failed on and the one it was re-routed to, and whether it was sent before
    the messages that had waited in its new queue since the cycle before."""
    cfg = Config().with_(family="sconnect", kind="mesh", radix=[2, 2], pattern="bitcomp",
                         sender_every=4, packet_size=1, offered=1.0, dim_link_delay=[1, 2],
                         threads=1)
    sim = Simulator(cfg)
    mask = int(sim.state("route_ports")[0, 3])
    ports = [p for p in range(sim.state("peer").shape[1]) if mask >> p & 1]
    by_delay = {int(sim.state("link_delay")[0, p]): p for p in ports}
    thr = sim.state("channel_error_threshold")
    thr[0, ports] = int(0.6 * 2**32)
    sim.set_state("channel_error_threshold", thr)
    vc = int(sim.state("route_vc")[0, 3])

    def queues() -> dict[int, list[int]]:
        head, count, nxt = (sim.state(n)[0] for n in ("queue_head", "queue_count", "buf_next"))
        out: dict[int, list[int]] = {}
        for p in ports:
            b, out[p] = head[p, 0, vc], []
            for _ in range(count[p, 0, vc]):
                out[p].append(int(b))
                b = nxt[b]
        return out

    n = dict(rejected=0, other_channel=0, onto_waiting=0, went_first=0)
    last_port: dict[int, int] = {}
    before, age0, key0, ready0 = queues(), None, None, None
    for _ in range(2000 if quick else 20000):
        sim.step(1)
        t = sim.cycle - 1
        meta, state, ready = (sim.state(k)[0] for k in ("pool_meta", "buf_state", "buf_ready"))
        age = meta >> 11 & 255
        key = sim.state("pool_src")[0].astype(np.int64) << 32 | sim.state("pool_seq")[0]
        now = queues()
        fresh = (state == 2) if ready0 is None else (state == 2) & (
            (ready != ready0) | (key != key0))  # sent this cycle, due back in 2 x its delay
        sent_now = {int(b): by_delay[int(ready[b] - t) // 2] for b in np.flatnonzero(fresh)}
        if age0 is not None:
            for b in np.flatnonzero((state != 0) & (key == key0) & (age > age0)):
                b = int(b)
                new = sent_now.get(b, next((p for p in ports if b in now[p]), None))
                if new is None or b not in last_port:
                    continue
                n["rejected"] += 1
                n["other_channel"] += new != last_port[b]
                if before[new]:
                    n["onto_waiting"] += 1
                    n["went_first"] += b in sent_now
        last_port.update(sent_now)
        before, age0, key0, ready0 = now, age.copy(), key.copy(), ready.copy()
    return n


def _other_channel(quick: bool) -> Measured:
    n = _rejections(quick)
    return Measured(n["other_channel"] / n["rejected"] if n["rejected"] else np.nan,
                    f"{n['rejected']} rejections at router 0 (corrupted on arrival), "
                    f"{n['other_channel']} re-routed to the other channel")


def _requeued_first(quick: bool) -> Measured:
    n = _rejections(quick)
    return Measured(n["went_first"] / n["onto_waiting"] if n["onto_waiting"] else np.nan,
                    f"{n['onto_waiting']} of {n['rejected']} rejected messages re-routed onto a "
                    f"queue where messages waited; {n['went_first']} of them sent before those")


# --- Section 3.2: the channel protocol at any length --------------------------------------------

SLOT_S = CLOCKS_PER_CYCLE / ALPHA_CLOCK_HZ  # a routing cycle at 51.84 MHz, 116 ns


def _slots_100m() -> int:
    # As _hop_ns: router and serialisation (11 clocks) and 100 m of fiber at 5 ns/m, in whole
    # routing cycles
    return int(np.ceil((6 + 5 + 100 * 5e-9 * ALPHA_CLOCK_HZ) / CLOCKS_PER_CYCLE))


def _any_length(quick: bool) -> Measured:
    per_source = 40 if quick else 200
    far = _slots_100m()
    delays = (1, 2, far) if quick else (*range(1, far + 1), 16, 64)
    got, done = {}, {}
    for d in delays:
        cfg = Config().with_(family="sconnect", kind="torus", radix=[4, 4], offered=0.5,
                             pattern="uniform", packet_size=1, max_packets=per_source,
                             bit_error_rate=0.0029, message_bits=100, link_delay=d, threads=1)
        sim = Simulator(cfg)
        # Until every message is in, or none has come for 10 round trips and more (a long
        # channel is slower only: 64 buffers, each locked for a round trip, limit a router to
        # 64 messages in flight)
        got[d], still = 0, 0
        while got[d] < 16 * per_source and still < 20 * d + 1000:
            sim.step(250)
            n = int(sim.state("delivered_messages").sum())
            still = 0 if n > got[d] else still + 250
            got[d] = n
        done[d] = sim.cycle
    return Measured(min(got.values()) / (16 * per_source),
                    f"delivered of {16 * per_source} created, a quarter of all slots corrupted, "
                    f"channel delays of " + ", ".join(f"{d} ({d * SLOT_S * 1e9:.0f} ns): {n} "
                                                      f"by cycle {done[d]}"
                                                      for d, n in got.items())
                    + f"; 100 m is {far} routing cycles")


# --- Section 2.5: the distributed phase-locked loop -------------------------------------------

def _pll(K: float = 1e5):
    omega_i = pll.free_running(64, ppm=100, seed=1)
    return pll.model(str(CONFIGS / "sconnect_hypercube64.toml"), omega_i, K=K)


def _pll_omega(quick: bool) -> Measured:
    loop = _pll()
    run = loop.integrate(12 * loop.time_constant, points=100 if quick else 400)
    end = run["frequency"].iloc[-1]
    return Measured(float(end.mean() / loop.omega),
                    f"integrated frequencies after 12 time constants: spread "
                    f"{np.ptp(pll.to_ppm(end)):.1e} ppm, mean {pll.to_ppm(end.mean()):+.4f} ppm; "
                    f"equation 8 {pll.to_ppm(loop.omega):+.4f} ppm")


def _pll_gain(quick: bool) -> Measured:
    loop = _pll()
    tol = pll.RAD_PER_PPM
    t = {}
    for K in (1e5, 2e5):
        m = loop.with_K(K)
        t[K] = pll.settling_time(m.integrate(12 * m.time_constant,
                                             points=200 if quick else 600), tol)
    return Measured(t[1e5] / t[2e5], f"time to lock within 1 ppm: {t[1e5] * 1e6:.1f} us at "
                                     f"K = 1e5/s, {t[2e5] * 1e6:.1f} us at 2e5/s")


R1_R2 = 1.5  # the TIC's R1 > R2 (section 3.3), our choice: the paper gives neither value


def _lock_offset(loop: pll.DistributedPLL, r1_r2: float, quick: bool) -> float:
    """The lock frequency's distance from the mean of the centre frequencies, in ppm, with the
    TIC's comparator range (4 rad: limit 2) through a DAC of R1/R2 = r1_r2 (pll.dac_transfer);
    integrated 12 time constants of its gain at the half-full point."""
    slope = 2 * (r1_r2 - 1) / r1_r2
    run = loop.integrate(12 * loop.time_constant / slope, limit=pll.TIC_COMPARATOR_RANGE / 2,
                         r1_r2=r1_r2, points=40 if quick else 200)
    return float(abs(pll.to_ppm(run["frequency"].iloc[-1].mean())
                     - pll.to_ppm(loop.omega_i.mean())))


def _pf_towards_mean(quick: bool) -> Measured:
    loop = _pll()
    d = np.random.default_rng(1).uniform(0, 0.5, loop.a.shape)
    offset = pll.DistributedPLL(loop.a, loop.omega_i, loop.K, d)
    off = {r: _lock_offset(offset, r, quick) for r in (2.0, R1_R2)}
    zero = {r: _lock_offset(loop, r, quick) for r in (2.0, R1_R2)}
    eq8 = abs(pll.to_ppm(offset.omega) - pll.to_ppm(loop.omega_i.mean()))
    return Measured(off[R1_R2] / off[2.0],
                    f"channel offsets uniform in [0, 0.5] rad: the lock {off[2.0]:.1f} ppm from "
                    f"the mean of the centre frequencies with a linear comparator (R1 = 2 R2; "
                    f"equation 8: {eq8:.1f}), "
                    f"{off[R1_R2]:.1f} with R1 = {R1_R2} R2; with no offsets "
                    f"{zero[2.0]:.1e} and {zero[R1_R2]:.1e} ppm")


# --- Section 3.4: in-band control ---------------------------------------------------------------

def _routes(links: pd.DataFrame) -> dict[int, list[int]]:
    """Each router's source route from the controller's, as Controller.map_topology found it."""
    return {int(r): list(route) for r, route in links.groupby("router").route.first().items()}


def _tables_from_map(links: pd.DataFrame, max_ports: int,
                     drop: frozenset = frozenset()) -> tuple[np.ndarray, np.ndarray]:
    """The controlling computer's routing tables (port masks, VCs: [router, node]) for the graph
    it mapped, less the links in `drop` (frozensets of two routers): the engine's table builder
    on that graph, its ports renumbered to the channels the map found at each router."""
    kept = links[[frozenset((a, b)) not in drop for a, b in zip(links.router, links.neighbour)]]
    edges = [int(x) for r in kept[kept.router < kept.neighbour].itertuples()
             for x in (r.router, r.neighbour, 1)]
    t = routing_table({"topology": {"kind": "graph", "edges": edges, "max_ports": max_ports}})
    channel = {(r.router, r.neighbour): r.port for r in kept.itertuples()}
    ports = t.peer.shape[1]
    mask = np.zeros_like(t.port_mask)
    for r, p in zip(*np.nonzero(t.peer >= 0)):
        bit = channel[int(r), int(t.peer[r, p]) // ports]
        mask[r] |= ((t.port_mask[r] >> p & 1) << bit).astype(mask.dtype)
    return mask, t.vc


def _deliver_all(sim: Simulator, total: int, limit: int) -> int:
    """Steps until `total` messages are delivered or `limit` cycles pass; the messages delivered."""
    got = 0
    while got < total and sim.cycle < limit:
        sim.step(100)
        got = int(sim.state("delivered_messages").sum())
    return got


def _bootstrap(quick: bool) -> Measured:
    cfg = _tic_cube(quick) if quick else _random256().with_(**_windows(quick))
    sim = Simulator(cfg.with_(offered=0.0))
    for name in ("route_ports", "route_vc"):  # no valid routing table anywhere
        sim.set_state(name, np.zeros_like(sim.state(name)))
    ctl = Controller(sim, node=0)
    links = ctl.map_topology()
    mapped = sim.cycle
    ports, vc = _tables_from_map(links, cfg.get("topology.max_ports"))
    loading = ctl.load_tables(ports, vc, _routes(links))
    # The applications start: the same network with its downloaded tables, now with traffic
    per_source, nodes = (50 if quick else 100), len(ports)
    run = Simulator(cfg.with_(offered=0.2, max_packets=per_source))
    for name in ("route_ports", "route_vc"):
        run.set_state(name, sim.state(name))
    got = _deliver_all(run, nodes * per_source, 40 * per_source)
    wired = int((sim.state("peer") >= 0).sum())
    return Measured(got / (nodes * per_source),
                    f"{nodes} routers: {len(links)} of {wired} channels mapped in {mapped} "
                    f"routing cycles, {ports.size} table entries loaded in {loading}; then "
                    f"{got} of {nodes * per_source} messages delivered by cycle {run.cycle}")


NOISY = (9, 3)  # router 9's channel 3, to router 13 of the hypercube


def _isolation(quick: bool) -> Measured:
    # The noisy channel corrupts 40% of its slots, the others none
    cfg = _tic_cube(quick, offered=0.5, noisy_channels=list(NOISY), noisy_bit_error_rate=0.005,
                    message_bits=100)
    sim = Simulator(cfg)
    ctl = Controller(sim, node=0)
    links = ctl.map_topology()
    routes = _routes(links)
    noisy = _result(sim)  # the error registers count in a run's window
    errors = ctl.many([("read_register", route, ERRORS + p) for route in routes.values()
                       for p in range(1, ctl.ports)])
    worst = errors.loc[errors.value.idxmax()]
    at = {tuple(route): r for r, route in routes.items()}[tuple(worst.route)]
    port = int(worst.arg) - ERRORS
    far = links[(links.router == at) & (links.port == port)].iloc[0]
    # Both ends' transmitters off, then tables that avoid the channel
    for r, p in ((at, port), (int(far.neighbour), int(far.neighbour_port))):
        on = ctl.read_register(routes[r], "channels")
        ctl.write_register(routes[r], "channels", on & ~(1 << p))
    ports, vc = _tables_from_map(links, cfg.get("topology.max_ports"),
                                 frozenset({frozenset((at, int(far.neighbour)))}))
    ctl.load_tables(ports, vc, routes)
    clean = _result(sim)
    return Measured(clean.error_fraction,
                    f"corrupted per message sent {noisy.error_fraction:.2e} before; the largest "
                    f"error register router {at} channel {port} ({int(worst.value)} errors; "
                    f"the noisy one: router {NOISY[0]} channel {NOISY[1]}), switched off at "
                    f"both ends and tables "
                    f"reloaded by control messages; after: accepted {clean.accepted:.3f} of "
                    f"0.5, {clean.lost} lost, {clean.error_fraction:.2e} corrupted")


def _channel_counter(quick: bool) -> Measured:
    """A line of 4 routers, node i sending to node 3 - i (traffic.pattern bitcomp): the channel
    from router 1 to router 2 carries exactly the messages nodes 0 and 1 create, while router 1
    also sends node 3's towards node 0. Router 1's counter is on the first from cycle 0; the
    controller at node 0 reads it by a control message."""
    per_source = 100 if quick else 1000
    sim, port = _line(1, pattern="bitcomp", offered=0.3, max_packets=per_source)
    sel = sim.state("perf_select")
    sel[1] = SENT_ON_PORT + port
    sim.set_state("perf_select", sel)
    _deliver_all(sim, 4 * per_source, 40 * per_source)
    counted = Controller(sim, node=0).read_register([1], "perf_count")
    crossing = int(sim.state("injected_messages")[:2].sum())
    return Measured(counted / crossing,
                    f"router 1's counter on channel {port} read {counted}; nodes 0 and 1 "
                    f"injected {crossing} (all delivered: "
                    f"{int(sim.state('delivered_messages').sum())} of {4 * per_source})")


def _timers(quick: bool) -> Measured:
    # Every TIC's timer set off at random, then corrected from node 0 by time-stamped control
    # packets (Controller.timer_offset) and atomic adds
    sim = Simulator(_tic_cube(quick, offered=0.3) if quick
                    else _random256().with_(offered=0.15, **_windows(quick)))
    rng = np.random.default_rng(1)
    sim.set_state("timer", rng.integers(0, 1 << 16, sim.state("timer").shape).astype(np.uint16))
    sim.step(200)
    ctl = Controller(sim, node=0)
    routes = _routes(ctl.map_topology())
    before = sim.state("timer").astype(int)
    for route in routes.values():
        if route:  # the median of 3 stamps: a round trip's halves queue differently under load
            ahead = int(np.median([ctl.timer_offset(route) for _ in range(3)]))
            ctl.write_register(route, "timer", -ahead % (1 << 16))
    after = sim.state("timer").astype(int)
    spread = int(np.ptp((after - after[0] + (1 << 15)) % (1 << 16)))
    return Measured(spread, f"{len(routes)} timers, spread {np.ptp(before)} cycles before, "
                            f"{spread} after")


# --- Sections 3, 6: nodes of two TICs, adaptive against fixed routes ---------------------------

def _dual_tic(quick: bool) -> Measured:
    n = 64 if quick else 256
    base = Config().with_(family="sconnect", kind="random_regular", nodes=n, max_ports=4,
                          pattern="uniform", packet_size=1, **_windows(quick))
    sat = {k: saturation_throughput(base.with_(degree=d, dual_tic=k == "dual"), tol=0.02,
                                    points=4) for k, d in (("single", 4), ("dual", 8))}
    return Measured(sat["dual"] / sat["single"],
                    f"random graphs of {n} nodes, saturation: dual-TIC nodes with 8 channels "
                    f"{sat['dual']:.3f}, single TICs with 4 {sat['single']:.3f} messages/node/"
                    "cycle (offered at most 1)")


def _one_port(mask: np.ndarray, seed: int) -> np.ndarray:
    """A fixed route: one of each table entry's permitted channels, drawn at random."""
    bits = (mask[..., None] >> np.arange(32, dtype=mask.dtype)) & 1
    pick = np.where(bits, np.random.default_rng(seed).random(bits.shape), -1).argmax(-1)
    return np.where(mask > 0, np.ones_like(mask) << pick.astype(mask.dtype), 0).astype(mask.dtype)


def _fixed_route(quick: bool) -> Measured:
    cfg = Config().with_(family="sconnect", kind="torus", radix=[8, 8], pattern="uniform",
                         packet_size=1, **_windows(quick))
    seeds = range(1, 3 if quick else 6)

    def peak(seed: int | None) -> float:  # the most accepted at 0.6 and at 1.0
        out = []
        for load in (0.6, 1.0):
            sim = Simulator(cfg.with_(offered=load))
            if seed is not None:
                sim.set_state("route_ports", _one_port(sim.state("route_ports"), seed))
            out.append(_result(sim).accepted)
        return max(out)

    adaptive, fixed = peak(None), [peak(s) for s in seeds]
    return Measured(adaptive / float(np.mean(fixed)),
                    f"8 x 8 torus, uniform: the table's choice by pending messages "
                    f"{adaptive:.3f}; one channel per (router, destination) drawn from the "
                    "table, seeds " + ", ".join(f"{x:.3f}" for x in fixed))


# --- Sections 2.3, 3: strict priorities, real-time traffic ---------------------------------------

def _result(sim: Simulator) -> Result:
    """The result of `sim.run()` for a Simulator of one instance."""
    r = sim.run()
    assert isinstance(r, Result), "one instance"
    return r


def _sent_this_cycle(sim: Simulator, before: tuple | None) -> tuple[np.ndarray, tuple]:
    """Buffers [router, buffer] whose message was sent in the cycle just stepped (newly sent, or
    sent again under a new acknowledgement time), given the snapshot the call before returned
    (none: no buffer counts as sent)."""
    state, ready = sim.state("buf_state"), sim.state("buf_ready")
    key = sim.state("pool_src").astype(np.int64) << 32 | sim.state("pool_seq")
    if before is None:
        return np.zeros(state.shape, dtype=bool), (ready, key)
    return (state == 2) & ((ready != before[0]) | (key != before[1])), (ready, key)


def _strict_priority(quick: bool) -> Measured:
    # 4 priorities in equal shares over the line's channel from router 1 to 2, offered twice
    # what it carries
    sim, port = _line(1, priority_weights=[0.25] * 4)
    sim.step(500)
    queued = sim.state("queue_count")[1, port].sum(axis=1)  # [priority]
    _, snap = _sent_this_cycle(sim, None)
    contested = top = 0
    by_priority = np.zeros(4, int)
    for _ in range(3000 if quick else 20000):
        sim.step(1)
        fresh, snap = _sent_this_cycle(sim, snap)
        for p in sim.state("pool_meta")[1][fresh[1]] & 3:  # router 1 sends on `port` only
            by_priority[p] += 1
            if np.count_nonzero(queued) > 1:
                contested += 1
                top += p >= np.flatnonzero(queued).max()
        queued = sim.state("queue_count")[1, port].sum(axis=1)
    return Measured(top / contested,
                    f"{contested} slots sent while messages of two or more priorities were "
                    f"queued, {top} of them at the highest queued; slots by priority 0-3: "
                    + ", ".join(map(str, by_priority)))


def _realtime_latency(low: float, cycles: int, weights: list | None = None) -> tuple[float, float]:
    """8 x 8 torus, priority 0 uniform at `low` and a priority-3 stream of 0.05 a node: the
    stream's mean network latency (Little's law: messages in flight over the rate) and the
    rate delivered, per node."""
    cfg = Config().with_(family="sconnect", kind="torus", radix=[8, 8], pattern="uniform",
                         packet_size=1, offered=low + 0.05, threads=1,
                         priority_weights=weights or [low, 0, 0, 0.05])
    sim = Simulator(cfg)
    sim.step(1000)
    p = 3 if weights is None else 0
    start, inflight = sim.state("delivered_messages")[:, p].sum(), 0
    for _ in range(cycles // 10):
        sim.step(10)
        inflight += sim.state("injected_messages")[:, p].sum() - sim.state(
            "delivered_messages")[:, p].sum()
    rate = (sim.state("delivered_messages")[:, p].sum() - start) / cycles
    return inflight / (cycles // 10) / rate, rate / 64


def _realtime(quick: bool) -> Measured:
    cycles = 2000 if quick else 10000
    light, busy = (_realtime_latency(x, cycles) for x in (0.15, 0.95))
    one = "" if quick else (f"; with one priority for all, "
                            f"{_realtime_latency(0.95, cycles, [1.0])[0]:.0f} cycles")
    return Measured(busy[0] / light[0],
                    f"priority-3 stream of 0.05 a node: {light[0]:.2f} cycles with priority 0 "
                    f"at 0.15, {busy[0]:.2f} at 0.95 (saturated), delivering {light[1]:.4f} and "
                    f"{busy[1]:.4f} a node" + one)


# --- Sections 2, 3.1: every channel at line rate, both ways at once -----------------------------

def _full_duplex(quick: bool) -> Measured:
    cfg = Config().with_(family="sconnect", kind="torus", radix=[8, 8], pattern="uniform",
                         packet_size=1, offered=1.0, threads=1)
    sim = Simulator(cfg)
    sim.step(500)
    channels = sim.state("peer").shape[1] - 1
    full = sim.state("queue_count")[:, 1:].sum(axis=(2, 3)).all(axis=1)  # every channel queued
    _, snap = _sent_this_cycle(sim, None)
    cycles = sent = 0
    for _ in range(1000 if quick else 10000):
        sim.step(1)
        fresh, snap = _sent_this_cycle(sim, snap)
        cycles += int(full.sum())
        sent += int(fresh[full].sum())
        full = sim.state("queue_count")[:, 1:].sum(axis=(2, 3)).all(axis=1)
    return Measured(sent / (channels * cycles),
                    f"{cycles} router-cycles with a message queued on each of the "
                    f"{channels} channels, {sent} messages sent in them; accepted "
                    f"{sim.state('delivered_messages').sum() / sim.cycle / 64:.3f} "
                    "messages/node/cycle")


# --- Section 3.2: quad-messages -----------------------------------------------------------------

def _quads_whole(quick: bool) -> Measured:
    # One packet in 4 a quad, a quarter of all slots corrupted, offered 1.0; one host port, so a
    # host takes one message or one whole quad a cycle and a split quad shows as 2 or 3
    per_source = 100 if quick else 1000
    cfg = Config().with_(family="sconnect", kind="torus", radix=[4, 4], pattern="uniform",
                         packet_sizes=[1, 4], packet_size_weights=[3, 1], offered=1.0,
                         max_packets=per_source, bit_error_rate=0.0029, message_bits=100,
                         reserve=4, host_ports=1, threads=1)
    sim = Simulator(cfg)
    seen = sim.state("delivered_messages").sum(axis=1)
    took = np.zeros(9, int)  # node-cycles by messages taken
    while sim.cycle < 40 * per_source and took[[1, 4]].sum() < 16 * per_source:
        sim.step(1)
        now = sim.state("delivered_messages").sum(axis=1)
        took += np.bincount(np.minimum(now - seen, 8).astype(int), minlength=9)
        seen = now
    injected = int(sim.state("injected_messages").sum())
    quads = (injected - int(sim.state("packets_created").sum())) / 3  # a quad: 1 packet, 4 messages
    return Measured(took[4] / quads,
                    f"{quads:.0f} quads and {injected - 4 * quads:.0f} single messages created; "
                    f"by cycle {sim.cycle} hosts took {took[4]} whole quads and {took[1]} "
                    f"single messages; node-cycles taking 2, 3 or more than 4 messages: "
                    f"{took[[2, 3]].sum() + took[5:].sum()}")


# --- Section 2.4: deadlock freedom on irregular graphs --------------------------------------------

def _irregular(n: int, seed: int) -> list[int]:
    """A connected graph of n routers of 2 to 4 channels (a random tree, then random links up to
    each router's drawn degree), as topology.edges."""
    rng = np.random.default_rng(seed)
    deg, edges = np.zeros(n, int), set()
    order = rng.permutation(n)
    for i in range(1, n):
        j = order[rng.integers(i)]
        while deg[j] == 4:
            j = order[rng.integers(i)]
        edges.add((min(order[i], j), max(order[i], j)))
        deg[[order[i], j]] += 1
    want = rng.integers(2, 5, n)
    for a, b in rng.integers(n, size=(20 * n, 2)):
        if a != b and deg[a] < want[a] and deg[b] < want[b] and (min(a, b), max(a, b)) not in edges:
            edges.add((min(a, b), max(a, b)))
            deg[[a, b]] += 1
    return [int(x) for e in sorted(edges) for x in (*e, 1)]


def _irregular_deadlock(quick: bool) -> Measured:
    graphs = [(64, s) for s in range(1, 7 if quick else 31)] + ([] if quick else
                                                              [(256, s) for s in range(1, 6)])
    free = stuck_vc0 = 0
    accepted = []
    for n, seed in graphs:
        cfg = Config().with_(family="sconnect", kind="graph", edges=_irregular(n, seed),
                             max_ports=4, pattern="uniform", packet_size=1, offered=1.0,
                             warmup=500, measure=2000 if quick else 5000, drain=0, threads=1,
                             watchdog=1000)
        for vc0 in (False, True):  # the table's VCs; then every destination on VC 0
            sim = Simulator(cfg)
            if vc0:
                sim.set_state("route_vc", np.zeros_like(sim.state("route_vc")))
            try:
                r = _result(sim)
            except SimulationError:
                stuck_vc0 += vc0
                continue
            if not vc0:
                free += 1
                accepted.append(r.accepted)
    sizes = " and ".join(str(n) for n in sorted({n for n, _ in graphs}))
    return Measured(free / len(graphs),
                    f"{len(graphs)} graphs ({sizes} routers), offered 1.0: {free} ran without "
                    f"the watchdog firing (accepted {min(accepted):.3f} to "
                    f"{max(accepted):.3f}); with every destination on VC 0, {stuck_vc0} "
                    "deadlocked")


# --- Section 2.5: the limiting phase detector ---------------------------------------------------

def _pll_limited(quick: bool) -> Measured:
    loop = _pll()
    phi0 = np.random.default_rng(1).uniform(-20, 20, loop.n)  # most channels far past the clip
    i, j = np.nonzero(loop.a)  # the channels j -> i
    err = phi0[j] - phi0[i]
    run = loop.integrate(24 * loop.time_constant, phi0=phi0, limit=pll.TIC_COMPARATOR_RANGE / 2,
                         points=40 if quick else 200)
    end = run["frequency"].iloc[-1]
    return Measured(float(np.ptp(pll.to_ppm(end))),
                    f"initial phases uniform in +-20 rad ({np.mean(np.abs(err) > 2):.0%} of the "
                    f"channels beyond the clip of 2 rad): after 24 time constants the "
                    f"frequencies spread {np.ptp(pll.to_ppm(end)):.1e} ppm (at the start "
                    f"{np.ptp(pll.to_ppm(loop.omega_i)):.0f}), mean "
                    f"{pll.to_ppm(end.mean()) - pll.to_ppm(loop.omega):+.1e} ppm from equation 8")



def _pll_transient(quick: bool) -> Measured:
    """A transient error on the locked hypercube (node 0's phase slips a radian): the peak
    frequency excursion it causes at K/4 over that at K = 1e5/s, and the time to lock again."""
    loop, ppm = _pll(), pll.RAD_PER_PPM
    peak, settle = {}, {}
    for K in (1e5, 2.5e4):
        m = loop.with_K(K)
        phi0 = m.phase_offsets.copy()
        phi0[0] += 1.0
        run = m.integrate(12 * m.time_constant, phi0=phi0, limit=pll.TIC_COMPARATOR_RANGE / 2,
                          points=100 if quick else 400)
        peak[K] = float((run["frequency"] - m.omega).abs().to_numpy().max() / ppm)
        settle[K] = pll.settling_time(run, 1e-3 * ppm)
    return Measured(peak[2.5e4] / peak[1e5],
                    f"a one-radian slip of node 0: peak excursion {peak[1e5]:.0f} ppm at K = "
                    f"1e5/s, {peak[2.5e4]:.0f} at 2.5e4/s; back within 0.001 ppm after "
                    f"{settle[1e5] * 1e6:.0f} and {settle[2.5e4] * 1e6:.0f} us")

# --- Section 2.6: a faulty oscillator ------------------------------------------------------------

TUNING_PPM = 200  # the VXCOs' tuning range, our choice: the paper says only "narrow"


def _faulty_oscillator(quick: bool) -> Measured:
    """The nodes' frequency spread once the loop has settled, node 0's oscillator `off` ppm
    from 51.84 MHz, the others within +-100 ppm, every VXCO steerable by +-TUNING_PPM."""
    loop, ppm = _pll(), pll.RAD_PER_PPM
    spread, where = {}, {}
    for off, tuning in ((1000, TUNING_PPM), (1000, None), (150, TUNING_PPM)):
        omega_i = loop.omega_i.copy()
        omega_i[0] = 2 * np.pi * pll.TIC_CLOCK_HZ * (1 + off * 1e-6)
        m = pll.DistributedPLL(loop.a, omega_i, loop.K)
        end = m.integrate(24 * m.time_constant, limit=pll.TIC_COMPARATOR_RANGE / 2,
                          tuning=None if tuning is None else tuning * ppm,
                          points=40 if quick else 200)["frequency"].iloc[-1]
        spread[off, tuning] = float(np.ptp(pll.to_ppm(end)))
        where[off, tuning] = (float(pll.to_ppm(end[0])), float(pll.to_ppm(end[1:].mean())))
    bad = where[1000, TUNING_PPM]
    return Measured(spread[1000, TUNING_PPM],
                    f"node 0 at +1000 ppm: it runs at {bad[0]:+.0f} ppm, the others at "
                    f"{bad[1]:+.0f}; with no tuning limit the spread is "
                    f"{spread[1000, None]:.1e} ppm, and with node 0 at +150 ppm (in range) "
                    f"{spread[150, TUNING_PPM]:.1e} ppm")

# --- Section 3.4: the PLL diagnostic ------------------------------------------------------------

def _pll_diagnostics(quick: bool) -> Measured:
    """Every node's free-running frequency read back from FIFO slips: the hypercube locked,
    then its loop opened for 1 s; each channel's under- and overflows give omega_j - omega_i,
    and least squares over the 384 channels gives each node against their mean."""
    loop, ppm = _pll(), pll.RAD_PER_PPM
    locked = loop.integrate(24 * loop.time_constant, limit=pll.TIC_COMPARATOR_RANGE / 2,
                            points=40)
    phi = locked["phase"].iloc[-1].to_numpy()
    closed = loop.fifo_slips(loop.integrate(100 * loop.time_constant, phi0=phi,
                                            limit=pll.TIC_COMPARATOR_RANGE / 2, points=2))
    T = 1.0
    s = loop.fifo_slips(loop.open_loop([0.0, T], phi))
    est = loop.offsets_from_slips(s, T)
    true = loop.omega_i - loop.omega_i.mean()
    err = float(np.abs(est - true).max() / ppm)
    return Measured(err, f"{len(s)} channels slipped {int(np.abs(s.slips).min())} to "
                         f"{int(np.abs(s.slips).max())} words in 1 s with the loop open; the "
                         f"nodes' offsets (spread {np.ptp(true) / ppm:.0f} ppm) read back "
                         f"within {err:.3f} ppm; with the loop closed "
                         f"{int(np.abs(closed.slips).max())} slips in 100 time constants")


D = "004"
F2_3 = ("Figures 2 and 3 show the performance of wormhole vs. VC-routers for 256 node systems "
        "subjected to “difficult” traffic patterns ... ")
CLAIMS = [
    Claim("sconnect.fig1_fixed", D, "section 2, Figure 1",
          "fixed length messages offer higher saturation throughput (75% vs. 64%)",
          Near(0.75, abs=0.015), _fig1_saturation("fixed"),
          "ls.sconnect.ideal_router.saturation(s, 'fixed', **figure1(s)): 8 x 8, one buffer per "
          "channel released as the message starts to leave (our reading of 'zero buffer "
          "transfer times'); 8 replicas of 1,500 slots (full: 64 of 20,000)", REPRODUCED,
          "of an output's capacity"),
    Claim("sconnect.fig1_exponential", D, "section 2, Figure 1",
          "fixed length messages offer higher saturation throughput (75% vs. 64%)",
          Near(0.64, abs=0.015), _fig1_saturation("exponential"),
          "as sconnect.fig1_fixed with exponential lengths of mean 1, 16 replicas of 250 "
          "mean lengths, a fifth of them warm-up (full: 64 replicas of 4,000)", REPRODUCED,
          "of an output's capacity"),
    Claim("sconnect.fig1_same_saturation", D, "section 2, Figure 1",
          "the saturation throughput for either structure is the same",
          Near(1.0, abs=0.02), _fig1_same,
          "crossbar over pool saturation, fixed lengths, as sconnect.fig1_fixed", REPRODUCED,
          "ratio"),
    Claim("sconnect.fig1_pool_latency", D, "section 2, Figure 1",
          "the buffer pool approach has lower latencies", Between(0, 0.99), _fig1_latency,
          "ls.sconnect.ideal_router.simulate, fixed lengths at 0.3, 0.5 and 0.65, pool over "
          "crossbar mean latency at 0.65 (2 replicas of 1,500 slots; full 8 of 10,000)",
          REPRODUCED, "ratio"),
    Claim("sconnect.fig1_more_buffers", D, "section 2, Figure 1",
          "The actual router differs from the ideal model by having more than one buffer per "
          "channel and by not preserving message order which allows adaptive control "
          "algorithms. Combining these features result in better channel utilization and "
          "higher saturation throughput", Between(1.0), _fig1_buffers,
          "ls.sconnect.ideal_router.saturation('pool', 'fixed', buffers=8 k, release='start'): "
          "the pool with k = 2 buffers per channel over k = 1 (Figure 1's, 0.752), 8 replicas "
          "of 1,500 slots (full: 64 of 20,000). Only the buffers are measured: in the pool the "
          "order in which an output serves its messages does not change which outputs are "
          "busy, so giving up order alone cannot raise the saturation (an experiment filling "
          "the pool and serving the outputs in random order, not oldest first, gave the same "
          "0.752 and 0.845); order matters "
          "through the adaptive choice of channel it permits, which the one-stage ideal "
          "router, one output per destination, does not have", REPRODUCED, "ratio"),
    Claim("sconnect.fig1_bimodal", D, "section 2, Figure 1",
          "Other length distributions show similar degradations, in particular bimodal "
          "distributions hurt performance if relatively few long messages are added to a "
          "traffic of predominantly short messages", Between(0, 0.99), _fig1_bimodal,
          "ls.sconnect.ideal_router.saturation('pool', 'bimodal', **figure1('pool')): "
          "messages of 1 slot with 5% of 4 slots (the TIC's quad-messages, section 3.2's "
          "footnote; the paper gives no mix), saturation over that of fixed lengths "
          "(sconnect.fig1_fixed), 8 replicas of 1,500 mean lengths (full: 64 of 20,000); "
          "below 0.99, a loss well beyond the runs' spread (about 0.005)", REPRODUCED,
          "ratio"),
    Claim("sconnect.wormhole_below_40", D, "section 2.1",
          "The downside of wormhole routing is its relatively low throughput, generally below "
          "40%", Between(0, 0.40), _wormhole_share,
          "vc router, 16 x 16 mesh (quick: 8 x 8), dimension order, 1 VC of 4 flits, wormhole, "
          "10-flit messages, uniform; ls.saturation_throughput (tol 0.02) over the bisection "
          "bound 4/k", REPRODUCED, "of the bisection bound"),
    Claim("sconnect.cut_through_doubles", D, "section 6; section 2.1, Figures 2 and 3",
          "S-Connect does not use wormhole routing, which more than doubles the saturation "
          "throughput", Between(2.0), _cut_through_gain,
          "vc router as sconnect.wormhole_below_40 (wormhole, dimension order, 1 VC of 4 "
          "flits) against S-Connect's VC router read as minimal adaptive cut-through "
          "(router.flow_control = vct, routing min_adaptive), 40 flits (4 messages) a port as "
          "2 VCs of 20; the other reading, dimension-order cut-through with 1 VC of 40, "
          "doubles here too (the full run's message). The document gives no buffer sizes, and "
          "they decide it (dimension order, 1 VC): on the 8 x 8 mesh wormhole 2, 4, 10, 20 flits "
          "saturate at 0.08, 0.14, 0.25, 0.28, cut-through 10, 20, 40 at 0.16, 0.28, 0.33 "
          "(16 x 16: 0.02, 0.07, 0.13, 0.16 against 0.08, 0.14, 0.18); with equal buffers "
          "wormhole carries as much or more. The paper's case is wormhole whose buffers are "
          "a fraction of a message ('the communication channels serve also as buffers')",
          REPRODUCED, "x"),
    Claim("sconnect.cut_through_hotspot", D, "section 2.1, Figures 2 and 3; section 6",
          F2_3 + "the hot-spot traffic singles out a particular node, which receives higher "
          "traffic ... S-Connect does not use wormhole routing, which more than doubles the "
          "saturation throughput", Between(2.0), _pattern_gain("hotspot"),
          "as sconnect.cut_through_doubles on the 16 x 16 mesh, traffic.pattern hotspot: node "
          "136 (the centre) receives 4 times an average node's traffic (hotspot_fraction "
          "3/255), which puts its ejection bound at the bisection bound, 0.25; saturation "
          "within 2% (a coarse search, then a fine one). Dimension-order cut-through sits on "
          "the line: seeds 2 and 3 give 2.01 and 2.03, and on 8 x 8 (a hot node of 2 times, the "
          "same rule) 1.97 (wormhole 0.155, cut-through 0.305), so the quick case keeps the 256 "
          "nodes with windows of 500/1,000/1,000 cycles. The paper gives no share: with "
          "lockstep's default (20% of packets to node 0) both routers are bound by node 0's "
          "ejection at 0.019 (wormhole 0.011, cut-through 0.018: 1.6)", REPRODUCED, "x"),
    Claim("sconnect.cut_through_fft", D, "section 2.1, Figures 2 and 3; section 6",
          F2_3 + "FFT and Bit-reversal are traffics associated with data structures used in "
          "fast fourier transform codes ... S-Connect does not use wormhole routing, which "
          "more than doubles the saturation throughput", Between(2.0), _pattern_gain("fft"),
          "as sconnect.cut_through_doubles (16 x 16; quick 8 x 8), traffic.pattern fft (each "
          "packet to the node whose number differs in one bit, our reading of [13]); "
          "saturation within 2%. A packet moves in one dimension, so adaptive routing has no "
          "choice: the gain is the 2 VCs'. Dimension-order cut-through's one FIFO of 40 a port "
          "reaches 1.89x (8 x 8: 1.73x; 80 flits in one VC 2.09x), 60% of the 0.8 that "
          "dimension order lets any router carry; a packet behind a blocked one may pass it "
          "with 2 VCs, and with 2 VCs on both sides (wormhole 2 of 2 flits: 0.290) it is 2.01x",
          REPRODUCED, "x"),
    Claim("sconnect.cut_through_bitrev", D, "section 2.1, Figures 2 and 3; section 6",
          F2_3 + "FFT and Bit-reversal are traffics associated with data structures used in "
          "fast fourier transform codes ... S-Connect does not use wormhole routing, which "
          "more than doubles the saturation throughput", Between(2.0),
          _pattern_gain("bitrev"),
          "as sconnect.cut_through_doubles (16 x 16; quick 8 x 8), traffic.pattern bitrev; "
          "saturation within 2%. The doubling is the adaptive routing's: under dimension order "
          "15 of the 256 flows meet on the busiest channel (7 of 64 on 8 x 8), so no router so "
          "routed carries more than 1/15 = 0.067; dimension-order cut-through gives 1.46x (90% of "
          "that bound against wormhole's 61%; 8 x 8 1.46x); minimal adaptive wormhole (2 VCs of 10 "
          "flits, the least it allows) carries 0.107 (dimension order with 2 VCs of 2: 0.045)",
          REPRODUCED, "x"),
    Claim("sconnect.cut_through_transpose", D, "section 2.1, Figures 2 and 3; section 6",
          F2_3 + "The transpose traffic results from the transposition of distributed, dense "
          "matrices ... S-Connect does not use wormhole routing, which more than doubles the "
          "saturation throughput", Between(2.0), _pattern_gain("transpose"),
          "as sconnect.cut_through_doubles (16 x 16; quick 8 x 8), traffic.pattern transpose; "
          "saturation within 2%. The doubling is the adaptive routing's, as for "
          "sconnect.cut_through_bitrev: under dimension order the busiest channel carries 15 "
          "of the 256 flows (7 of 64 on 8 x 8), a bound of 0.067 for any router so routed; "
          "dimension-order cut-through gives 1.46x (8 x 8 1.42x); minimal adaptive wormhole (2 "
          "VCs of 10 flits) carries 0.124 (dimension order with 2 VCs of 2: 0.048)",
          REPRODUCED, "x"),
    Claim("sconnect.cut_through_normal", D, "section 2.1, Figures 2 and 3",
          F2_3 + "The normal traffic is associated with divide and conquer algorithms that "
          "distribute or combine data, without broadcasting. Details on these traffic loads "
          "are given in [13]", None, None, "no such traffic pattern", NOT_REPRODUCIBLE, "x",
          lacks="the normal traffic's destinations (which nodes exchange, in what share), "
                "left to reference [13], which the document does not describe"),
    Claim("sconnect.adaptive_wormhole", D, "section 2.1",
          "Subsequent proposals for adaptive wormhole routing algorithms improved behavior in "
          "the case of traffic contention, but did not substantially increase the saturation "
          "throughput", Between(0, 1.1), _adaptive_wormhole,
          "vc router as sconnect.wormhole_below_40 (16 x 16 mesh, quick 8 x 8, uniform, "
          "10-flit messages) but with 2 VCs of 10 flits, as router.routing min_adaptive needs "
          "(an escape VC, whole packets): saturation with min_adaptive over dor, within 2% "
          "(quick 5%); 'substantially' read as more than 10%. Under transpose, contention "
          "that dimension order concentrates, minimal adaptive wormhole does raise it: 0.28 "
          "against 0.141 on 8 x 8", REPRODUCED, "ratio"),
    Claim("sconnect.tic_lower_efficiency_pool10", D, "section 3",
          "the transmitter work assignment proceeds in a fixed order ... This results in "
          "slightly lower efficiency", Between(1.0, 3.0), _tic_efficiency(10),
          "configs/sconnect_hypercube64.toml (Figure 5's pool of 10, its sent messages waiting "
          "for their acknowledgements outside it: sconnect.unacknowledged channel), offered "
          "0.8, mean latency of sconnect.assignment tic over near_optimal. With the TIC's "
          "channel module, where a sent message keeps its pool buffer locked until "
          "acknowledged (unacknowledged pool, reserve 1), the order reverses: TIC 17.5, "
          "Figure 4 63.2 cycles (0.28), as 6 of the 10 buffers are often locked and Figure 4's "
          "step 4 misroutes from 0.7 offered; Figure 4's 'save all unsent messages in the "
          "buffer pool' and 'one for each channel plus 4 spares' read as a pool of unsent "
          "messages (2026-11-28)", REPRODUCED, "ratio"),
    Claim("sconnect.tic_lower_efficiency_pool24", D, "section 3",
          "the transmitter work assignment proceeds in a fixed order ... This results in "
          "slightly lower efficiency", Between(1.0, 3.0), _tic_efficiency(24),
          "as sconnect.tic_lower_efficiency_pool10 with a pool of 24 (reserve 4, the "
          "default); with locked buffers (unacknowledged pool, reserve 1) 1.06", REPRODUCED,
          "ratio"),
    Claim("sconnect.larger_pool_counters", D, "section 3",
          "this effect is countered by having a much larger buffer pool: the TIC chip has 64 "
          "buffers while the simulations were based on only 4 buffers", Between(1.0),
          _pool_counters,
          "64-node hypercube at offered 1.0: accepted with the TIC's assignment and 64 buffers "
          "(reserve by default; the TIC's channel module: unacknowledged pool) over Figure 4's "
          "with the simulations' pool of 10 (configs/sconnect_hypercube64.toml)", REPRODUCED,
          "ratio"),
    Claim("sconnect.near_optimal", D, "section 2.2, Figures 4 and 5",
          "Figure 4 outlines a near optimal adaptive algorithm, in the sense that simulation "
          "results were within the statistical error limits of simulations that were based on "
          "a router that solves the optimal assignment problem", Near(1.0, rel=0.03),
          _near_optimal,
          "configs/sconnect_hypercube64.toml (Figure 5's 64-node hypercube, pool of 10), "
          "offered 1.0: accepted with sconnect.assignment near_optimal over optimal (a maximum "
          "bipartite matching each routing cycle, the paper's 'bipartite cardinality matching "
          "problem'), means over seeds 1-5 (quick: 1-2); within 3%, about two standard "
          "deviations of one run", REPRODUCED, "ratio"),
    Claim("sconnect.misroutes_1pct", D, "section 2.2, Figure 4",
          "this is a rather infrequent event, that occurs in large systems in about 1% of all "
          "messages under saturation conditions", Between(0.005, 0.02), _misroutes,
          "Figure 4's assignment (near_optimal), configs/sconnect_hypercube64.toml (pool of "
          "10 unsent messages, reserve 2), offered 1.0, just past its knee (0.95: 0.43%): "
          "misroutes per delivered message = misroute_fraction x hops / (1 - "
          "reject_fraction). With the TIC's locked buffers (unacknowledged pool) 10.4%, a "
          "quarter of the transmissions refused; with reserve 1, 5.4% (accepted 0.88 against "
          "0.98). Larger hypercubes with one buffer a channel plus 4 spares and the default "
          "reserve go past their knees by 0.9 and misroute more: 256 nodes (12 buffers) 1.8% "
          "at 0.9, 1,024 (14) 3.1%; with 24 buffers 1,024 nodes misroute 0.4-0.6% at 0.95-1.0 "
          "(2026-11-28). The paper's 'large systems' are not sized", REPRODUCED,
          "per message"),
    Claim("sconnect.priority_guarantee", D, "section 2.3",
          "a message of priority n+1 will be delivered, even if the entire system has been "
          "saturated with messages of priority n or lower, and no node is removing any low "
          "priority message", Near(1.0), _priority_guarantee,
          "64-node hypercube, 64 buffers, reserve 1, 90% priority 0 that no host takes "
          "(sconnect.sink_min_priority 1), 10% priority 1, 30 messages of each per source "
          "(full: 150); fraction of priority 1 delivered", REPRODUCED, "fraction"),
    Claim("sconnect.shortest_paths", D, "section 2.4",
          "in practice, virtual channel assignments can be computed that preserve the "
          "shortest path routing", Near(1.0, abs=0.02), _shortest_paths,
          "ls.routing.table(configs/sconnect_random256.toml).stats['minimal']: the fraction of "
          "(router, destination) pairs whose every permitted route is a shortest one",
          DIVERGES, "fraction",
          cause="the table builder keeps the two VCs acyclic with one resource order on the "
                "routers (a route rises in the order, then falls); on a graph with no valid "
                "numbering the order is grown from a root, and 30% of the pairs have no "
                "shortest route that rises then falls. On meshes and hypercubes the numbering "
                "is an order and every pair is minimal. The paper's heuristic is in its "
                "reference [13], which the document does not describe. Not the builder's "
                "heuristic: since all VCs share one pool with a reservation per VC (section "
                "2.4), a buffer class is a (router, VC) pair, and any deadlock-free table "
                "orders those 512 classes. A search over every such order, not only "
                "rise-then-fall (simulated annealing, 40,000 moves, minimal pairs counted "
                "exactly per destination, 2026-11-26), reached 71.3% from the builder's 70.7% "
                "and 66% from a breadth-first order: on this graph it is two classes per router, "
                "more than the heuristic, that keep about 30% of the pairs off their shortest "
                "paths (a search proves no optimum). Classes per "
                "channel (each VC's buffers per input link) would allow more, but the document "
                "gives one shared pool"),
    Claim("sconnect.designated_node", D, "section 2.4",
          "if all traffic is directed to a designated node such that traffic to the node uses "
          "virtual channel 0 and traffic from that node uses virtual channel 1, the resource "
          "dependency graph is acyclic and no deadlock exists. This increases the length that a "
          "message has to traverse by no more than a factor of two", Between(0, 2.0),
          _designated_node,
          "configs/sconnect_random256.toml's graph (ls.routing.table(...).dist): every route "
          "through the most central router, its longest over the network's diameter (the "
          "worst length a message traverses; per pair a route between two neighbours far "
          "from the designated node is many times their distance, so the claim reads as the "
          "worst case)", REPRODUCED, "of the diameter"),
    Claim("sconnect.alternate_paths", D, "section 2.4",
          "S-Connect uses a heuristic that computes a virtual channel assignment that uses "
          "shortest path routing and that permits most alternate paths for adaptive routing",
          Between(0.5, 1.0), _alternate_paths,
          "ls.routing.table(configs/sconnect_random256.toml).stats: permitted ports per "
          "(router, destination) over the ports on some shortest path", REPRODUCED,
          "fraction"),
    Claim("sconnect.near_optimal_random", D, "section 7; abstract",
          "The adaptive routing algorithm developed for S-Connect does not depend on any "
          "particular topology and achieves near optimal throughput even in the case of "
          "irregular, fine grained loads", Near(1.0, rel=0.1), _near_optimal_random,
          "as sconnect.near_optimal on configs/sconnect_random256.toml (the TIC's 64 "
          "buffers; quick: a random 4-regular graph of 64 nodes), offered 1.0 (past the knee, "
          "where the assignment decides most); within 10%: past its knee this graph's "
          "throughput swings (one run's standard deviation over seeds is about 8% of its "
          "mean), so two means of 5 seeds differ by about 5% (one standard error) by chance",
          REPRODUCED, "ratio"),
    Claim("sconnect.random_balanced_bound", D, "section 2.4; abstract",
          "can utilize most of the physically available bandwidth (on an arbitrary topology, "
          "with a table that uses shortest path routing and permits most alternate paths)",
          Between(0.8, 1.05), _random_balanced,
          "configs/sconnect_random256.toml (TIC, 64 buffers), uniform: ls.saturation_"
          "throughput over the balanced bound (channels / (nodes x mean hops)), the bound no "
          "table can beat", DIVERGES, "of the balanced bound",
          cause="the routing table, not the router: the saturation sits at the bound of the "
                "table's even split (the busiest channel, next to the root of the resource "
                "order, fills first), about 30% of the balanced bound; see "
                "sconnect.shortest_paths for why the table funnels. Figure 4's and the optimal "
                "assignment cannot help, as they too keep to the table's channels except for "
                "Figure 4's rare excess (sconnect.near_optimal_random)"),
    Claim("sconnect.past_saturation", D, "abstract",
          "designed to support high traffic loads, that can utilize most of the physically "
          "available bandwidth", Between(0.9), _past_saturation,
          "random 4-regular graph of 64 nodes, TIC, 64 buffers, default reserve (4 here): "
          "accepted at offered 1.0 over the most accepted at 0.6-1.0. This was a divergence "
          "(0.10 against 0.60): with 1 buffer reserved per class, "
          "injected VC-0 messages filled every pool and VC 1 had only its one buffer, "
          "so 81% of transmissions were refused. Reserves of 1, 2, 3, 4 gave 0.10, 0.42, "
          "0.58, 0.63 at 0.8 (an 8 x 8 torus 0.41, 0.56, 0.60, 0.59); the paper gives no "
          "number ('a minimal number of buffers'), so sconnect.reserve now defaults to "
          "buffers / (4 x priorities), 1 to 4", REPRODUCED, "ratio"),
    Claim("sconnect.random_diameter_log", D, "section 6",
          "S-Connect prefers random topologies, which have diameters that scale with the "
          "logarithm of the number of nodes", Near(1.0, rel=0.2), _random_diameter,
          "ls.routing.table(...).dist of random 4-regular graphs (topology.kind "
          "random_regular, run.seed 1) with 64 and 1,024 nodes (quick: 64 and 256): the ratio "
          "of their diameters over the ratio of the logarithms of their sizes; within 20%, as "
          "a diameter is a whole number of hops (a random regular graph's is log_3 N plus a "
          "slowly growing term, so the ratio falls a little short of 1)", REPRODUCED,
          "ratio"),
    Claim("sconnect.random_fewer_hops", D, "section 6",
          "S-Connect prefers random topologies, which have diameters that scale with the "
          "logarithm of the number of nodes. This means that messages have to traverse fewer "
          "nodes and occupies less channel time", Between(0, 0.99), _random_fewer_hops,
          "mean shortest-path hops between distinct routers (ls.routing.table(...).dist), a "
          "random 4-regular graph of 256 nodes over the 16 x 16 mesh (the paper's Myrinet "
          "comparison: 'a preference for the mesh topology'); the full case prints 64 and "
          "1,024 nodes too", REPRODUCED, "ratio"),
    Claim("sconnect.vcs_fair", D, "section 3",
          "The virtual channels are served fairly", Near(0.5, abs=0.02), _vc_fair,
          "a line of 4 routers (mesh [4]), all traffic to nodes 2 and 3 (traffic.pattern "
          "hotspot, hotspot_fraction 1.0) at offered 1.0, so the channel from router 1 to "
          "router 2 is offered twice its capacity; router 1's table sends node 2's messages "
          "on VC 0 and node 3's on VC 1. Stepping one routing cycle at a time for 3,000 "
          "cycles (full: 20,000) after 500, with router 1's performance counter on the "
          "channel (perf_select 16 + port) and tx_vc's bit for the VC sent: VC 1's share of "
          "the slots sent while both VCs had messages queued", REPRODUCED, "of the slots"),
    Claim("sconnect.vc_whole_channel", D, "section 3",
          "However if a virtual channel has no pending traffic, the entire channel capacity "
          "is available to the other virtual channel", Near(1.0, abs=0.01), _vc_whole,
          "as sconnect.vcs_fair with both destinations on VC 0 (VC 1 silent): slots sent over "
          "routing cycles with a message queued for the channel", REPRODUCED,
          "of the slots"),
    Claim("sconnect.no_gaps", D, "section 6",
          "S-Connect operates synchronously on fixed length messages. This means that the "
          "available fiber capacity is optimally scheduled without any gaps between messages",
          Near(1.0), _no_gaps,
          "as sconnect.vcs_fair (both VCs in use), with channel delays of 1 and 4 routing "
          "cycles (delay 4: 8 one-bit windows in flight, section 3.2): slots sent over routing "
          "cycles with a message queued for the channel, the lower of the two; exactly 1",
          REPRODUCED, "of the slots"),
    Claim("sconnect.no_drop_no_duplicate", D, "section 3.2",
          "The CM protocol has the property that it neither drops nor duplicates messages",
          Near(1.0), _no_drop_no_duplicate,
          "4 x 4 torus, bit error rate 0.0029 on 100-bit slots (a quarter of slots corrupted), "
          "40 messages a source (full: 200), delivered over created", REPRODUCED, "fraction"),
    Claim("sconnect.router_clocks", D, "section 3.1",
          "This bypass logic allows messages to emerge from the TIC chip before they are "
          "completely received, resulting in routing latencies of less than 6 cycles",
          Between(0, 5), _router_clocks,
          "64-node hypercube at 0.01: (latency - 1 - hops) / hops routing cycles a router "
          "adds beyond its channel's link_delay, x 6 clocks a routing cycle (our reading: "
          "module docstring). The model times a router in whole routing cycles: a message "
          "leaves in the cycle it arrived (bypass: 0 clocks) or a cycle later at the earliest "
          "(6), so this row tests that the bypass lets messages out before a full routing cycle "
          "and fails without it (sconnect.bypass false gives 6 clocks, in the message); the "
          "TIC's own few clocks are not resolved here but counted in the hop's link_delay "
          "(sconnect.hop_range_ns, sconnect.hop_310ns)", REPRODUCED, "clocks"),
    Claim("sconnect.hop_range_ns", D, "section 4.1",
          "The actual latency depends on the phase of the routing cycles of adjacent nodes and "
          "on the length of the channel and ranges from 180 ns to 330 ns",
          Between(180, 330), _hop_ns,
          "a hop's clocks (router 6, serialisation 5, 2 m of cable) rounded up to whole routing "
          "cycles as the CM needs (2), the 64-node hypercube at 0.01: latency per hop in ns at "
          "51.84 MHz and 6 clocks a routing cycle", REPRODUCED, "ns"),
    Claim("sconnect.hop_310ns", D, "section 4.1",
          "Operating at 51.840 Mhz and using 2 m of cables between nodes, each node traversal "
          "adds about 310 ns", Near(310, rel=0.1), _hop_ns,
          "as sconnect.hop_range_ns", DIVERGES, "ns",
          cause="the model's channels are whole routing cycles (the CM's premise: 'the channel "
                "has a fixed delay, which is an integral multiple of the routing cycle'), so a "
                "hop is 116, 231 or 347 ns (link_delay 1, 2, 3); 310 ns is 2.7 routing cycles, "
                "the measured mean over adjacent nodes' phases, which whole slots cannot "
                "express. The document's own parts (under 6 clocks, about 5 of serialisation, "
                "10 ns of cable) add up to 2 routing cycles"),
    Claim("sconnect.interface_1p7us", D, "section 4.1",
          "The measured latency from the time of the second store to the time that the "
          "destination is ready to supply the message, is 1.7 us, which is dominated by the "
          "FIFO and interface logic of the alpha-board", None, None,
          "not modelled", NOT_REPRODUCIBLE, "us",
          lacks="the alpha-board's FIFO and interface logic (its depth, clocking against the "
                "Mbus, the number of hops in the measurement) that dominate the 1.7 us"),
    Claim("sconnect.pll_frequency", D, "section 2.5, equation 8",
          "omega = (1/n) sum_i (omega_i + K sum_j a_ij d_ij)", Near(1.0, abs=1e-9), _pll_omega,
          "ls.sconnect.pll on the 64-node hypercube, oscillators within +-100 ppm of 51.84 "
          "MHz, K = 1e5/s, integrated 12 time constants: mean frequency over equation 8's",
          REPRODUCED, "ratio"),
    Claim("sconnect.pll_gain", D, "section 2.5, equation 7",
          "The non-zero eigenvalues are proportional to K, so that higher loop gain reduces "
          "the duration of the synchronization time", Near(2.0, rel=0.02), _pll_gain,
          "as sconnect.pll_frequency: time to lock within 1 ppm at K = 1e5/s over that at "
          "2e5/s", REPRODUCED, "ratio"),
    Claim("sconnect.jitter_100ps", D, "section 4.1",
          "The global clock synchronization resulted in a measured clock jitter between any "
          "two nodes that is about 100 ps", None, None, "not modelled", NOT_REPRODUCIBLE, "ps",
          lacks="the oscillators' phase noise, the comparator's distortion (R1, R2), the loop "
                "filter and the loop gain; equation 1 has no noise term, so its lock is exact"),
    Claim("sconnect.host_two_in_two_out", D, "section 3",
          "The local host interface allows the concurrent injection of two messages while two "
          "other messages are being received", Near(2), _two_in_two_out,
          "8 x 8 torus of TICs (4 channels and the host port, 64 buffers, sconnect.host_ports "
          "2), uniform at offered 1.0, past its saturation (0.58), so sources back up and "
          "inject in bursts; stepping one routing cycle at a time for 1,000 cycles (full: "
          "10,000) after 200: the most messages one router's host both injected and took in "
          "one routing cycle (the lower of the two); with host_ports 1 it is 1", REPRODUCED,
          "messages"),
    Claim("sconnect.parallel_port_5_of_6", D, "section 3, footnote 1 (Figure 8)",
          "The bandwidth figures are the usable packet throughput. The parallel ports transfer "
          "data only on 5 out of 6 cycles", None, None,
          "a parallel port moves whole messages, up to sconnect.host_ports a routing cycle "
          "(sconnect.host_two_in_two_out); the clocks within a routing cycle are not "
          "modelled", NOT_REPRODUCIBLE, "of the clocks",
          lacks="the message's width in bits and the clocks in a routing cycle: the document "
                "gives neither apart from this footnote, which the ledger itself uses to read "
                "a routing cycle as 6 clocks and a message as 5 x 16 bits (module docstring), "
                "so a measured 5/6 would only return that reading; Figure 8's bandwidth "
                "figures are not in our copy"),
    Claim("sconnect.low_priority_not_all_64", D, "section 3",
          "To guarantee that low priority traffic can't block higher levels, some buffers are "
          "reserved. This means that not all 64 buffers can be used for low priority messages",
          Between(1, 63), _low_priority_buffers,
          "64-node hypercube, the TIC's 64 buffers and 4 priorities (sconnect.priorities 4, "
          "the default reserve: 64 / (4 x 4) = 4 buffers per class), all traffic priority 0 "
          "at offered 1.0 and no host taking it (sconnect.sink_min_priority 1), 500 cycles "
          "(full: 5,000): the most priority-0 messages any pool held. The paper gives no "
          "number; the model keeps 4 buffers for each of the 9 classes (VC 0, VC 1, delivery) "
          "of priorities 1-3, so 64 - 36 = 28 remain; every priority is held to the same, so "
          "the top one cannot use all 64 either", REPRODUCED, "buffers"),
    Claim("sconnect.no_perpetual_retry", D, "section 3.2",
          "Whenever a packet transmission fails, the packet is returned to the router and a new "
          "routing decision is made. Each of these failures causes the age field of the packet "
          "to be incremented, so that packets cannot perpetually retry", Near(1.0),
          _never_stuck,
          "random 4-regular graph of 64 nodes (TIC, 64 buffers), offered 1.0 (past its knee, "
          "0.6), bit error rate 0.0029 on 100-bit slots (a quarter of all slots corrupted), "
          "300 messages a source (full: 2,000): delivered over created within 40 routing "
          "cycles per message a source; every cycle the age field of every message held is "
          "read (pool_meta) for the most failures one message counted. In the model's TIC "
          "assignment the age only counts (Figure 4's assignment ranks by it); what ends the "
          "retries is the requeue at the head of a queue and the other channel's preference "
          "(sconnect.requeued_first, sconnect.reroute_other_channel)", REPRODUCED,
          "fraction"),
    Claim("sconnect.reroute_other_channel", D, "section 3.1",
          "In the case of rejected messages (due to congestion or due to transmission "
          "problems), preference is given to a channel other than the one tried in the last "
          "attempt", Near(1.0), _other_channel,
          "2 x 2 mesh, only node 0 sending, all to node 3, offered 1.0; router 0's table "
          "permits both its channels, each corrupting 60% of the messages it carries "
          "(channel_error_threshold), with delays 1 and 2 (topology.dim_link_delay) so that a "
          "message's channel shows in when its acknowledgement is due (buf_ready). Stepping "
          "one routing cycle at a time for 2,000 cycles (full: 20,000): of the messages "
          "rejected at router 0 (their age field grew), the share re-routed to the other "
          "channel", REPRODUCED, "of the rejections"),
    Claim("sconnect.requeued_first", D, "section 3",
          "A new routing decision is made for packets that were rejected due to transmission "
          "errors or due to congestion at the next TIC. Requeued traffic has priority over "
          "newly inserted traffic", Near(1.0), _requeued_first,
          "as sconnect.reroute_other_channel (the two channels carry 0.8 of the 1.0 offered, "
          "so new messages wait in their queues): of the rejected messages re-routed onto a "
          "queue in which messages had waited since the cycle before, the share sent before "
          "them (in the cycle of the rejection)", REPRODUCED, "of the requeued"),
    Claim("sconnect.protocol_6_bits", D, "section 3.2",
          "The entire protocol overhead is 6 bits/message, which includes the piggyback "
          "acknowledgment and a late-abort feature", None, None,
          "the channel module keeps the protocol's state per slot (a sequence bit each way, "
          "the acknowledgement and its outcome) in whole records, not bits", NOT_REPRODUCIBLE,
          "bits",
          lacks="the message format: which 6 bits (beyond the acknowledgement and the late "
                "abort, named but not sized) and the length of a message in bits, so neither "
                "the 6 nor an overhead share can be measured"),
    Claim("sconnect.crc_16_bits", D, "section 3, footnote 1 (Figure 8)",
          "The serial links carry an additional 16 CRC and handshake bits, that are not "
          "included", None, None,
          "the model marks a corrupted slot (sconnect.bit_error_rate x message_bits) and "
          "detects it always; it has no CRC and no bits", NOT_REPRODUCIBLE, "bits",
          lacks="the CRC polynomial and the handshake bits' use, and the message's length in "
                "bits without them: the footnote gives the count only"),
    Claim("sconnect.oblivious_to_slots", D, "section 3.2; section 1",
          "While the number of slots depends on the physical length of the channel, the "
          "actual CM protocol is oblivious to the number of packets in transit. ... nodes "
          "that are physically separated by up to about 100m", Near(1.0), _any_length,
          "as sconnect.no_drop_no_duplicate (4 x 4 torus, a quarter of all slots corrupted, 40 "
          "messages a source; full: 200) with channel delays of 1, 2 and 7 routing cycles "
          "(full: 1 to 7, 16 and 64): 100 m of fiber at 5 ns/m plus the router and "
          "serialisation (11 clocks) is 7 routing cycles of 6 clocks at 51.84 MHz; the lowest "
          "share delivered exactly once", REPRODUCED, "fraction"),
    Claim("sconnect.pf_towards_mean", D, "section 3.3",
          "By choosing R_1 > R_2, the transfer function is distorted such that the loop gain "
          "increases with the deviation from the fifo half-full point, which results in a lock "
          "frequency that is moved towards the mean of the center frequencies of all nodes",
          Between(0, 0.99), _pf_towards_mean,
          "ls.sconnect.pll on the 64-node hypercube (oscillators within +-100 ppm, K = 1e5/s), "
          "the comparator's range 4 rad (limit 2) through the DAC of pll.dac_transfer (our "
          "reading: R1 on the low bit, so R1 = 2 R2 is linear and R2 < R1 < 2 R2 makes the "
          "step across half-full the smallest), integrated 12 time constants of the gain at "
          "half-full: the lock frequency's distance from the mean of the centre frequencies "
          "with R1 = 1.5 R2 over that with the linear DAC. The paper gives neither resistor nor "
          "the channels' phase offsets: each channel gets one uniform in [0, 0.5] rad, which "
          "equation 8's delay term turns into a shift of the lock (with none, any odd "
          "comparator locks at exactly the mean, so there is nothing to move); the ratio is "
          "the slope at half-full, 2 (R1/R2 - 1) / (R1/R2)", REPRODUCED, "ratio"),
    Claim("sconnect.figure18_tic", D, "section 4.2, Figure 18",
          "The TIC bisection bandwidth and latency for 2D meshes, 4D meshes and the average of "
          "random interconnect topologies are given in Figure 18 ... To present a conservative "
          "estimate, the bandwidth is derated to 80%", None, None,
          "the family runs each of these: uniform random single-message traffic on 2D and 4D "
          "meshes (topology.kind mesh) and on random 4-regular graphs (random_regular, as "
          "sconnect.random_diameter_log), whose accepted load times the nodes over the "
          "bisection's channels gives a saturation bisection bandwidth, and its latency; "
          "there is no number to hold them to", NOT_REPRODUCIBLE, "MB/s",
          lacks="Figure 18's values: our copy of the document keeps only its caption ('Estimated "
                "TIC Performance'), and the text gives no bandwidth, latency or system size "
                "from it, nor the sizes of the meshes and random graphs simulated or how many "
                "random graphs were averaged"),
    Claim("sconnect.bootstrap", D, "section 3.4; section 2.6",
          "Forwarding of control packets over a specific channel. This is used to bootstrap the "
          "system without a valid routing table. Essentially, this allows source directed "
          "routing to map the network topology. ... only one node in a system needs to be "
          "attached to a controlling computer, which can explore the network topology, compute "
          "routing tables, verify operations, log errors, monitor performance, etc. without any "
          "other means of communicating to S-Connect nodes", Near(1.0), _bootstrap,
          "configs/sconnect_random256.toml (quick: the 64-node hypercube of TICs, 64 buffers) "
          "with every routing table emptied (state arrays route_ports and route_vc zeroed): the "
          "controller at node 0 maps the network by source-routed identify requests "
          "(ls.sconnect.Controller.map_topology), computes tables for the graph it found (the "
          "engine's builder on its links, ports renumbered to the channels found) and writes "
          "every entry by control messages (load_tables); the tables so loaded (copied into a "
          "Simulator with traffic, as a run's load is fixed when it starts) then carry uniform "
          "traffic at 0.2, 100 messages a source (quick: 50): "
          "delivered over created within 40 routing cycles per message a source. A channel or "
          "router the map missed, or an entry written wrong, leaves messages undeliverable",
          REPRODUCED, "fraction"),
    Claim("sconnect.channel_isolation", D, "section 3.4; section 2.6",
          "Access to error and status registers. For each CM/CMS a number of error conditions "
          "are recorded. Channels can be enabled or disabled explicitly. ... At the system "
          "level, facilities were added that allow to diagnose and isolate problems",
          Near(0.0), _isolation,
          "64-node hypercube of TICs (64 buffers) at offered 0.5, one channel (router 9's "
          "channel 3) corrupting 40% of its slots (sconnect.noisy_channels, "
          "noisy_bit_error_rate 0.005 on 100-bit slots), the others clean. A run (windows "
          "500/1,000/500; full 1,000/4,000/2,000), then the controller at node 0 reads every "
          "channel's error register by control messages, switches the channel with the most "
          "errors off at both ends (register channels) and loads tables computed without it; "
          "then a second run: corrupted messages and acknowledgements per message sent "
          "(Result.error_fraction). Had the registers pointed at another channel, the errors "
          "would go on", REPRODUCED, "per message"),
    Claim("sconnect.channel_counter", D, "section 3.4",
          "Performance monitoring. A programmable counter can be connected to 32 different "
          "event sources. For example, this facility can be used to measure the traffic over a "
          "particular channel", Near(1.0), _channel_counter,
          "a line of 4 routers, node i sending to node 3 - i (traffic.pattern bitcomp) at 0.3, "
          "100 messages a source (full: 1,000): the channel from router 1 to router 2 carries "
          "exactly nodes 0's and 1's messages while router 1 also forwards node 3's the other "
          "way. Router 1's counter set to messages sent on that channel (perf_select 16 + port) "
          "from cycle 0 and read by a control message from node 0 once all are delivered: its "
          "count over the messages nodes 0 and 1 injected. Only the channel traffic is "
          "measured: the 32 is the width of the model's selector (kernels/sconnect/monitor.hpp: "
          "11 events and one per channel), not a behaviour", REPRODUCED, "ratio"),
    Claim("sconnect.timer_global", D, "section 3.4",
          "Time keeping: The TIC includes a 16 bit timer that can be read remotely. The times "
          "can also be used to time stamp control packets to compare the timer of two adjacent "
          "nodes. The timer can be adjusted by adding to it atomically. This is used by S3.mp "
          "nodes to provide a globally synchronized notion of time", Near(0, abs=1), _timers,
          "64-node hypercube of TICs (64 buffers) at offered 0.3 (full: "
          "configs/sconnect_random256.toml at 0.15, longer routes), every router's "
          "timer set at random (state array timer); the controller at node 0 maps the network, "
          "measures "
          "each timer's offset from its own by time-stamped identify requests "
          "(Controller.timer_offset, half the round trip taken as the one-way time; the median "
          "of 3) and adds its negative (register timer, an atomic add): the spread of all 64 "
          "timers after, in routing cycles. Within 1: the paper gives no precision, and under "
          "load a round trip's two halves queue differently, which its half cannot see (at "
          "zero load the spread is 0); measured from node 0 along its routes, not between "
          "adjacent nodes", REPRODUCED, "cycles"),
    Claim("sconnect.dual_tic_bandwidth", D, "section 3, Figure 9",
          "it is possible to construct dual-TIC nodes (Figure 9) that have 8 channels to other "
          "nodes. These higher dimensional topologies boost bandwidth significantly and are "
          "appropriate for large, high end configurations", Between(1.5), _dual_tic,
          "random graphs of 256 nodes (quick: 64), uniform, TICs of 64 buffers: "
          "ls.saturation_throughput (tol 0.02) with dual-TIC nodes (topology.dual_tic: two "
          "TICs joined by their parallel ports, 8 channels a node, a random 8-regular graph) "
          "over that with single TICs (4-regular); 'significantly' read as at least 1.5 times. "
          "The 64-node dual-TIC network is still unsaturated at offered 1.0, the most a host "
          "may offer, so the quick ratio is a lower bound; the 256-node single-TIC graph "
          "saturates low (0.22) for its table's funnel (sconnect.random_balanced_bound)",
          REPRODUCED, "x"),
    Claim("sconnect.switch_nodes", D, "section 3, Figure 10",
          "The same feature allows the construction of pure switching nodes, where 2 or 3 TICs "
          "can be used as a 8/12 ported switch ... The 12 ported switch in Figure 10 requires "
          "3 TIC chips, one VXCO (crystal oscillator) and a box with power supply: no other "
          "active electronics of any kind are needed", None, None,
          "the model's nodes are one TIC or two (topology.dual_tic: joined by their parallel "
          "ports, 8 channels, the host on the first; sconnect.dual_tic_bandwidth), each node a "
          "host; a node without a host, or of three TICs, is not built (what it would need: "
          "traffic over the host nodes only, and a chain of three routers, the middle one's "
          "two parallel ports joining the others; the PLL model already makes a node's TICs "
          "one VXCO, pll.channels)", NOT_REPRODUCIBLE, "ports",
          lacks="anything to measure of a switch node beyond its parts: the port counts are "
                "the TICs' 4 serial channels added up (2 x 4, 3 x 4), and the paper gives no "
                "figure of a switch's throughput or latency (repeaters, wiring closets and "
                "distribution panels are named as uses, not measured)"),
    Claim("sconnect.adaptive_vs_fixed_route", D, "section 6; section 2",
          "Unlike Myrinet, which relies on source directed routing, the adaptive routing "
          "algorithm in S-Connect can base routing decisions dynamically on the local traffic "
          "situation", Between(1.1), _fixed_route,
          "8 x 8 torus of TICs (64 buffers), uniform: the most accepted at offered 0.6 and 1.0 "
          "with the table's permitted channels chosen by their pending messages (the TIC's "
          "assignment) over the mean of the same with one channel per (router, destination) "
          "drawn at random from each entry (state array route_ports; a fixed route, as a "
          "source route fixes one per message; draws 1-2, full 1-5). The paper gives no "
          "number: above 1.1, beyond the spread between draws of the fixed routes (about 0.03 "
          "of 0.46)", REPRODUCED, "x"),
    Claim("sconnect.strict_priority_order", D, "section 3, Figure 11",
          "The transmitters serve their queues in strict priority order: as long as there is "
          "pending traffic in a higher priority queue, no lower priority queue will be served",
          Near(1.0), _strict_priority,
          "a line of 4 routers, all traffic to nodes 2 and 3 at offered 1.0 in equal shares of "
          "priorities 0-3 (traffic.priority_weights), so router 1's channel to router 2 is "
          "offered twice what it carries. Stepping one routing cycle at a time for 3,000 "
          "cycles (full: 20,000) after 500: the priority of each message router 1 sent (the "
          "meta word of its buffers newly sent) against the priorities with messages queued "
          "for the channel at the start of the cycle (queue_count); of the slots sent while two "
          "or more priorities were queued, the share at the highest of them", REPRODUCED,
          "of the slots"),
    Claim("sconnect.realtime_priority", D, "section 2.3",
          "Multiple priorities also proved useful to support real-time applications (video, "
          "multimedia, etc.), where traffic with predictable bandwidth must be delivered on "
          "schedule", Between(0, 1.1), _realtime,
          "8 x 8 torus of TICs (64 buffers), a priority-3 stream of 0.05 messages a node a "
          "routing cycle beside uniform priority-0 traffic at 0.15 and at 0.95 (past the "
          "torus's saturation, 0.58): the stream's mean network latency (Little's law: its "
          "messages in the network, sampled every 10 cycles for 2,000 cycles (full: 10,000) "
          "after 1,000, over its delivered rate) under the saturating load over that under the "
          "light one; within 10% ('on schedule': the paper gives no number). The stream's "
          "delivered rate is in the message, and in the full run the latency of the same mix "
          "at one priority. Little's law gives the mean, not the jitter", REPRODUCED, "ratio"),
    Claim("sconnect.full_duplex_line_rate", D, "section 2; section 3.1",
          "Due to being full duplex, the receiver/transmitter pair at each end of a channel can "
          "cooperate to piggyback handshake and flowcontrol information on messages travelling "
          "in the reverse direction ... All of these operations (receiving, routing, "
          "enqueueing/dequeueing) take place concurrently at a rate that matches the total "
          "packet throughput rate", Near(1.0), _full_duplex,
          "8 x 8 torus of TICs (64 buffers), uniform at offered 1.0 (past its saturation, "
          "0.58, so channels back up both ways). Stepping one routing cycle at a time for 1,000 "
          "cycles (full: 10,000) after 500: of the router-cycles that began with messages "
          "queued for each of the router's 4 channels, the messages sent (buffers newly sent) "
          "over 4, exactly 1: every channel of a router sends a slot a cycle at once, while "
          "its acknowledgements take no slot (sconnect.no_gaps: one channel)", REPRODUCED,
          "of the slots"),
    Claim("sconnect.quads_atomic", D, "section 3.2, footnote 1",
          "the TIC supports quad-messages, which are trains of 4 messages that traverse the "
          "interconnect as one unit. Since the entire quad messages must be transferred "
          "atomically, adjacent CM slots are coupled in this case", Near(1.0), _quads_whole,
          "4 x 4 torus of TICs (64 buffers, sconnect.reserve 4 as quads need), one packet in 4 "
          "a quad (traffic.packet_sizes [1, 4], weights [3, 1]) at offered 1.0 "
          "messages/node/cycle, 100 packets a source (full: 1,000), bit error rate 0.0029 on "
          "100-bit slots (a quarter of all slots corrupted), one host port, so a host takes one "
          "message or one whole quad a routing cycle. Stepping one cycle at a time: the quads "
          "hosts took whole (4 messages in one cycle) over the quads created ((messages - "
          "packets) / 3); a quad split, lost or duplicated lowers or raises it. How the TIC "
          "couples the slots is not described: the model's is our reading (design note)",
          REPRODUCED, "fraction"),
    Claim("sconnect.irregular_deadlock_free", D, "section 2.4",
          "S-Connect relies on resource ordering to avoid cyclic dependencies [15]. This is "
          "accomplished by multiplexing two virtual channels over each physical channel ... "
          "Given an arbitrary interconnect topology it is always possible to prevent deadlocks "
          "if packets are not constrained to the shortest route", Near(1.0),
          _irregular_deadlock,
          "30 random connected graphs of 64 routers and 5 of 256 (quick: 6 of 64) with 2 to 4 "
          "channels a router (a random tree, then random links up to each router's drawn "
          "degree; topology.kind graph), the engine's tables (two VCs, resource ordering), TICs "
          "of 64 buffers, uniform at offered 1.0 for 500 + 5,000 cycles (quick: 500 + 2,000) "
          "with run.watchdog 1,000: the share of graphs the watchdog did not stop. The same "
          "graphs with every destination on VC 0 (state array route_vc: no resource order) all "
          "deadlock, so the check can fail", REPRODUCED, "of the graphs"),
    Claim("sconnect.pll_limited_detector", D, "section 2.5",
          "At this point, a linear phase detector is assumed. It can be shown that limiting the "
          "output of the phase detector will still result in a proper synchronization. This "
          "limiting is essentially the characteristic of a frequency / phase detector",
          Between(0, 1e-3), _pll_limited,
          "ls.sconnect.pll on the 64-node hypercube (oscillators within +-100 ppm of 51.84 MHz, "
          "K = 1e5/s) with the TIC's comparator clip (pll.integrate(limit=2 rad)) and initial "
          "phases uniform in +-20 rad, so most channels start clipped: the nodes' frequency "
          "spread after 24 time constants, in ppm; locked read as below 0.001 ppm (from the "
          "same start the linear detector reaches 4e-7, and the spread starts at 195). The "
          "sentence after it, that a plain phase detector would be 'ambiguous and "
          "non-monotonic', is not measured: the model has no wrapping detector", REPRODUCED,
          "ppm"),
    Claim("sconnect.pll_low_gain", D, "section 2.5",
          "A low gain, low natural loop frequency is desirable to make the system less "
          "sensitive to transient errors. This reduces the capture range (a non-issue here) "
          "and increases the time required for synchronization", Between(0, 0.5),
          _pll_transient,
          "ls.sconnect.pll as sconnect.pll_limited_detector, locked (the analytic phases), then "
          "node 0's phase slipped by 1 rad (a transient error): the peak frequency excursion at "
          "K = 2.5e4/s over that at 1e5/s ('less sensitive' read as at most half for a quarter "
          "of the gain; detail: the time to lock again, which grows)", REPRODUCED, "x"),
    Claim("sconnect.faulty_oscillator", D, "section 2.6",
          "a faulty oscillator could prevent global synchronization by forcing a node to "
          "transmit at a speed that is outside of the tuning range of the other nodes",
          Between(1), _faulty_oscillator,
          "ls.sconnect.pll as sconnect.pll_limited_detector (64-node hypercube, oscillators "
          "within +-100 ppm of 51.84 MHz, K = 1e5/s, the TIC's comparator clip), node 0's "
          "oscillator at +1000 ppm and every VXCO's tuning range +-200 ppm "
          "(pll.integrate(tuning=...); the paper calls the range 'narrow' and gives no value): "
          "the nodes' frequency spread after 24 time constants, in ppm; 'prevent "
          "synchronization' read as a spread above 1 ppm (the loop locks to under 1e-8 ppm "
          "when node 0 is within range, or when the control is unbounded)", REPRODUCED, "ppm"),
    Claim("sconnect.pll_diagnostics", D, "section 3.4",
          "PLL diagnostics. By turning the outbound data stream off, the distributed PLL is "
          "disabled and the rate of fifo under- or overflows can be used to compare the free "
          "running clock frequencies", Between(0, 0.1), _pll_diagnostics,
          "ls.sconnect.pll as sconnect.pll_limited_detector (64-node hypercube, oscillators "
          "within +-100 ppm of 51.84 MHz, K = 1e5/s, the TIC's comparator clip), locked, then "
          "opened (pll.open_loop: every VXCO at its free-running frequency) for 1 s: each "
          "channel's FIFO slips (pll.fifo_slips, one under- or overflow a word gained or lost), "
          "every node's offset from the mean solved by least squares over the channels' slip "
          "rates; the largest error against the oscillators' true offsets, in ppm (a window of "
          "T s resolves about 1 / (T x 51.84e6) of the clock, 0.02 ppm at 1 s). Closed, the "
          "locked loop slips no word and tells nothing", REPRODUCED, "ppm"),
    Claim("sconnect.figure11_40_queues", D, "section 3.1, Figure 11",
          "Logically, the TIC has 6 packet sources and 6 packet drains that are connected "
          "through a set of 40 queues (Figure 11). For each serial outbound channel there is "
          "one queue for", None, None,
          "the model's queues: SconnectLayout::queues() (kernels/sconnect/sconnect_state.hpp), "
          "one per port, priority and VC; a TIC of 4 channels and a host port keeps 5 x 4 x 2 "
          "= 40 queue heads, of which the host port's delivery uses 4 (VC 0), so 36 can hold "
          "messages. A reading that gives 40 (ours, not the document's): 4 serial channels x 4 "
          "priorities x 2 VCs (32) and 4 priorities for each of the 2 parallel ports (8). The "
          "model's second parallel port is a dual-TIC node's link (topology.dual_tic), a "
          "channel with two VCs. The queues' form is as section 3.1 has it ('a common buffer "
          "pool that is shared by all 6 ports ... Rather than implementing 40 independent "
          "queues, these queues use linked lists'): linked lists in one pool (q_head, "
          "q_count, buf_next)", NOT_REPRODUCIBLE, "queues",
          lacks="what the 40 queues are: the sentence breaks off after 'For each serial "
                "outbound channel there is one queue for', Figure 11 is not in the text, and "
                "the 6 sources and drains are not named (4 serial channels and 2 parallel ports "
                "by section 3's 'dual-TIC nodes ... that have 8 channels')"),
    Claim("sconnect.beats_myrinet", D, "section 6",
          "S-Connect achieves higher performance than Myrinet system, even if the channel speed "
          "were set to the same bandwidth", Between(1.0), _against_myrinet,
          "S-Connect as its three reasons have it (a random 4-regular graph, cut-through, the "
          "TIC's adaptive choice; 256 nodes, configs/sconnect_random256.toml, quick: 64, "
          "_random64) against Myrinet read as the ledger's wormhole router "
          "(sconnect.wormhole_below_40: a 16 x 16 mesh, quick 8 x 8, dimension order, 1 VC of "
          "4 flits, messages of 10 flits, uniform): saturation (ls.saturation_throughput) in "
          "messages per node per message time, equal channel speed read as a 10-flit message "
          "taking one routing cycle. The paper gives no Myrinet set-up (its switches, buffers "
          "or message size); its reasons are rows of their own (sconnect.random_fewer_hops, "
          "sconnect.cut_through_doubles, sconnect.adaptive_vs_fixed_route, sconnect.no_gaps)",
          REPRODUCED, "x"),
]
