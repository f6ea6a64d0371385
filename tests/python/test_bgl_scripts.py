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
