"""scripts/first_divergence.py: two runs of one network compared state array by state array."""

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def run(*args):
    r = subprocess.run([sys.executable, "scripts/first_divergence.py", *map(str, args)],
                       cwd=REPO, capture_output=True, text=True, timeout=600)
    return r.returncode, r.stdout + r.stderr


def test_thread_counts_agree_on_every_array():
    code, out = run("configs/bgl_8x8x8.toml", "--threads-b", "2", "--cycles", "300",
                    "--set", "traffic.offered=0.8")
    assert code == 0, out
    assert "identical after 300 cycles" in out


def test_a_node_failing_at_cycle_137_is_found_at_that_cycle():
    # Checked every 50 cycles, then narrowed down cycle by cycle from 100.
    code, out = run("configs/t3e_64.toml", "--set-b", "t3e.failed_nodes=[1,2,0]",
                    "--set-b", "t3e.fail_cycle=137", "--cycles", "300", "--every", "50")
    assert code == 1, out
    assert "identical after 137 cycles, not after 138" in out
    assert "r_chan [64, 8]" in out and "r_net_lut [64, 64]" in out  # the host's new tables


def test_a_fingerprint_case_is_named_as_the_comparisons_name_it():
    code, out = run("fingerprints:bgl_gather (large)", "--threads-b", "2", "--cycles", "20")
    assert code == 0 and "identical after 20 cycles" in out, out
    code, out = run("fingerprints:no_such_case")
    assert code == 2 and "no such case" in out and "bgl_gather (large)" in out, out


def test_bad_input_names_what_is_wrong():
    code, out = run("configs/default.toml", "--b", "gpu")
    assert code == 2 and "backend 'gpu': not on this machine" in out, out
    code, out = run("configs/default.toml", "--set", "router.vcs=many")
    assert code == 2 and "router.vcs" in out, out
    code, out = run("configs/default.toml", "--cycles", "0")
    assert code == 2 and "--cycles 0" in out, out
