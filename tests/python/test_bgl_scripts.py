"""The Blue Gene/L study scripts, shortened: they run, and what they print or write holds."""

import csv
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def run(*args):
    r = subprocess.run([sys.executable, *map(str, args)], cwd=REPO, capture_output=True,
                       text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_dead_node_reach_connects_every_pair_in_two_legs():
    for extra in ([], ["--links"]):
        out = run("scripts/bgl_dead_node_reach.py", "--trials", "3", "--radix", "4", "4", "4",
                  *extra)
        rows = [line.split() for line in out.splitlines()[1:]]
        assert len(rows) == 6
        for row in rows:  # dead, order, full, "of", sets, unreachable max, ...
            assert row[2] == row[4] == "3" and row[5] == "0", row


def test_escape_waves_writes_a_row_per_interval(tmp_path):
    out = tmp_path / "waves.csv"
    stuck_out = tmp_path / "stuck.csv"
    run("scripts/bgl_escape_waves.py", "--radix", "4", "4", "4", "--intervals", "3",
        "--interval", "1000", "--stuck", "2", "--stuck-out", stuck_out, "--out", out)
    with open(out) as f:
        rows = list(csv.DictReader(f))
    assert [int(r["cycle"]) for r in rows] == [1000, 2000, 3000]
    # Two dynamic VCs, the dateline pair, the high-priority VC.
    assert {"throughput", "unblocking", "vc0", "vc1", "vc2", "vc3", "vc4"} <= set(rows[0])
    assert all(float(r["throughput"]) > 0 for r in rows)
    # Input VCs whose front never left in an interval: none in the first, while buffers fill;
    # the counts are whole VCs, at most the network's (64 routers, 6 directions, 5 VCs).
    stalled = [(int(r["stalled_dynamic"]), int(r["stalled_escape"])) for r in rows]
    assert stalled[0] == (0, 0) and all(0 <= d + e <= 64 * 6 * 5 for d, e in stalled), stalled
    # Stuck: stalled in each of the last two intervals, so never in the first, and at most the
    # VCs stalled in the latest; the longest run of stalled intervals, in cycles.
    stuck = [(int(r["stuck_dynamic"]), int(r["stuck_escape"])) for r in rows]
    assert stuck[0] == (0, 0)
    assert all(sd <= d and se <= e for (sd, se), (d, e) in zip(stuck, stalled)), (stuck, stalled)
    longest = [int(r["longest_stall"]) for r in rows]
    assert all(x % 1000 == 0 and x <= int(r["cycle"]) for x, r in zip(longest, rows)), longest
    with open(stuck_out) as f:  # the VCs stuck after the last interval, one a row
        listed = list(csv.DictReader(f))
    assert len(listed) == sum(stuck[-1])
    assert all(int(v["intervals"]) >= 2 and 0 <= int(v["vc"]) < 5 for v in listed)
    assert all(int(r["knot"]) == 0 for r in rows)  # congestion here, no deadlock


def test_escape_waves_runs_the_pair_with_the_bubbles_entry_rule(tmp_path):
    # --pair-entry two: bgl.pair_entry, which changes the run (the pair's VCs take a packet only
    # with room for two) and is refused, naming the key, for the bubble.
    rows = {}
    for entry in ("one", "two"):
        out = tmp_path / f"{entry}.csv"
        run("scripts/bgl_escape_waves.py", "--radix", "4", "4", "4", "--intervals", "2",
            "--interval", "2000", "--buffer-bytes", "512", "--pair-entry", entry, "--out", out)
        with open(out) as f:
            rows[entry] = list(csv.DictReader(f))
        assert all(int(r["knot"]) == 0 for r in rows[entry])
    # The same first 2,000 cycles, while the escape VCs are still nearly empty; then less on
    # the pair's lower VC (0.086 against 0.068 bytes per node per cycle), and more token-acks
    # freeing a blocked packet.
    assert rows["one"][0] == rows["two"][0]
    assert float(rows["two"][1]["vc2"]) < float(rows["one"][1]["vc2"])
    assert float(rows["two"][1]["unblocking"]) > float(rows["one"][1]["unblocking"])
    r = subprocess.run([sys.executable, "scripts/bgl_escape_waves.py", "--escape", "bubble",
                        "--radix", "4", "4", "4", "--pair-entry", "two", "--out",
                        tmp_path / "x.csv"], cwd=REPO, capture_output=True, text=True, timeout=600)
    assert r.returncode != 0 and 'bgl.pair_entry = "two"' in r.stderr, r.stderr


@pytest.mark.parametrize("rule,locked", [("original", 6), ("fixed", 0)])
def test_knot_finds_the_original_bubble_rules_deadlock(rule, locked):
    # The ring that the paper's original bubble rule deadlocks by fragmentation
    # (tests/cpp/test_bgl.cpp, OriginalBubbleRuleDeadlocksByFragmentation): its six bubble VCs
    # hold packets that no sender has the tokens to move, a knot; the fixed rule's run on.
    sys.path.insert(0, str(REPO / "scripts"))
    from bgl_escape_waves import knot

    import lockstep as ls

    cfg = ls.Config().with_(**{
        "topology.kind": "torus", "topology.radix": [6], "topology.link_delay": 4,
        "router.family": "bgl", "traffic.pattern": "tornado", "traffic.offered": 2.0,
        "traffic.packet_sizes": [32, 256], "traffic.packet_size_weights": [8, 1],
        "bgl.bubble_rule": rule, "bgl.deterministic": True, "bgl.in_network_fraction": 0.0,
        "run.seed": 3, "run.watchdog": 0})
    sim = ls.Simulator(cfg)
    sim.step(9000)
    holding = sim.state("vc_count") > 0
    assert holding.sum() == 6
    assert knot(sim, holding, cfg) == locked


def test_paper_sizes_measures_what_the_ledger_does(tmp_path):
    # scripts/paper_sizes.py runs the paper's sizes on a GPU (gpu_check.sh papers); --small runs
    # the same measures on small tori here, each over a short window first, then its own.
    from lockstep.bgl import fidelity

    out = run("scripts/paper_sizes.py", "--small", "--out", tmp_path)
    assert out.count("on cpu") == 4, out
    with open(tmp_path / "fig6_alltoall.csv") as f:
        short, fig6 = csv.DictReader(f)
    short_fig6 = short
    assert [int(short["cycles"]), int(fig6["cycles"])] == [1000, 4000]
    assert 0 < float(short["delivered"]) < float(fig6["delivered"]) < 1
    link, payload = float(fig6["link"]), float(fig6["payload"])
    assert 0.9 < link <= 1
    assert abs(payload / link - 240 / 270) < 0.01  # every packet 256 bytes: 240 of 270
    with open(tmp_path / "asym_alltoall.csv") as f:
        short, asym = csv.DictReader(f)
    assert short["window"] == "2000" and short["peak_percent"] == ""  # not complete: no peak
    assert asym["window"] == "completion" and float(asym["delivered"]) == 1
    assert float(asym["link"]) == fidelity.asym_link(quick=True).value  # the quick run: 8x4x4
    # --set runs them another way (gpu_goals.py's fastest schedule, say): the same figures.
    out = run("scripts/paper_sizes.py", "fig6", "--small", "--cycles", "1000", "--set",
              'run.lanes="tile"', "--set", "run.schedule=launch", "--out", tmp_path / "tile")
    with open(tmp_path / "tile" / "fig6_alltoall.csv") as f:
        [tile] = csv.DictReader(f)
    assert (tile["cycles"], tile["link"], tile["payload"]) == (
        short_fig6["cycles"], short_fig6["link"], short_fig6["payload"])
