"""Sweeps on a Dask cluster: a LocalCluster of 2 worker processes on 127.0.0.1 (never any
other address). A cluster sweep's table equals a local one's row by row; a worker killed
mid-batch loses nothing and duplicates nothing; the CLI's --scheduler saves and resumes."""

import os
import signal
import threading
import time

import distributed
import pandas as pd
import pytest
from conftest import TINY

import lockstep as ls
from lockstep.sweep import batches, plan, run_points

# What says where a point ran, not what it measured.
WHERE_COLUMNS = ["wall_s", "backend", "schedule"]


@pytest.fixture(scope="module")
def client():
    with ls.cluster.local_cluster() as cluster, distributed.Client(cluster) as c:
        yield c


def assert_same_table(local: pd.DataFrame, remote: pd.DataFrame) -> None:
    assert list(local.columns) == list(remote.columns)
    assert len(local) == len(remote)
    what = [c for c in local.columns if c not in WHERE_COLUMNS]
    pd.testing.assert_frame_equal(local[what], remote[what], check_exact=True)


def test_batches_split_groups_for_every_worker(tiny):
    points = plan(tiny, [0.1, 0.2, 0.3], seeds=3, vcs=[2, 4])  # two groups of 9
    assert [len(b) for b in batches(points, 64)] == [9, 9]
    assert [len(b) for b in batches(points, 4)] == [4, 4, 1] * 2
    split = batches(points, 64, min_batches=4)
    assert [len(b) for b in split] == [2, 2, 2, 2, 1] * 2
    assert sorted(i for b in split for i in b) == list(range(18)), "every point once"
    assert all(len({points[i].params["vcs"] for i in b}) == 1 for b in split)
    assert len(batches(points[:2], 64, min_batches=8)) == 2, "no empty batches"


def test_cluster_sweep_equals_local_sweep_row_by_row(tiny, client):
    cfg = tiny.with_(debug=False)
    args = dict(offered=[0.05, 0.3, 0.6, 0.9], seeds=2, vcs=[2, 4], packet_size=[1, 4])
    local = ls.sweep(cfg, **args)
    remote = ls.sweep(cfg, client=client, **args)
    assert len(remote) == 32 and remote["saturated"].any() and not remote["saturated"].all()
    assert_same_table(local, remote)


def test_cluster_sweep_with_all_cores_config(tiny, client):
    """run.threads = 0 means the worker's share of its cores; the numbers do not change."""
    cfg = tiny.with_(debug=False, threads=0)
    local = ls.sweep(cfg, offered=[0.1, 0.3], seeds=2)
    assert_same_table(local, ls.sweep(cfg, offered=[0.1, 0.3], seeds=2, client=client))


def test_saturation_search_on_a_cluster(tiny, client):
    cfg = tiny.with_(debug=False)
    assert ls.saturation_throughput(cfg, tol=0.05, client=client) == ls.saturation_throughput(
        cfg, tol=0.05)


def test_a_client_must_be_a_dask_client(tiny):
    with pytest.raises(ValueError, match="client = 'tcp://127.0.0.1:8786': allowed a dask"):
        ls.sweep(tiny, offered=[0.1], client="tcp://127.0.0.1:8786")


def test_a_failing_batch_raises_its_error_here(tiny, client):
    # A watchdog shorter than a credit's round trip on 8-cycle links stops the run: the
    # error raised on a worker must come back as the one a local run raises.
    cfg = tiny.with_(debug=False, offered=0.9, packet_size=8, vc_depth=1, link_delay=8,
                     watchdog=2)
    with pytest.raises(ls.SimulationError) as local:
        ls.sweep(cfg, offered=[0.9])
    with pytest.raises(ls.SimulationError) as remote:
        ls.sweep(cfg, offered=[0.9], client=client)
    assert str(remote.value) == str(local.value)


def test_worker_killed_mid_batch_loses_and_duplicates_nothing():
    """SIGKILL a worker while it runs a batch: Dask runs the batch again on a worker that
    lives, every point arrives exactly once and the table equals a local sweep's. A batch may
    finish in the few milliseconds between seeing a worker busy and killing it; then the killer
    tries again on the next busy worker (a worker killed idle is restarted and loses nothing)."""
    cfg = ls.Config({"topology": {"kind": "mesh", "radix": [8, 8]},
                     "run": {"warmup": 100, "measure": 60000, "drain": 5000, "threads": 1}})
    points = plan(cfg, [0.05, 0.1, 0.15], seeds=4)  # 12 points, 4 batches of ~0.4 s each
    arrived = []
    with ls.cluster.local_cluster() as cluster, distributed.Client(cluster) as client:
        killed: set = set()  # keys a killed worker held
        lost: set = set()  # of those, the ones the kill interrupted
        done = threading.Event()

        def transitions():
            return client.run_on_scheduler(
                lambda dask_scheduler: [(k, a, b) for k, a, b, *_ in dask_scheduler.transition_log])

        def kill_a_busy_worker():
            while not lost and not done.is_set():
                busy = {w: keys for w, keys in client.processing().items() if keys}
                if arrived and busy:  # one batch done, another in a worker's hands
                    pids = client.run(os.getpid)
                    worker, keys = next(iter(busy.items()))
                    os.kill(pids[worker], signal.SIGKILL)
                    killed.update(keys)
                    time.sleep(0.5)  # the scheduler notices the worker gone
                    log = transitions()
                    lost.update(k for k in keys if any(
                        kk == k and a == "processing" and b != "memory" for kk, a, b in log))
                time.sleep(0.02)

        killer = threading.Thread(target=kill_a_busy_worker, daemon=True)
        killer.start()
        rows = run_points(points, batch_size=3, client=client, on_point=arrived.append)
        done.set()
        killer.join(timeout=30)
        log = transitions()
    assert lost, f"no kill caught a batch running (killed holding {sorted(killed)})"
    for key in killed:
        # A batch finishes once, and again only if its finished result died with the killed
        # worker before it was gathered (memory -> released): then Dask runs it anew. Either
        # way each point reaches the table exactly once (below).
        moves = [(a, b) for k, a, b in log if k == key]
        finished = moves.count(("processing", "memory"))
        assert 1 <= finished <= 1 + moves.count(("memory", "released")), f"{key}: {moves}"
    assert len(arrived) == len(points) == len(rows)
    assert sorted((r["offered"], r["seed"]) for r in arrived) == sorted(
        (p.params["offered"], p.params["seed"]) for p in points), "each point exactly once"
    assert_same_table(pd.DataFrame(run_points(points, batch_size=3)), pd.DataFrame(rows))


def test_cli_sweep_on_a_scheduler_saves_and_resumes(cli, tmp_path, client):
    config = tmp_path / "tiny.toml"
    ls.Config(TINY).with_(debug=False).to_toml(config)
    address = client.scheduler.address
    first = cli("sweep", config, "--offered", "0.1,0.3", "--seeds", "2", "--out", "cluster",
                "--scheduler", address)
    assert first.returncode == 0, first.stderr
    assert "4 points run, 0 already in" in first.stdout
    assert "4/4" in first.stderr, "the progress bar counts finished points"
    again = cli("sweep", config, "--offered", "0.1,0.3,0.5", "--seeds", "2", "--out", "cluster",
                "--scheduler", address)
    assert again.returncode == 0, again.stderr
    assert "2 points run, 4 already in" in again.stdout
    assert cli("sweep", config, "--offered", "0.1,0.3,0.5", "--seeds", "2", "--out",
               "local").returncode == 0
    remote = pd.read_csv(tmp_path / "cluster" / "sweep.csv")
    local = pd.read_csv(tmp_path / "local" / "sweep.csv")
    assert not remote.duplicated(["offered", "seed"]).any()
    key = ["offered", "seed"]
    assert_same_table(local.sort_values(key, ignore_index=True),
                      remote.sort_values(key, ignore_index=True))
    assert (tmp_path / "cluster" / "latency_load.png").stat().st_size > 0


@pytest.mark.parametrize("address, says", [
    ("nonsense", "missing port number"),
    ("http://127.0.0.1:8786", "unknown scheme 'http'"),
    ("tcp://127.0.0.1:1", "no scheduler answered"),
])
def test_cli_bad_scheduler_is_one_line_error(cli, tmp_path, address, says):
    config = tmp_path / "tiny.toml"
    ls.Config(TINY).to_toml(config)
    r = cli("sweep", config, "--offered", "0.1", "--out", "out", "--scheduler", address)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.startswith(f"lockstep: error: --scheduler '{address}': ") and says in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "out").exists(), "nothing written before the scheduler answers"
