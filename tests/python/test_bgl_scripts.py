"""The Blue Gene/L study scripts, shortened: they run, and what they print or write holds."""

import csv
import subprocess
import sys
from pathlib import Path

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
    run("scripts/bgl_escape_waves.py", "--radix", "4", "4", "4", "--intervals", "3",
        "--interval", "1000", "--out", out)
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


def test_paper_sizes_measures_what_the_ledger_does(tmp_path):
    # scripts/paper_sizes.py runs the paper's sizes on a GPU (gpu_check.sh papers); --small runs
    # the same measures on small tori here.
    from lockstep.bgl import fidelity

    out = run("scripts/paper_sizes.py", "--small", "--out", tmp_path)
    assert out.count("on cpu") == 2, out
    with open(tmp_path / "fig6_alltoall.csv") as f:
        fig6 = next(csv.DictReader(f))
    link, payload = float(fig6["link"]), float(fig6["payload"])
    assert int(fig6["cycles"]) == 4000 and 0 < float(fig6["delivered"]) < 1
    assert 0.9 < link <= 1
    assert abs(payload / link - 240 / 270) < 0.01  # every packet 256 bytes: 240 of 270
    with open(tmp_path / "asym_alltoall.csv") as f:
        asym = next(csv.DictReader(f))
    assert float(asym["link"]) == fidelity.asym_link(quick=False).value  # the ledger's 8x4x4
