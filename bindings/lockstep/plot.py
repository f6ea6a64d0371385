"""Plots of sweep tables (the DataFrames `lockstep.sweep` returns or sweep.csv files)."""

from __future__ import annotations

from typing import Any

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from .families import DEFAULT, packages
from .sweep import LABEL_KEYS


def line_columns(df: pd.DataFrame) -> list[str]:
    """Parameter columns that vary in ``df``: one curve per combination of their values.

    The parameters of a sweep table are its swept columns (those before ``offered``) and
    its labelling columns; a column that splits the rows exactly as an earlier one does
    (``topology`` beside a swept ``kind``) adds nothing and is skipped.
    """
    swept = list(df.columns[: df.columns.get_loc("offered")])
    chosen: list[str] = []
    for col in dict.fromkeys(c for c in swept + list(LABEL_KEYS) if c in df):
        n = df[col].nunique()
        if n > 1 and not any(df.groupby([c, col]).ngroups == df[c].nunique() == n for c in chosen):
            chosen.append(col)
    return chosen


def latency_load(
    df: pd.DataFrame,
    hue: str | list[str] | None = None,
    ax: plt.Axes | None = None,
    y: str = "latency_mean",
    ymax: float | None = None,
    title: str | None = None,
    **line_kw: Any,
) -> plt.Axes:
    """Latency against offered load, one curve per value of ``hue``.

    Without ``hue`` there is one curve per combination of the parameters that vary in
    the table. Rows that share a curve and a load (seeds, and any parameter not in
    ``hue``) are averaged; a point is drawn hollow when any seed saturated, and
    saturated latencies above the y limit sit on the top edge so the knee stays visible.
    The y axis stops at ``ymax``, by default 4x the lowest latency in the table (about
    4x zero-load latency), where a curve has clearly gone past its knee.
    """
    if ax is None:
        ax = plt.figure(figsize=(6.4, 4.2)).add_subplot()
    groups = [hue] if isinstance(hue, str) else list(hue or line_columns(df))
    by = [*groups, "offered"]
    curves = df.groupby(by).agg(y=(y, "mean"), saturated=("saturated", "any")).reset_index()
    if ymax is None:
        calm = curves.loc[~curves["saturated"], "y"]
        ymax = 4 * (calm.min() if len(calm) else curves["y"].min())
    top = ymax if np.isfinite(ymax) and ymax > 0 else None
    by_curve = groups[0] if len(groups) == 1 else groups  # a list of one gives 1-tuples later
    for key, curve in (curves.groupby(by_curve, sort=False) if groups else [((), curves)]):
        key = key if isinstance(key, tuple) else (key,)
        label = ", ".join(f"{g}={v}" for g, v in zip(groups, key)) or None
        ok, sat = curve[~curve["saturated"]], curve[curve["saturated"]]
        (line,) = ax.plot(ok["offered"], ok["y"], marker="o", label=label, **line_kw)
        ax.plot(
            sat["offered"], sat["y"].clip(upper=top and 0.97 * top), linestyle="none", marker="o",
            markerfacecolor="none", color=line.get_color(),
        )
    ax.set_ylim(0, top)
    families = df["family"].unique() if "family" in df else [DEFAULT]
    units = {f: p.OFFERED_UNIT for f, p in packages().items()}  # what traffic.offered counts
    unit = units.get(families[0], "") if len(families) == 1 else "each family's unit"
    ax.set_xlabel(f"offered load ({unit})" if unit else "offered load")
    ax.set_ylabel("average packet latency (cycles)" if y == "latency_mean" else y.replace("_", " "))
    if title:
        ax.set_title(title)
    ax.annotate("hollow: saturated", (0.99, 0.01), xycoords="axes fraction", ha="right",
                va="bottom", fontsize="small", color="gray")
    if groups:
        ax.legend(fontsize="small")
    ax.grid(alpha=0.3)
    return ax
