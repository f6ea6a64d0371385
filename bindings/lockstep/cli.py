"""The ``lockstep`` command line: run one configuration, sweep offered load, benchmark.

Bad input ends with exit status 2 and one line on stderr, ``lockstep: error: ...``,
naming the key or option, the value given and what is allowed; never a traceback.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import socket
import sys
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path
from typing import Any

import pandas as pd

from . import _core
from .bench import networks
from .config import Config, load_config, parse_value, resolve_key
from .plot import latency_load
from .simulate import simulate
from .sweep import Point, plan, run_saved


class UsageError(Exception):
    """Bad command-line input: reported in one line with exit status 2."""


class _Parser(argparse.ArgumentParser):
    """argparse reports errors with a usage block; we want the one-line form instead."""

    def error(self, message: str):
        raise UsageError(message)


def main(argv: list[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        return args.command(args)
    except BrokenPipeError:  # stdout piped into `head` and closed: stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except (UsageError, ValueError, OSError) as e:
        return fail(e, 2)
    except RuntimeError as e:  # the core stopped a run (a watchdog, say): not bad input
        return fail(e, 1)
    except KeyboardInterrupt:
        return 130


def fail(error: Exception, status: int) -> int:
    message = " ".join(str(error).split())
    print(f"lockstep: error: {message}", file=sys.stderr)
    return status


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="lockstep", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(required=True, metavar="COMMAND")

    def with_config(p: argparse.ArgumentParser) -> None:
        p.add_argument("config", metavar="CONFIG", help="TOML configuration file")
        p.add_argument(
            "--set", action="append", default=[], metavar="KEY=VALUE",
            help="override a key (section.key or a unique key name); VALUE is read as TOML",
        )
        p.add_argument("--backend", help="auto, cpu or cuda (default: run.backend)")

    run = commands.add_parser("run", help="simulate one configuration, print the result as JSON")
    with_config(run)
    run.add_argument("--full", action="store_true", help="include the utilisation arrays")
    run.set_defaults(command=cmd_run)

    sweep = commands.add_parser("sweep", help="latency-load sweep to DIR/sweep.csv and a plot")
    with_config(sweep)
    sweep.add_argument(
        "--offered", required=True, metavar="START:STOP:STEP",
        help="offered loads, STOP included (or a comma-separated list)",
    )
    sweep.add_argument("--seeds", type=int, default=1, metavar="N", help="seeds run.seed .. +N-1")
    sweep.add_argument(
        "--vary", action="append", default=[], metavar="KEY=LIST",
        help="also sweep a key over a TOML list, e.g. --vary router.vcs=[2,4] (repeatable)",
    )
    sweep.add_argument("--out", metavar="DIR", help="default: results/<config stem>")
    sweep.add_argument(
        "--batch-size", type=int, metavar="N",
        help="points per batch, saved as each batch ends (default: 4 loads x seeds; on a GPU "
             "as many as make 16,384 routers)",
    )
    sweep.add_argument(
        "--scheduler", metavar="ADDRESS",
        help="run the batches on a Dask cluster, e.g. tcp://HOST:8786 (docs/cluster.md)",
    )
    sweep.set_defaults(command=cmd_sweep)

    bench = commands.add_parser("bench", help="router-cycles per second on standard networks")
    bench.add_argument("--threads", type=int, help="CPU threads, 0 for all (default: run.threads)")
    bench.add_argument("--cycles", type=int, help="cycles per network (default: by size)")
    bench.add_argument("--backend", default="auto", help="auto, cpu or cuda")
    bench.add_argument("--quick", action="store_true", help="10x fewer cycles")
    bench.set_defaults(command=cmd_bench)
    return parser


def parse_sets(items: list[str], option: str = "--set") -> dict[str, Any]:
    """`option`'s values (KEY=VALUE, the value read as TOML) as keys for Config.with_."""
    overrides: dict[str, Any] = {}
    for item in items:
        key, eq, value = item.partition("=")
        if not eq or not key:
            raise UsageError(f"{option} '{item}': allowed KEY=VALUE, e.g. {option} "
                             "traffic.offered=0.3")
        overrides[key.strip()] = parse_value(value.strip())
    return overrides


def configure(args: argparse.Namespace) -> Config:
    """The configuration file with ``--set`` and ``--backend`` applied."""
    if not Path(args.config).is_file():
        raise UsageError(f"config file '{args.config}' not found")
    cfg = load_config(args.config)
    # All overrides are applied together, then checked: rules that tie keys together (request-
    # reply needs more VCs, say) must not depend on the order of the --set options.
    overrides = parse_sets(args.set)
    if args.backend:
        overrides["run.backend"] = args.backend
    return cfg.with_(**overrides) if overrides else cfg


def jsonable(value: Any) -> Any:
    """numpy values as lists and numbers; NaN and infinities as null (strict JSON)."""
    if hasattr(value, "tolist"):
        value = value.tolist()
    if isinstance(value, dict):
        return {k: jsonable(v) for k, v in value.items()}
    if isinstance(value, list):
        return [jsonable(v) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def cmd_run(args: argparse.Namespace) -> int:
    result = simulate(configure(args))
    print(json.dumps(jsonable(result.to_dict(arrays=args.full)), indent=2))
    return 0


MAX_LOADS = 10_000  # loads one --offered range may give: a sweep, not a runaway list


def parse_offered(text: str) -> list[float]:
    """START:STOP:STEP (STOP included) or a comma-separated list of loads."""
    allowed = (
        f"--offered '{text}': allowed START:STOP:STEP with 0 <= START <= STOP and STEP > 0 "
        "(e.g. 0.05:0.5:0.05), or a comma-separated list of loads"
    )
    try:
        parts = [float(p) for p in text.split(":" if ":" in text else ",")]
    except ValueError:
        raise UsageError(allowed) from None
    if not all(math.isfinite(p) for p in parts):
        raise UsageError(allowed)
    if ":" not in text:
        return parts
    if len(parts) != 3 or parts[2] <= 0 or not 0 <= parts[0] <= parts[1]:
        raise UsageError(allowed)
    start, stop, step = parts
    count = math.floor((stop - start) / step + 1e-9) + 1
    if count > MAX_LOADS:
        raise UsageError(f"--offered '{text}': {count} loads, allowed at most {MAX_LOADS} "
                         "(a larger STEP)")
    return [round(start + i * step, 10) for i in range(count)]


def default_batch_size(cfg: Config, seeds: int) -> int:
    """Points per batch when --batch-size is not given. On the CPU a batch takes time in
    proportion to its routers, so small batches save often at no cost. On a GPU a cycle takes
    about as long for 16,384 routers as for 64 (docs/performance.md), so a batch takes as many
    points as fit in that."""
    backend = cfg.get("run.backend")
    if backend == "cpu" or (backend == "auto" and not _core.cuda_available()):
        return 4 * seeds
    return max(4 * seeds, 16384 // _routers(cfg))


def _routers(cfg: Config) -> int:
    return _core.network_size(cfg.to_dict())["routers"]


def connect(address: str) -> Any:
    """A Dask client of the scheduler at ``address``; bad or silent addresses are usage errors
    (checked before the client is made, so a failure prints one line and no teardown noise)."""
    allowed = "allowed the address of a running Dask scheduler, e.g. tcp://127.0.0.1:8786"
    try:
        from distributed import Client
        from distributed.comm.addressing import parse_address, parse_host_port
        from distributed.comm.registry import backends
    except ImportError:
        raise UsageError("--scheduler needs Dask: apt-get install python3-distributed") from None
    try:
        scheme, location = parse_address(address)
        host, port = parse_host_port(location)
        if scheme not in backends:
            raise ValueError(f"unknown scheme '{scheme}' (known: {', '.join(sorted(backends))})")
    except ValueError as e:
        raise UsageError(f"--scheduler '{address}': {e}: {allowed}") from None
    if scheme == "tcp":
        try:
            socket.create_connection((host, port), timeout=10).close()
        except OSError as e:
            raise UsageError(
                f"--scheduler '{address}': no scheduler answered ({e}): {allowed}") from None
    return Client(address, timeout="30s")


def cmd_sweep(args: argparse.Namespace) -> int:
    cfg = configure(args)
    loads = parse_offered(args.offered)
    if args.seeds < 1:
        raise UsageError(f"--seeds {args.seeds}: allowed a count >= 1")
    if args.batch_size is not None and args.batch_size < 1:
        raise UsageError(f"--batch-size {args.batch_size}: allowed a count >= 1")
    grid: dict[str, list] = {}
    for item in args.vary:
        key, eq, value = item.partition("=")
        values = parse_value(value.strip()) if eq else None
        if not key or not isinstance(values, list) or not values:
            raise UsageError(
                f"--vary '{item}': allowed KEY=[V1, V2, ...], e.g. --vary router.vcs=[2,4]")
        if resolve_key(key.strip()) in ("traffic.offered", "run.seed"):
            raise UsageError(f"--vary '{item}': allowed a key other than traffic.offered and "
                             "run.seed (sweep those with --offered and --seeds)")
        grid[key.strip()] = values
    points: list[Point] = plan(cfg, loads, args.seeds, **grid)
    client = connect(args.scheduler) if args.scheduler else None
    try:
        out = Path(args.out or Path("results") / Path(args.config).stem)
        out.mkdir(parents=True, exist_ok=True)
        table = out / "sweep.csv"
        ran = run_saved(points, cfg, table, out / "config.toml",
                        args.batch_size or default_batch_size(cfg, args.seeds), progress=True,
                        client=client)
    finally:
        if client is not None:
            client.close()
    ax = latency_load(pd.read_csv(table), title=Path(args.config).stem)
    figure = ax.get_figure(root=True)
    assert figure is not None, "latency_load draws on a figure of its own"
    figure.savefig(out / "latency_load.png", dpi=120, bbox_inches="tight")
    print(
        f"{ran} points run, {len(points) - ran} already in {table}; "
        f"plot in {out / 'latency_load.png'}"
    )
    return 0


BENCH_NETWORKS = networks()  # each family's, the families in their order
# Default work per network in router-cycles, so small networks run long enough to time.
BENCH_ROUTER_CYCLES = 20_000_000
BENCH_ROW = "{:<16} {:>8} {:>7} {:>8} {:>16} {:>7} {:>11} {:>10} {:>9}  {}"


def bench_one(keys: dict[str, Any], instances: int, cycles: int, threads: int,
              backend: str) -> dict[str, Any]:
    """Time one network in a fresh process, so peak memory is its own; ``grown_mb`` is the
    part of it above the interpreter's own footprint at the start."""
    start_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    cfg = Config().with_(**keys)
    seed = cfg.get("run.seed")
    batch = [cfg.with_(seed=seed + i).to_dict() for i in range(instances)]
    result = _core.bench(batch, cycles, threads, backend)
    return {**result, "grown_mb": result["peak_rss_mb"] - start_mb}


def cmd_bench(args: argparse.Namespace) -> int:
    if args.cycles is not None and args.cycles < 1:
        raise UsageError(f"--cycles {args.cycles}: allowed a count >= 1")
    if args.threads is not None and args.threads < 0:
        raise UsageError(f"--threads {args.threads}: allowed a count >= 1, or 0 for all cores")
    budget = BENCH_ROUTER_CYCLES // (10 if args.quick else 1)
    context = get_context("spawn")
    for i, (name, keys, instances) in enumerate(BENCH_NETWORKS):
        routers = instances * _routers(Config().with_(**keys))
        cycles = args.cycles or max(100, budget // routers)
        offered = keys["offered"]
        with ProcessPoolExecutor(1, mp_context=context) as pool:
            r = pool.submit(bench_one, keys, instances, cycles,
                            -1 if args.threads is None else args.threads, args.backend).result()
        if i == 0:  # after the first run, so bad input gives one error line and no table
            print(BENCH_ROW.format("network", "routers", "load", "cycles", "router-cycles/s",
                                   "wall s", "peak RSS MB", "sim MB", "state MB", "backend"))
        print(BENCH_ROW.format(name, r["routers"], f"{offered:.4g}", r["cycles"],
                               f"{r['router_cycles_per_s']:,.0f}", f"{r['wall_s']:.2f}",
                               f"{r['peak_rss_mb']:.1f}", f"{r['grown_mb']:.1f}",
                               f"{r['state_mb']:.1f}", r["backend"]),
              flush=True)
    print("peak RSS: the whole process, Python included; sim MB: its growth for the network; "
          "state MB: the arrays the engine allocated (on a GPU, device memory)")
    return 0
