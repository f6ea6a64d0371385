"""Every notebook runs headless with short simulations (LOCKSTEP_QUICK=1), on the kernel it
names, `lockstep` (registered in .venv by scripts/setup.sh), which must import the package
with no PYTHONPATH set, as it does for someone who opens the notebook in Jupyter."""

import base64

import nbformat
import pytest
from conftest import REPO
from nbclient import NotebookClient

NOTEBOOKS = sorted((REPO / "notebooks").rglob("*.ipynb"))
NOTEBOOKS = [p for p in NOTEBOOKS if ".ipynb_checkpoints" not in p.parts]
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_runs(path, monkeypatch):
    monkeypatch.setenv("LOCKSTEP_QUICK", "1")
    monkeypatch.delenv("PYTHONPATH", raising=False)
    notebook = nbformat.read(path, as_version=4)
    client = NotebookClient(notebook, timeout=300,
                            resources={"metadata": {"path": str(path.parent)}})
    client.execute()
    # A cell that shows the cycle player shows its widgets (ipywidgets 8 runs under nbclient),
    # and the widget state nbclient keeps holds the picture of the first cycle.
    players = [c for c in notebook.cells if c.cell_type == "code" and "viz.player(" in c.source]
    for cell in players:
        assert any(WIDGET_VIEW in o.get("data", {}) for o in cell.outputs), cell.source
    if players:
        models = notebook.metadata.widgets[WIDGET_STATE]["state"].values()
        pictures = [m for m in models if m["model_name"] == "ImageModel"]
        assert len(pictures) == len(players)
        for picture in pictures:  # the PNG, kept as a binary buffer beside the state
            png = base64.b64decode(next(b["data"] for b in picture["buffers"]
                                        if b["path"] == ["value"]))
            assert png.startswith(b"\x89PNG")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_is_committed_without_outputs_on_the_lockstep_kernel(path):
    notebook = nbformat.read(path, as_version=4)
    assert notebook.metadata.kernelspec.name == "lockstep"
    for cell in notebook.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None
