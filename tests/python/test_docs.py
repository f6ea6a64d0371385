"""The README's configuration reference is generated from the schema: it must be current."""

import subprocess
import sys

from conftest import REPO, python_path


def test_readme_config_reference_is_current():
    env = {"PYTHONPATH": python_path()}
    r = subprocess.run([sys.executable, str(REPO / "scripts/config_reference.py"), "--check"],
                       env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
