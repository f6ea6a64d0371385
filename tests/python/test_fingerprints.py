"""Golden state fingerprints (scripts/state_fingerprints.py): every named state array of the
shipped and coverage configurations after a fixed number of cycles is what the golden file says,
so a change meant only to make the simulator faster cannot alter its behaviour unnoticed."""

import subprocess
import sys

from conftest import REPO, python_path


def test_state_matches_the_golden_fingerprints():
    env = {"PYTHONPATH": python_path()}
    r = subprocess.run([sys.executable, str(REPO / "scripts/state_fingerprints.py")],
                       env=env, capture_output=True, text=True)
    assert r.returncode == 0, (r.stdout + r.stderr +
                               "\nif the change is meant to alter behaviour, regenerate with "
                               "scripts/state_fingerprints.py --write")
