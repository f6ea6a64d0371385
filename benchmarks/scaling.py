"""Router-cycles per second as the work per cycle grows: batches of 8x8 meshes (the way sweeps
run) and single tori up to 64x64x64, each at about half its saturation load, on one backend.
Prints a table with the time per cycle and the memory the simulation holds (device memory from
nvidia-smi on CUDA, the process's resident growth on the CPU). Asserts nothing.

    PYTHONPATH=bindings python benchmarks/scaling.py [--backend cuda] [--cycles 2000] [--quick]
                                                 [--phased]
"""
import argparse
import os
import resource
import subprocess
import time

import lockstep as ls

# (name, kind, radix, offered, instances): offered as in `lockstep bench` (about half the knee).
CASES = [(f"{n} x 8x8 mesh", "mesh", [8, 8], 0.15, n) for n in (1, 32, 256, 1024, 4096)] + [
    ("8x8x8 torus", "torus", [8, 8, 8], 0.125, 1),
    ("16x16x16 torus", "torus", [16, 16, 16], 0.0625, 1),
    ("32x32x32 torus", "torus", [32, 32, 32], 0.03125, 1),
    ("64x64x64 torus", "torus", [64, 64, 64], 0.015625, 1),
]


def device_mb() -> float:
    """This process's device memory in MiB, as nvidia-smi reports it."""
    out = subprocess.run(["nvidia-smi", "--query-compute-apps=pid,used_memory",
                          "--format=csv,noheader,nounits"], capture_output=True, text=True).stdout
    return sum(float(m) for p, m in (row.split(",") for row in out.splitlines() if row.strip())
               if int(p) == os.getpid())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--backend", default="auto", choices=["auto", "cpu", "cuda"])
    ap.add_argument("--cycles", type=int, default=2000, help="timed cycles, after 1000")
    ap.add_argument("--threads", type=int, default=0, help="CPU threads, 0 for all")
    ap.add_argument("--quick", action="store_true", help="only cases of up to 32,768 routers")
    ap.add_argument("--phased", action="store_true",
                    help="one parallel step per phase (run.fuse_phases = false)")
    args = ap.parse_args()
    print(f"{'network':<18} {'routers':>8} {'router-cycles/s':>16} {'us/cycle':>9} {'MiB':>8}")
    for name, kind, radix, offered, n in CASES:
        routers = n * radix[0] * radix[1] * (radix[2] if len(radix) > 2 else 1)
        if args.quick and routers > 32768:
            continue
        cfg = ls.Config().with_(kind=kind, radix=radix, offered=offered, vcs=2, packet_size=1,
                                link_delay=2 if kind == "torus" else 1, threads=args.threads,
                                debug=False, fuse_phases=not args.phased)
        rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        sim = ls.Simulator([cfg.with_(seed=1 + i) for i in range(n)], backend=args.backend)
        sim.step(1000)
        t0 = time.perf_counter()
        sim.step(args.cycles)
        wall = time.perf_counter() - t0
        mb = (device_mb() if sim.backend == "cuda"
              else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024 - rss0)
        print(f"{name:<18} {routers:>8} {routers * args.cycles / wall:>16.3e} "
              f"{1e6 * wall / args.cycles:>9.1f} {mb:>8.0f}  {sim.backend}", flush=True)
        del sim


if __name__ == "__main__":
    main()
