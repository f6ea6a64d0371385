"""Golden state fingerprints: every named state array, after a fixed number of cycles, of the
shipped configurations (configs/*.toml) and of a set that covers every allocator, routing,
flow control, topology and traffic option, hashed into tests/data/state_fingerprints.json.

A change that alters behaviour changes fingerprints; a change that only makes the simulator
faster must not (tests/python/test_fingerprints.py checks). Every backend must reproduce the
same fingerprints: `--backend cuda` checks the GPU's state against the CPU's golden file. When
a change is meant to alter behaviour, regenerate on purpose and say so in the commit:

    PYTHONPATH=bindings python scripts/state_fingerprints.py --write
"""
import argparse
import hashlib
import json
import pathlib
import sys

import lockstep as ls

ROOT = pathlib.Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests/data/state_fingerprints.json"
CYCLES = 2000
INSTANCES = 3  # seeds 7, 8, 9 with offered load x1.0, x1.3, x1.6: a batch, as sweeps run

# name: overrides of the defaults (an 8x8 torus, 2 VCs, uniform traffic).
COVERAGE = {
    "mesh_low": {"topology.kind": "mesh", "traffic.offered": 0.15},
    "mesh_saturated": {"topology.kind": "mesh", "traffic.offered": 0.45},
    "torus_3d": {"topology.radix": [4, 4, 4], "topology.link_delay": 2, "traffic.offered": 0.3},
    "ring_ties": {"topology.radix": [8], "traffic.offered": 0.3, "traffic.packet_size": 4,
                  "router.vcs": 4},
    "adaptive_mesh": {"topology.kind": "mesh", "router.routing": "min_adaptive", "router.vcs": 3,
                      "traffic.offered": 0.35, "traffic.packet_size": 3},
    "adaptive_torus": {"router.routing": "min_adaptive", "router.vcs": 4, "traffic.offered": 0.5,
                       "traffic.pattern": "transpose"},
    "separable_vct": {"router.vc_allocator": "separable_input_first",
                      "router.sw_allocator": "separable_input_first",
                      "router.flow_control": "vct", "traffic.packet_size": 4,
                      "traffic.offered": 0.4},
    "islip3_bitcomp": {"router.alloc_iters": 3, "router.vcs": 4, "traffic.offered": 0.6,
                       "traffic.pattern": "bitcomp"},
    "request_reply": {"topology.kind": "mesh", "traffic.request_reply": True,
                      "traffic.reply_size": 3, "traffic.reply_queue": 16, "router.vcs": 4,
                      "traffic.offered": 0.3, "traffic.packet_sizes": [1, 4],
                      "traffic.packet_size_weights": [0.5, 0.5]},
    "onoff_hotspot": {"traffic.injection": "onoff", "traffic.pattern": "hotspot",
                      "traffic.hotspot_nodes": [3, 9], "traffic.offered": 0.2,
                      "traffic.source_queue": 4},
    "crossbar": {"topology.kind": "crossbar", "topology.radix": [8], "router.vcs": 1,
                 "traffic.offered": 0.55},
    "delays": {"router.routing_delay": 2, "router.vc_alloc_delay": 2, "router.sw_alloc_delay": 2,
               "router.st_delay": 2, "router.credit_delay": 2, "topology.dim_link_delay": [1, 3],
               "topology.terminal_delay": 2, "traffic.offered": 0.3, "traffic.packet_size": 2},
    "randperm_4d": {"topology.kind": "mesh", "topology.radix": [2, 4, 2, 4],
                    "traffic.pattern": "randperm", "traffic.offered": 0.3},
}


def cases() -> dict[str, ls.Config]:
    out = {f"configs/{p.name}": ls.load_config(p) for p in sorted((ROOT / "configs").glob("*.toml"))}
    for name, overrides in COVERAGE.items():
        out[name] = ls.Config().with_(**overrides)
    return out


def fingerprint(cfg: ls.Config, backend: str = "cpu") -> str:
    """SHA-256 over every named state array of a batch after CYCLES cycles (on the CPU, one
    thread)."""
    base = cfg.get("traffic.offered")
    batch = [cfg.with_(seed=7 + i, offered=base * (1 + 0.3 * i), threads=1, debug=False)
             for i in range(INSTANCES)]
    sim = ls.Simulator(batch, backend=backend)
    sim.step(CYCLES)
    h = hashlib.sha256()
    for name in sorted(sim.state_names()):
        h.update(name.encode())
        h.update(sim.state(name).tobytes())
    return h.hexdigest()


def compute(backend: str = "cpu") -> dict[str, str]:
    return {name: fingerprint(cfg, backend) for name, cfg in cases().items()}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--write", action="store_true", help="rewrite the golden file")
    ap.add_argument("--backend", default="cpu", choices=["cpu", "cuda"],
                    help="the backend whose state is compared (default: cpu)")
    args = ap.parse_args()
    if args.write and args.backend != "cpu":
        ap.error("--write takes the CPU's state: the golden file is the CPU backend's")
    now = compute(args.backend)
    if args.write:
        GOLDEN.write_text(json.dumps(now, indent=1, sort_keys=True) + "\n")
        print(f"wrote {GOLDEN.relative_to(ROOT)} ({len(now)} fingerprints)")
        return 0
    golden = json.loads(GOLDEN.read_text())
    changed = sorted(k for k in now.keys() | golden.keys() if now.get(k) != golden.get(k))
    for k in changed:
        print(f"changed: {k}")
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main())
