"""The fidelity ledger: every claim measured, as a table, as its stored measurements
(docs/fidelity.csv) and as docs/fidelity.md.

The measurements are kept apart from the claims' words: docs/fidelity.csv holds, per claim, what
its full run measured, when and where; docs/fidelity.md is rendered from those and the claims
(quote, check, cause, setup from the code). So one claim can be measured again without the
others' runs (about 2.5 hours in all on 2 cores), and a reworded cause needs no run at all.
"""

from __future__ import annotations

import datetime
import platform
import time
from pathlib import Path
from typing import Iterable

import pandas as pd

from .claim import DOCUMENTS, NOT_REPRODUCIBLE, Claim, Measured

COLUMNS = ["id", "document", "where", "quote", "paper", "tolerance", "model", "unit", "status",
           "expect", "detail", "cause", "setup", "seconds", "date", "machine"]
# What a run gives; the rest of a row comes from its claim.
MEASURED = ["id", "model", "detail", "seconds", "date", "machine"]


def _row(c: Claim, m: Measured | None, seconds: float, date: str, machine: str,
         quick: bool) -> dict:
    status = c.judge(m.value) if m else NOT_REPRODUCIBLE
    return {"id": c.id, "document": c.document, "where": c.where, "quote": c.quote,
            "paper": c.check.paper() if c.check else "",
            "tolerance": c.check.tolerance() if c.check else "",
            "model": m.value if m else float("nan"), "unit": c.unit, "status": status,
            "expect": c.expected(quick), "detail": m.detail if m else "",
            "cause": c.lacks if status == NOT_REPRODUCIBLE else c.cause, "setup": c.setup,
            "seconds": seconds, "date": date, "machine": machine}


def measure(claims: Iterable[Claim], quick: bool = False) -> pd.DataFrame:
    """Runs every claim's measure; one row per claim (COLUMNS). ``model`` is the measured
    number (NaN when not reproducible), ``status`` what it shows, ``expect`` what the ledger
    last showed (for a quick run, the quick case's own where a claim gives one)."""
    machine = f"{platform.machine()}, {platform.node()}"
    rows = []
    for c in claims:
        start = time.perf_counter()
        m, _ = c.run(quick)
        rows.append(_row(c, m, round(time.perf_counter() - start, 2),
                         datetime.date.today().isoformat(), machine, quick))
    return pd.DataFrame(rows, columns=COLUMNS)


def read_measured(path: Path) -> pd.DataFrame:
    """The stored full-run measurements (MEASURED columns), empty where there are none yet."""
    if not path.exists():
        return pd.DataFrame(columns=MEASURED)
    return pd.read_csv(path, dtype={"detail": str, "date": str, "machine": str},
                       keep_default_na=False, na_values={"model": ["", "nan"]})


def write_measured(df: pd.DataFrame, path: Path) -> None:
    df[MEASURED].to_csv(path, index=False)


def merge(claims: Iterable[Claim], stored: pd.DataFrame) -> pd.DataFrame:
    """The ledger from stored measurements: each claim's words from its code, its measurement
    from ``stored`` and its status recomputed from that (so a changed check shows at once).
    A claim with no stored measurement is refused: measure it first."""
    by_id = stored.set_index("id")
    missing = [c.id for c in claims if c.id not in by_id.index]
    if missing:
        raise ValueError(f"no stored measurement for {', '.join(missing)}: measure them "
                         "(scripts/fidelity.py --missing)")
    rows = []
    for c in claims:
        s = by_id.loc[c.id]
        m = None if c.check is None else Measured(float(s["model"]), s["detail"])
        rows.append(_row(c, m, float(s["seconds"]), s["date"], s["machine"], False))
    return pd.DataFrame(rows, columns=COLUMNS)


def _model(value: float) -> str:
    return "" if value != value else f"{value:.4g}"  # NaN: nothing measured


def _cell(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def markdown(df: pd.DataFrame, header: str) -> str:
    """docs/fidelity.md: a section per document, a row per claim, then each row's cause or what
    the document lacks and how (and when) it is measured."""
    out = [header.rstrip(), ""]
    counts = df["status"].value_counts()
    out += ["| status | claims |", "|---|---|"]
    out += [f"| {s} | {counts.get(s, 0)} |"
            for s in ("reproduced", "diverges", "not reproducible")]
    for doc, title in DOCUMENTS.items():
        rows = df[df["document"] == doc]
        if rows.empty:
            continue
        out += ["", f"## {doc}: {title}", "",
                "| claim | where | paper | model | tolerance | status |",
                "|---|---|---|---|---|---|"]
        for r in rows.itertuples():
            unit = f" {r.unit}" if r.unit else ""
            model = _model(r.model)
            out.append(f"| [{r.id}](#{r.id.replace('.', '')}) \"{_cell(r.quote)}\" | "
                       f"{_cell(r.where)} | {_cell(r.paper)}{unit if r.paper else ''} | "
                       f"{model}{unit if model else ''} | {r.tolerance} | {r.status} |")
        out.append("")
        for r in rows.itertuples():
            out += [f"### {r.id}", ""]
            if r.detail:
                out.append(f"- Measured: {_cell(r.detail)}")
            if r.cause:
                label = "The document lacks" if r.status == NOT_REPRODUCIBLE else "Cause"
                out.append(f"- {label}: {_cell(r.cause)}")
            out += [f"- How: {_cell(r.setup)} ({r.seconds:g} s, {r.date})", ""]
    return "\n".join(out).rstrip() + "\n"
