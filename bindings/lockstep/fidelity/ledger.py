"""The fidelity ledger: every claim measured, as a table and as docs/fidelity.md."""

from __future__ import annotations

import time
from typing import Iterable

import pandas as pd

from .claim import DOCUMENTS, NOT_REPRODUCIBLE, Claim

COLUMNS = ["id", "document", "where", "quote", "paper", "tolerance", "model", "unit", "status",
           "expect", "detail", "cause", "setup", "seconds"]


def _model(value: float) -> str:
    return "" if value != value else f"{value:.4g}"  # NaN: nothing measured


def measure(claims: Iterable[Claim], quick: bool = False) -> pd.DataFrame:
    """Runs every claim's measure; one row per claim (COLUMNS). ``model`` is the measured
    number (NaN when not reproducible), ``status`` what it shows, ``expect`` what the ledger
    last showed (for a quick run, the quick case's own where a claim gives one)."""
    rows = []
    for c in claims:
        start = time.perf_counter()
        m, status = c.run(quick)
        rows.append({
            "id": c.id, "document": c.document, "where": c.where, "quote": c.quote,
            "paper": c.check.paper() if c.check else "",
            "tolerance": c.check.tolerance() if c.check else "",
            "model": m.value if m else float("nan"), "unit": c.unit, "status": status,
            "expect": c.expected(quick), "detail": m.detail if m else "",
            "cause": c.lacks if status == NOT_REPRODUCIBLE else c.cause, "setup": c.setup,
            "seconds": round(time.perf_counter() - start, 2)})
    return pd.DataFrame(rows, columns=COLUMNS)


def _cell(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def markdown(df: pd.DataFrame, header: str) -> str:
    """docs/fidelity.md: a section per document, a row per claim, then each row's cause or what
    the document lacks and how it is measured."""
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
            out += [f"- How: {_cell(r.setup)} ({r.seconds:g} s)", ""]
    return "\n".join(out).rstrip() + "\n"
