"""JupyterLab, as a user meets it: the server `make notebook` starts (scripts/notebook.sh, on a
free port of 127.0.0.1, serving a copy of the notebook so nothing is saved into the
repository), headless Chromium opening notebooks/01_saturation_curves.ipynb, Run > Run All
Cells, every cell finishing without an error with its plots on the page and nothing on the
browser's console. Screenshots are kept in build/test-artifacts/. The server is stopped at the
end, whatever happens."""

import json
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
# The test's own JupyterLab settings: every cell kept on the page (not only those in view), and
# no news fetched from the internet or offered in a pop-up.
SETTINGS = {
    "@jupyterlab/notebook-extension/tracker": {"windowingMode": "none"},
    "@jupyterlab/apputils-extension/notification": {"fetchNews": "false",
                                                    "checkForUpdates": False},
}

# The open notebook's cells as the page shows them.
PROGRESS_JS = """
const cells = [...document.querySelectorAll('.jp-Notebook .jp-CodeCell')];
const prompts = cells.map(c => c.querySelector('.jp-InputPrompt').textContent.trim());
const status = document.querySelector('.jp-Notebook-ExecutionIndicator');
return {
  cells: cells.length,
  finished: prompts.filter(p => /^\\[\\d+\\]:$/.test(p)).length,
  idle: !!status && status.dataset.status === 'idle',
  plots: document.querySelectorAll('.jp-OutputArea-output img').length,
};"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def jupyter(tmp_path):
    """JupyterLab on a free local port serving tmp_path/work; yields its URL, then stops it."""
    work = tmp_path / "work"
    work.mkdir()
    shutil.copy(REPO / "notebooks" / NOTEBOOK, work)
    for name, values in SETTINGS.items():
        path = tmp_path / "settings" / f"{name}.jupyterlab-settings"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(values))
    port = free_port()
    env = dict(os.environ, LOCKSTEP_QUICK="1", JUPYTER_RUNTIME_DIR=str(tmp_path / "runtime"),
               JUPYTERLAB_SETTINGS_DIR=str(tmp_path / "settings"),
               JUPYTERLAB_WORKSPACES_DIR=str(tmp_path / "workspaces"))
    log = open(tmp_path / "jupyter.log", "w")
    server = subprocess.Popen(
        ["bash", str(REPO / "scripts" / "notebook.sh"), f"--port={port}", "--port-retries=0",
         f"--IdentityProvider.token={TOKEN}", f"--notebook-dir={work}"],
        env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        def listening():
            assert server.poll() is None, (tmp_path / "jupyter.log").read_text()
            with socket.socket() as s:
                return s.connect_ex(("127.0.0.1", port)) == 0
        wait_for("JupyterLab", listening, 60)
        yield f"http://127.0.0.1:{port}", work
    finally:
        os.killpg(server.pid, signal.SIGTERM)  # the server and its kernels
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
        log.close()


def open_notebook(browser, url: str, name: str) -> None:
    """Opens notebook `name` in JupyterLab at `url` and waits for its kernel to be idle."""
    browser.get(f"{url}/lab/tree/{name}?token={TOKEN}")
    wait_for("the lockstep kernel", lambda: browser.execute_script(
        "const k = document.querySelector('.jp-Toolbar-kernelName');"
        "const s = document.querySelector('.jp-Notebook-ExecutionIndicator');"
        "const name = k && k.textContent.trim();"
        "return s && s.dataset.status === 'idle' && name !== 'No Kernel' && name"), 90)
    kernel = browser.execute_script(
        "return document.querySelector('.jp-Toolbar-kernelName').textContent.trim()")
    assert kernel == "Python (lockstep)"


def menu(browser, *labels: str) -> None:
    """Clicks through the menu bar: menu(browser, "Run", "Run All Cells")."""
    bar = browser.find_elements("css selector", ".lm-MenuBar-itemLabel")
    next(e for e in bar if e.text == labels[0]).click()
    for label in labels[1:]:
        item = wait_for(f"menu item {label!r}", lambda: next(
            (e for e in browser.find_elements("css selector", ".lm-Menu-itemLabel")
             if e.text == label and e.is_displayed()), None), 10)
        item.click()


def console_errors(browser) -> list[str]:
    return [e["message"] for e in browser.get_log("browser") if e["level"] == "SEVERE"]


def saved(path, browser) -> nbformat.NotebookNode:
    """The notebook as JupyterLab saves it (File > Save Notebook): cell outputs included."""
    before = path.stat().st_mtime_ns
    menu(browser, "File", "Save Notebook")
    wait_for("the notebook to be saved", lambda: path.stat().st_mtime_ns != before, 30)
    return nbformat.read(path, as_version=4)


def test_saturation_notebook_runs_in_jupyterlab_in_a_browser(jupyter, browser):
    url, work = jupyter
    open_notebook(browser, url, NOTEBOOK)
    menu(browser, "Run", "Run All Cells")

    def finished():
        state = browser.execute_script(PROGRESS_JS)
        return state if state["finished"] == state["cells"] and state["idle"] else None

    try:
        state = wait_for("every cell to finish", finished, 300, 1)
    finally:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        browser.save_screenshot(str(ARTIFACTS / "jupyterlab_01_saturation_curves.png"))
    assert state["cells"] >= 7
    assert state["plots"] >= 4, "one figure per section (a) to (d)"
    cells = [c for c in saved(work / NOTEBOOK, browser).cells if c.cell_type == "code"]
    errors = [f"{o.ename}: {o.evalue}" for c in cells for o in c.outputs
              if o.output_type == "error"]
    assert errors == []
    assert all(c.execution_count for c in cells)
    assert console_errors(browser) == []


def test_viz_player_steps_a_simulator_in_jupyterlab(jupyter, browser):
    """ls.viz.player in a real notebook: its widgets render, and the step button moves the
    cycle slider on and redraws the router (the kernel steps the Simulator)."""
    url, work = jupyter
    notebook = nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_code_cell(
            "import lockstep as ls\n"
            "sim = ls.Simulator(ls.Config().with_(kind='mesh', radix=[4, 4], offered=0.3, "
            "threads=1))\n"
            "ls.viz.player(sim, view='router', router=5)")],
        metadata={"kernelspec": {"name": "lockstep", "display_name": "Python (lockstep)",
                                 "language": "python"}})
    nbformat.write(notebook, work / "player.ipynb")
    open_notebook(browser, url, "player.ipynb")
    menu(browser, "Run", "Run All Cells")
    picture = "return [...document.querySelectorAll('img.widget-image')].map(i => i.src)"
    readout = ("return [...document.querySelectorAll('.widget-readout')]"
               ".map(e => e.textContent.trim())")
    first = wait_for("the player's picture", lambda: browser.execute_script(picture), 120)
    assert browser.execute_script(readout) == ["0"]
    step = next(b for b in browser.find_elements("css selector", "button.jupyter-button")
                if b.text.strip() == "step")
    step.click()
    wait_for("the slider to move on", lambda: browser.execute_script(readout) == ["1"], 30)
    wait_for("the next cycle's picture",
             lambda: (lambda srcs: srcs and srcs != first)(browser.execute_script(picture)), 30)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(ARTIFACTS / "jupyterlab_viz_player.png"))
    assert console_errors(browser) == []
