"""A single network on a machine whose cores another process shares: router-cycles per second
on one thread, on two (split with a barrier every cycle) and on every core (`run.threads = 0`,
which runs pieces on one thread when that is faster: host/backend/thread_choice.hpp), with the
cores to itself and beside a process spinning on one core. Prints figures; asserts nothing.

    PYTHONPATH=bindings python benchmarks/shared_cores.py [--repeats 3] [--no-hog]
"""
import argparse
import multiprocessing
import time

import lockstep as ls
from lockstep import bgl

NETWORKS = [
    ("Blue Gene/L 8x8x8 alltoall", bgl.midplane([8, 8, 8], **{"traffic.pattern": "alltoall",
                                                               "run.drain": 10**8}), 6000),
    ("vc 16x16 torus at 0.1", ls.Config().with_(**{"topology.kind": "torus",
                                                  "topology.radix": [16, 16],
                                                  "traffic.offered": 0.1}), 20000),
]


def spin() -> None:
    while True:
        pass


def rate(cfg: ls.Config, threads: int, cycles: int) -> float:
    sim = ls.Simulator(cfg.with_(**{"run.threads": threads}))
    sim.step(200)
    t0 = time.perf_counter()
    sim.step(cycles)
    routers = ls._core.network_size(cfg.to_dict())["routers"]
    return routers * cycles / (time.perf_counter() - t0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--no-hog", action="store_true", help="only with the cores to itself")
    args = ap.parse_args()
    for load in ["none"] + ([] if args.no_hog else ["a spinning process"]):
        hog = None
        if load != "none":
            hog = multiprocessing.Process(target=spin, daemon=True)
            hog.start()
        try:
            for name, cfg, cycles in NETWORKS:
                for threads in (1, 2, 0):
                    rates = [rate(cfg, threads, cycles) / 1e6 for _ in range(args.repeats)]
                    print(f"{load}: {name}, run.threads = {threads}: "
                          f"{' '.join(f'{r:.2f}' for r in rates)} M router-cycles/s", flush=True)
        finally:
            if hog:
                hog.terminate()


if __name__ == "__main__":
    main()
