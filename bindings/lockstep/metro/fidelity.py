"""METRO's claims (document 003, Chong et al.) measured on the `metro` family: Figure 3's
network, every row of Table 3 (Table 4's t_20,32 as the one-way time of an unloaded message, and
its t_stg as the clocks a word takes from router to router), METROJR-ORBIT's stage latency,
retries and the paths they take, reclamation, Figure 1's paths, fault tolerance in every stage,
and stopping the network.

One convention counts a message everywhere: Table 4's, 20 data bytes (the last the checksum)
behind the route's header words, which every Table 3 row needs (configs/metro_figure3.toml).
"""

from __future__ import annotations

import math
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

import numpy as np
import pandas as pd

from ..config import Config, load_config
from ..fidelity.claim import DIVERGES, REPRODUCED, Between, Claim, Measured, Near
from ..simulate import Simulator, simulate
from .latency_model import row_config, table3
from . import exchanges
from .faults import suspect_wires
from .trace import NO_PORT, Network, Tracer, streams

CONFIGS = Path(__file__).resolve().parents[3] / "configs"
TABLE3 = table3()


def _figure3(quick: bool):
    return load_config(CONFIGS / "metro_figure3.toml").with_(
        warmup=500 if quick else 2000, measure=2000 if quick else 10000, threads=1)


def _unloaded(quick: bool) -> Measured:
    cfg = _figure3(quick)
    r = simulate(cfg, offered=0.001)
    words = 1 + cfg.get("traffic.packet_size")
    return Measured(r.latency_mean, f"max {r.latency_max:g}; {words} words (the route byte and "
                                    f"20 data bytes) + 2 x (1 + 3); one-way {r.one_way_mean:g} = "
                                    f"Table 4's t_20 for 3 stages of a clock")


def _row(k: int):
    def measure(quick: bool) -> Measured:
        row = TABLE3.iloc[k]
        r = simulate(row_config(row).with_(measure=3000 if quick else 8000))
        return Measured(r.one_way_mean * row.t_clk,
                        f"{r.one_way_mean:g} clocks of {row.t_clk:g} ns; Table 4 computes "
                        f"{row.t_20_32:g} ns")
    return measure


def _orbit_stage(quick: bool) -> Measured:
    row = TABLE3.iloc[0]  # METROJR-ORBIT
    cfg = row_config(row).with_(measure=3000 if quick else 8000)
    r = simulate(cfg)
    words = row.hbits / row.w + cfg.get("traffic.packet_size")
    per_stage = (r.one_way_mean - words) / row.stages * row.t_clk
    return Measured(per_stage, f"one-way {r.one_way_mean:g} clocks = {words:g} nibbles + "
                               f"{row.stages} stages; a nibble takes {row.t_clk:g} ns")


def _retries(quick: bool) -> Measured:
    r = simulate(_figure3(quick), offered=0.3)
    return Measured(r.attempts_per_message, f"Figure 3's network at 0.3 data words per endpoint "
                                            f"per clock (accepted {r.accepted:.3f}, latency "
                                            f"{r.latency_mean:.1f} clocks)")


def _reclamation(quick: bool) -> Measured:
    acc = {m: simulate(_figure3(quick).with_(**{"metro.reclaim": m}), offered=0.6).accepted
           for m in ("fast", "detailed")}
    return Measured(acc["fast"] / acc["detailed"], f"accepted at 0.6 offered: fast "
                                                   f"{acc['fast']:.3f}, detailed "
                                                   f"{acc['detailed']:.3f}")


def _last_stage(quick: bool) -> Measured:
    cfg = load_config(CONFIGS / "metro_figure1.toml").with_(
        offered=0.1, pattern="uniform", warmup=200, measure=1500 if quick else 4000,
        drain=3000, threads=1)
    stage = Network(Simulator(cfg)).stage
    last = np.flatnonzero(stage == stage.max())
    tried = last[:2] if quick else last
    whole = 0
    for router in tried:
        sim = Simulator(cfg.with_(failed_routers=[int(router)]))
        r = sim.run()
        assert not isinstance(r, list)  # one instance
        whole += r.lost == 0 and r.packets > 0 and not r.saturated
    return Measured(whole / len(tried), f"{whole} of {len(tried)} last-stage routers (of "
                                        f"{len(last)}) dead and masked: every message delivered")


def _figure1(quick: bool):
    return load_config(CONFIGS / "metro_figure1.toml").with_(
        offered=0.1, pattern="uniform", warmup=200, measure=1500 if quick else 4000,
        drain=3000, threads=1)


class _LossCase(NamedTuple):
    router: int
    at: int  # dead from this clock
    masked: bool
    whole: bool  # every message created in the window delivered
    delivered: int
    created: int
    latency: float
    text: str


@lru_cache(maxsize=4)
def _early_losses(quick: bool, selection: str) -> tuple[_LossCase, ...]:
    """Every router of Figure 1's two dilation-2 stages, one at a time: dead from the start or
    from the middle of the window (its connections lost), masked by the scan system or left to
    the sources' timeouts (a dynamic fault), with metro.selection `selection`."""
    cfg = _figure1(quick).with_(**{"metro.selection": selection})
    measure, size = cfg.get("run.measure"), cfg.get("traffic.packet_size")
    net = Network(Simulator(cfg))
    cases = []
    for router in np.flatnonzero(net.stage < 2):
        for at in (0, cfg.get("run.warmup") + measure // 2):
            for mask in (True, False):
                r = simulate(cfg.with_(**{"metro.failed_routers": [int(router)],
                                          "metro.failure_cycle": at, "metro.mask_failed": mask}))
                created = round(r.offered * net.endpoints * measure / size)
                cases.append(_LossCase(
                    int(router), at, mask, r.lost == 0 and r.packets == created > 0, r.packets,
                    created, r.latency_mean, f"router {router} dead from clock {at}, "
                             f"{'masked' if mask else 'unmasked'}: {r.packets} of {created} "
                             f"delivered, latency {r.latency_mean:.0f}, timed out "
                             f"{r.timed_out_fraction:.1%} of attempts"))
    return tuple(cases)


def _early_stages(quick: bool) -> Measured:
    cases = _early_losses(quick, "random")
    whole = sum(c.whole for c in cases)
    routers = len({c.router for c in cases})
    slowest = max(cases, key=lambda c: c.latency)
    return Measured(whole / len(cases), f"{whole} of {len(cases)} cases ({routers} routers x "
                                        f"from the start or mid-window x masked or not) "
                                        f"delivered every message; the slowest: {slowest.text}")


def _selection_key(quick: bool) -> Measured:
    # The dynamic faults of _early_losses (dead routers the scan system has not masked yet),
    # with the routers and sources choosing the lowest free port instead of a random one: a
    # retry takes its attempt's path again while that path is free, the dead router on it too.
    first = {c[:3]: c for c in _early_losses(quick, "first") if not c.masked}
    rand = {c[:3]: c for c in _early_losses(quick, "random") if not c.masked}
    failed = [k for k, c in first.items() if not c.whole]
    saved = sum(rand[k].whole for k in failed)
    detail = (f"{len(failed)} of {len(first)} unmasked dead routers (16 of the two dilation-2 "
              f"stages x from the start or mid-window) left messages undelivered with "
              f"metro.selection = \"first\"; random selection delivered every message in "
              f"{saved} of those {len(failed)} (and in {sum(c.whole for c in rand.values())} "
              f"of all {len(rand)})")
    if failed:
        worst = min((first[k] for k in failed), key=lambda c: c.delivered / c.created)
        detail += f"; the worst with first: {worst.text}"
    return Measured(saved / len(failed) if failed else float("nan"), detail)


STOP_CLOCKS = 10  # a stop: every router dead this long, more than any word takes to cross a wire


@lru_cache(maxsize=2)
def _stopped(quick: bool) -> dict[str, int]:
    """Figure 3's network at 0.3, every source sending `max_packets` messages, stopped at random
    clocks: every router dead for STOP_CLOCKS (set_state "router_dead"), so every word in flight
    is discarded, then running again. A router keeps its crossbar state through a stop; the
    sources' timeouts (metro.timeout, 100 clocks, longer than a stop) send the drops that
    release it. Counted: the messages, those acknowledged when every source is idle again, the
    good acknowledgements the destinations sent (each a message that passed its check: a
    reception), those that reached a router while it was stopped (lost there), and the streams
    that reached a wrong endpoint (bad_headers, none without stops: a crossbar connection kept
    through a stop whose drop was lost in it carries the next stream on that wire its old way,
    and the endpoint acknowledges it bad; a stop that cleared the crossbars would not)."""
    messages, stops, seeds = (50, 25, (1,)) if quick else (200, 100, (1, 2, 3))
    n = {"messages": 0, "acked": 0, "received": 0, "acks_lost": 0, "stops": 0, "held": 0,
         "misrouted": 0}
    for seed in seeds:
        cfg = _figure3(True).with_(offered=0.3, max_packets=messages, warmup=0, measure=1,
                                   seed=seed)
        sim = Simulator(cfg)
        net = Network(sim)
        exits = (np.arange(net.ports) >= net.forward[:, None]) & (net.port_node >= 0)
        period = int(messages * cfg.get("traffic.packet_size") / 0.3)
        at = np.sort(np.random.default_rng(seed).choice(np.arange(50, period), stops, False))
        dead = np.zeros(net.routers, np.uint8)
        total = net.endpoints * messages
        while sim.cycle < 10 * period:
            t = sim.cycle
            k = np.searchsorted(at, t, side="right") - 1
            stopped = k >= 0 and t < at[k] + STOP_CLOCKS
            if stopped != bool(dead[0]):
                dead[:] = stopped
                sim.set_state("router_dead", dead)
            w = sim.state("belt")[:net.routers, t % net.slots, :]
            good = ((w & 15) == 8) & ((w >> 5) & 1 == 1)  # ACK, good
            n["received"] += int(good[exits].sum())
            n["acks_lost"] += int(good.sum()) if stopped else 0
            sim.step(1)
            if t > at[-1] + STOP_CLOCKS and t % 64 == 0 and not sim.state("src_mode").any() \
                    and sim.state("messages_acked").sum() == total:
                break
        n["messages"] += total
        n["acked"] += int(sim.state("messages_acked").sum())
        n["stops"] += stops
        n["held"] += int(np.count_nonzero(sim.state("port_mode")))
        n["misrouted"] += int(sim.state("bad_headers").sum())
    return n


def _stop_lost(quick: bool) -> Measured:
    n = _stopped(quick)
    return Measured(n["messages"] - n["acked"], f"{n['acked']} of {n['messages']} messages "
                                                f"acknowledged after {n['stops']} stops; "
                                                f"{n['held']} router ports still held at the end; "
                                                f"{n['misrouted']} streams misrouted by a "
                                                f"connection kept through a stop")


def _stop_duplicated(quick: bool) -> Measured:
    n = _stopped(quick)
    return Measured(n["received"] - n["acked"], f"{n['received']} receptions of {n['acked']} "
                                                f"messages after {n['stops']} stops; "
                                                f"{n['acks_lost']} good acknowledgements were "
                                                f"lost in the stops")


def _alternate_paths(quick: bool) -> Measured:
    # Each blocked attempt against its source's next (its retry): the entering wire, routers and
    # forward ports up to the router that blocked it.
    cfg = _figure3(quick).with_(offered=0.3, warmup=0, measure=1)
    df = streams(Simulator(cfg), 2000 if quick else 12000)
    pairs = alternate = avoided = 0
    by_stage = np.zeros((2, 3), int)
    for _, s in df.sort_values("tag").groupby("source"):
        for a, b in zip(s.itertuples(), s.iloc[1:].itertuples()):
            if not (a.followed and b.followed) or not pd.isna(a.dest):
                continue
            j = len(a.routers)
            other = (a.routers, a.ports) != (b.routers[:j], b.ports[:j])
            pairs += 1
            alternate += other
            avoided += len(b.routers) < j or b.routers[j - 1] != a.routers[-1]
            by_stage[:, j - 1] += (1, other)
    shares = ", ".join(f"{k / m:.2f} of {m}" for m, k in by_stage.T)
    return Measured(alternate / pairs, f"{pairs} retries of blocked attempts; by the stage that "
                                       f"blocked (0, 1, 2): {shares}; {avoided / pairs:.2f} avoid "
                                       f"the router that blocked")


def _figure1_paths(quick: bool) -> Measured:
    # The paper numbers Figure 1's endpoints 1 to 16: its 6 and 16 are endpoints 5 and 15 here.
    # Endpoints 0, 5, 10 and 15 all send to 15; the paths of 5's delivered attempts are counted.
    cfg = _figure1(quick).with_(pattern="hotspot", hotspot_nodes=[15], hotspot_fraction=1.0,
                                sender_every=5, offered=0.3, warmup=0, measure=1)
    df = streams(Simulator(cfg), 8000 if quick else 40000)
    got = df[(df.source == 5) & df.dest.notna() & df.followed]
    paths = set(zip(got.routers, got.ports))
    leaving = {routers[-1] for routers, _ in paths}
    bound = cfg.get("topology.endpoint_ports") * np.prod(cfg.get("topology.dilation"))
    return Measured(len(paths), f"{len(got)} delivered attempts from 5 to 15 took {len(paths)} "
                                f"paths (entering wire x dilated choices: {bound}), reaching 15 "
                                f"through {len(leaving)} last-stage routers")


def _stage_time(k: int):
    def measure(quick: bool) -> Measured:
        row = TABLE3.iloc[k]
        cfg = row_config(row)
        messages = 2 if quick else 8
        # One sender (endpoint 0), its messages made at once and sent one after another:
        # nothing contends. A TURN passes each router as data does.
        cfg = cfg.with_(sender_every=32, max_packets=messages,
                        offered=float(cfg.get("traffic.packet_size")))
        df = streams(Simulator(cfg), 5000,
                     until=lambda sim: sim.state("messages_acked").sum() == messages)
        hops = np.concatenate([np.diff(t) for t in df.turns if len(t) == row.stages + 1]
                              or [np.array([np.nan])])  # no message through: NaN, diverges
        return Measured(hops.mean() * row.t_clk,
                        f"{len(hops)} hops of {len(df)} messages: the TURN took "
                        f"{', '.join(map(str, sorted(set(hops))))} clocks of {row.t_clk:g} ns "
                        f"from router to router (and to the endpoint); Table 4: t_on_chip "
                        f"{row.dps} x {row.t_clk:g} + vtd {row.vtd} x {row.t_clk:g}")
    return measure


def _masked_wires(quick: bool) -> Measured:
    # One backward port of every router in the two dilation-2 stages corrupts the data words
    # crossing its wire (metro.noisy_ports); the scan path's Port On/Off bit (port_enabled)
    # disables it and the forward port at the wire's far end.
    cfg = _figure1(quick)
    net = Network(Simulator(cfg))
    wires = [(int(r), int(net.forward[r])) for r in np.flatnonzero(net.stage < 2)]
    cfg = cfg.with_(**{"metro.word_error_rate": 0.05,
                       "metro.noisy_ports": [k for wire in wires for k in wire]})
    on = simulate(cfg)
    sim = Simulator(cfg)
    enabled = sim.state("port_enabled")
    for r, p in wires:
        far = net.peer[r, p]
        enabled[r, p] = enabled[far // net.ports, far % net.ports] = 0
    off = sim.set_state("port_enabled", enabled).run()
    assert not isinstance(off, list)  # one instance
    created = round(off.offered * net.endpoints * cfg.get("run.measure")
                    / cfg.get("traffic.packet_size"))
    value = off.words_corrupted if off.packets == created > 0 and off.lost == 0 else np.nan
    return Measured(value, f"{len(wires)} faulty wires disabled: {off.packets} of {created} "
                           f"messages delivered, {off.words_corrupted:g} words corrupted, "
                           f"latency {off.latency_mean:.1f}; enabled: {on.words_corrupted:g} "
                           f"words corrupted, {on.bad_checksum_fraction:.1%} of the checks "
                           f"failed, latency {on.latency_mean:.1f}")


@lru_cache(maxsize=4)
def _blocked(quick: bool, reclaim: str, detailed_stage: int | None = None) -> pd.DataFrame:
    """Figure 3's network at 0.3: every attempt that a router blocked, with what came back.
    With `detailed_stage`, that stage's forward ports reclaim in detail and the others as
    `reclaim` says (the state array fast_reclaim, per port)."""
    cfg = _figure3(quick).with_(offered=0.3, warmup=0, measure=1, **{"metro.reclaim": reclaim})
    sim = Simulator(cfg)
    if detailed_stage is not None:
        per_port = sim.state("fast_reclaim")
        per_port[Network(sim).stage == detailed_stage, :] = 0
        sim.set_state("fast_reclaim", per_port)
    df = streams(sim, 2000 if quick else 12000)
    # Blocked: it reached no endpoint, and its source has tried again since (it ended).
    ended = df.tag < df.source.map(df.groupby("source").tag.max())
    return df[df.followed & df.dest.isna() & ended]


def _detailed_router(quick: bool) -> Measured:
    b = _blocked(quick, "detailed")
    named = (b.blocked_by == b.routers.map(lambda r: r[-1])).sum()
    return Measured(named / len(b), f"{named} of {len(b)} blocked attempts: the STATUS names "
                                    f"the router the start word stopped at")


def _fast_stage(quick: bool) -> Measured:
    b = _blocked(quick, "fast")
    stage = b.routers.map(len)  # the blocked router's stage + 1, as the DROP carries it
    named = ((b["drop"] == stage) & b.blocked_by.isna()).sum()
    return Measured(named / len(b), f"{named} of {len(b)} blocked attempts: the DROP names the "
                                    f"stage the start word stopped at and no STATUS a router "
                                    f"({b.blocked_by.notna().sum()} did)")


def _per_port_reclaim(quick: bool) -> Measured:
    # Stage 1's forward ports detailed, the others fast: each blocked attempt must come back
    # as its blocking router's port says, a STATUS naming that router (detailed) or a DROP
    # naming its stage and no STATUS (fast).
    b = _blocked(quick, "fast", detailed_stage=1)
    stage = b.routers.map(len) - 1
    detailed = stage == 1
    held = detailed & (b.blocked_by == b.routers.map(lambda r: r[-1]))
    dropped = ~detailed & (b["drop"] == stage + 1) & b.blocked_by.isna()
    right = int((held | dropped).sum())
    return Measured(right / len(b), f"{right} of {len(b)} blocked attempts came back in the "
                                    f"mode of the port that blocked them: {int(held.sum())} of "
                                    f"{int(detailed.sum())} blocked in stage 1 (detailed) with "
                                    f"its router's STATUS, {int(dropped.sum())} of "
                                    f"{int((~detailed).sum())} in stages 0 and 2 (fast) with a "
                                    f"DROP naming the stage")


def _cascade_identical(quick: bool) -> Measured:
    # Without faults every slice of a cascade routes on the same route and random bits.
    loads = (0.3,) if quick else (0.3, 0.6)
    runs, shut = {}, 0
    for c in (1, 2, 4):
        for x in loads:
            sim = Simulator(_figure3(quick).with_(**{"metro.cascade": c}, offered=x))
            r = sim.run()
            assert not isinstance(r, list)  # one instance
            runs[c, x] = r
            shut += int(sim.state("inuse_shutdowns").sum())
    return Measured(shut, "latency at " + ", ".join(
        f"{x}: " + ", ".join(f"{runs[c, x].latency_mean:.2f}" for c in (1, 2, 4))
        for x in loads) + " clocks (1, 2, 4 routers cascaded)")


@lru_cache(maxsize=8)
def _cascade_faults(quick: bool, cascade: int, entering: bool) -> dict[str, int]:
    """Figure 3's network with `cascade` routers to a logical router and header words
    corrupted in one slice (metro.header_error_rate 0.05) on the endpoints' entering wires
    (else on every wire), every endpoint sending its messages at 0.3, run until all are
    acknowledged: the counters from clock 0."""
    messages = 50 if quick else 200
    cfg = _figure3(True).with_(offered=0.3, max_packets=messages, warmup=0, measure=1)
    net = Network(Simulator(cfg))
    wires = [k for r in np.flatnonzero(net.stage == 0) for p in range(int(net.forward[r]))
             for k in (int(r), p)]
    sim = Simulator(cfg.with_(**{"metro.cascade": cascade, "metro.header_error_rate": 0.05,
                                 "metro.noisy_ports": wires if entering else []}))
    total = net.endpoints * messages
    while sim.cycle < 200 * messages:
        sim.step(500)
        if sim.state("messages_acked").sum() == total and not sim.state("src_mode").any():
            break
    got = {k: int(sim.state(k).sum()) for k in ("words_corrupted", "inuse_shutdowns",
                                                "bad_headers", "bad_checksums", "messages_acked")}
    return got | {"messages": total}


def _cascade_shutdown(quick: bool) -> Measured:
    runs = {c: _cascade_faults(quick, c, True) for c in ((2,) if quick else (2, 4))}
    caught = [n["inuse_shutdowns"] / (n["inuse_shutdowns"] + n["bad_headers"])
              if n["messages_acked"] == n["messages"] and n["inuse_shutdowns"] else np.nan
              for n in runs.values()]
    one = _cascade_faults(quick, 1, True)
    every = {c: _cascade_faults(quick, c, False) for c in runs}
    return Measured(min(caught), "; ".join(
        f"{c} cascaded: {n['words_corrupted']} header words hit, {n['inuse_shutdowns']} "
        f"connections shut down by IN-USE, {n['bad_headers']} reached an endpoint, "
        f"{n['messages_acked']} of {n['messages']} messages acknowledged; every wire noisy: "
        f"{every[c]['inuse_shutdowns']} shut down, {every[c]['bad_headers']} caught at the "
        f"endpoint" for c, n in runs.items())
        + f"; one router (no cascade): {one['bad_checksums']} checksums failed at wrong "
          "endpoints")


# Section 2's "p/(l+1) operations per cycle": a source sends one message at a time and stalls
# until it is acknowledged, so every sending endpoint is one operation in flight (p = the
# senders, traffic.sender_every). The machine's latency l is the unloaded one, measured in a run
# of its own (offered 0.001), and changed by the wires' pipeline stages (metro.vtd 0, 1, 3);
# the senders, offered past what they can send, each always have their next message. The
# prediction p/(l+1) against the messages they complete a clock, where parallelism is limited
# against the processors (a quarter and an eighth of the endpoints sending), as the paragraph's
# case is; all of them sending is reported (contention there lengthens l itself). The ratio
# farthest from 1.
@lru_cache(maxsize=None)
def _t3e_gets(window: int, end_point: int, quick: bool) -> tuple[float, float]:
    """Accepted load and network latency of a 4x4x4 T3E, uniform single-word Gets at offered
    1.0, `window` requests a PE in flight, t3e.end_point `end_point`."""
    r = simulate(Config().with_(
        family="t3e", kind="torus", radix=[4, 4, 4], pattern="uniform", offered=1.0,
        **{"t3e.outstanding": window, "t3e.end_point": end_point,
           "run.warmup": 1000 if quick else 3000, "run.measure": 3000 if quick else 10000}))
    return r.accepted, r.network_latency_mean


def _elasticity(window: int, quick: bool) -> tuple[float, float, float]:
    """Throughput's elasticity to latency with `window` requests a T3E PE, and the two round
    trips (clocks) of one request a PE, at t3e.end_point 10 and 30."""
    (fast, _), (slow, _) = _t3e_gets(window, 10, quick), _t3e_gets(window, 30, quick)
    lo, hi = _t3e_gets(1, 10, quick)[1], _t3e_gets(1, 30, quick)[1]
    return math.log(slow / fast) / math.log((lo + 1) / (hi + 1)), lo, hi


# "Only in cases where parallelism is much larger than the number of nodes ... (p > (n l)), is
# application performance decoupled from network latency": on the T3E (its PEs may hold many
# requests in flight; METRO's endpoints one message each), the elasticity of throughput to the
# latency, which t3e.end_point raises, with many requests a PE against one.
def _decoupled(quick: bool) -> Measured:
    many, lo, hi = _elasticity(256, quick)
    some, one = _elasticity(16, quick)[0], _elasticity(1, quick)[0]
    return Measured(many, f"one request a PE: round trip {lo:.1f} -> {hi:.1f} clocks, "
                          f"elasticity {one:.2f}; 16 a PE {some:.2f}; 256 a PE {many:.3f}")


def _ops_per_cycle(quick: bool) -> Measured:
    cfg, ratios, parts = _figure3(quick), [], []
    for vtd in (0, 1, 3):
        machine = cfg.with_(**{"metro.vtd": vtd})
        lat = simulate(machine, offered=0.001).network_latency_mean  # the paper's l
        got = {}
        for every in (1, 4, 8):
            r = simulate(machine.with_(**{"traffic.sender_every": every}), offered=1.0)
            ops = r.accepted * every / cfg.get("traffic.packet_size")  # messages a sender a clock
            got[every] = ops * (lat + 1)
        ratios += [got[4], got[8]]
        parts.append(f"vtd {vtd}: l = {lat:g}, measured over predicted {got[4]:.4f} (1/4 of the "
                     f"endpoints sending), {got[8]:.4f} (1/8), {got[1]:.4f} (all)")
    return Measured(max(ratios, key=lambda x: abs(x - 1)), "; ".join(parts))


@lru_cache(maxsize=2)
def _multipath(quick: bool) -> dict[tuple[str, float], tuple[float, ...]]:
    """Figure 3's network (dilation 2, 2, 1) and the same network undilated (1, 1, 1: twice the
    routers in the first two stages, each with half the ports, so the same endpoints and the
    same wires between every two stages, but one wire to each direction of a router) at 0.3 and
    0.8 (past both saturations): accepted, latency and attempts a message, means over graph and
    traffic seeds (quick 1, full 1-3)."""
    seeds = (1,) if quick else (1, 2, 3)
    out = {}
    for name, dilation in (("dilated", [2, 2, 1]), ("undilated", [1, 1, 1])):
        for x in (0.3, 0.8):
            runs = [simulate(_figure3(quick).with_(seed=s, graph_seed=s,
                                                    **{"topology.dilation": dilation}), offered=x)
                    for s in seeds]
            out[name, x] = tuple(float(np.mean([getattr(r, k) for r in runs]))
                                 for k in ("accepted", "latency_mean", "attempts_per_message"))
    return out


def _multipath_detail(m: dict) -> str:
    return "; ".join(f"{name}: accepted {m[name, 0.8][0]:.3f} at 0.8, latency "
                     f"{m[name, 0.3][1]:.1f} "
                     f"and {m[name, 0.3][2]:.2f} attempts a message at 0.3"
                     for name in ("dilated", "undilated"))


def _multipath_bandwidth(quick: bool) -> Measured:
    m = _multipath(quick)
    return Measured(m["dilated", 0.8][0] / m["undilated", 0.8][0], _multipath_detail(m))


def _multipath_congestion(quick: bool) -> Measured:
    m = _multipath(quick)
    return Measured(m["undilated", 0.3][1] / m["dilated", 0.3][1], _multipath_detail(m))


def _degrades(quick: bool) -> Measured:
    # Figure 3's network past saturation (0.8), so the accepted load is what it carries, with
    # faults chosen at random (a numpy generator per seed), masked: dead routers of the middle
    # stage (a dead first- or last-stage router cuts its endpoints' wires, section 5.1's other
    # case) and broken wires between routers (metro.failed_ports by their backward end). Each
    # level's accepted over the fault-free against the share of that resource left; the worst.
    cfg = _figure3(quick).with_(offered=0.8)
    net = Network(Simulator(cfg))
    middle = np.flatnonzero(net.stage == 1)
    wires = [(int(r), p) for r in np.flatnonzero(net.stage < 2)
             for p in range(int(net.forward[r]), net.ports)]
    seeds = (1,) if quick else (1, 2, 3, 4, 5)
    levels = [("routers", k, len(middle)) for k in (1, 2, 4)] + [
        ("wires", k, len(wires)) for k in (8, 16, 32, 64)]
    base = np.mean([simulate(cfg.with_(seed=s)).accepted for s in seeds])
    worst, parts, lost, placed = np.inf, [], 0, (np.inf, "")
    for kind, k, of in levels:
        acc = []
        for s in seeds:
            pick = np.random.default_rng(s).choice(of, k, replace=False)
            fault = ({"metro.failed_routers": [int(middle[i]) for i in pick]} if kind == "routers"
                     else {"metro.failed_ports": [v for i in pick for v in wires[i]]})
            r = simulate(cfg.with_(seed=s, **fault))
            acc.append(r.accepted)
            lost += r.lost
            placed = min(placed, (r.accepted / base / (1 - k / of), f"{k} {kind}, seed {s}"))
        kept = np.mean(acc) / base
        worst = min(worst, kept / (1 - k / of))
        parts.append(f"{k} {kind}: {kept:.3f} (of {1 - k / of:.3f} left)")
    return Measured(worst if lost == 0 else np.nan,
                    f"accepted past saturation, share of the fault-free {base:.3f} kept: "
                    + ", ".join(parts) + f"; {lost} messages lost; the worst single placement: "
                    f"{placed[1]}, {placed[0]:.2f} of its share")


def _localised(quick: bool) -> Measured:
    # One noisy wire (metro.noisy_ports, 5% of its data words corrupted) at a time: an entering
    # wire, one between the first two stages and a leaving wire (as test_metro.py), in both
    # reclamation modes. After the warm-up and window, the endpoints that located faults from the
    # routers' STATUS and checksums and the destination's sum vote for a wire (suspect_wires):
    # the share of them that name the noisy one. Then, in the same run, the scan system disables
    # the wire most of them name (port_enabled at both router ends) and the run goes on as long
    # again: NaN unless no check fails there (after STREAM clocks for the streams already past
    # the wire) and messages are still delivered.
    base = _figure1(quick).with_(offered=0.2, **{"metro.word_error_rate": 0.05})
    span = base.get("run.warmup") + base.get("run.measure")
    right = named = located = bad_after = acked_after = 0
    for wire in ((0, 0), (0, 4), (20, 4)):
        for reclaim in ("fast", "detailed"):
            sim = Simulator(base.with_(**{"metro.noisy_ports": list(wire),
                                          "metro.reclaim": reclaim}))
            net = Network(sim)
            sim.step(span)
            suspects = suspect_wires(sim)
            hit = (suspects.router == wire[0]) & (suspects.port == wire[1])
            right += int(suspects.endpoints[hit].sum())
            named += int(suspects.endpoints.sum())
            located += suspects.attrs["located"]
            enabled = sim.state("port_enabled")
            if len(suspects):
                r, q = int(suspects.router[0]), int(suspects.port[0])
                enabled[r, q] = 0
                if net.peer[r, q] >= 0:
                    far = int(net.peer[r, q])
                    enabled[far // net.ports, far % net.ports] = 0
            sim.set_state("port_enabled", enabled).step(STREAM)
            bad, acked = (int(sim.state(k).sum()) for k in ("bad_checksums", "messages_acked"))
            sim.step(span)
            bad_after += int(sim.state("bad_checksums").sum()) - bad
            acked_after += int(sim.state("messages_acked").sum()) - acked
    return Measured(right / named if bad_after == 0 and acked_after > 0 else np.nan,
                    f"6 cases (3 wires x fast, detailed): {right} of {named} endpoints' votes "
                    f"name the noisy wire ({located} faults located); after the most named wire "
                    f"was disabled, {bad_after} checks failed and {acked_after} messages were "
                    f"acknowledged")


STREAM = 50  # clocks: longer than a stream's words take from the wire to their check (24)


def _message_lengths(quick: bool) -> Measured:
    # Messages of 2 to 2,000 data words, each size alone at 0.2 (loaded: blocks and retries;
    # past saturation for 2 words, whose per-message overheads dominate): the one-way time of a
    # delivered attempt, its first word to its last data word at the destination, against the
    # words. A stream fed at a word a clock takes W + the route word + 3 stages.
    sizes, one_way, parts = (2, 20, 200, 2000), [], []
    for w in sizes:
        r = simulate(_figure3(quick).with_(measure=8000 if quick else 20000,
                                           **{"traffic.packet_size": w}), offered=0.2)
        one_way.append(r.one_way_mean if r.packets > 0 and r.lost == 0 else np.nan)
        parts.append(f"{w} words: one-way {r.one_way_mean:g} ({r.packets} delivered, "
                     f"{r.attempts_per_message:.2f} attempts a message)")
    rate = (sizes[-1] - sizes[0]) / (one_way[-1] - one_way[0])
    return Measured(rate if np.isfinite(one_way).all() else np.nan,
                    "; ".join(parts) + f"; one-way - W: "
                    f"{', '.join(f'{t - w:g}' for t, w in zip(one_way, sizes))} clocks")


def _read_reply(quick: bool) -> Measured:
    # Reads (traffic.request_reply) of a 5-word reply after 0, 10 and 50 clocks of fetching
    # (metro.reply_delay, the destination's DATA-IDLE), unloaded, against the same network's
    # write: the read's latency beyond the write's, less the fetch and the reply's words and
    # TURN, is what turning the connection back costs.
    cfg = _figure3(quick).with_(offered=0.001, measure=8000 if quick else 40000)
    write = simulate(cfg)
    fresh = simulate(cfg.with_(**{"traffic.packet_size": 5}))  # the reply as a message of its own
    extra, parts = [], []
    for delay in (0, 10, 50):
        r = simulate(cfg.with_(**{"traffic.request_reply": True, "traffic.reply_size": 5,
                                  "metro.reply_delay": delay}))
        extra.append(r.latency_mean - write.latency_mean - delay - 6 if r.packets else np.nan)
        parts.append(f"delay {delay}: read {r.latency_mean:g} (max {r.latency_max:g}, "
                     f"{r.packets} reads)")
    return Measured(max(extra, key=abs), f"write {write.latency_mean:g}; " + "; ".join(parts)
                    + f"; the 5 words sent as a message of their own: {fresh.latency_mean:g}")


def _backward_port(net: Network, routers: tuple, ports: tuple, k: int) -> int:
    """The backward port of an attempt's k-th router that it left by: the far end of the next
    router's forward port it reached."""
    return int(net.peer[routers[k + 1], ports[k + 1]]) % net.ports


def _hop_times(cfg, vtd: dict[tuple[int, int], int], cycles: int) -> tuple[int, int, dict]:
    """Every attempt followed (metro.trace.streams): the clocks its start word and its TURN took
    from each router to the next and to the endpoint, against dp + the vtd of the wire crossed
    (`vtd` by (router, backward port), metro.vtd elsewhere). (hops as they should, hops, the
    clocks seen by wire vtd)."""
    net = Network(Simulator(cfg))
    df = streams(Simulator(cfg), cycles)
    dp, default = cfg.get("metro.dp"), cfg.get("metro.vtd")
    hops = right = 0
    by_delay: dict[int, set[int]] = {}
    for a in df[df.followed].itertuples():
        ends = list(a.clocks) + ([] if pd.isna(a.arrived) else [a.arrived])
        for k in range(len(ends) - 1):
            out = (_backward_port(net, a.routers, a.ports, k) if k + 1 < len(a.routers)
                   else -1)  # the wire to the endpoint: metro.vtd
            want = dp + vtd.get((a.routers[k], out), default)
            took = [ends[k + 1] - ends[k]] + (
                [a.turns[k + 1] - a.turns[k]] if len(a.turns) > k + 1 else [])
            hops += len(took)
            right += sum(t == want for t in took)
            by_delay.setdefault(want - dp, set()).update(took)
    return right, hops, by_delay


def _wire_lengths(quick: bool) -> Measured:
    # Figure 3's network with wires of their own length (metro.port_vtd) out of the first
    # stage: in each router the first backward port of each direction 1, 2, 3 and 1 more
    # pipeline stages (directions 0 to 3), the others none. Every attempt followed at 0.3
    # (loaded): each hop's clocks against dp + the wire's own vtd.
    cfg = _figure3(quick).with_(offered=0.3, warmup=0, measure=1)
    net = Network(Simulator(cfg))
    vtd: dict[tuple[int, int], int] = {}
    for r in np.flatnonzero(net.stage == 0):
        f = int(net.forward[r])
        for q in range(f, net.ports, 2):
            vtd[int(r), q] = 1 + (q - f) // 2 % 3
    cfg = cfg.with_(**{"metro.port_vtd": [v for (r, q), d in vtd.items() for v in (r, q, d)]})
    right, hops, by_delay = _hop_times(cfg, vtd, 2000 if quick else 12000)
    r = simulate(cfg.with_(warmup=500 if quick else 2000, measure=2000 if quick else 10000))
    return Measured(right / hops if r.lost == 0 else np.nan,
                    f"{right} of {hops} hops (start words and TURNs) took dp + their wire's "
                    f"vtd: " + ", ".join(f"vtd {d}: {sorted(t)} clocks"
                                         for d, t in sorted(by_delay.items()))
                    + f"; a run at 0.3 of the same network: accepted {r.accepted:.3f}, "
                      f"latency {r.latency_mean:.1f}, {r.lost} lost")


def _constant_hops(quick: bool) -> Measured:
    # Figure 3's network at 0.5, near its saturation (0.54), every attempt followed.
    right, hops, by_delay = _hop_times(_figure3(quick).with_(offered=0.5, warmup=0, measure=1),
                                       {}, 2000 if quick else 12000)
    return Measured(right / hops, f"{right} of {hops} hops (start words and TURNs, router to "
                                  f"router and to the endpoint) took dp + vtd = 1 clock; seen: "
                                  f"{sorted(by_delay[0])}")


HELD = 40  # clocks: longer than a connection holds a router unloaded (29 from its start)


def _choices(quick: bool, selection: str) -> tuple[int, int, int, int]:
    """At a light load (0.05) both wires of a direction are nearly always free, so a router's
    choice between them is the selection itself (metro.selection). Every attempt followed: the
    backward port each dilation-2 router chose, and whether it repeats that router's previous
    choice in the same direction, counted where that choice was made long enough before (HELD
    clocks) for its connection to have closed, so both wires were free. (repeats, choices
    counted for them, choices of the direction's first port, choices)."""
    cfg = _figure3(quick).with_(offered=0.05, warmup=0, measure=1,
                                **{"metro.selection": selection})
    net = Network(Simulator(cfg))
    df = streams(Simulator(cfg), 4000 if quick else 20000)
    last: dict[tuple[int, int], tuple[int, int]] = {}  # (router, direction): (clock, port)
    repeats = pairs = first = choices = 0
    for a in df[df.followed].sort_values("tag").itertuples():
        for k in range(len(a.routers) - 1):
            r = a.routers[k]
            if net.dilation[net.stage[r]] != 2:
                continue
            q = _backward_port(net, a.routers, a.ports, k) - int(net.forward[r])
            direction, port = q // 2, q % 2
            first += port == 0
            choices += 1
            before, was = last.get((r, direction), (a.clocks[k], -1))  # none: not counted
            if a.clocks[k] - before >= HELD:
                repeats += was == port
                pairs += 1
            last[r, direction] = (a.clocks[k], port)
    return repeats, pairs, first, choices


def _random_choice(quick: bool) -> Measured:
    # Random: half repeat (round robin: none). The control, first free, repeats nearly always
    # (not always: the first wire is now and then still held): the measurement can tell.
    repeats, pairs, first, choices = _choices(quick, "random")
    c_repeats, c_pairs, _, _ = _choices(quick, "first")
    return Measured(repeats / pairs if c_repeats >= 0.9 * c_pairs else float("nan"),
                    f"{choices} choices by the routers of the two dilation-2 stages, "
                    f"{first / choices:.3f} of them the direction's first port; {repeats} of "
                    f"{pairs} repeat the router's previous choice in that direction (with "
                    f"metro.selection = \"first\", the control: {c_repeats} of {c_pairs}; "
                    f"NaN if under 90%)")


def _fat_tree(quick: bool) -> Measured:
    # configs/metro_fat_tree.toml, our construction (the paper leaves it to its reference [7]):
    # every endpoint sends one message to destination d at once (hotspot, all of the traffic),
    # for every d (quick: 4 of them); the pairs delivered. Then endpoints 0, 16, 32 and 48
    # send to 63, across the root, every attempt followed: the distinct paths of 0's.
    base = load_config(CONFIGS / "metro_fat_tree.toml").with_(
        pattern="hotspot", hotspot_fraction=1.0, threads=1)
    net = Network(Simulator(base))
    size = base.get("traffic.packet_size")
    dests = range(0, net.endpoints, 21) if quick else range(net.endpoints)
    delivered, lost, attempts = 0, 0, []
    for d in dests:
        r = simulate(base.with_(hotspot_nodes=[d], max_packets=1, offered=float(size), warmup=0,
                                measure=3000, drain=3000))
        delivered += r.packets
        lost += r.lost
        attempts.append(r.attempts_per_message)
    cfg = base.with_(hotspot_nodes=[63], sender_every=16, offered=0.3, warmup=0, measure=1)
    df = streams(Simulator(cfg), 4000 if quick else 16000)
    got = df[(df.source == 0) & df.dest.notna() & df.followed]
    paths = len(set(zip(got.routers, got.ports)))
    pairs = net.endpoints * len(dests)
    return Measured(delivered / pairs if paths > 1 and lost == 0 else np.nan,
                    f"{delivered} of {pairs} pairs delivered ({len(dests)} destinations, each "
                    f"from all {net.endpoints} endpoints at once: {np.mean(attempts):.1f} "
                    f"attempts a message), {lost} lost; {len(got)} delivered attempts from 0 to "
                    f"63 took {paths} paths of {sorted(set(map(len, got.routers)))} routers")


def _acknowledgements(quick: bool) -> Measured:
    # Figure 3's network loaded (quick 0.3; full 0.3 and 0.5, near saturation), every word
    # read off the wires (metro.Tracer): for each attempt acknowledged (good or bad), the
    # clocks from its source sending the TURN to the acknowledgement arriving there, the
    # word's tag naming its stream.
    waits: dict[float, np.ndarray] = {}
    for x in ((0.3,) if quick else (0.3, 0.5)):
        cfg = _figure3(quick).with_(offered=x, warmup=0, measure=1)
        t = Tracer(Simulator(cfg)).step(1000 if quick else 4000).table
        sent = t[(t.kind == "TURN") & t.src.str.startswith("E")].set_index(["src", "tag"]).sent
        acked = t[(t.kind == "ACK") & t.dst.str.startswith("E")].set_index(["dst", "tag"]).cycle
        acked.index.names = sent.index.names
        both = pd.concat([sent, acked], axis=1, join="inner", keys=["turn", "ack"])
        waits[x] = (both.ack - both.turn).to_numpy()
    every = np.concatenate(list(waits.values()))
    return Measured(float(every.max() - every.min()), "; ".join(
        f"at {x}: {len(w)} acknowledgements, {sorted(set(w.tolist()))} clocks after the TURN"
        for x, w in waits.items()))


@lru_cache(maxsize=4)
def _deliveries(quick: bool, rate: float, checksum: str = "weighted") -> pd.DataFrame:
    """Figure 3's network at 0.1 with every wire out of a router noisy (metro.noisy_ports,
    metro.word_error_rate `rate`: a data word's bit 0 flips), the endpoints' entering wires
    clean, so the words reaching the first router are the ones the source sent; the
    end-to-end checksum metro.checksum. Every word read off the wires (metro.Tracer): one row
    per acknowledgement a destination sent, good or not, with the data words its source sent
    and the ones it received (matched by destination and the stream's tag)."""
    cfg = _figure3(quick).with_(offered=0.1, warmup=0, measure=1)
    net = Network(Simulator(cfg))
    noisy = [v for r in range(net.routers) for q in range(int(net.forward[r]), net.ports)
             if net.peer[r, q] >= 0 or net.port_node[r, q] >= 0 for v in (r, q)]
    cfg = cfg.with_(**{"metro.word_error_rate": rate, "metro.noisy_ports": noisy,
                       "metro.checksum": checksum})
    t = Tracer(Simulator(cfg)).step(1000 if quick else 6000).table
    out = t[t.src.str.startswith("E")]
    sent = out[out.kind == "DATA"].groupby(["src", "tag"]).value.agg(tuple)
    heads = out[(out.kind == "HEADER") & out.start]
    heads = heads[~heads.duplicated(["value", "tag"], keep=False)]  # one source a (dest, tag)
    source = {(int(d), int(tag)): e for e, d, tag in zip(heads.src, heads.value, heads.tag)}
    got = t[t.dst.str.startswith("E") & (t.kind == "DATA")].groupby(
        ["dst", "dst_port", "tag"]).value.agg(tuple)
    acks = t[(t.kind == "ACK") & t.src.str.startswith("E")]
    rows = [{"good": a.text == "ACK good", "sent": sent[source[int(a.src[1:]), a.tag], a.tag],
             "got": got[a.src, a.src_port, a.tag]} for a in acks.itertuples()
            if (int(a.src[1:]), a.tag) in source]
    return pd.DataFrame(rows, columns=["good", "sent", "got"])


def _passed_changed(d: pd.DataFrame) -> tuple[int, int, int]:
    """Of the acknowledgements, (good ones whose data arrived changed, good ones, of those
    changed ones exactly two words changed)."""
    good = d[d.good]
    bad = good[good.sent != good.got]
    pairs = sum(sum(x != y for x, y in zip(a, b)) == 2 for a, b in zip(bad.sent, bad.got))
    return len(bad), len(good), int(pairs)


def _intact(quick: bool) -> Measured:
    d = _deliveries(quick, 0.01)
    changed, good, _ = _passed_changed(d)
    detail = (f"{changed} of {good} messages acknowledged good arrived with words changed; "
              f"{len(d) - good} acknowledged bad, "
              f"{int((d[~d.good].sent == d[~d.good].got).sum())} of them intact")
    s_changed, s_good, s_pairs = _passed_changed(_deliveries(quick, 0.01, "sum"))
    detail += (f". With metro.checksum = \"sum\" (the plain sum): {s_changed} of {s_good}, "
               f"{s_pairs} of them exactly two words changed")
    return Measured(changed / good, detail)


def _blocked_with_free(quick: bool) -> Measured:
    # Figure 3's network at 0.3 (fast reclamation), every attempt a router blocked
    # (_blocked): the same run again, stopped at each clock a blocked attempt's start word
    # reached its router. A backward port of the direction its destination's digit names that
    # is free (no connection, not draining an old one) and enabled both before the clock and
    # after it was there to take for the whole clock: a block beside it is one the router
    # should not have made. (A port taken in the clock by another forward port, or freed in it,
    # is busy at one of the two.)
    b = _blocked(quick, "fast")
    cfg = _figure3(quick).with_(offered=0.3, warmup=0, measure=1, **{"metro.reclaim": "fast"})
    sim = Simulator(cfg)
    net = Network(sim)
    below = [int(np.prod(net.radix[s + 1:])) for s in range(len(net.radix))]

    def free() -> np.ndarray:
        return ((net.read(sim, "conn") == NO_PORT)
                & (net.read(sim, "port_mode") != 4)  # 4: discarding (trace.PORT_MODES)
                & (net.read(sim, "port_enabled") != 0))

    wrong = elsewhere = 0
    for t, at in b.groupby(b.clocks.map(lambda c: c[-1])):
        sim.step(int(t) - sim.cycle)
        belt, before = net.read(sim, "belt")[:, t % net.slots, :], free()
        sim.step(1)
        after = free()
        for a in at.itertuples():
            r, f = a.routers[-1], a.ports[-1]
            s, d = int(net.stage[r]), net.dilation[int(net.stage[r])]
            j = (int(belt[r, f]) >> 5) // below[s] % net.radix[s]  # the header names the node
            through = (before[r] & after[r])[int(net.forward[r]):].reshape(-1, d)[:net.radix[s]]
            wrong += bool(through[j].any())
            elsewhere += bool(np.delete(through, j, axis=0).any())  # the check sees free ports
    stages = np.bincount(b.routers.map(len) - 1, minlength=3)
    return Measured(wrong, f"{wrong} of {len(b)} blocked attempts (blocked at stage 0, 1, 2: "
                           f"{', '.join(map(str, stages))}) had a free, enabled port in their "
                           f"direction through the clock; {elsewhere} had one in another "
                           f"direction")


D = "003"
CLAIMS = [
    Claim("metro.figure3_unloaded", D, "section 6.2, Figure 3",
          "The unloaded message latency is 28 clock cycles from message injection to "
          "acknowledgment receipt", Near(28), _unloaded,
          "configs/metro_figure3.toml at offered 0.001: latency_mean (creation, which is "
          "injection unloaded, to the acknowledgement)", DIVERGES, "clocks",
          cause="the document's two counts of a 20-byte message disagree by the route byte. "
                "Table 4 adds the route bits to the 20 bytes (t_20,32 = stages x t_stg + "
                "(20 x 8 + hbits) x t_bit), and every Table 3 row needs it (row 1 would be "
                "1200 ns, not 1250, with the route inside); counted so, Figure 3's stream is "
                "21 words and the round trip 21 + 2 x (1 + 3) = 29. 28 needs the route byte "
                "inside the 20 bytes, or a clock fewer that no stated timing gives (the TURN "
                "is a word of its own; Table 4 counts a stage per router and no more). Figure "
                "3 gives no other parameters, so the model keeps Table 4's count"),
    *[Claim(f"metro.table3_{k + 1:02d}", D, f"Table 3, row {k + 1}",
            f"{row.instance} ({row.technology}): t_20,32 = {row.paper_t_20_32:g} ns",
            Near(float(row.paper_t_20_32)), _row(k),
            "metro.row_config(metro.table3().iloc[k]): the row's 32-node multibutterfly "
            "(Figure 1's construction), hw, dp, vtd from Table 4, a 20-byte message behind its "
            "route words at 0.002 offered; one_way_mean x t_clk", REPRODUCED, "ns")
      for k, row in enumerate(TABLE3.itertuples())],
    Claim("metro.orbit_stage", D, "section 6.1",
          "Running at 40MHz with interconnect accounting for only a single pipeline stage, "
          "METROJR-ORBIT has a 50 ns router-to-router latency and a 25 ns nibble (4-bit) "
          "latency", Near(50), _orbit_stage,
          "Table 3's METROJR-ORBIT row as metro.table3_01: (one-way - words) / stages x t_clk",
          REPRODUCED, "ns"),
    Claim("metro.few_retries", D, "section 4",
          "The number of retries required, in practice, is small", Between(1.0, 2.0), _retries,
          "configs/metro_figure3.toml (fast reclamation, immediate retry) at 0.3, past half "
          "its saturation: attempts per delivered message", REPRODUCED, "attempts"),
    Claim("metro.fast_reclamation", D, "sections 5.1, 8",
          "Fast path reclamation allows stochastic search for non-faulty, uncongested paths "
          "to proceed rapidly", Between(1.05), _reclamation,
          "configs/metro_figure3.toml at 0.6 offered (past saturation): accepted with "
          "metro.reclaim fast over detailed", REPRODUCED, "ratio"),
    Claim("metro.last_stage_loss", D, "section 5.1",
          "The dilation-1 routers in the final stage allow the network shown to tolerate the "
          "complete loss of any router in the final stage without isolating any endpoints "
          "from the network", Near(1.0), _last_stage,
          "configs/metro_figure1.toml at 0.1, each last-stage router dead from the start "
          "(metro.failed_routers, masked): the fraction of them with every message delivered "
          "(quick: 2 of the 8)", REPRODUCED, "fraction"),
    Claim("metro.early_stage_loss", D, "sections 4, 5.1",
          "Source-responsible retry coupled with randomization in path selection guarantees "
          "that the source can eventually find an uncongested, fault-free path through the "
          "network, provided one exists ... The dilation-2 routers in the earlier network "
          "stages give the network its multipath nature allowing the network to tolerate "
          "congestion and faults in the earlier network stages", Near(1.0), _early_stages,
          "configs/metro_figure1.toml at 0.1: each of the 16 routers of the first two stages "
          "dead (metro.failed_routers), from the start and from the middle of the window "
          "(metro.failure_cycle), masked and unmasked (metro.mask_failed): the fraction of the "
          "64 cases in which every message created in the window is delivered (packets = "
          "offered x endpoints x window / 19 words, nothing lost); quick: a 1,500-clock window, "
          "full: 4,000", REPRODUCED, "fraction"),
    Claim("metro.random_selection_key", D, "section 4, Stochastic Path Selection",
          "This random path selection is the key to making the protocol robust against dynamic "
          "faults ... Since the routing components select randomly among equivalent outputs at "
          "each stage, it is highly likely that the retry connection will take an alternate "
          "path through the network, avoiding the newly exposed fault or hot spot",
          Near(1.0), _selection_key,
          "the unmasked cases of metro.early_stage_loss (configs/metro_figure1.toml at 0.1, "
          "each router of the first two stages dead from the start or from mid-window, "
          "metro.mask_failed false: a dynamic fault the scan system has not masked), run again "
          "with metro.selection = \"first\" (every router and source takes the lowest free "
          "port: no randomness): of the cases that then leave messages undelivered, the share "
          "in which random selection delivers every message; NaN if first selection loses "
          "none (nothing would show random selection to be the key)", REPRODUCED, "fraction"),
    Claim("metro.stop_no_loss", D, "section 2",
          "Stateless network No messages ever exist solely in the the network. Consequently, it "
          "is possible to stop network operation at any point in time without losing or "
          "duplicating messages", Near(0), _stop_lost,
          "configs/metro_figure3.toml at 0.3, each endpoint sending traffic.max_packets "
          "messages (quick 50, one seed; full 200, seeds 1-3), stopped at random clocks "
          "(quick 25 stops, full 100 a seed): every router dead for 10 clocks "
          "(set_state(\"router_dead\")), every word in flight discarded, then running on until "
          "every source is idle: messages never acknowledged. The routers keep their crossbar "
          "state through a stop (nothing can clear it from outside); the sources' timeouts "
          "release it, and a few streams follow a kept connection to a wrong endpoint, which "
          "acknowledges them bad (the detail's misrouted)", REPRODUCED, "messages"),
    Claim("metro.stop_no_duplicate", D, "section 2",
          "Stateless network No messages ever exist solely in the the network. Consequently, it "
          "is possible to stop network operation at any point in time without losing or "
          "duplicating messages", Near(0), _stop_duplicated,
          "as metro.stop_no_loss: the good acknowledgements the destinations send (one for "
          "each message that passes its end-to-end check) less the messages", DIVERGES,
          "messages",
          cause="the acknowledgement, not the message, exists solely in the network: a stop "
                "between a destination's check and its acknowledgement reaching the source "
                "loses the acknowledgement, the source retries and the destination receives "
                "the message again. Every duplicate is such a lost acknowledgement (full run: "
                "1,119 duplicates of 38,400 messages in 300 stops, 1,119 good acknowledgements "
                "lost in the stops; quick: 98 and 98 in 25 stops); runs without stops receive "
                "each message once (12,800 of 12,800 in each seed). The sentence "
                "holds for messages only with a destination that drops what it already has (a "
                "sequence number per source, which the paper does not describe)"),
    Claim("metro.retry_alternate_path", D, "section 4",
          "Since the routing components select randomly among equivalent outputs at each "
          "stage, it is highly likely that the retry connection will take an alternate path "
          "through the network, avoiding the newly exposed fault or hot spot",
          Between(0.9, 1.0), _alternate_paths,
          "configs/metro_figure3.toml at 0.3 (fast reclamation, immediate retry), every "
          "attempt followed by its start word (metro.trace.streams; quick 2,000 clocks, full "
          "12,000): the share of blocked attempts whose retry takes another path (entering "
          "wire, routers and ports) as far as the router that blocked. \"Highly likely\" "
          "gives no number: read as at least 9 in 10, as \"very likely\" in calibrated usage "
          "(\"likely\" starts at 2 in 3)", DIVERGES, "fraction",
          cause="the network's few random choices, not the routers: a retry can differ only "
                "where a random choice was made before the block, and Figure 3's network "
                "makes one per dilated stage plus the entering wire, each between two. The "
                "measured shares follow 1 - 2^-k for the k choices made: blocked at the first "
                "router (one choice, the entering wire) 0.46 differ, at the second stage 0.70 "
                "(two, at most 0.75), at the last 0.81 (three, 0.875); 0.69 in all (full run, "
                "4,016 retries; 0.52 avoid the router that blocked). The sentence holds as "
                "'likely' (2 in 3); 'highly likely' needs more dilated stages before the "
                "blocks than this three-stage network has"),
    Claim("metro.figure1_paths", D, "Figure 1",
          "Each of the 16 endpoints has two inputs and outputs for fault tolerance. Similarly, "
          "the routers each have two outputs in each of their two logical output directions. "
          "As a result, there are many paths between each pair of network endpoints. Paths "
          "between endpoint 6 and endpoint 16 are shown in bold", Near(8), _figure1_paths,
          "configs/metro_figure1.toml, the paper's endpoints 6 and 16 (numbered from 1) being "
          "5 and 15: endpoints 0, 5, 10 and 15 send to 15 at 0.3 (quick 8,000 clocks, full "
          "40,000), every attempt followed (metro.trace.streams): the distinct paths of 5's "
          "delivered attempts. The drawing's bold paths are not in the text; 8 is the "
          "caption's count: 2 entering wires x 2 outputs in each of the two dilation-2 stages "
          "x 1 in the last", REPRODUCED, "paths"),
    *[Claim(f"metro.table3_stage_{k + 1:02d}", D, f"Table 3, row {k + 1}",
            f"{row.instance} ({row.technology}): t_stg = {row.paper_t_stg:g} ns",
            Near(float(row.paper_t_stg)), _stage_time(k),
            "metro.row_config(metro.table3().iloc[k]) with one sender (endpoint 0) and its "
            "messages one after another (quick 2, full 8), every attempt followed "
            "(metro.trace.streams): the clocks its TURN takes from each router to the next and "
            "to the endpoint, x t_clk (Table 4: t_stg = t_on_chip + vtd x t_clk, \"chip-to-chip "
            "latency in the network\")", REPRODUCED, "ns")
      for k, row in enumerate(TABLE3.itertuples())],
    Claim("metro.masked_wires", D, "section 5.1, Scan Support",
          "Each port can be disabled, removing it from the set of resources in use by the "
          "system. The topology and redundancy provided by typical METRO networks allow the "
          "network to continue functioning with some resources disabled ... Disabled faults are "
          "masked, in that their faulty behavior can no longer corrupt message traffic",
          Near(0), _masked_wires,
          "configs/metro_figure1.toml at 0.1: the first backward port of each of the 16 routers "
          "of the first two stages corrupts words (metro.noisy_ports, word_error_rate 0.05), "
          "and is disabled with the forward port at its far end (the scan path's Port On/Off "
          "bits: set_state(\"port_enabled\")): corrupted words, NaN unless every message created "
          "in the window is delivered; quick: a 1,500-clock window, full: 4,000. The model's "
          "faulty wire corrupts the words it carries and emits none of its own", REPRODUCED,
          "words"),
    Claim("metro.detailed_names_router", D, "section 5.1, Path Reclamation",
          "The earlier behavior provides the source with sufficient information to determine "
          "at exactly which router the blocking occurred", Near(1.0), _detailed_router,
          "configs/metro_figure3.toml with metro.reclaim detailed at 0.3, every attempt "
          "followed (metro.trace.streams; quick 2,000 clocks, full 12,000): the share of blocked "
          "attempts whose STATUS saying blocked names the router the attempt's start word "
          "stopped at", REPRODUCED, "fraction"),
    Claim("metro.fast_names_stage", D, "section 5.1, Path Reclamation",
          "The latter behavior releases the resources held by the blocked connection rapidly "
          "while only informing the source of the routing stage in which the blocking "
          "occurred", Near(1.0), _fast_stage,
          "configs/metro_figure3.toml (fast reclamation) at 0.3, as metro.detailed_names_router: "
          "the share of blocked attempts whose DROP names the stage the start word stopped at "
          "and no STATUS a router", REPRODUCED, "fraction"),
    Claim("metro.per_port_reclaim", D, "section 5.1, Path Reclamation",
          "the mode of path reclamation is solely determined by the configuration of the "
          "forward port on the router at which the blocking occurred", Near(1.0),
          _per_port_reclaim,
          "configs/metro_figure3.toml at 0.3, stage 1's forward ports set to detailed "
          "reclamation and stages 0 and 2 fast (the state array fast_reclaim, per forward "
          "port: Table 2's per-port configuration), every attempt followed "
          "(metro.trace.streams; quick 2,000 clocks, full 12,000): the share of the blocked "
          "attempts that came back as the blocking port's mode says, a STATUS naming the "
          "router for a block in stage 1, a DROP naming the stage and no STATUS elsewhere",
          REPRODUCED, "fraction"),
    Claim("metro.cascade_identical", D, "section 5.1, Router Width Cascading",
          "As long as the connection requests and shared random bits are identical for the set "
          "of cascaded routers, the cascaded routers will allocate identically in the "
          "non-faulty case", Near(0), _cascade_identical,
          "configs/metro_figure3.toml with metro.cascade 2 and 4 at 0.3 (full: 0.3 and 0.6) "
          "data words per endpoint per clock, no faults: connections the cascade's IN-USE "
          "check shut down (inuse_shutdowns, any disagreement), summed; the latencies match "
          "the uncascaded network's. The model routes a cascade as one logical router whose "
          "slices share their random bits, each on its own copy of the route, so they can "
          "only disagree where a copy differs", REPRODUCED, "connections"),
    Claim("metro.cascade_shutdown", D, "section 5.1, Router Width Cascading",
          "METRO enforces a simple consistency check on each backward port ... the backward "
          "ports can detect when they disagree about an allocation. Since any disagreement is "
          "necessarily an error, as soon as the disagreement is noticed, the connection is "
          "shut down on all attached routers so that the fault is contained", Near(1.0),
          _cascade_shutdown,
          "configs/metro_figure3.toml, 2 routers cascaded (full: 2 and 4), every endpoint "
          "sending 50 messages (full: 200) at 0.3; a route bit flips in one slice's copy of "
          "the header (metro.header_error_rate 0.05) on the endpoints' entering wires "
          "(metro.noisy_ports), where every digit is still ahead, so each flip is a "
          "disagreement at a router: the connections shut down by IN-USE over those plus the "
          "corrupted headers that reached an endpoint (bad_headers), NaN unless every message "
          "is acknowledged. With every wire noisy, a flip of a digit already used reaches the "
          "endpoint (the paper: 'some cases in which a faulty allocation may go unnoticed by "
          "the shared pull-up', left to the end-to-end check)", REPRODUCED, "fraction"),
    Claim("metro.ops_per_cycle", D, "section 2",
          "an application with p operations which may proceed in parallel on each cycle, "
          "running on a machine with latency l can, on average, execute p/(l+1) operations per "
          "cycle", Near(1, rel=0.05), _ops_per_cycle,
          "configs/metro_figure3.toml with metro.vtd 0, 1 and 3 (the machine's latency l: its "
          "unloaded latency from a message's start to its acknowledgement, measured in a run of "
          "its own at offered 0.001: 29, 35 and 47 clocks); then a quarter and an eighth of the "
          "endpoints sending (traffic.sender_every 4 and 8: p = 16 and 8 of 64 processors, "
          "parallelism limited against them, the paragraph's case), offered 1.0 data word per "
          "endpoint per clock so each sender always has its next message, one message in flight "
          "per sender: messages completed per clock over the prediction p/(l+1); the ratio "
          "farthest from 1 ('on average' read as within 5%). Contention raises the latency a "
          "little above the unloaded l (about 1 clock with a quarter sending), which is what "
          "can move the ratio; with every endpoint sending it is 0.83 (the detail: l itself "
          "grows to 35 clocks at vtd 0, and the formula holds with that loaded l, which is "
          "Little's law). Until 2026-11-29 this row took l from the same run, which could not "
          "fail", REPRODUCED, "x"),
    Claim("metro.parallelism_decouples_latency", D, "section 2",
          "Only in cases where parallelism is much larger than the number of nodes (n) employed "
          "to speedup the application (p > (n · l)), is application performance decoupled from "
          "network latency", Between(0, 0.2), _decoupled,
          "METRO's endpoints have one message in flight each (p = n at most), so the general "
          "statement is measured where a node may have many operations in flight: the T3E "
          "family's PEs (t3e.outstanding requests waiting for their responses), 4x4x4, uniform "
          "single-word Gets at offered 1.0, the latency l raised by t3e.end_point 10 -> 30 "
          "(round trips of 31 -> 71 clocks with one request a PE): the elasticity of throughput "
          "to latency, ln(throughput ratio) / ln((l + 1) ratio), with 256 requests a PE in "
          "flight (p = 256 n, much more than n l); 'decoupled' read as under a fifth of full "
          "coupling, which one request a PE shows (elasticity about 1: the detail, with 16 a "
          "PE, p < n l, between)", REPRODUCED, "elasticity"),
    Claim("metro.multipath_bandwidth", D, "section 2, Network Organization",
          "Dilated routing components give rise to multiple independent paths through the "
          "network. The multiple paths in the network increase available bandwidth, decrease "
          "congestion, and provide tolerance to link and router faults", Between(1.05),
          _multipath_bandwidth,
          "configs/metro_figure3.toml (dilation 2, 2, 1) against the same network undilated "
          "(topology.dilation 1, 1, 1: the same 64 endpoints of two wires each and the same 128 "
          "wires between every two stages, on twice the routers in the first two stages, each "
          "with one wire to each direction), both at offered 0.8 (past both saturations, so the "
          "accepted load is what each carries): accepted dilated over undilated, means over "
          "graph and traffic seeds (quick 1, full 1-3). 'Increase' read as beyond the runs' "
          "noise (5%). Fault tolerance is metro.early_stage_loss", REPRODUCED, "ratio"),
    Claim("metro.multipath_congestion", D, "section 2, Network Organization",
          "Dilated routing components give rise to multiple independent paths through the "
          "network. The multiple paths in the network increase available bandwidth, decrease "
          "congestion, and provide tolerance to link and router faults", Between(1.05),
          _multipath_congestion,
          "as metro.multipath_bandwidth, at offered 0.3 (below both saturations): mean latency "
          "from creation to acknowledgement undilated over dilated (the attempts a message, "
          "each block a retry, in the detail)", REPRODUCED, "ratio"),
    Claim("metro.faults_degrade", D, "section 6.2",
          "Earlier work based around the routing protocol which evolved to become the METRO "
          "routing protocol shows that performance degrades robustly in the face of faults",
          Between(0.9), _degrades,
          "configs/metro_figure3.toml at offered 0.8 (past saturation: the accepted load is "
          "what it carries), masked faults placed at random (numpy seeds; quick 1 placement, "
          "full 5): 1, 2 and 4 dead routers of the 16 in the middle stage (metro.failed_routers; "
          "a dead first- or last-stage router cuts its endpoints' wires) and 8, 16, 32 and 64 "
          "broken wires of the 256 between routers (metro.failed_ports), up to a quarter of "
          "each: the accepted load kept (mean over placements, over the fault-free) over the "
          "share of the resource left, at the worst level; NaN if a message is lost. "
          "'Robustly' read as no cliff: throughput falls no more than 10% faster than the "
          "resources. The references' own measure is not in the document. Beyond a quarter "
          "the network does fall off a cliff: 96 broken wires (37.5%) kept 0.42 of the "
          "fault-free in the mean of 3 placements, one 0.14 (2026-11-29), and single "
          "placements of 4 dead routers keep 0.56 where three of them are in one destination "
          "group of four", REPRODUCED, "ratio"),
    Claim("metro.locates_errors", D, "section 5.1, Connection Reversal",
          "During the pipeline delays associated with reversing the connection, each routing "
          "component has the opportunity to inject information into the return data stream "
          "about the status of the connection and the integrity of the data transmitted; this "
          "information is useful to the source in identifying and localizing errors",
          Between(0.9, 1.0), _localised,
          "configs/metro_figure1.toml at 0.2 with one noisy wire (metro.noisy_ports, "
          "word_error_rate 0.05): endpoint 0's entering wire (router 0, port 0), a wire between "
          "the first two stages (0, 4) and a leaving wire (20, 4), each in fast and detailed "
          "reclamation (quick: 200 + 1,500 clocks, full: 200 + 4,000). The sources compare the "
          "routers' STATUS and checksums and the destination's sum in path order and vote for "
          "the wire where they first differ (ls.metro.suspect_wires): the share of the voting "
          "endpoints that name the noisy wire. NaN unless, when the same run goes on as long "
          "again with the most named wire disabled at both router ends (the scan path's Port "
          "On/Off bits, set_state(\"port_enabled\")), no check fails after the streams already "
          "past it (50 clocks) and messages are still delivered. 'Identifying and localizing' "
          "read as at least 9 in 10 naming the right wire", REPRODUCED, "fraction"),
    Claim("metro.message_length", D, "sections 1, 4",
          "(Unlimited) Variable Length Message Support ... In operation, a network endpoint will "
          "feed a data stream of an arbitrary number of words into the network at the rate of "
          "one word per clock", Near(1, abs=0.001), _message_lengths,
          "configs/metro_figure3.toml with traffic.packet_size 2, 20, 200 and 2,000 data words, "
          "each alone at offered 0.2 (loaded: blocks and retries; 2-word messages past "
          "saturation; quick: 8,000-clock windows, full: 20,000): one_way_mean (an attempt's "
          "first word to its last data word at the destination) of each; the words per clock "
          "from the 2- and the 2,000-word streams, (2000 - 2) / (one-way difference); NaN "
          "unless every size delivers messages and loses none. The detail's one-way - W is the "
          "route word and the 3 stages for every size", REPRODUCED, "words/clock"),
    Claim("metro.exchanges_one_connection", D, "section 4, Overview",
          "The connection may be reversed as many times as the source and destination desire "
          "before being closed", Between(0, 0.999), exchanges.exchanges_one_connection,
          "configs/metro_figure3.toml as reads (a 5-word reply after metro.reply_delay 10), one "
          "read alone from endpoint 0 to 63 with metro.exchanges 1, 2 and 4 (full: also 8) "
          "request/reply exchanges on its one connection: the clocks each added exchange costs "
          "(constant, else NaN) over a fresh one-exchange read's ('as many times' read as every "
          "added exchange delivered, each cheaper than a new connection: it skips the route "
          "words; detail: the same with metro.hw = 2)", REPRODUCED, "ratio"),
    Claim("metro.exchanges_under_load", D, "section 4, Overview",
          "The connection may be reversed as many times as the source and destination desire "
          "before being closed", Between(0, 1), exchanges.exchanges_under_load,
          "as metro.exchanges_one_connection at offered 0.2 words per endpoint per clock (every "
          "exchange's request and reply counted), 1,000 + 4,000 clocks (full: 3,000 + 20,000): "
          "the clocks per exchange of reads of 4 exchanges on one connection over those of "
          "separate one-exchange reads (fewer connections to set up, fewer blocked)",
          REPRODUCED, "ratio"),
    Claim("metro.reply_no_setup", D, "section 5.1, Connection Reversal",
          "This path reversal allows METRO to implement efficient, low-latency, request-reply "
          "operations such as distributed-memory read operations. Once the connection is "
          "established and the request is transmitted, the reply data can stream back along "
          "the path opened by the request without incurring any additional latency to acquire "
          "a new connection through the network", Near(0, abs=0.5), _read_reply,
          "configs/metro_figure3.toml at offered 0.001 (quick: an 8,000-clock window, full: "
          "40,000): reads (traffic.request_reply) of a 5-word reply after metro.reply_delay 0, "
          "10 and 50 clocks of DATA-IDLE against writes: read latency - write latency - delay "
          "- (5 reply words + its TURN), the one farthest from 0; what turning the path back "
          "costs beyond the reply's own words. ±0.5 allows a rare blocked request at this load. "
          "The same 5 words as a message of their own take 14 clocks (the detail)",
          REPRODUCED, "clocks"),
    Claim("metro.wire_lengths", D, "section 5.1, Variable Turn Delay; Table 2",
          "Since each port on a single router connects to a different router it may be the case "
          "that the length of the wires connected to each port differ. For this reason, METRO "
          "provides the ability to define the number of pipeline stages associated with each "
          "port connection separately", Near(1.0), _wire_lengths,
          "configs/metro_figure3.toml with metro.port_vtd giving the first backward port of each "
          "direction of every first-stage router 1, 2, 3 and 1 pipeline stages (directions 0 to "
          "3; 64 wires) and every other wire none, at 0.3, every attempt followed "
          "(metro.trace.streams; quick 2,000 clocks, full 12,000): the share of the hops "
          "(start words and TURNs, router to router and to the endpoint) that took dp + the vtd "
          "of the wire they crossed; NaN if a run of the same network at 0.3 loses a message",
          REPRODUCED, "fraction"),
    Claim("metro.random_selection", D, "section 4, Stochastic Path Selection",
          "When exactly one output in the desired direction is available, the router switches "
          "the connection through that output. When multiple paths are available, the router "
          "switches the data to a logically appropriate backward port selected randomly from "
          "those available", Near(0.5, abs=0.05), _random_choice,
          "configs/metro_figure3.toml at 0.05, every attempt followed (metro.trace.streams; "
          "quick 4,000 clocks, full 20,000): each choice a router of the two dilation-2 stages "
          "made between its direction's two wires, 40 clocks or more after its previous choice "
          "in that direction (longer than any connection holds it unloaded, so both were "
          "free of it): the share that repeat that previous choice (random: 0.5; the first "
          "free port: 1; round robin: 0). The same run with metro.selection = \"first\" is "
          "the control: it repeats 0.95 (another connection now and then holds the first "
          "wire), and the row is NaN if it repeats under 0.9. ±0.05 is 3 standard errors of "
          "the quick run's 1,000 pairs. "
          "Counted right after the previous choice instead, while its connection may hold one "
          "wire, the share falls to 0.47 (full): the one free wire taken", REPRODUCED,
          "fraction"),
    Claim("metro.fat_tree", D, "section 2, Network Organization",
          "Fat-Tree networks [17] [14] are another class of multistage, multipath networks "
          "which can be built using METRO routing components", Near(1.0), _fat_tree,
          "configs/metro_fat_tree.toml (radix 4, 4, 4; dilation 1 at the root, 2 below; 80 "
          "routers, 64 endpoints of two wires; our construction, docs/design/metro.md, as the "
          "paper leaves it to its reference [7]): every endpoint sends one message at once to "
          "destination d (hotspot, all of the traffic; every d, quick: 4 of them), run until "
          "delivered: the (source, destination) pairs delivered over the pairs, NaN if a "
          "message is lost or if endpoint 0's delivered attempts to 63 (with 16, 32 and 48 "
          "sending to 63 at 0.3, every attempt followed; quick 4,000 clocks, full 16,000) take "
          "a single path", REPRODUCED, "fraction"),
    Claim("metro.deterministic_acks", D, "section 2, circuit switching's advantage 2",
          "Fast, deterministic acknowledgements The dedicated network connection allows "
          "low-overhead, fast and efficient end-to-end verification of message delivery",
          Near(0), _acknowledgements,
          "configs/metro_figure3.toml loaded (quick: 0.3 for 1,000 clocks; full: 0.3 and 0.5, "
          "near saturation, 4,000 clocks each), every word read off the wires "
          "(metro.Tracer): for each acknowledged attempt, the clocks from its source sending "
          "the TURN to the acknowledgement (good or bad) arriving there, matched by the "
          "stream's tag; max - min over all of them (the value itself, 2 x (1 + 3 stages), "
          "in the detail)", REPRODUCED, "clocks"),
    Claim("metro.constant_hop", D, "section 3, General Terminology",
          "In a pipelined, circuit-switched routing component, all the routing components in a "
          "network run synchronously from a central clock and data takes a small, constant "
          "number of clock cycles to pass through each routing component", Near(1.0),
          _constant_hops,
          "configs/metro_figure3.toml (dp 1, vtd 0) at 0.5, near its saturation (0.54), every "
          "attempt followed (metro.trace.streams; quick 2,000 clocks, full 12,000): the share "
          "of the hops (start words and TURNs, router to router and to the endpoint) that "
          "took dp + vtd = 1 clock. Unloaded and one router at a time this is the "
          "table3_stage rows; with wires of several lengths, metro.wire_lengths",
          REPRODUCED, "fraction"),
    Claim("metro.data_intact", D, "section 4, Overview",
          "End-to-end checksums and acknowledgments ensure that data arrives intact at the "
          "destination endpoint", Near(0),
          _intact,
          "configs/metro_figure3.toml at 0.1, every wire out of a router noisy "
          "(metro.noisy_ports, metro.word_error_rate 0.01 a wire; the entering wires clean, so "
          "the words reaching the first router are the source's), every word read off the "
          "wires (metro.Tracer; quick 1,000 clocks, full 6,000): of the messages their "
          "destination acknowledged good, the share whose data words arrived changed (matched "
          "to their source by destination and the stream's tag). 'Ensure' read as none. "
          "The paper gives no checksum format; metro.checksum keeps two readings: "
          "\"weighted\" (the default: c <- 3c + word, so two corrupted words cancel only "
          "2^(w-2) = 64 words apart) and \"sum\" (the plain sum, where two words changed "
          "by +-1 in opposite directions pass: the detail gives its count on the same "
          "traffic, nearly all of them exactly two words changed)",
          REPRODUCED, "fraction"),
    Claim("metro.blocks_only_when_full", D, "section 4, Stochastic Path Selection",
          "When a connection is opened through a router, there may or may not be outputs "
          "available in the desired logical output direction. If there is no available "
          "output, the router discards the remaining bits associated with the data stream",
          Near(0), _blocked_with_free,
          "configs/metro_figure3.toml (fast reclamation) at 0.3, every attempt followed "
          "(metro.trace.streams; quick 2,000 clocks, full 12,000; the attempts of "
          "metro.fast_names_stage), the same run again stopped at each clock a blocked "
          "attempt's start word reached the router that blocked it: the blocked attempts for "
          "which a backward port of the direction their header names was free (no connection, "
          "not draining one) and enabled both before that clock and after it. The detail's "
          "control: the blocked attempts with such a port in another direction", REPRODUCED,
          "attempts"),
]
