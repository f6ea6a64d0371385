"""The first cycle at which two runs of one network differ, and in which state: two Simulators of
the same configuration (on two backends, two CPU thread counts, debug mode's schedule against the
production one, or with keys set differently for the second), every named state array compared
every --every cycles, then cycle by cycle from the last agreeing check.

    PYTHONPATH=bindings python scripts/first_divergence.py configs/bgl_8x8x8.toml --b cuda
    PYTHONPATH=bindings python scripts/first_divergence.py configs/t3e_64.toml \\
        --threads-b 2 --set traffic.offered=0.6 --cycles 500
    PYTHONPATH=bindings python scripts/first_divergence.py configs/default.toml \\
        --set-b run.fuse_phases=false
    PYTHONPATH=bindings python scripts/first_divergence.py "fingerprints:bgl_gather (large)" \\
        --b cuda --cycles 10000 --every 500

CONFIG is a TOML file, or fingerprints:NAME for one of scripts/state_fingerprints.py's cases
(the first instance of its batch: seed 7), as its comparisons name them.

This is how the Blue Gene/L family's CUDA fault of 2026-11-25 was found (docs/validation.md).
Exit status 0: identical for --cycles cycles; 1: they differ (the cycle, the arrays, the first
indices and values are printed); 2: bad input, or a backend that is not on this machine.
"""
import argparse
import pathlib
import sys

import numpy as np

import lockstep as ls
from lockstep.cli import UsageError, parse_sets
from lockstep.config import load_config


def load(spec: str) -> ls.Config:
    """A TOML file, or fingerprints:NAME (state_fingerprints.py's case, large ones too)."""
    if not spec.startswith("fingerprints:"):
        return load_config(spec)
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
    import state_fingerprints as sf

    name = spec.removeprefix("fingerprints:")
    known = sf.cases()
    known |= sf.large(known)
    if name not in known:
        raise ValueError(f"{spec}: no such case (known: {', '.join(sorted(known))})")
    return known[name].with_(seed=7)


def differing(a: ls.Simulator, b: ls.Simulator) -> list[str]:
    names = sorted(set(a.state_names()) | set(b.state_names()))
    return [n for n in names if n not in a.state_names() or n not in b.state_names()
            or not np.array_equal(a.state(n), b.state(n))]


def report(a: ls.Simulator, b: ls.Simulator, names: list[str], show: int) -> None:
    for n in names:
        if n not in a.state_names() or n not in b.state_names():
            print(f"  {n}: only in {'A' if n in a.state_names() else 'B'}")
            continue
        x, y = a.state(n), b.state(n)
        if x.shape != y.shape:
            print(f"  {n}: shape {x.shape} against {y.shape}")
            continue
        at = np.argwhere(x != y)
        print(f"  {n} {list(x.shape)}: {len(at)} entries differ")
        for i in at[:show]:
            k = tuple(int(j) for j in i)
            print(f"    {list(k)}: A {x[k]}, B {y[k]}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("config", help="a TOML configuration (configs/*.toml), or fingerprints:NAME")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                    help="a key for both runs (repeatable)")
    ap.add_argument("--set-b", action="append", default=[], metavar="KEY=VALUE",
                    help="a key for run B only (repeatable)")
    ap.add_argument("--a", default="cpu", help="run A's backend (default cpu)")
    ap.add_argument("--b", default="cpu", help="run B's backend (default cpu)")
    ap.add_argument("--threads-a", type=int, default=1, help="run A's CPU threads (default 1)")
    ap.add_argument("--threads-b", type=int, default=1, help="run B's CPU threads (default 1)")
    ap.add_argument("--debug-b", action="store_true",
                    help="run B in debug mode (invariants checked, one phase at a time)")
    ap.add_argument("--cycles", type=int, default=2000, help="cycles to compare (default 2000)")
    ap.add_argument("--every", type=int, default=1,
                    help="cycles between full comparisons before narrowing down (default 1)")
    ap.add_argument("--show", type=int, default=5, help="differing entries shown per array")
    args = ap.parse_args()
    try:
        if args.cycles < 1 or args.every < 1:
            raise ValueError(f"--cycles {args.cycles}, --every {args.every}: allowed counts >= 1")
        base = load(args.config).with_(**parse_sets(args.set))
        cfg_a = base.with_(threads=args.threads_a, debug=False)
        cfg_b = base.with_(threads=args.threads_b, debug=args.debug_b,
                           **parse_sets(args.set_b, "--set-b"))
        for backend in (args.a, args.b):
            if backend not in ls.available_backends():
                raise ValueError(f"backend '{backend}': not on this machine (here: "
                                 f"{', '.join(ls.available_backends())})")

        def start() -> tuple[ls.Simulator, ls.Simulator]:
            return ls.Simulator(cfg_a, backend=args.a), ls.Simulator(cfg_b, backend=args.b)

        a, b = start()
    except (ValueError, UsageError, OSError) as e:
        print(f"first_divergence: {e}", file=sys.stderr)
        return 2
    print(f"A: {args.a}, {args.threads_a} thread(s); B: {args.b}, {args.threads_b} thread(s)"
          f"{', debug' if args.debug_b else ''}{', ' + ' '.join(args.set_b) if args.set_b else ''}")
    if differing(a, b):
        print("they differ before the first cycle:")
        report(a, b, differing(a, b), args.show)
        return 1
    agreed = 0  # the last cycle both were seen equal
    while agreed < args.cycles:
        n = min(args.every, args.cycles - agreed)
        a.step(n)
        b.step(n)
        if not differing(a, b):
            agreed += n
            continue
        if n > 1:  # again from the start, to the last agreeing check, then a cycle at a time
            a, b = start()
            a.step(agreed)
            b.step(agreed)
            while not differing(a.step(1), b.step(1)):
                agreed += 1
        names = differing(a, b)
        print(f"identical after {agreed} cycles, not after {agreed + 1} (cycle {agreed}, counting "
              f"from 0, is the first that differs): {len(names)} arrays differ")
        report(a, b, names, args.show)
        return 1
    print(f"identical after {args.cycles} cycles: every named state array")
    return 0


if __name__ == "__main__":
    sys.exit(main())
