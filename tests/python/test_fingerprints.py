"""Golden state fingerprints (scripts/state_fingerprints.py): every named state array of the
shipped and coverage configurations after a fixed number of cycles is what the golden file says,
so a change meant only to make the simulator faster cannot alter its behaviour unnoticed. Each
backend present is checked against the same (CPU) file: on a GPU machine this is the CPU/GPU
bit-equality check over every configuration. So is every run.schedule: the GPU's schedules run on
the CPU with a block's threads shuffled or reversed (and the hot arrays in a block's own
buffer, their global copies overwritten meanwhile, or each element on a tile of 16 lanes in
shuffled order, or the vc tiles and their terminals as separate items shuffled together), and on
the GPU where there is one."""

import subprocess
import sys

import lockstep as ls
import pytest

from conftest import REPO, python_path


# (backend, run.schedule, run.block_order, run.hot_state, run.lanes, run.block_view, run.roles)
@pytest.mark.parametrize("backend,schedule,order,hot,lanes,view,roles", [
    ("cpu", "auto", "forward", "global", "one", "shared", False),
    ("cpu", "block", "shuffled", "shared", "one", "shared", False),
    ("cpu", "grid", "reversed", "global", "one", "shared", False),
    ("cpu", "block", "shuffled", "global", "tile", "parameter", False),
    ("cpu", "launch", "shuffled", "global", "tile", "shared", True),
    ("cpu", "block", "reversed", "global", "one", "parameter", True),
    ("cuda", "auto", "forward", "global", "auto", "shared", False),
    ("cuda", "auto", "forward", "global", "one", "shared", False),
    ("cuda", "block", "forward", "global", "one", "shared", False),
    ("cuda", "block", "forward", "global", "one", "parameter", False),
    ("cuda", "block", "forward", "shared", "one", "shared", False),
    ("cuda", "grid", "forward", "global", "one", "shared", False),
    ("cuda", "block", "forward", "global", "tile", "shared", False),
    ("cuda", "launch", "forward", "global", "tile", "shared", False),
    ("cuda", "launch", "forward", "global", "tile", "shared", True),
    ("cuda", "block", "forward", "global", "one", "parameter", True)])
def test_state_matches_the_golden_fingerprints(backend, schedule, order, hot, lanes, view, roles):
    if backend not in ls.available_backends():
        pytest.skip(f"no {backend} device on this machine: its state is not checked")
    env = {"PYTHONPATH": python_path()}
    r = subprocess.run([sys.executable, str(REPO / "scripts/state_fingerprints.py"),
                        "--backend", backend, "--schedule", schedule, "--block-order", order,
                        "--hot-state", hot, "--lanes", lanes, "--block-view", view,
                        *(["--roles"] if roles else [])],
                       env=env, capture_output=True, text=True)
    assert r.returncode == 0, (r.stdout + r.stderr +
                               "\nif the change is meant to alter behaviour, regenerate with "
                               "scripts/state_fingerprints.py --write")
