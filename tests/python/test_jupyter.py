"""A real Jupyter, as a user meets it: the server `make notebook` starts (scripts/notebook.sh,
on a free port of 127.0.0.1, serving a copy of the notebook so nothing is saved into the
repository), headless Chromium opening notebooks/01_saturation_curves.ipynb, Cell > Run All,
and every cell finishing without an error with its plots on the page. The screenshot is kept
in build/test-artifacts/. The server is stopped at the end, whatever happens."""

import os
import shutil
import signal
import socket
import subprocess

import nbformat
import pytest
from conftest import REPO, wait_for

ARTIFACTS = REPO / "build" / "test-artifacts"
NOTEBOOK = "01_saturation_curves.ipynb"
TOKEN = "lockstep-test"

# State of the open notebook, read from the classic notebook's own JavaScript objects.
PROGRESS_JS = """
const cells = Jupyter.notebook.get_cells().filter(c => c.cell_type === 'code');
return {
  cells: cells.length,
  finished: cells.filter(c => typeof c.input_prompt_number === 'number').length,
  idle: document.querySelector('#kernel_indicator_icon').classList.contains('kernel_idle_icon'),
  errors: cells.flatMap(c => c.output_area.outputs).filter(o => o.output_type === 'error')
               .map(o => o.ename + ': ' + o.evalue),
  plots: document.querySelectorAll('.output_area img').length,
};"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def jupyter(tmp_path):
    """The notebook server on a free local port; yields its URL, then stops it."""
    shutil.copy(REPO / "notebooks" / NOTEBOOK, tmp_path)
    port = free_port()
    env = dict(os.environ, LOCKSTEP_QUICK="1", JUPYTER_RUNTIME_DIR=str(tmp_path / "runtime"))
    log = open(tmp_path / "jupyter.log", "w")
    server = subprocess.Popen(
        ["bash", str(REPO / "scripts" / "notebook.sh"), f"--port={port}", "--port-retries=0",
         f"--NotebookApp.token={TOKEN}", f"--notebook-dir={tmp_path}"],
        env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        def listening():
            assert server.poll() is None, (tmp_path / "jupyter.log").read_text()
            with socket.socket() as s:
                return s.connect_ex(("127.0.0.1", port)) == 0
        wait_for("the notebook server", listening, 60)
        yield f"http://127.0.0.1:{port}"
    finally:
        os.killpg(server.pid, signal.SIGTERM)  # the server and its kernels
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
        log.close()


def open_notebook(browser, url: str, name: str) -> None:
    """Opens notebook `name` of the server at `url` and waits for its kernel."""
    browser.get(f"{url}/notebooks/{name}?token={TOKEN}")
    wait_for("the lockstep kernel", lambda: browser.execute_script(
        "return !!(window.Jupyter && Jupyter.notebook && Jupyter.notebook.kernel"
        " && Jupyter.notebook.kernel.is_connected()) && Jupyter.notebook.kernel.name"), 60)
    assert browser.execute_script("return Jupyter.notebook.kernel.name") == "lockstep"


def test_saturation_notebook_runs_in_jupyter_in_a_browser(jupyter, browser):
    open_notebook(browser, jupyter, NOTEBOOK)
    browser.find_element("link text", "Cell").click()
    browser.find_element("css selector", "#run_all_cells > a").click()

    def finished():
        state = browser.execute_script(PROGRESS_JS)
        return state if state["finished"] == state["cells"] and state["idle"] else None

    try:
        state = wait_for("every cell to finish", finished, 300, 1)
    finally:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        browser.save_screenshot(str(ARTIFACTS / "jupyter_01_saturation_curves.png"))
    assert state["cells"] >= 7
    assert state["errors"] == []
    assert state["plots"] >= 4, "one figure per section (a) to (d)"


def test_viz_player_steps_a_simulator_in_jupyter(jupyter, browser, tmp_path):
    """ls.viz.player in a real notebook: its widgets render, and the step button moves the
    cycle slider on and redraws the view (the kernel steps the Simulator)."""
    notebook = nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_code_cell(
            "import lockstep as ls\n"
            "sim = ls.Simulator(ls.Config().with_(kind='mesh', radix=[4, 4], offered=0.3, "
            "threads=1))\n"
            "ls.viz.player(sim, view='network')")],
        metadata={"kernelspec": {"name": "lockstep", "display_name": "Python (lockstep)",
                                 "language": "python"}})
    nbformat.write(notebook, tmp_path / "player.ipynb")
    open_notebook(browser, jupyter, "player.ipynb")
    browser.execute_script("Jupyter.notebook.execute_all_cells()")
    picture = "return [...document.querySelectorAll('img.widget-image')].map(i => i.src)"
    readout = "return [...document.querySelectorAll('.widget-readout')].map(e => e.textContent.trim())"
    first = wait_for("the player's picture", lambda: browser.execute_script(picture), 60)
    assert browser.execute_script(readout) == ["0"]
    step = next(b for b in browser.find_elements("css selector", "button")
                if b.text.strip() == "step")
    step.click()
    wait_for("the slider to move on", lambda: browser.execute_script(readout) == ["1"], 30)
    wait_for("the next cycle's picture",
             lambda: (lambda srcs: srcs and srcs != first)(browser.execute_script(picture)), 30)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(ARTIFACTS / "jupyter_viz_player.png"))
