"""How much of a cycle's work compaction could pack (issue 40, step 4), measured on the model's
state, which is the same on every backend: for each family's reference network (the `lockstep
bench` rows) and the goals' large torus, the share of elements whose state a cycle changes (an
element whose cycle changes nothing is what compacting whole elements would skip: 1 / share bounds
what it can gain in active lanes), and for the `vc` family the share of routers and of input VCs
with work in each stage (what stage-by-stage lists over routers, or over VCs, would hold). Prints
figures; asserts nothing.

    PYTHONPATH=bindings python benchmarks/work_fractions.py [--cycles 200] [--large]

An element's state is every array of the family's state whose first dimension is the element
(routers, or a METRO network's routers and endpoints), but for the tables set at build time; a
belt row counts for the element that reads it, so a router whose neighbour sent it a flit counts
as changed, a slight overcount of the work that compaction must keep; so does an array that
every element changes every cycle (a free-running timer), which the output names.
"""
import argparse
import time

import numpy as np

import lockstep as ls
from lockstep.cli import BENCH_NETWORKS

LARGE = ("64x64x64 torus", dict(BENCH_NETWORKS[0][1], kind="torus", radix=[64, 64, 64],
                                 offered=0.015625, link_delay=2))
STATIC = {"peer", "port_node", "link_delay"}  # the topology, set at build time


def networks(large: bool) -> list[tuple[str, dict]]:
    rows = [(name, keys) for name, keys, n in BENCH_NETWORKS
            if n == 1 and "32x32x32" not in name]
    # Blue Gene/L's Figure 6 workload (the paper's 32x32x32, whose run is issue 40's large goal)
    rows += [(f"{name}, alltoall", dict(keys, pattern="alltoall")) for name, keys in rows
             if keys.get("router.family") == "bgl"]
    return rows + [LARGE] if large else rows


def snapshot(sim: ls.Simulator) -> dict[str, np.ndarray]:
    return {k: sim.state(k).copy() for k in sim.state_names() if k not in STATIC}


def changed(before: dict, after: dict, arrays: dict[str, float]) -> dict[int, np.ndarray]:
    """For each leading dimension (an element kind), which elements' state changed; adds each
    array's share of elements changed to `arrays`."""
    out: dict[int, np.ndarray] = {}
    for k, a in before.items():
        b = after[k]
        if a.ndim == 0 or a.shape != b.shape:
            continue
        d = (a != b).reshape(a.shape[0], -1).any(axis=1)
        arrays[k] = arrays.get(k, 0.0) + d.mean()
        out[a.shape[0]] = out.get(a.shape[0], np.zeros(a.shape[0], bool)) | d
    return out


def vc_stages(sim: ls.Simulator) -> dict[str, np.ndarray]:
    """The `vc` stages' work at the start of a cycle, per router and per input VC."""
    occ = sim.state("occupancy")
    occ = occ.reshape(occ.shape[0], -1)
    st = sim.state("ivc_state").reshape(occ.shape)
    slots = sim.state("flit_belt")
    arriving = slots[:, sim.cycle % slots.shape[1], :] != 0
    return {"route": (st == 0) & (occ > 0), "vc_alloc": st == 1, "sw_alloc": (st == 2) & (occ > 0),
            "arrive": arriving}


def measure(name: str, keys: dict, cycles: int) -> None:
    sim = ls.Simulator([ls.Config().with_(**keys)], backend="cpu")
    start = time.perf_counter()
    warm = 3000 if sim.state_bytes < 64 << 20 else 600
    sim.step(warm)
    family = keys.get("router.family", "vc")
    acted: dict[int, float] = {}
    warps: dict[int, float] = {}
    stages: dict[str, list[float]] = {}
    arrays: dict[str, float] = {}
    before = snapshot(sim)
    for _ in range(cycles):
        if family == "vc":
            for k, m in vc_stages(sim).items():
                s = stages.setdefault(k, [0.0, 0.0])
                s[0] += m.any(axis=1).mean()
                s[1] += m.mean()
        sim.step(1)
        after = snapshot(sim)
        for n, d in changed(before, after, arrays).items():
            acted[n] = acted.get(n, 0.0) + d.mean()
            w = d[: n - n % 32].reshape(-1, 32) if n >= 32 else d.reshape(1, -1)
            warps[n] = warps.get(n, 0.0) + w.any(axis=1).mean()
        before = after
    kinds = ", ".join(f"{n} a kind: {acted[n] / cycles:.3f} of them changed, in "
                      f"{warps[n] / cycles:.3f} of warps of 32" for n in sorted(acted))
    print(f"{name} ({family}, offered {keys.get('offered')}, {warm} cycles' warm-up, {cycles} "
          f"measured, {time.perf_counter() - start:.0f} s): {kinds}", flush=True)
    every = [k for k, x in arrays.items() if x / cycles >= 0.99]
    if every:
        print(f"    arrays changed in 99% of elements or more: {', '.join(every)}", flush=True)
    for k, (routers, vcs) in stages.items():
        print(f"    {k}: {routers / cycles:.3f} of routers, {vcs / cycles:.3f} of input VCs"
              if k != "arrive" else
              f"    {k}: {routers / cycles:.3f} of routers, {vcs / cycles:.3f} of input ports",
              flush=True)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--cycles", type=int, default=200, help="cycles measured after the warm-up")
    p.add_argument("--large", action="store_true", help="the 64x64x64 torus too (~2 minutes)")
    a = p.parse_args()
    for name, keys in networks(a.large):
        measure(name, keys, a.cycles)


if __name__ == "__main__":
    main()
