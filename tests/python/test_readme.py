"""The guides' Python examples run as written, one after another as a reader would paste them
into one session: docs/getting_started.md, docs/watching.md, docs/cluster.md (the cluster example
on a local cluster, the alternative its comment gives). The README's ten lines are the getting
started page's first example."""

import re
import subprocess
import sys

from conftest import REPO, python_path

SCHEDULER = 'Client("tcp://SCHEDULER:8786")'
LOCAL = "Client(ls.cluster.local_cluster(workers=2))"
GUIDES = ["docs/getting_started.md", "docs/watching.md", "docs/cluster.md"]


def python_blocks(path: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", (REPO / path).read_text(), re.S)


def test_readme_ten_lines_are_the_getting_started_ones():
    (readme,) = python_blocks("README.md")
    assert readme == python_blocks("docs/getting_started.md")[0]


def test_guide_python_examples_run(tmp_path):
    blocks = [b for g in GUIDES for b in python_blocks(g)]
    assert len(blocks) >= 5, "the guides' Python examples were not found"
    assert sum(SCHEDULER in b for b in blocks) == 1, "the cluster example changed: update here"
    assert LOCAL in "".join(blocks), "the cluster example no longer offers a local cluster"
    # Relative paths (configs/...) as from a checkout; files the examples write land in tmp.
    (tmp_path / "configs").symlink_to(REPO / "configs")
    script = "import matplotlib\nmatplotlib.use('Agg')\n" + "".join(
        f"print('example {i}', flush=True)\n{b.replace(SCHEDULER, LOCAL)}\n"
        for i, b in enumerate(blocks))
    r = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True,
                       text=True, env={"PYTHONPATH": python_path(), "OMP_NUM_THREADS": "1"},
                       timeout=600)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    assert (tmp_path / "router5.html").stat().st_size > 0
