"""Running networks: simulate, the Simulator wrapper, sweeps, the saturation search and
determinism (same seed, same numbers, whatever the thread count or backend)."""

import math
import signal
import subprocess
import sys
import time

import numpy as np
import pandas as pd
import pytest
from conftest import REPO, python_path

import lockstep as ls
from lockstep import _core
from lockstep.sweep import LABEL_KEYS, RESULT_COLUMNS, batches, labels, plan

BACKENDS = ls.available_backends()


def assert_same(a: dict, b: dict) -> None:
    """Bit-identical results: every field equal, arrays with np.array_equal; wall time aside."""
    assert a.keys() == b.keys()
    for key in a:
        if key == "wall_s":
            continue
        x, y = a[key], b[key]
        if isinstance(x, np.ndarray):
            assert x.dtype == y.dtype and np.array_equal(x, y, equal_nan=x.dtype.kind == "f"), key
        else:
            assert x == y or (isinstance(x, float) and math.isnan(x) and math.isnan(y)), key


def test_simulate_returns_a_result(tiny):
    r = ls.simulate(tiny, offered=0.1)
    assert r.config.get("offered") == 0.1
    assert abs(r.accepted - 0.1) < 0.02 and not r.saturated and r.saturation_reason == ""
    assert r.latency_p50 <= r.latency_p99 <= r.latency_max and r.packets > 0
    assert r.link_utilization.shape[0] == 16 and r.vc_utilization.shape[::2] == (16, 2)
    assert not any(isinstance(v, np.ndarray) for v in r.to_dict(arrays=False).values())
    assert set(RESULT_COLUMNS) - {"offered_measured"} <= set(r.to_dict())
    with pytest.raises(AttributeError):
        r.no_such_field


@pytest.mark.parametrize("backend", BACKENDS)
def test_simulator_steps_and_shows_state(tiny, backend):
    sim = ls.Simulator(tiny.with_(offered=0.3), backend=backend)
    assert (sim.cycle, sim.backend, sim.instances) == (0, backend, 1)
    assert sim.step(50) is sim and sim.cycle == 50
    assert {"occupancy", "credits", "vc_owner", "sa_grant", "ivc_state"} <= set(sim.state_names())
    routers, vcs = 16, tiny.get("vcs")
    occupancy = sim.occupancy
    assert occupancy.ndim == 3 and occupancy.shape[0] == routers and occupancy.shape[2] == vcs
    assert sim.credits.shape == sim.vc_owner.shape == occupancy.shape
    assert sim.grants.shape == occupancy.shape[:2] and sim.grants.min() >= -1
    assert np.array_equal(sim.state("occupancy"), occupancy)
    assert occupancy.sum() > 0, "at 0.3 flits/node/cycle some flits are buffered after 50 cycles"


def test_vc_owner_is_the_inverse_of_out_port_and_read_only(tiny):
    sim = ls.Simulator(tiny.with_(offered=0.5, packet_size=4), backend="cpu").step(300)
    owner, out_port, out_vc = sim.vc_owner, sim.state("out_port"), sim.state("out_vc")
    vcs = tiny.get("vcs")
    held = {(r, int(out_port[r, p, v]), int(out_vc[r, p, v])): p * vcs + v
            for r, p, v in zip(*np.nonzero(out_port >= 0))}
    assert held, "at 0.5 flits/node/cycle some packets hold an output VC after 300 cycles"
    assert {(r, p, v): int(owner[r, p, v]) for r, p, v in zip(*np.nonzero(owner >= 0))} == held
    with pytest.raises(ValueError, match='state "vc_owner": allowed only to read.*out_port'):
        sim.set_state("vc_owner", owner)


def test_simulator_batch_keeps_the_instance_dimension(tiny):
    sim = ls.Simulator([tiny, tiny.with_(seed=2, offered=0.3)]).step(20)
    assert sim.instances == 2 and sim.occupancy.shape[0] == 2 and sim.grants.ndim == 3
    results = sim.run()
    assert [r.config.get("seed") for r in results] == [1, 2]


def test_simulator_reports_the_state_it_allocated(tiny):
    one, two = ls.Simulator(tiny), ls.Simulator([tiny, tiny.with_(seed=2)])
    buffers = one.state("buffer_meta").nbytes  # a 4-byte word of each 32-byte flit record
    assert one.state_bytes > 8 * buffers > 0
    # A second instance doubles all but the topology's tables, which the batch shares.
    assert 1.8 * one.state_bytes < two.state_bytes < 2 * one.state_bytes


def test_batches_are_cut_to_fit_in_memory(tiny):
    # The engine's estimate of a point's state covers what it allocates (within 2x).
    per_point = _core.network_size(tiny.to_dict())["state_bytes"]
    assert ls.Simulator(tiny).state_bytes <= per_point <= 2 * ls.Simulator(tiny).state_bytes
    points = plan(tiny, offered=[0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7])
    assert [len(b) for b in batches(points, 64, memory=3.5 * per_point)] == [3, 3, 1]
    assert [len(b) for b in batches(points, 64, memory=0.5 * per_point)] == [1] * 7
    assert [len(b) for b in batches(points, 64)] == [7]  # this machine holds them all


def test_simulator_run_matches_simulate_and_may_follow_steps(tiny):
    assert_same(ls.Simulator(tiny).run().to_dict(), ls.simulate(tiny).to_dict())
    sim = ls.Simulator(tiny).step(123)
    result = sim.run()  # a full warm-up, window and drain from cycle 123
    assert result.packets > 0 and sim.cycle >= 123 + tiny.get("warmup") + tiny.get("measure")


@pytest.mark.parametrize("backend", BACKENDS)
def test_same_results_for_any_thread_count_and_rerun(tiny, backend):
    cfgs = [tiny.with_(offered=o, seed=s, backend=backend).to_dict()
            for o, s in [(0.1, 1), (0.3, 2), (0.6, 3)]]
    one = _core.run_batch(cfgs, threads=1)
    two = _core.run_batch(cfgs, threads=2)
    again = _core.run_batch(cfgs, threads=2)
    for a, b, c in zip(one, two, again):
        assert_same(a, b)
        assert_same(b, c)
    big = tiny.with_(radix=[8, 8], offered=0.4, backend=backend)  # routers split over threads
    assert_same(ls.simulate(big, threads=1).to_dict(), ls.simulate(big, threads=2).to_dict())


def test_results_do_not_depend_on_batch_position(tiny):
    """A point's numbers must not change with its batch neighbours, or a resumed sweep or a
    different batch_size would not reproduce the same table, nor a cluster sweep (which cuts
    batches differently) a local one. The neighbour saturates and keeps the batch running
    to the drain limit; the point's own ``cycles`` ends where it drained."""
    a = tiny.with_(offered=0.2).to_dict()
    b = tiny.with_(offered=0.95, packet_size=8).to_dict()
    alone = _core.run_batch([a])[0]
    together = _core.run_batch([a, b])
    assert together[1]["saturated"] and together[1]["cycles"] > alone["cycles"]
    assert_same(alone, together[0])
    assert_same(alone, _core.run_batch([b, a])[1])


def test_ring_without_datelines_deadlocks_and_the_watchdog_says_where():
    """The teaching switch router.dateline = false: an 8-node ring's channels then wait on each
    other in a cycle and deadlock under load; with the datelines the same load runs."""
    ring = ls.Config().with_(kind="torus", radix=[8], vcs=2, vc_depth=4, packet_size=8,
                             offered=0.8, warmup=0, measure=3000, drain=500, watchdog=300,
                             threads=1, debug=True)
    with pytest.raises(ls.SimulationError, match=r"deadlock in instance 0: .*stuck: \[router"):
        ls.simulate(ring, dateline=False)
    assert ls.simulate(ring).saturated  # saturated, but flits keep moving
    one_vc = ring.with_(dateline=False, vcs=1)  # without datelines one VC is allowed
    with pytest.raises(ls.SimulationError, match="deadlock"):
        ls.simulate(one_vc)
    with pytest.raises(ValueError, match="router.dateline = false: allowed only with"):
        ring.with_(dateline=False, routing="min_adaptive", vcs=4)


def test_sweep_runs_automatic_warmup_points_one_per_batch(tiny):
    """The engine ends a batch's automatic warm-up when every instance has settled, so a
    saturated neighbour would lengthen a point's warm-up; a sweep runs such points alone."""
    cfg = tiny.with_(debug=False, warmup_auto=True)
    a, b = cfg.with_(offered=0.2).to_dict(), cfg.with_(offered=0.95, packet_size=8).to_dict()
    alone = _core.run_batch([a])[0]
    assert _core.run_batch([a, b])[0]["warmup_cycles"] > alone["warmup_cycles"], "batch effect"
    df = ls.sweep(cfg, offered=[0.2, 0.95], packet_size=[1, 8])
    point = df[(df["offered"] == 0.2) & (df["packet_size"] == 1)].iloc[0]
    assert point["warmup_cycles"] == alone["warmup_cycles"]
    assert point["latency_mean"] == alone["latency_mean"]


@pytest.mark.skipif("cuda" not in BACKENDS, reason="no CUDA device")
def test_cpu_and_cuda_agree(tiny):
    cfgs = [tiny.with_(offered=o).to_dict() for o in (0.1, 0.4, 0.7)]
    for a, b in zip(_core.run_batch(cfgs, backend="cpu"), _core.run_batch(cfgs, backend="cuda")):
        assert_same({**a, "backend": "", "schedule": ""}, {**b, "backend": "", "schedule": ""})


# Every family's measured results, which the state after Simulator.step() leaves out (its
# measurement counters count only in a run's window): each seed family's shipped network, a
# short run at half its configured load and one past saturation.
FAMILY_LOADS = {"t3e_64.toml": 1.0, "bgl_8x8x8.toml": 1.0, "metro_figure3.toml": 0.8,
                "metro_fat_tree.toml": 0.6, "sconnect_hypercube64.toml": 1.0}


@pytest.mark.skipif("cuda" not in BACKENDS, reason="no CUDA device")
@pytest.mark.parametrize("name", sorted(FAMILY_LOADS))
def test_cpu_and_cuda_agree_on_every_familys_results(name):
    base = ls.load_config(REPO / "configs" / name).with_(warmup=300, measure=1500, drain=20000)
    cfgs = [base.with_(seed=7, offered=o).to_dict()
            for o in (base.get("traffic.offered") / 2, FAMILY_LOADS[name])]
    for a, b in zip(_core.run_batch(cfgs, backend="cpu"), _core.run_batch(cfgs, backend="cuda")):
        assert_same({**a, "backend": "", "schedule": ""}, {**b, "backend": "", "schedule": ""})


def test_sweep_table(tiny):
    df = ls.sweep(tiny, offered=[0.05, 0.15, 0.3], seeds=2)
    assert len(df) == 6
    assert list(df.columns[:2]) == ["offered", "seed"]
    assert set(RESULT_COLUMNS) | set(LABEL_KEYS) <= set(df.columns)
    assert df["seed"].tolist() == [1, 2] * 3
    assert df["offered"].tolist() == [0.05, 0.05, 0.15, 0.15, 0.3, 0.3]
    assert (df["radix"] == "4x4").all() and (df["topology"] == "mesh").all()
    low = df[df["offered"] < 0.2]
    assert ((low["accepted"] - low["offered"]).abs() < 0.1 * low["offered"] + 0.005).all()
    assert not low["saturated"].any()
    latency = df.groupby("offered")["latency_mean"].mean()
    assert latency.is_monotonic_increasing


def test_sweep_groups_points_into_batches(tiny, monkeypatch):
    calls = []
    real = _core.run_batch

    def counting(cfgs, *args, **kwargs):
        calls.append(len(cfgs))
        return real(cfgs, *args, **kwargs)

    monkeypatch.setattr(_core, "run_batch", counting)
    seen = []
    df = ls.sweep(tiny, offered=[0.05, 0.1], vcs=[2, 4], pattern=["uniform", "transpose"],
                  on_point=seen.append)
    assert calls == [4, 4], "one batch per vcs value; pattern and offered are per instance"
    assert list(df.columns[:4]) == ["vcs", "pattern", "offered", "seed"]
    assert [r["vcs"] for r in seen] == df["vcs"].tolist() == [2] * 4 + [4] * 4
    calls.clear()
    ls.sweep(tiny, offered=[0.05, 0.1, 0.15], seeds=[5, 6], batch_size=4)
    assert calls == [4, 2]
    calls.clear()  # a finite workload is measured as a whole: never beside open-ended traffic
    ls.sweep(tiny.with_(vcs=4), offered=[0.1], pattern=["uniform", "alltoall", "transpose"])
    assert calls == [2, 1]


@pytest.mark.parametrize(
    "grid, words",
    [
        ({"vcs": 2}, ["router.vcs", "list"]),
        ({"radix": [4, 4]}, ["topology.radix", "list of lists"]),
        ({"routing": ["dor", "foo"]}, ["router.routing", "foo"]),
        ({"vc": [2]}, ["vc", "router.vcs"]),
        ({"seed": [1, 2]}, ["seeds="]),
    ],
)
def test_sweep_rejects_bad_grids_before_running(tiny, monkeypatch, grid, words):
    monkeypatch.setattr(_core, "run_batch", None)  # calling it would fail the test
    with pytest.raises(ValueError) as e:
        ls.sweep(tiny, offered=[0.1], **grid)
    assert all(w in str(e.value) for w in words), str(e.value)


@pytest.mark.parametrize(
    "kwargs, words",
    [
        ({"offered": 0.1}, ["offered = 0.1", "a list of loads"]),
        ({"offered": "0.1"}, ["offered = '0.1'", "a list of loads"]),
        ({"offered": []}, ["offered = []", "not an empty one"]),
        ({"seeds": "10"}, ["seeds = '10'", "a count >= 1"]),
        ({"seeds": 2.5}, ["seeds = 2.5", "a count >= 1"]),
        ({"seeds": [1, 2.5]}, ["seeds = [1, 2.5]", "integer seeds"]),
        ({"seeds": []}, ["seeds = []", "not an empty one"]),
        ({"vcs": []}, ["vcs = []", "router.vcs"]),
    ],
)
def test_sweep_rejects_bad_loads_and_seeds_before_running(tiny, monkeypatch, kwargs, words):
    monkeypatch.setattr(_core, "run_batch", None)  # calling it would fail the test
    with pytest.raises(ValueError) as e:
        ls.sweep(tiny, **{"offered": [0.1], **kwargs})
    assert all(w in str(e.value) for w in words), str(e.value)


def test_sweep_labels_only_what_the_family_reads():
    t3e = ls.load_config(REPO / "configs" / "t3e_64.toml")
    assert set(labels(t3e)) == {"family", "topology", "radix", "packet_size", "pattern"}
    assert labels(t3e)["radix"] == "4x4x4"
    hypercube = ls.load_config(REPO / "configs" / "sconnect_hypercube64.toml")
    assert set(labels(hypercube)) == {"family", "topology", "packet_size", "pattern"}
    assert set(labels(ls.Config())) == set(LABEL_KEYS)


def test_a_saved_sweep_resumes_where_it_stopped(tiny, monkeypatch, tmp_path):
    real, calls, stop = _core.run_batch, [], [True]

    def stopping(cfgs, *args, **kwargs):  # Ctrl-C during the second batch, once
        calls.append(len(cfgs))
        if len(calls) == 2 and stop:
            stop.clear()
            raise KeyboardInterrupt
        return real(cfgs, *args, **kwargs)

    monkeypatch.setattr(_core, "run_batch", stopping)
    save = tmp_path / "sweep.csv"
    args = dict(offered=[0.05, 0.1, 0.15], seeds=2, batch_size=2, save=save)
    with pytest.raises(KeyboardInterrupt):
        ls.sweep(tiny, **args)
    assert len(pd.read_csv(save)) == 2 and (tmp_path / "sweep.toml").is_file()
    calls.clear()
    df = ls.sweep(tiny, **args)
    assert calls == [2, 2] and len(df) == 6
    whole = ls.sweep(tiny, offered=[0.05, 0.1, 0.15], seeds=2)
    key = ["offered", "seed"]
    pd.testing.assert_series_equal(df.sort_values(key).accepted.reset_index(drop=True),
                                   whole.sort_values(key).accepted.reset_index(drop=True))
    calls.clear()
    assert len(ls.sweep(tiny, **args)) == 6 and calls == []
    with pytest.raises(ValueError, match="router.vcs"):  # another network: not this table
        ls.sweep(tiny.with_(vcs=4), **args)


def fake_run_batch(knee: float, calls: list):
    """A stand-in core that saturates above ``knee``, to test the search on its own."""

    def run_batch(cfgs, *args, **kwargs):
        calls.append([c["traffic"]["offered"] for c in cfgs])
        return [{"offered": c["traffic"]["offered"], "saturated": c["traffic"]["offered"] > knee}
                for c in cfgs]

    return run_batch


@pytest.mark.parametrize("knee", [0.437, 0.05, 0.999])
def test_saturation_search_brackets_the_knee(tiny, monkeypatch, knee):
    calls = []
    monkeypatch.setattr(_core, "run_batch", fake_run_batch(knee, calls))
    found = ls.saturation_throughput(tiny, tol=0.01)
    assert knee - 0.01 <= found <= knee
    assert len(calls) <= 4 and all(len(c) == 8 for c in calls)


def test_saturation_search_reaches_the_highest_load_allowed(tiny, monkeypatch):
    # 4-flit packets allow up to 4 flits/node/cycle: a knee above 1 is found, not reported as
    # 1.0 (the search's top before the limit was the default).
    calls = []
    monkeypatch.setattr(_core, "run_batch", fake_run_batch(1.5, calls))
    found = ls.saturation_throughput(tiny.with_(packet_size=4), tol=0.01)
    assert 1.49 <= found <= 1.5 and max(calls[0]) == 4.0


def test_saturation_search_edges(tiny, monkeypatch):
    monkeypatch.setattr(_core, "run_batch", fake_run_batch(2.0, []))
    assert ls.saturation_throughput(tiny, hi=0.8) == 0.8
    monkeypatch.setattr(_core, "run_batch", fake_run_batch(0.0, []))
    assert ls.saturation_throughput(tiny, lo=0.1) == 0.1
    with pytest.raises(ValueError, match="lo < hi"):
        ls.saturation_throughput(tiny, lo=0.5, hi=0.5)


def test_saturation_throughput_of_a_real_network(tiny):
    found = ls.saturation_throughput(tiny, tol=0.05)
    assert 0.1 < found < 1.0
    assert not ls.simulate(tiny, offered=found).saturated
    assert ls.simulate(tiny, offered=1.0).saturated


def test_latency_load_plot(tiny):
    df = ls.sweep(tiny, offered=[0.1, 0.4, 0.9], vcs=[2, 4])
    ax = ls.plot.latency_load(df)
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["vcs=2", "vcs=4"]
    assert ax.get_ylim()[1] == pytest.approx(4 * df.loc[~df.saturated, "latency_mean"].min())
    ax = ls.plot.latency_load(pd.concat([df, df]), hue="vcs", ymax=500)
    assert ax.get_ylim() == (0, 500)
    assert ax.get_xlabel() == "offered load (flits/node/cycle)"


@pytest.mark.parametrize("family, unit", [("bgl", "bytes/node/cycle"),
                                          ("metro", "data words/endpoint/clock")])
def test_latency_load_plot_says_what_the_family_offers(family, unit):
    df = pd.DataFrame({"offered": [0.1, 0.2], "latency_mean": [10.0, 12.0],
                       "saturated": [False, False], "family": [family, family]})
    assert ls.plot.latency_load(df).get_xlabel() == f"offered load ({unit})"


def test_simulator_refuses_bad_threads_and_steps(tiny):
    with pytest.raises(ValueError, match="threads = -5: allowed None"):
        ls.Simulator(tiny, threads=-5)
    with pytest.raises(ValueError, match=r"step\(n = -1\): allowed an integer >= 0"):
        ls.Simulator(tiny).step(-1)


def test_vc_shortcuts_name_the_array_another_family_lacks():
    sim = ls.Simulator(ls.load_config(REPO / "configs" / "t3e_64.toml"))
    assert sim.occupancy.shape[0] == 64 and not hasattr(sim, "grants")
    with pytest.raises(AttributeError, match='Simulator.grants reads state array "sa_grant", '
                                             'which router.family = "t3e" does not have'):
        sim.grants


def test_simulator_step_reports_a_deadlock(tiny):
    # Take every network credit of a 4-router line: packets can never leave their first router.
    cfg = tiny.with_(radix=[4], offered=0.5, watchdog=200, debug=False)
    sim = ls.Simulator(cfg, backend="cpu")
    credits = sim.credits
    credits[:, 1:, :] = 0
    sim.set_state("credits", credits)
    with pytest.raises(ls.SimulationError, match="deadlock in instance 0.*stuck: \\[router"):
        for _ in range(10):
            sim.step(50)
    assert sim.cycle <= 300 and sim.occupancy.sum() > 0  # caught soon; the state stays readable
    quiet = ls.Simulator(cfg.with_(watchdog=0), backend="cpu")
    quiet.set_state("credits", credits)
    quiet.step(500)  # watchdog off: no report


# Each would take half an hour: Ctrl-C must stop it within a chunk of 1,024 cycles, not at the
# end (the engine runs with the GIL released, where Python's own handler cannot act).
@pytest.mark.parametrize("call", ["ls.simulate(cfg)", "ls.Simulator(cfg).step(10**7)"])
def test_ctrl_c_stops_a_long_run(call):
    code = ("import sys, lockstep as ls\n"
            "cfg = ls.load_config(sys.argv[1]).with_(warmup=0, measure=10**7, threads=1)\n"
            f"print('running', flush=True)\n{call}\n")
    proc = subprocess.Popen([sys.executable, "-c", code, str(REPO / "configs/t3e_512.toml")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={"PYTHONPATH": python_path()})
    try:
        assert proc.stdout.readline().strip() == "running"
        time.sleep(3)  # into the run (set-up takes well under a second)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=120)
    finally:
        proc.kill()
    assert proc.returncode != 0 and "KeyboardInterrupt" in err, err[-2000:]
