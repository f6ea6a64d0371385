"""Shared set-up for the Python tests: the package on sys.path, a tiny network, the CLI."""

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

try:  # PYTHONPATH=bindings, as documented; fall back to this checkout's bindings/
    import lockstep as ls
except ImportError:
    sys.path.insert(0, str(REPO / "bindings"))
    import lockstep as ls

# The directory holding the package under test, for subprocesses and notebook kernels.
PACKAGE_ROOT = str(Path(ls.__file__).absolute().parents[1])

# A 4x4 mesh with short windows: big enough to congest, small enough to run in moments.
# Debug mode checks the invariants after every cycle of every test that uses it.
# One thread: a network this small gains nothing from more, and OpenMP's spinning barriers
# make multi-threaded runs crawl when the two cores are shared with other work.
TINY = {
    "topology": {"kind": "mesh", "radix": [4, 4]},
    "run": {"warmup": 200, "measure": 1000, "threads": 1, "debug": True},
}


@pytest.fixture
def tiny() -> "ls.Config":
    return ls.Config(TINY)


def packet_runs(packet: list, flags, where: str) -> list[tuple[int, int]]:
    """A VC buffer's flits, front first, as (start, end) runs of one packet each (`packet`:
    each flit's (src, seq); `flags`: its buffer_meta & (head 1 | tail 2)): asserts no packet is
    split, a head only at a run's start (the first run's head may have left) and a tail only at
    a run's end (the last run's may be on its way)."""
    n = len(packet)
    starts = [k for k in range(n) if k == 0 or packet[k] != packet[k - 1]]
    ends = [k - 1 for k in starts[1:]] + [n - 1]
    assert len(set(packet)) == len(starts), f"a packet split in {where}"
    for s, e in zip(starts, ends):
        assert all(flags[k] & 1 == 0 for k in range(s + 1, e + 1)), where
        assert all(flags[k] & 2 == 0 for k in range(s, e)), where
        assert s == 0 or flags[s] & 1, f"a packet behind another starts with its head: {where}"
        assert e == n - 1 or flags[e] & 2, f"a packet before another ends with its tail: {where}"
    return list(zip(starts, ends))


def python_path() -> str:
    rest = os.environ.get("PYTHONPATH")
    return os.pathsep.join([PACKAGE_ROOT, rest] if rest else [PACKAGE_ROOT])


@pytest.fixture
def cli(tmp_path):
    """Run ``python -m lockstep ARGS`` in a scratch directory; returns CompletedProcess."""

    def run(*args: str, cwd: Path = tmp_path) -> subprocess.CompletedProcess:
        env = dict(os.environ, PYTHONPATH=python_path(), MPLBACKEND="Agg")
        return subprocess.run(
            [sys.executable, "-m", "lockstep", *map(str, args)],
            cwd=cwd, env=env, capture_output=True, text=True, timeout=600,
        )

    return run


def wait_for(what: str, check, timeout: float, interval: float = 0.2):
    """check()'s first true value, polled until `timeout` seconds have passed."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = check()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")


@pytest.fixture
def browser():
    """Headless Chromium (Debian's chromium and chromium-driver), keeping its console log."""
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    binary = shutil.which("chromium") or "/usr/bin/chromium"
    if not Path(binary).exists():
        pytest.skip("no Chromium here (scripts/setup.sh test installs Debian's; Ubuntu has it "
                    "only as a snap): this browser test is not run")
    options = Options()
    options.binary_location = binary
    for arg in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                "--window-size=1280,2000"]:
        options.add_argument(arg)
    options.set_capability("goog:loggingOptions", {"browser": "ALL"})
    driver = webdriver.Chrome(
        service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)
    try:
        yield driver
    finally:
        driver.quit()
