"""Sphinx configuration of lockstep's documentation site (`make docs` -> build/site).

The source directory is the repository root, so the notebooks (notebooks/) and the design notes
(docs/) are pages where they live; `include_patterns` keeps everything else out. Pages generated
from the code (the configuration reference from the schema, the command line's help) are written
into docs/_generated/ each build. Notebooks run with short simulations (LOCKSTEP_QUICK=1), on
the `lockstep` kernel, and their outputs are cached in build/jupyter_cache until they change.
"""

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bindings"))
sys.path.insert(0, str(ROOT / "docs"))

import generate_pages  # noqa: E402

generate_pages.write(ROOT / "docs" / "_generated")
os.environ["LOCKSTEP_QUICK"] = "1"  # the notebooks' kernels inherit these
os.environ["PYDEVD_DISABLE_FILE_VALIDATION"] = "1"  # ipykernel's debugger: no frozen-module notes

project = "lockstep"
author = "the lockstep developers"
copyright = "2026, the lockstep developers"
root_doc = "docs/index"
include_patterns = ["docs/**.md", "notebooks/**.ipynb"]
exclude_patterns = ["build", ".venv", "**/.ipynb_checkpoints", "docs/fidelity_*",
                    "docs/measurements/**"]  # raw device logs, read in the repository
extensions = ["myst_nb", "sphinx.ext.autodoc", "sphinx.ext.viewcode"]

html_theme = "furo"
html_title = "lockstep"
html_extra_path = ["_generated/root"]  # relative to this folder

myst_heading_anchors = 3
myst_enable_extensions = ["dollarmath"]
autodoc_member_order = "bysource"
autodoc_typehints = "description"

nb_execution_mode = os.environ.get("LOCKSTEP_DOCS_EXECUTE", "cache")
# `make test` executes every notebook in pytest (tests/python/test_notebooks.py), so its site
# build executes only the notebooks named here (comma-separated stems: the page its browser test
# opens), and the others' pages show their code without outputs until `make docs` runs them.
_only = os.environ.get("LOCKSTEP_DOCS_EXECUTE_ONLY")
if _only:
    nb_execution_excludepatterns = sorted(
        p.name for p in (ROOT / "notebooks").rglob("*.ipynb") if p.stem not in _only.split(","))
nb_execution_cache_path = str(ROOT / "build" / "jupyter_cache")
nb_execution_timeout = 900
nb_execution_raise_on_error = True
nb_execution_show_tb = True
