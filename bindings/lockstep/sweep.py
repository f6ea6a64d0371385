"""Parameter sweeps as batches, and the saturation throughput search built on them.

A sweep point is one configuration. Points that agree on every key that must be equal
within a batch (all but traffic.* and run.seed) run together as instances of one
``_core.run_batch`` call, so a 30-point latency-load curve is one batch, not 30 runs.
"""

from __future__ import annotations

import collections.abc
import itertools
import numbers
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence, TypeGuard

import numpy as np
import pandas as pd
from tqdm import tqdm

from . import _core
from .config import Config, ConfigLike, _schema, as_config, resolve_key, short_name
from .sweep_log import CsvLog, check_resumable, locked

# Result columns in the order the DataFrame shows them, after the swept ones; fields the
# core adds later follow them.
RESULT_COLUMNS = [
    "offered", "offered_measured", "accepted", "accepted_min", "latency_mean", "latency_p50",
    "latency_p99", "latency_max", "network_latency_mean", "hops_mean", "packets", "saturated",
    "saturation_reason", "cycles", "wall_s", "backend", "schedule", "link_util_mean",
    "link_util_max",
]
# Constant configuration values added to every row so a saved table says what it measured:
# those the row's family reads (labels()).
LABEL_KEYS = {
    "family": "router.family", "topology": "topology.kind", "radix": "topology.radix",
    "routing": "router.routing", "vcs": "router.vcs", "packet_size": "traffic.packet_size",
    "pattern": "traffic.pattern",
}
# Columns of text or True/False: a saved table's other result cells must be numbers (the
# core's family results all are), which a resumed table is checked for.
CELL_KINDS = {"saturated": "bool", "warmup_converged": "bool", "saturation_reason": "text",
              "backend": "text", "schedule": "text", **{column: "text" for column in LABEL_KEYS}}
# Topology kinds whose size is not topology.radix (hypercube: dimension; random_regular:
# nodes; graph: its edges).
GRAPH_KINDS = ("hypercube", "random_regular", "graph")


@dataclass
class Point:
    """One sweep point: its swept values by column name, and its full configuration."""

    params: dict[str, Any]
    config: Config


def cell(value: Any) -> Any:
    """A config value as a table cell: lists become "8x8" strings, numpy scalars Python."""
    if hasattr(value, "tolist"):
        value = value.tolist()
    if isinstance(value, (list, tuple)):
        return "x".join(str(v) for v in value)
    return value


def is_int(x: Any) -> TypeGuard[int]:
    return isinstance(x, numbers.Integral) and not isinstance(x, bool)


def value_list(name: str, values: Any, allowed: str) -> list:
    """A sweep axis as a list: refuses a bare value, a string (iterated, it would sweep its
    characters) and an empty list, naming the argument and what is allowed."""
    if isinstance(values, (str, bytes)) or not isinstance(values, collections.abc.Iterable):
        raise ValueError(f"{name} = {values!r}: allowed {allowed}")
    out = list(values)
    if not out:
        raise ValueError(f"{name} = {values!r}: allowed {allowed}, not an empty one")
    return out


def seed_list(cfg: Config, seeds: int | Sequence[int] | None) -> list[int]:
    """Seeds of a sweep: the config's own, N seeds counting up from it, or a list."""
    base = cfg.get("run.seed")
    allowed = "a count >= 1 or a list of integer seeds"
    if seeds is None:
        return [base]
    if is_int(seeds):
        if seeds < 1:
            raise ValueError(f"seeds = {seeds}: allowed {allowed}")
        return list(range(base, base + int(seeds)))
    out = value_list("seeds", seeds, allowed)
    if not all(is_int(s) for s in out):
        raise ValueError(f"seeds = {seeds!r}: allowed {allowed}")
    return [int(s) for s in out]


def plan(
    cfg: ConfigLike | None,
    offered: Iterable[float] | None = None,
    seeds: int | Sequence[int] | None = None,
    **param_grid: Sequence[Any],
) -> list[Point]:
    """The points of a sweep in table order: grid keys outermost, then offered, then seed.

    Every point's configuration is validated here, before anything runs.
    """
    base = as_config(cfg)
    axes: dict[str, tuple[str, list]] = {}  # column -> (full key, values)
    for name, values in param_grid.items():
        key = resolve_key(name)
        if key in ("traffic.offered", "run.seed"):
            raise ValueError(f"sweep over {key}: pass it as offered= or seeds=, not {name}=")
        values = value_list(name, values, f"a list of values of {key}")
        if _schema()[key]["type"].endswith("_list") and not all(
            isinstance(v, (list, tuple)) for v in values
        ):
            raise ValueError(
                f"sweep over {key} needs a list of lists, e.g. {short_name(key)}=[[4, 4], [8, 8]]"
            )
        axes[short_name(key)] = (key, values)
    offered_values = ([base.get("traffic.offered")] if offered is None else
                      value_list("offered", offered, "a list of loads (flits/node/cycle)"))
    axes["offered"] = ("traffic.offered", offered_values)
    axes["seed"] = ("run.seed", seed_list(base, seeds))

    points = []
    for combo in itertools.product(*(values for _, values in axes.values())):
        config = base.with_(**{key: v for (key, _), v in zip(axes.values(), combo)})
        params = {col: cell(config.get(key)) for col, (key, _) in axes.items()}
        points.append(Point(params, config))
    return points


def batch_key(config: Config) -> tuple:
    """The values that must be equal within one batch: the non-per-instance keys, and whether
    the traffic is a finite workload (measured as a whole, never beside open-ended traffic)."""
    return tuple(
        (key, repr(config.get(key))) for key, e in _schema().items() if not e["per_instance"]
    ) + (("finite_workload", _core.finite_workload(config.to_dict())),)


def row(point: Point, fields: dict[str, Any]) -> dict[str, Any]:
    """One table row: swept values, scalar results, then the labelling config values.

    ``offered`` is the configured load, the point's identity; the core's own ``offered``
    (flits actually created per node per cycle in the window) becomes ``offered_measured``.
    """
    out = dict(point.params)
    scalars = {k: cell(v) for k, v in fields.items() if not isinstance(v, np.ndarray)}
    if "offered" in scalars:
        scalars["offered_measured"] = scalars.pop("offered")
    for col in [c for c in RESULT_COLUMNS if c in scalars] + list(scalars):
        out.setdefault(col, scalars[col])
    for col, value in labels(point.config).items():
        out.setdefault(col, value)
    return out


def labels(config: Config) -> dict[str, Any]:
    """The LABEL_KEYS columns that describe ``config``: not a key only another router family
    reads (the T3E has no router.vcs), nor topology.radix for the graph kinds."""
    family, schema = config.get("router.family"), _schema()
    return {
        col: cell(config.get(key)) for col, key in LABEL_KEYS.items()
        if schema[key]["family"] in ("", family)
        and not (key == "topology.radix" and config.get("topology.kind") in GRAPH_KINDS)
    }


def batches(points: Sequence[Point], batch_size: int, min_batches: int = 1,
            memory: float | None = None) -> list[list[int]]:
    """Point indices grouped into batches of compatible configurations, in order.

    Each group of compatible points is cut into consecutive batches of ``batch_size`` points
    (the last may be smaller), or of fewer where that is needed for the group to make at
    least ``min_batches`` of them, or for a batch's state to take at most ``memory`` bytes
    (default: half of what the engine allows on this machine, so large networks run in
    smaller batches rather than fail). Consecutive points have neighbouring loads, and a
    batch runs until its slowest point has drained, so batches of similar points waste
    least; a cluster asks for several batches per worker thread and balances them. Points
    with ``run.warmup_auto`` run one per batch: the engine ends a batch's warm-up when all
    its instances have settled, and a point's row must not depend on its batch.
    """
    if batch_size < 1:
        raise ValueError(f"batch_size = {batch_size}: allowed a count >= 1")
    groups: dict[tuple, list[int]] = {}
    for i, p in enumerate(points):
        groups.setdefault(batch_key(p.config), []).append(i)
    if memory is None:
        memory = 0.5 * _core.state_memory_limit(_core.cuda_available())
    out = []
    for indices in groups.values():
        size = max(1, min(batch_size, len(indices) // max(1, min_batches)))
        per_point = _core.network_size(points[indices[0]].config.to_dict())["state_bytes"]
        size = max(1, min(size, int(memory // max(1, per_point))))
        if points[indices[0]].config.get("run.warmup_auto"):
            size = 1
        out += [indices[start : start + size] for start in range(0, len(indices), size)]
    return out


def run_points(
    points: Sequence[Point],
    batch_size: int = 64,
    progress: bool = False,
    on_point: Callable[[dict[str, Any]], None] | None = None,
    client: Any = None,
) -> list[dict[str, Any]]:
    """Run points in batches of compatible configurations; rows in the order given.

    ``on_point(row)`` is called as each batch finishes, once per point, so a caller can
    save partial results; ``wall_s`` of a row is the wall time of its whole batch. With a
    Dask ``client`` the batches, several per worker thread, run as tasks on its cluster
    (`lockstep.cluster`), and arrive in whatever order they finish there.
    """
    if client is None:
        chunks = batches(points, batch_size)
        results: Iterable[tuple[int, list[dict[str, Any]]]] = (
            (k, _core.run_batch([points[i].config.to_dict() for i in chunk]))
            for k, chunk in enumerate(chunks)
        )
    else:
        from . import cluster

        chunks = batches(points, batch_size, cluster.min_batches(client))
        results = cluster.run_batches(
            client, [[points[i].config.to_dict() for i in chunk] for chunk in chunks]
        )
    rows: list[dict[str, Any]] = [{}] * len(points)  # each filled as its batch returns
    with tqdm(total=len(points), disable=not progress or not points, file=sys.stderr,
              unit="pt") as bar:
        for k, fields_list in results:
            for i, fields in zip(chunks[k], fields_list):
                rows[i] = row(points[i], fields)
                if on_point is not None:
                    on_point(rows[i])
            bar.update(len(chunks[k]))
    return rows


def sweep(
    cfg: ConfigLike | None,
    offered: Iterable[float] | None = None,
    seeds: int | Sequence[int] | None = None,
    progress: bool = False,
    on_point: Callable[[dict[str, Any]], None] | None = None,
    batch_size: int = 64,
    client: Any = None,
    save: str | os.PathLike | None = None,
    **param_grid: Sequence[Any],
) -> pd.DataFrame:
    """Run the cartesian product of offered loads, seeds and ``param_grid`` values.

    ``param_grid`` keys are config keys as in `Config.with_`, each with a list of values:
    ``sweep(cfg, offered=np.arange(0.05, 0.5, 0.05), seeds=3, vcs=[2, 4])``. ``seeds`` is
    a list, or a count N meaning run.seed .. run.seed+N-1. Returns one row per point:
    the swept values (short key names, lists as "8x8"), the result fields, and labelling
    columns family, topology, radix, routing, vcs, packet_size, pattern where the family
    reads them (routing and vcs: the vc family; radix: not the graph kinds). With ``client``, a
    ``dask.distributed.Client``, the batches run on its cluster's workers and the table is
    the same as a local sweep's (``wall_s`` and ``backend`` aside: they say where it ran).

    With ``save``, a CSV path, rows are appended to it as their batches finish (the base
    configuration beside it, as .toml) and the points already there are not run again: a
    sweep stopped by Ctrl-C or a restarted kernel resumes, and the table returned is the
    file's (as the command line's sweep.csv). A second sweep of the same file while this one
    runs is refused, as is a file edited into rows that no sweep writes (the line named).
    """
    points = plan(cfg, offered, seeds, **param_grid)
    if save is None:
        return pd.DataFrame(run_points(points, batch_size, progress, on_point, client))
    path = Path(save)
    run_saved(points, as_config(cfg), path, path.with_suffix(".toml"), batch_size, progress,
              on_point, client)
    return pd.read_csv(path)


def run_saved(
    points: Sequence[Point],
    base: Config,
    path: Path,
    saved_config: Path,
    batch_size: int = 64,
    progress: bool = False,
    on_point: Callable[[dict[str, Any]], None] | None = None,
    client: Any = None,
) -> int:
    """Run the points not yet in the CSV table ``path``, appending each row as its batch
    finishes (`sweep(save=...)`, the command line's sweep.csv); ``saved_config`` keeps ``base``
    so that another configuration's sweep is refused, and ``path``.lock refuses a second sweep
    of the table while this one runs. Returns how many points ran."""
    with locked(path):
        check_resumable(saved_config, base)
        log = CsvLog(path, list(points[0].params), RESULT_COLUMNS, CELL_KINDS)

        def keep(r: dict[str, Any]) -> None:
            log.append(r)
            if on_point is not None:
                on_point(r)

        todo = log.todo(points)
        run_points(todo, batch_size, progress, keep, client)
    return len(todo)


def saturation_throughput(
    cfg: ConfigLike | None,
    lo: float = 0.0,
    hi: float | None = None,
    tol: float = 0.01,
    seeds: int | Sequence[int] = 1,
    points: int = 8,
    client: Any = None,
) -> float:
    """The largest offered load (flits/node/cycle) at which the network is not saturated.

    A search over [lo, hi] (``hi`` by default the highest load the configuration allows: one
    packet per node per cycle, 1.0 for 1-flit packets) that narrows the bracket ``points`` + 1
    times per round by running ``points`` evenly spaced loads as one batch (the first round
    includes ``hi`` itself). A load counts as saturated when the core flags any of its seeds
    saturated; the bracket moves to the first saturated load and the highest unsaturated load
    below it. Returns the lower end once the bracket is narrower than ``tol``, so the true knee
    lies within ``tol`` above the value returned: ``lo`` if every load tried saturated,
    ``hi`` if none did. With a Dask ``client`` each round's loads run on its cluster.
    """
    base = as_config(cfg)
    if hi is None:
        hi = _core.offered_limit(base.to_dict())
    if not 0 <= lo < hi or tol <= 0 or points < 1:
        raise ValueError(
            f"saturation_throughput(lo={lo}, hi={hi}, tol={tol}, points={points}): "
            "allowed 0 <= lo < hi, tol > 0, points >= 1"
        )
    first = True
    while hi - lo > tol or first:
        step = (hi - lo) / (points if first else points + 1)
        loads = [round(lo + step * i, 12) for i in range(1, points + 1)]
        rows = run_points(plan(base, loads, seeds), client=client)
        saturated = {load: False for load in loads}
        for r in rows:
            saturated[r["offered"]] |= bool(r["saturated"])
        bad = [load for load in loads if saturated[load]]
        if first and not bad:
            return hi
        first = False
        hi = min(bad, default=hi)
        lo = max([load for load in loads if load < hi and not saturated[load]], default=lo)
    return lo
