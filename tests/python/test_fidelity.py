"""The fidelity ledger (lockstep.fidelity, docs/fidelity.md): every claim's quick
measurement shows the status the ledger records, and the ledger lists every claim."""

import math
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from lockstep import fidelity
from lockstep.fidelity import Between, Claim, Measured, Near

LEDGER = Path(__file__).resolve().parents[2] / "docs" / "fidelity.md"
SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"


@pytest.mark.parametrize("claim", fidelity.claims(), ids=[c.id for c in fidelity.claims()])
def test_every_claim_shows_the_status_the_ledger_records(claim):
    m, status = claim.run(quick=True)
    assert status == claim.expected(quick=True), (
        f"{claim.id}: measured {m} against the paper's {claim.check.paper()} "
        f"({claim.check.tolerance()}): {status}, the ledger says {claim.expected(quick=True)}")


def test_the_ledger_lists_every_claim():
    text = LEDGER.read_text()
    missing = [c.id for c in fidelity.claims() if f"### {c.id}\n" not in text]
    assert not missing, f"docs/fidelity.md lacks {missing}: run `make fidelity`"
    assert len({c.id for c in fidelity.claims()}) == len(fidelity.claims()), "ids repeat"


def test_the_ledger_is_its_claims_and_their_stored_measurements():
    # docs/fidelity.md is rendered from docs/fidelity.csv and the claims' code: a reworded
    # cause, a changed check or a hand edit shows here (scripts/fidelity.py --render).
    sys.path.insert(0, str(SCRIPTS))
    try:
        import fidelity as script
    finally:
        sys.path.remove(str(SCRIPTS))
    stored = fidelity.read_measured(LEDGER.with_suffix(".csv"))
    full = fidelity.merge(fidelity.claims(), stored)
    assert LEDGER.read_text() == fidelity.markdown(full, script.header(full)), (
        "docs/fidelity.md is not what its claims and docs/fidelity.csv give: run "
        "`scripts/fidelity.py --render` (or measure the changed claims with --claims)")
    assert set(stored["id"]) == {c.id for c in fidelity.claims()}, "stale stored rows"
    moved = full[full["status"] != full["expect"]]
    assert moved.empty, f"stored measurements show another status: {moved['id'].tolist()}"


# -- The ledger's machinery, on made-up claims ---------------------------------------------------

def _claim(**kw) -> Claim:
    base = dict(id="x.one", document="003", where="Table 9", quote="about 28 clocks",
                check=Near(28, abs=1), measure=lambda quick: 28.5, setup="by hand",
                expect="reproduced")
    return Claim(**{**base, **kw})


def test_status_is_computed_from_the_measurement():
    assert _claim().run(True) == (Measured(28.5), "reproduced")
    assert _claim(measure=lambda q: Measured(30, "two more"), expect="diverges",
                  cause="the route byte").run(True) == (Measured(30, "two more"), "diverges")
    assert _claim(check=Between(2), measure=lambda q: math.nan,
                  expect="diverges", cause="c").run(True)[1] == "diverges"
    assert _claim(check=None, measure=None, expect="not reproducible",
                  lacks="the clock").run(True) == (None, "not reproducible")


def test_a_quick_case_may_show_its_own_status():
    c = _claim(measure=lambda q: 26 if q else 28.5, quick_expect="diverges")
    assert c.run(True)[1] == c.expected(True) == "diverges"
    assert c.run(False)[1] == c.expected(False) == "reproduced"
    assert fidelity.measure([c], quick=True)["expect"].tolist() == ["diverges"]


@pytest.mark.parametrize("kw, words", [
    (dict(document="009"), "document '009'"),
    (dict(expect="diverges"), "needs its cause"),
    (dict(check=None, measure=None, expect="not reproducible"), "`lacks`"),
    (dict(check=None, expect="reproduced"), "no check"),
    (dict(measure=None), "needs a measure"),
    (dict(quick_expect="maybe"), "quick_expect 'maybe'"),
    (dict(check=None, measure=None, expect="not reproducible", lacks="x",
          quick_expect="diverges"), "quick_expect"),
])
def test_a_claim_missing_its_reason_is_refused(kw, words):
    with pytest.raises(ValueError, match=words):
        _claim(**kw)


def test_checks_and_their_words():
    assert Near(28, abs=1).holds(29) and not Near(28, abs=1).holds(29.5)
    assert Near(100, rel=0.1).holds(91) and not Near(100, rel=0.1).holds(89)
    assert not Near(1).holds(math.nan) and Near(1).tolerance() == "exact"
    assert Near(0.92, rel=0.05, abs=0.01).tolerance() == "±0.01 or ±5%"
    assert Between(2).paper() == "≥ 2" and Between(high=6).paper() == "≤ 6"
    assert Between(0.5, 0.7).holds(0.6) and not Between(0.5, 0.7).holds(0.71)


def test_markdown_has_a_row_and_a_section_per_claim():
    claims = [_claim(), _claim(id="x.two", where="Figure 3", check=Between(2),
                               measure=lambda q: 1.5, expect="diverges", cause="buffers"),
              _claim(id="x.three", check=None, measure=None, expect="not reproducible",
                     lacks="no clock rate")]
    df = fidelity.measure(claims, quick=True)
    assert df["status"].tolist() == ["reproduced", "diverges", "not reproducible"]
    text = fidelity.markdown(df, "# Ledger")
    assert "| reproduced | 1 |" in text and "| diverges | 1 |" in text
    assert '[x.two](#xtwo) "about 28 clocks" | Figure 3 | ≥ 2 | 1.5 | bound | diverges |' in text
    assert "- Cause: buffers" in text and "- The document lacks: no clock rate" in text
    assert isinstance(df, pd.DataFrame) and len(text.split("### ")) == 4


def test_stored_measurements_are_judged_again_and_kept_apart_from_the_words(tmp_path):
    one, two = _claim(), _claim(id="x.two", measure=lambda q: Measured(31, "three more"),
                                expect="diverges", cause="the route byte")
    df = fidelity.measure([one, two])
    fidelity.write_measured(df, tmp_path / "m.csv")
    stored = fidelity.read_measured(tmp_path / "m.csv")
    assert list(stored.columns) == fidelity.MEASURED
    # A wider tolerance judges the stored 31 again; the words come from the claim.
    wider = _claim(id="x.two", check=Near(28, abs=3), measure=lambda q: 0, expect="reproduced",
                   setup="by eye")
    again = fidelity.merge([one, wider], stored)
    assert again["status"].tolist() == ["reproduced", "reproduced"]
    assert again["detail"].tolist() == ["", "three more"]
    assert again["setup"].tolist() == ["by hand", "by eye"]
    with pytest.raises(ValueError, match="no stored measurement for x.three"):
        fidelity.merge([one, _claim(id="x.three")], stored)


def test_a_family_claims_module_imports_first():
    # A fresh interpreter, as `python -c "import lockstep.bgl.fidelity"`: the family's module
    # imports the ledger's package, which must not need the family's CLAIMS yet.
    code = "import lockstep.bgl.fidelity as f; from lockstep import fidelity; " \
           "assert f.CLAIMS[0] in fidelity.claims('bgl')"
    subprocess.run([sys.executable, "-c", code], check=True)
