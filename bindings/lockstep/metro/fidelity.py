"""METRO's claims (document 003, Chong et al.) measured on the `metro` family: Figure 3's
network, every row of Table 3 (Table 4's t_20,32 as the one-way time of an unloaded message, and
its t_stg as the clocks a word takes from router to router), METROJR-ORBIT's stage latency,
retries and the paths they take, reclamation, Figure 1's paths, fault tolerance in every stage,
and stopping the network.

One convention counts a message everywhere: Table 4's, 20 data bytes (the last the checksum)
behind the route's header words, which every Table 3 row needs (configs/metro_figure3.toml).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np
import pandas as pd

from ..config import load_config
from ..fidelity.claim import DIVERGES, REPRODUCED, Between, Claim, Measured, Near
from ..simulate import Simulator, simulate
from .latency_model import row_config, table3
from .trace import Network, streams

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


def _early_stages(quick: bool) -> Measured:
    # Every router of the two dilation-2 stages, one at a time: dead from the start or from the
    # middle of the window (its connections lost), masked by the scan system or left to the
    # sources' timeouts. A case counts when every message created in the window is delivered.
    cfg = _figure1(quick)
    measure, size = cfg.get("run.measure"), cfg.get("traffic.packet_size")
    net = Network(Simulator(cfg))
    early = np.flatnonzero(net.stage < 2)
    whole, cases, slowest = 0, 0, (0.0, "")
    for router in early:
        for at in (0, cfg.get("run.warmup") + measure // 2):
            for mask in (True, False):
                r = simulate(cfg.with_(**{"metro.failed_routers": [int(router)],
                                          "metro.failure_cycle": at, "metro.mask_failed": mask}))
                created = round(r.offered * net.endpoints * measure / size)
                whole += r.lost == 0 and r.packets == created > 0
                cases += 1
                slowest = max(slowest, (r.latency_mean, f"router {router} dead from clock {at}, "
                                        f"{'masked' if mask else 'unmasked'}: latency "
                                        f"{r.latency_mean:.0f}, timed out "
                                        f"{r.timed_out_fraction:.1%} of attempts"))
    return Measured(whole / cases, f"{whole} of {cases} cases ({len(early)} routers x from the "
                                   f"start or mid-window x masked or not) delivered every "
                                   f"message; the slowest: {slowest[1]}")


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
def _blocked(quick: bool, reclaim: str) -> pd.DataFrame:
    """Figure 3's network at 0.3: every attempt that a router blocked, with what came back."""
    cfg = _figure3(quick).with_(offered=0.3, warmup=0, measure=1, **{"metro.reclaim": reclaim})
    df = streams(Simulator(cfg), 2000 if quick else 12000)
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
# senders: all, half or a quarter of the endpoints, traffic.sender_every). Offered past what they
# can send, each always has its next message: the messages a clock they complete against
# p/(l+1), l the mean latency from a message's start (network_latency_mean, retries included) to
# its acknowledgement; the ratio farthest from 1.
def _ops_per_cycle(quick: bool) -> Measured:
    cfg, ratios, parts = _figure3(quick), [], []
    for every in (1, 2, 4):
        r = simulate(cfg.with_(**{"traffic.sender_every": every}), offered=1.0)
        ops = r.accepted * every / cfg.get("traffic.packet_size")  # messages a sender a clock
        lat = r.network_latency_mean  # the paper's l
        ratios.append(ops * (lat + 1))
        parts.append(f"1/{every} of the endpoints sending: {ops:.5f} messages a sender a clock, "
                     f"l = {lat:.2f} ({r.attempts_per_message:.2f} attempts a message)")
    return Measured(max(ratios, key=lambda x: abs(x - 1)), "; ".join(parts))


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
          "configs/metro_figure3.toml offered 1.0 data word per endpoint per clock (each "
          "sender always has its next message; 20-word messages) with all, half and a quarter "
          "of the endpoints sending, one message in flight per sender: messages completed per "
          "clock over p/(l+1), with p the senders and l the measured mean latency from a "
          "message's start to its acknowledgement, retries included; the ratio farthest from 1 "
          "('on average' read as within 5%). Full (2026-11-27): 0.9996, 0.9990, 0.9999 with l "
          "= 35.3, 31.3, 29.9 clocks", REPRODUCED, "x"),
]
