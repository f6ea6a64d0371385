"""The Blue Gene/L emulator (router.family = "bgl") from Python and the command line: the
zero-load latency of configs/bgl_8x8x8.toml worked out by hand, the link overheads the paper
counts (payload 240 of every 270 link bytes under load), and a sweep's DataFrame carrying
payload_util_mean beside link_util_mean."""

import json

import numpy as np
import pytest
from conftest import REPO
from hypothesis import HealthCheck, given, note, settings
from random_networks import networks

import lockstep as ls

CONFIG = REPO / "configs" / "bgl_8x8x8.toml"


def test_zero_load_latency_from_the_command_line(cli):
    # A lone 256-byte packet: 1 cycle into the injection FIFO, then per hop the link (4) and
    # the input pipeline (8), and 256 byte times into the reception FIFO.
    proc = cli("run", CONFIG, "--set", "traffic.offered=0.002", "--set", "run.warmup=0",
               "--set", "run.measure=20000")
    assert proc.returncode == 0, proc.stderr
    r = json.loads(proc.stdout)
    assert r["packets"] > 10 and not r["saturated"]
    assert r["latency_mean"] >= 1 + 12 * r["hops_mean"] + 256
    assert r["latency_mean"] < 1 + 12 * r["hops_mean"] + 256 + 5  # almost never a wait
    assert abs(r["hops_mean"] - 6.0) < 0.5  # 2 per dimension of 8 on average


def test_payload_and_link_utilisation():
    cfg = ls.load_config(CONFIG).with_(**{"topology.radix": [4, 4, 4], "traffic.offered": 1.0,
                                          "run.warmup": 3000, "run.measure": 6000})
    r = ls.simulate(cfg)
    assert r.link_util_mean > 0.45  # 3 hops of 6 links: half a link byte per offered byte
    ratio = r.payload_util_mean / r.link_util_mean
    assert 240 / 278 < ratio < 240 / 262


def test_sweep_has_the_family_columns():
    cfg = ls.load_config(CONFIG).with_(**{"topology.radix": [4, 4, 2], "run.warmup": 1000,
                                          "run.measure": 3000})
    df = ls.sweep(cfg, offered=[0.2, 0.6])
    assert list(df["offered"].round(1)) == [0.2, 0.6]
    assert (df["payload_util_mean"] < df["link_util_mean"]).all()
    assert df["accepted"].iloc[1] > df["accepted"].iloc[0]


def test_alltoall_sweep_over_message_size():
    # Figure 11's axis: packets per pair. Every packet is delivered, the run lasts until the
    # last one, and the percentage of peak (the busiest links' 270 byte times a packet) rises
    # with the message size, never above 100.
    cfg = ls.load_config(CONFIG).with_(**{"topology.radix": [4, 4, 2],
                                          "traffic.pattern": "alltoall", "run.drain": 10**6})
    df = ls.sweep(cfg, alltoall_packets=[1, 4])
    assert list(df["packets"]) == [32 * 31, 32 * 31 * 4]
    assert (df["completion_cycles"] == df["cycles"]).all()
    assert (df["peak_percent"] <= 100).all()
    assert df["peak_percent"].iloc[1] > df["peak_percent"].iloc[0] > 60
    assert not df["saturated"].any()


def test_arbitration_gap_key():
    # bgl.arbitration_gap: documented in the schema, off by default (the fixed hardware, whose
    # state has no receiver_blocked array), a bool only; with it the receivers' verdicts are
    # state [router, direction], and a saturated torus holds more in its VCs.
    key = next(k for k in ls.schema() if k["key"] == "bgl.arbitration_gap")
    assert "Performance verification" in key["doc"] and "receiver_blocked" in key["doc"]
    cfg = ls.load_config(CONFIG).with_(**{"topology.radix": [4, 4, 2], "traffic.offered": 1.5,
                                          "run.threads": 1})
    assert cfg.get("bgl.arbitration_gap") is False
    assert "receiver_blocked" not in ls.Simulator(cfg).state_names()
    with pytest.raises(ValueError, match=r"bgl\.arbitration_gap"):
        cfg.with_(**{"bgl.arbitration_gap": "yes"})
    held = {}
    for gap in (False, True):
        sim = ls.Simulator(cfg.with_(**{"bgl.arbitration_gap": gap})).step(1000)
        samples = [sim.step(50).state("vc_used")[..., :-1].mean() for _ in range(40)]
        held[gap] = float(np.mean(samples))
        if gap:
            blocked = sim.state("receiver_blocked")
            assert blocked.shape == (32, 6) and set(np.unique(blocked)) <= {0, 1}
    assert held[True] > held[False]


def test_routers_sleep_once_a_finite_workload_is_made():
    # An alltoall's source makes its backlog one packet a cycle and then never wakes again, so a
    # router with nothing to do sleeps (its `wake` beyond the cycle) as under a rate; a source
    # that woke every cycle kept every router awake (wake == the next cycle) through the run.
    # With no traffic every router sleeps but when its source looks further ahead for a packet
    # (every 256 cycles).
    base = ls.load_config(CONFIG).with_(**{"topology.radix": [4, 4, 4], "run.threads": 1})
    for pattern, offered, most in [("alltoall", 0.45, 0.8), ("uniform", 0.0, 0.05)]:
        sim = ls.Simulator([base.with_(**{"traffic.pattern": pattern, "traffic.offered": offered})])
        sim.step(2000)  # the 63 packets a node made long since, most of them still queued
        awake = []
        for _ in range(100):
            sim.step(1)
            awake.append((sim.state("wake") <= sim.cycle).mean())
        assert np.mean(awake) <= most, (pattern, np.mean(awake))
        if pattern == "alltoall":
            assert sim.state("source_queue").sum() > 0 and np.mean(awake) > 0.1


@settings(max_examples=30, derandomize=True, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(cfg=networks("bgl"))
def test_sleeping_is_exact(cfg):
    # A router that did nothing sleeps until its next timer or an arrival (router_cycle.hpp):
    # the state is what it would be if every router ran every cycle, which writing any state
    # before each cycle forces (every router looks in the cycle after a write: `wake` cleared;
    # here the tokens, written as they are). Over
    # random configurations (alltoall and hot regions among them, whose routers now sleep too),
    # every other array is the same at each check.
    note(f"configuration: {cfg.to_dict()}")
    cfg = cfg.with_(**{"run.debug": False})
    asleep, awake = ls.Simulator(cfg), ls.Simulator(cfg)
    for cycle in range(1, 801):
        asleep.step(1)
        awake.set_state("tokens", awake.state("tokens"))
        assert not awake.state("wake").any()
        awake.step(1)
        if cycle % 200 == 0:
            for name in sorted(set(asleep.state_names()) - {"wake"}):
                assert np.array_equal(asleep.state(name), awake.state(name)), (cycle, name)
