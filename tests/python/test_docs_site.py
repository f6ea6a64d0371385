"""The documentation site (`make docs` -> build/site, which `make test` builds first with warnings
as errors): headless Chromium opens the home page and a notebook page, follows the navigation
and finds the notebook's figures drawn."""

import os
from pathlib import Path

import pytest
from conftest import REPO, wait_for

SITE = Path(os.environ.get("LOCKSTEP_SITE", REPO / "build" / "site"))
pytestmark = pytest.mark.skipif(not (SITE / "index.html").exists(),
                                reason=f"no site at {SITE}: run `make docs` first")


def _errors(browser) -> list[str]:
    return [e["message"] for e in browser.get_log("browser") if e["level"] == "SEVERE"]


def test_home_page_links_every_part(browser):
    browser.get((SITE / "index.html").as_uri())  # the site's root points to docs/index.html
    wait_for("the root's redirect", lambda: browser.current_url.endswith("docs/index.html"), 10)
    wait_for("the home page's links",
             lambda: browser.find_elements("css selector", "a.reference.internal"), 10)
    assert "lockstep" in browser.title
    links = {a.get_attribute("href").split("/")[-1] for a in
             browser.find_elements("css selector", "a.reference.internal")}
    for page in ("getting_started.html", "configuration.html", "api.html", "cli.html",
                 "01_saturation_curves.html", "03_cray_t3e.html", "t3e.html", "fidelity.html",
                 "validation.html", "performance.html"):
        assert page in links, f"{page} not linked from the home page: {sorted(links)}"
    assert not _errors(browser)


def test_a_notebook_page_shows_its_figures(browser):
    browser.get((SITE / "notebooks" / "01_saturation_curves.html").as_uri())
    images = browser.find_elements("css selector", "div.cell_output img")
    assert images, "no figure in the executed notebook's outputs"
    drawn = browser.execute_script(
        "return Array.from(document.querySelectorAll('div.cell_output img'))"
        ".map(i => i.complete && i.naturalWidth > 100)")
    assert all(drawn), f"figures not drawn: {drawn}"
    assert not _errors(browser)


def test_reference_pages_come_from_the_code(browser):
    browser.get((SITE / "docs" / "_generated" / "configuration.html").as_uri())
    keys = {c.text for c in browser.find_elements("css selector", "td code")}
    assert {"router.family", "t3e.adaptive", "bgl.jsq", "run.schedule"} <= keys
    browser.get((SITE / "docs" / "api.html").as_uri())
    names = {e.get_attribute("id") for e in browser.find_elements("css selector", "dt[id]")}
    assert {"lockstep.sweep", "lockstep.Simulator", "lockstep.Config"} <= names
