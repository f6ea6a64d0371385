"""Every notebook runs headless with short simulations (LOCKSTEP_QUICK=1), on the kernel it
names, `lockstep` (registered in .venv by scripts/setup.sh), which must import the package
with no PYTHONPATH set, as it does for someone who opens the notebook in Jupyter."""

import nbformat
import pytest
from conftest import REPO
from nbclient import NotebookClient

NOTEBOOKS = sorted((REPO / "notebooks").rglob("*.ipynb"))
NOTEBOOKS = [p for p in NOTEBOOKS if ".ipynb_checkpoints" not in p.parts]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_runs(path, monkeypatch):
    monkeypatch.setenv("LOCKSTEP_QUICK", "1")
    monkeypatch.delenv("PYTHONPATH", raising=False)
    notebook = nbformat.read(path, as_version=4)
    client = NotebookClient(notebook, timeout=300,
                            resources={"metadata": {"path": str(path.parent)}})
    client.execute()


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_is_committed_without_outputs_on_the_lockstep_kernel(path):
    notebook = nbformat.read(path, as_version=4)
    assert notebook.metadata.kernelspec.name == "lockstep"
    for cell in notebook.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None
