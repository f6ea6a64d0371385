"""The package as pip builds it: `pip wheel .` (scikit-build-core running CMake, the CPU backend
only) makes a wheel holding the compiled `_core`, the stub and py.typed, every module and data
file; installed into a new virtual environment it imports from there, runs a sweep and gives a
`lockstep` command. The build takes the build tools already in this environment (at
constraints.txt's versions) and the new environment borrows this one's dependencies, so nothing
is downloaded. A few minutes of compiling: LOCKSTEP_SKIP_PACKAGING=1 leaves it out."""

import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest
from conftest import REPO

pytestmark = pytest.mark.skipif(bool(os.environ.get("LOCKSTEP_SKIP_PACKAGING")),
                                reason="LOCKSTEP_SKIP_PACKAGING is set")
pytest.importorskip("scikit_build_core", reason="the build backend is not installed here")

SWEEP = """
import lockstep as ls
print(ls.__file__)
df = ls.sweep(ls.Config().with_(kind="mesh", radix=[4, 4], warmup=100, measure=300, threads=1),
              offered=[0.1, 0.2], progress=False)
assert list(df.offered) == [0.1, 0.2] and (df.accepted > 0).all(), df
"""


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    out = tmp_path_factory.mktemp("wheel")
    args = ["--no-build-isolation", "--no-deps", "-w", str(out),
            "-Ccmake.define.LOCKSTEP_CUDA=OFF", f"-Cbuild-dir={out / 'build'}"]
    if shutil.which("ccache"):
        args.append("-Ccmake.define.CMAKE_CXX_COMPILER_LAUNCHER=ccache")
    env = dict(os.environ, CMAKE_BUILD_PARALLEL_LEVEL=os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL",
                                                                     "2"))
    r = subprocess.run([sys.executable, "-m", "pip", "wheel", str(REPO), *args], env=env,
                       capture_output=True, text=True, timeout=1800)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    (path,) = out.glob("lockstep-*.whl")
    return path


def test_wheel_holds_the_core_the_types_and_the_data(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    sources = {p.relative_to(REPO / "bindings").as_posix()
               for p in (REPO / "bindings" / "lockstep").rglob("*")
               if p.is_file() and p.suffix in (".py", ".pyi", ".csv", ".json")}
    assert sources <= set(names), sorted(sources - set(names))
    assert "lockstep/py.typed" in names
    cores = [n for n in names if n.startswith("lockstep/_core.") and n.endswith(".so")]
    assert len(cores) == 1, names
    assert not [n for n in names if "__pycache__" in n or n.startswith("lockstep/tests")]


def test_wheel_installs_into_a_new_environment_and_sweeps(wheel, tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    r = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install",
                        "--no-deps", "--no-index", str(wheel)], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    # numpy, pandas, ... from this environment, after the new one's own site-packages.
    site = Path(subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        capture_output=True, text=True, check=True).stdout.strip())
    (site / "dependencies.pth").write_text(sysconfig.get_path("purelib") + "\n")
    env = {"PATH": os.environ["PATH"], "OMP_NUM_THREADS": "1", "MPLBACKEND": "Agg"}
    r = subprocess.run([python, "-c", SWEEP], cwd=tmp_path, env=env, capture_output=True,
                       text=True, timeout=600)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    assert r.stdout.splitlines()[0].startswith(str(site)), "imported another lockstep"
    r = subprocess.run([venv / "bin" / "lockstep", "run", REPO / "configs" / "default.toml",
                        "--set", "run.measure=200", "--set", "run.threads=1"],
                       cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    assert '"accepted"' in r.stdout
