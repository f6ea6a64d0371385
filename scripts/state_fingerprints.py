"""Golden state fingerprints: every named state array, after a fixed number of cycles, of the
shipped configurations (configs/*.toml) and of a set that covers every allocator, routing,
flow control, topology and traffic option, hashed into tests/data/state_fingerprints.json.

A change that alters behaviour changes fingerprints; a change that only makes the simulator
faster must not (tests/python/test_fingerprints.py checks). Every backend must reproduce the
same fingerprints: `--backend cuda` checks the GPU's state against the CPU's golden file. When
a change is meant to alter behaviour, regenerate on purpose and say so in the commit:

    PYTHONPATH=bindings python scripts/state_fingerprints.py --write

On a GPU machine, a longer CPU/GPU comparison than the golden file's 2,000 cycles, with every
configuration also run on a network of 1,024 routers, so that the GPU's grid has many blocks:

    PYTHONPATH=bindings python scripts/state_fingerprints.py --backend cuda --against cpu \
        --cycles 30000 --large

Every run.schedule must reproduce the file too (the compared backend runs it; --against's
side runs its own schedule): on the CPU, a block's threads in shuffled order, say:

    PYTHONPATH=bindings python scripts/state_fingerprints.py --schedule block --block-order shuffled

and with the hot arrays on chip (--hot-state shared), or each element's cycle on a tile of 16
lanes (--lanes tile: the vc family's lane form).
"""
import argparse
import hashlib
import json
import math
import pathlib
import sys

import lockstep as ls

ROOT = pathlib.Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests/data/state_fingerprints.json"
CYCLES = 2000
INSTANCES = 3  # seeds 7, 8, 9 with offered load x1.0, x1.3, x1.6: a batch, as sweeps run
# Read-only views computed on the host, added after the golden file was written (the flits in
# the VC buffers, the VC of each switch grant, the topology tables): left out, so the file
# stays valid. vc_owner, a view of the same kind, was there before. The buffered flits are in
# no other array: taking them in would be a stricter check, with the file regenerated.
VIEWS = {"buffer_dest", "buffer_src", "buffer_seq", "buffer_ctime", "buffer_itime",
         "buffer_meta", "sa_grant_vc", "peer", "port_node", "forward_ports",
         "wire_delay", "wire_peer", "link_delay"}

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
    # S-Connect: priorities, a small pool (refusals, re-routing), no bypass, long links.
    "sconnect_torus_priorities": {"router.family": "sconnect", "traffic.offered": 0.6,
                                  "traffic.priority_weights": [0.6, 0.3, 0.1],
                                  "sconnect.buffers": 14, "topology.link_delay": 3},
    "sconnect_mesh_small_pool": {"router.family": "sconnect", "topology.kind": "mesh",
                                 "traffic.offered": 0.6, "sconnect.buffers": 5,
                                 "sconnect.priorities": 1, "sconnect.bypass": False,
                                 "traffic.pattern": "tornado"},
    "sconnect_near_optimal": {"router.family": "sconnect", "topology.kind": "hypercube",
                              "topology.dimension": 5, "topology.max_ports": 5,
                              "traffic.offered": 0.6, "sconnect.assignment": "near_optimal",
                              "sconnect.buffers": 9, "sconnect.priorities": 1},
    # S-Connect's exact (optimal) transmitter assignment, the pool nearly full.
    "sconnect_optimal": {"router.family": "sconnect", "topology.kind": "hypercube",
                         "topology.dimension": 4, "topology.max_ports": 4,
                         "traffic.offered": 0.55, "sconnect.assignment": "optimal",
                         "sconnect.buffers": 9, "sconnect.priorities": 1},
    "sconnect_errors": {"router.family": "sconnect", "topology.kind": "mesh",
                        "topology.link_delay": 2, "traffic.offered": 0.5,
                        "sconnect.bit_error_rate": 0.002, "sconnect.buffers": 16},
    # S-Connect quad-messages among single messages: refused trains, corrupted parts.
    "sconnect_quads": {"router.family": "sconnect", "traffic.offered": 0.7,
                       "traffic.packet_sizes": [1, 4], "traffic.packet_size_weights": [1, 1],
                       "topology.link_delay": 2, "sconnect.bit_error_rate": 0.002,
                       "sconnect.buffers": 14, "sconnect.reserve": 4, "sconnect.priorities": 1},
    "sconnect_quads_near_optimal": {"router.family": "sconnect", "topology.kind": "hypercube",
                                    "topology.dimension": 5, "topology.max_ports": 5,
                                    "traffic.offered": 0.8, "traffic.packet_size": 4,
                                    "sconnect.assignment": "near_optimal",
                                    "sconnect.buffers": 14, "sconnect.reserve": 4,
                                    "sconnect.priorities": 1, "sconnect.bit_error_rate": 0.001},
    # T3E barrier/eureka networks under data load: BSUs sharing links, rounds that overrun,
    # a mirrored orientation (R_ORIENT) for the trees' directions.
    "t3e_barriers_loaded": {"router.family": "t3e", "topology.radix": [4, 4, 4],
                            "traffic.offered": 0.5, "t3e.barrier": "barrier",
                            "t3e.barrier_bsus": 4, "t3e.barrier_period": 40},
    "t3e_eureka": {"router.family": "t3e", "topology.radix": [4, 2, 4], "traffic.offered": 0.3,
                   "t3e.barrier": "eureka", "t3e.barrier_period": 70, "t3e.r_orient": 5,
                   "t3e.barrier_hop": 2},
    # T3E adaptive routing under the two admission rules other than whole packets: Duato's
    # empty buffer, and a free slot (which can deadlock: a load it survives for the run).
    "t3e_admission_empty": {"router.family": "t3e", "topology.radix": [4, 4, 4],
                            "traffic.offered": 0.8, "traffic.pattern": "transpose",
                            "t3e.adaptive": True, "t3e.adaptive_admission": "empty"},
    "t3e_admission_flit": {"router.family": "t3e", "topology.radix": [4, 4, 4],
                           "traffic.offered": 0.4, "traffic.pattern": "transpose",
                           "t3e.adaptive": True, "t3e.adaptive_admission": "flit"},
    # T3E in R_NET_LUT mode 3: every packet by its PE's R_LUT_OVERRIDE, PEs in bit-reversed
    # pairs.
    "t3e_mode3": {"router.family": "t3e", "topology.radix": [4, 4, 4], "traffic.offered": 0.4,
                  "traffic.pattern": "bitrev", "t3e.lut_mode": "mode3"},
    # T3E partial plane with partitions sharing it (one with a hot spot), a hot spare taking a
    # failed node's number, and a partition-wide neighbour pattern.
    "t3e_partial_partitions": {"router.family": "t3e", "topology.radix": [4, 4, 3],
                               "t3e.partial_plane": [3, 2], "traffic.offered": 0.6,
                               "t3e.partitions": [0, 15, 16, 20], "t3e.hot_spares": 1,
                               "t3e.failed_nodes": [1, 2, 0], "traffic.pattern": "neighbor"},
    # METRO with pipelined setup (two header words per router), long wires, detailed
    # reclamation and a hot spot: blocking, holding, turns and retries; two routers die
    # unmasked mid-run, found by timeouts.
    "metro_hw2_detailed": {"router.family": "metro", "topology.kind": "multibutterfly",
                           "topology.radix": [2, 2, 4], "topology.dilation": [2, 2, 1],
                           "metro.hw": 2, "metro.vtd": 1, "metro.reclaim": "detailed",
                           "metro.retry_delay": 3, "traffic.packet_size": 10,
                           "traffic.offered": 0.4, "traffic.pattern": "hotspot",
                           "metro.failed_routers": [9, 17], "metro.failure_cycle": 700,
                           "metro.mask_failed": False, "metro.timeout": 40},
    # METRO reads over noisy wires: corrupted data and routes, a cascade of two, replies
    # checked by the weighted checksum; then the controls: the plain sum and first-free
    # selection, on the same traffic.
    "metro_noisy_reads": {"router.family": "metro", "topology.kind": "multibutterfly",
                          "topology.radix": [2, 2, 4], "topology.dilation": [2, 2, 1],
                          "metro.cascade": 2, "metro.word_error_rate": 0.01,
                          "metro.header_error_rate": 0.005, "traffic.request_reply": True,
                          "traffic.reply_size": 5, "metro.reply_delay": 4,
                          "traffic.packet_size": 8, "traffic.offered": 0.3},
    "metro_first_sum": {"router.family": "metro", "topology.kind": "multibutterfly",
                        "topology.radix": [2, 2, 4], "topology.dilation": [2, 2, 1],
                        "metro.selection": "first", "metro.checksum": "sum",
                        "metro.word_error_rate": 0.01, "metro.header_error_rate": 0.005,
                        "traffic.request_reply": True, "traffic.reply_size": 5,
                        "traffic.packet_size": 8, "traffic.offered": 0.3},
    # METRO reads of three request/reply exchanges a connection (metro.exchanges), with
    # corrupted words failing some exchange of an attempt and its retry.
    "metro_exchanges": {"router.family": "metro", "topology.kind": "multibutterfly",
                        "topology.radix": [2, 2, 4], "topology.dilation": [2, 2, 1],
                        "traffic.request_reply": True, "traffic.reply_size": 5,
                        "metro.reply_delay": 3, "metro.exchanges": 3,
                        "metro.word_error_rate": 0.01, "traffic.packet_size": 8,
                        "traffic.offered": 0.3},
    # Blue Gene/L past saturation with mixed sizes, the original bubble rule, one path,
    # random phase 1 and SLQ on half the cycles, injection favoured on half of them.
    "bgl_mixed_original": {"router.family": "bgl", "topology.radix": [4, 4, 2],
                           "topology.link_delay": 3, "traffic.packet_size": 256,
                           "traffic.packet_sizes": [32, 96, 256],
                           "traffic.packet_size_weights": [2, 1, 2], "traffic.offered": 1.2,
                           "bgl.bubble_rule": "original", "bgl.paths": 1, "bgl.jsq": False,
                           "bgl.slq_fraction": 0.5, "bgl.in_network_fraction": 0.5,
                           "bgl.dynamic_vcs": 1, "bgl.vc_bytes": 512,
                           "bgl.priority_fraction": 0.1},
    # Blue Gene/L without an escape VC for dynamic packets (bgl.escape_vcs = "none") past
    # saturation, in-network packets first: the dynamic VCs only, high priority beside them.
    "bgl_no_escape": {"router.family": "bgl", "topology.radix": [4, 4, 2],
                      "topology.link_delay": 3, "traffic.packet_size": 256,
                      "traffic.pattern": "tornado", "traffic.packet_sizes": [32, 256],
                      "traffic.packet_size_weights": [8, 1], "traffic.offered": 3.0,
                      "bgl.escape_vcs": "none", "bgl.in_network_fraction": 1.0,
                      "bgl.priority_fraction": 0.1},
    # Blue Gene/L with software's per-packet routing choice (bgl.deterministic_fraction) past
    # saturation, SLQ on every cycle.
    "bgl_mixed": {"router.family": "bgl", "topology.radix": [4, 4, 2],
                  "traffic.packet_size": 256, "traffic.offered": 1.5,
                  "bgl.deterministic_fraction": 0.3, "bgl.slq_fraction": 1.0},
    # Blue Gene/L's alltoall with infinite injection FIFOs paced by software
    # (bgl.injection_gap): routers asleep until their next packet's turn.
    "bgl_paced": {"router.family": "bgl", "topology.radix": [4, 4, 2],
                  "traffic.packet_size": 256, "traffic.pattern": "alltoall",
                  "traffic.alltoall_packets": 2, "bgl.infinite_injection_fifos": True,
                  "bgl.injection_gap": 200},
    # Blue Gene/L's link-level protocol: corrupted packets dropped and sent again after short
    # time-outs, small retransmission FIFOs that stop their senders.
    "bgl_link_errors": {"router.family": "bgl", "topology.radix": [4, 4, 2],
                        "traffic.packet_size": 256, "traffic.packet_sizes": [32, 256],
                        "traffic.packet_size_weights": [1, 1], "traffic.offered": 0.8,
                        "bgl.retransmission_packets": 6, "bgl.retransmit_timeout": 300,
                        "bgl.link_error_rate": 0.03},
    # Blue Gene/L with the direction-ordered dateline pair of escape VCs under hot-region
    # traffic past saturation, so that the escape VCs and their blocked packets are busy;
    # half-way packets split by the node's coordinate sum.
    "bgl_dateline_pair": {"router.family": "bgl", "topology.radix": [4, 4, 2],
                          "traffic.packet_size": 256, "traffic.pattern": "hotregion",
                          "traffic.offered": 2.0, "bgl.escape_vcs": "dateline_pair",
                          "bgl.escape_order": "direction", "bgl.dynamic_vcs": 3,
                          "bgl.vc_bytes": 512, "bgl.escape_bytes": 512, "bgl.half_way": "node"},
    # Blue Gene/L with the receivers' one-cycle arbitration gap, past saturation.
    "bgl_arbitration_gap": {"router.family": "bgl", "topology.radix": [4, 4, 2],
                            "traffic.packet_size": 256, "traffic.offered": 1.2,
                            "bgl.arbitration_gap": True},
    # Blue Gene/L gathering into a 2x2x1 region (the paper's hot-region measurement).
    "bgl_gather": {"router.family": "bgl", "topology.radix": [4, 4, 2],
                   "traffic.packet_size": 256, "traffic.pattern": "gather",
                   "traffic.hot_region": [1, 1, 0, 2, 2, 1], "traffic.alltoall_packets": 2},
    # Blue Gene/L plane fill from every node in the x-z planes: row broadcasts turned at corners
    # by software, near saturation.
    "bgl_planefill": {"router.family": "bgl", "topology.radix": [4, 4, 2],
                      "traffic.packet_size": 256, "traffic.pattern": "planefill",
                      "traffic.turn_dimension": 2, "traffic.offered": 0.3},
    # Blue Gene/L with three dead nodes, software's hint bits around them in direction order,
    # past saturation with high-priority packets.
    "bgl_dead_nodes": {"router.family": "bgl", "topology.radix": [4, 4, 4],
                       "traffic.packet_size": 256, "traffic.offered": 1.2,
                       "bgl.dead_nodes": [5, 22, 43], "bgl.escape_order": "direction",
                       "bgl.priority_fraction": 0.05},
    "bgl_dead_links": {"router.family": "bgl", "topology.radix": [4, 4, 4],
                       "traffic.packet_size": 256, "traffic.offered": 1.2,
                       "bgl.dead_nodes": [43], "bgl.dead_links": [0, 0, 5, 1, 22, 2, 60, 0]},
}


# Shipped configurations of more routers than this are sized for a GPU: the golden file holds
# them on 1,024 routers (LARGE_RADIX), every other key as shipped, so the test stays short.
GPU_SIZED = 4096


def shipped(path: pathlib.Path) -> tuple[str, ls.Config]:
    cfg = ls.load_config(path)
    radix = cfg.get("topology.radix")
    if cfg.get("topology.kind") in ("torus", "mesh") and math.prod(radix) > GPU_SIZED:
        return f"configs/{path.name} (1,024 routers)", cfg.with_(
            **{"topology.radix": LARGE_RADIX[len(radix)]})
    return f"configs/{path.name}", cfg


def cases() -> dict[str, ls.Config]:
    out = dict(shipped(p) for p in sorted((ROOT / "configs").glob("*.toml")))
    for name, overrides in COVERAGE.items():
        out[name] = ls.Config().with_(**overrides)
    return out


# Networks of 1,024 routers (256 for rings; the crossbar, 16 ports), by dimension count.
LARGE_RADIX = {1: [256], 2: [32, 32], 3: [8, 16, 8], 4: [4, 8, 4, 8]}


# The graph kinds' keys for networks of 1,024 routers (an explicit edge list stays as it is).
LARGE_GRAPH = {"hypercube": {"topology.dimension": 10, "topology.max_ports": 10},
               "random_regular": {"topology.nodes": 1024}, "graph": {}}


def large(cases: dict[str, ls.Config]) -> dict[str, ls.Config]:
    """The cases on large networks, with their loads and other parameters."""
    out = {}
    for name, cfg in cases.items():
        kind = cfg.get("topology.kind")
        if kind in LARGE_GRAPH:
            out[f"{name} (large)"] = cfg.with_(**LARGE_GRAPH[kind])
            continue
        radix = [16] if kind == "crossbar" else LARGE_RADIX[len(cfg.get("topology.radix"))]
        if cfg.get("router.family") == "t3e" and cfg.get("t3e.partial_plane"):
            radix = [8, 8, 8]  # a partial plane's routes need mode 0's R_NET_LUT: 544 PEs at most
        out[f"{name} (large)"] = cfg.with_(**{"topology.radix": radix})
    return out


def fingerprint(cfg: ls.Config, backend: str = "cpu", cycles: int = CYCLES,
                threads: int = 1, schedule: str = "auto", order: str = "forward",
                hot: str = "global", lanes: str = "auto", view: str = "shared",
                roles: bool = False) -> str | None:
    """SHA-256 over every named state array of a batch after `cycles` cycles (on the CPU,
    `threads` threads: the state is the same for any number; so it is for any run.schedule,
    run.lanes, run.roles, run.block_view and, on the CPU, run.block_order). None where a GPU refuses
    run.hot_state = "shared" for an instance whose hot arrays exceed a block's shared memory."""
    base = cfg.get("traffic.offered")
    batch = [cfg.with_(**{"seed": 7 + i, "offered": base * (1 + 0.3 * i), "threads": threads,
                          "debug": False, "run.schedule": schedule, "run.block_order": order,
                          "run.hot_state": hot, "run.lanes": lanes, "run.block_view": view,
                          "run.roles": roles})
             for i in range(INSTANCES)]
    sim = ls.Simulator(batch, backend=backend)
    try:
        sim.step(cycles)
    except RuntimeError as e:
        if hot == "shared" and backend == "cuda" and "bytes of shared memory" in str(e):
            return None  # an instance larger than a block's shared memory: the engine refuses it
        raise
    h = hashlib.sha256()
    for name in sorted(set(sim.state_names()) - VIEWS):
        h.update(name.encode())
        h.update(sim.state(name).tobytes())
    return h.hexdigest()


def takes_roles(cfg: ls.Config) -> bool:
    """Whether cfg's family has a role form: validation refuses run.roles to the others."""
    try:
        cfg.with_(**{"run.roles": True})
    except ValueError as e:
        if not str(e).startswith("run.roles"):
            raise
        return False
    return True


def compute(backend: str = "cpu", cycles: int = CYCLES, with_large: bool = False,
            threads: int = 1, only_large: bool = False, schedule: str = "auto",
            order: str = "forward", hot: str = "global", lanes: str = "auto",
            view: str = "shared", roles: bool = False) -> dict[str, str | None]:
    """Each case's fingerprint; None for those the device refused (printed)."""
    todo = cases()
    if only_large:
        todo = large(todo)
    elif with_large:
        todo |= large(todo)
    out = {}
    for name, cfg in todo.items():
        if roles and not takes_roles(cfg):
            out[name] = None
            print(f"not compared (run.roles: its family has no role form): {name}", flush=True)
            continue
        out[name] = fingerprint(cfg, backend, cycles, threads, schedule, order, hot, lanes, view,
                                roles)
        if out[name] is None:
            print(f"not compared (its hot arrays exceed a block's shared memory): {name}",
                  flush=True)
        elif cycles != CYCLES or with_large or only_large:
            print(f"{backend}: {name}", flush=True)  # long runs show their progress
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--write", action="store_true", help="rewrite the golden file")
    ap.add_argument("--backend", default="cpu", choices=["cpu", "cuda"],
                    help="the backend whose state is compared (default: cpu)")
    ap.add_argument("--against", choices=["cpu", "cuda"],
                    help="compare with this backend's state, computed now, instead of the golden "
                         "file (for --cycles and --large)")
    ap.add_argument("--cycles", type=int, default=CYCLES,
                    help=f"cycles to run (default {CYCLES}, the golden file's)")
    ap.add_argument("--large", action="store_true",
                    help="also run every case on a large network (with --against)")
    ap.add_argument("--only-large", action="store_true",
                    help="run only the large networks (with --against)")
    ap.add_argument("--schedule", default="auto", choices=["auto", "launch", "block", "grid"],
                    help="run.schedule of the compared backend (default: auto)")
    ap.add_argument("--block-order", default="forward",
                    choices=["forward", "reversed", "shuffled"],
                    help="run.block_order of the compared backend (the CPU's block schedules)")
    ap.add_argument("--hot-state", default="global", choices=["global", "shared"],
                    help="run.hot_state of the compared backend (the block schedule)")
    ap.add_argument("--block-view", default="shared", choices=["shared", "parameter"],
                    help="run.block_view of the compared backend (the block schedule)")
    ap.add_argument("--lanes", default="auto", choices=["auto", "one", "tile"],
                    help="run.lanes of the compared backend (the launch, block and grid "
                         "schedules; default: auto)")
    ap.add_argument("--roles", action="store_true",
                    help="run.roles on the compared backend (launch and block; the "
                         "configurations of the families with a role form alone)")
    args = ap.parse_args()
    if args.write and (args.schedule != "auto" or args.hot_state != "global"
                       or args.lanes != "auto" or args.block_view != "shared" or args.roles):
        ap.error("--write takes the CPU's own schedule: leave --schedule, --hot-state, "
                 "--block-view, --lanes and --roles out")
    if args.write and args.backend != "cpu":
        ap.error("--write takes the CPU's state: the golden file is the CPU backend's")
    if (args.cycles != CYCLES or args.large or args.only_large) and not args.against:
        ap.error("--cycles, --large and --only-large need --against: the golden file holds "
                 "2,000-cycle states")
    if args.against and args.write:
        ap.error("--against compares two backends and writes nothing")
    missing = {args.backend, args.against} - {None, *ls.available_backends()}
    if missing:
        ap.error(f"no {' or '.join(sorted(missing))} device on this machine")
    if args.against:
        a = compute(args.backend, args.cycles, args.large, 0, args.only_large, args.schedule,
                    args.block_order, args.hot_state, args.lanes, args.block_view, args.roles)
        b = compute(args.against, args.cycles, args.large, 0, args.only_large)
        compared = [k for k in a if a[k] is not None]
        differ = sorted(k for k in compared if a[k] != b[k])
        for k in differ:
            print(f"differs: {k}")
        print(f"{len(compared) - len(differ)} of {len(compared)} configurations identical on "
              f"{args.backend} and {args.against} after {args.cycles} cycles")
        return 1 if differ else 0
    now = compute(args.backend, schedule=args.schedule, order=args.block_order,
                  hot=args.hot_state, lanes=args.lanes, view=args.block_view, roles=args.roles)
    if args.write:
        GOLDEN.write_text(json.dumps(now, indent=1, sort_keys=True) + "\n")
        print(f"wrote {GOLDEN.relative_to(ROOT)} ({len(now)} fingerprints)")
        return 0
    golden = json.loads(GOLDEN.read_text())
    if all(v is None for v in now.values()):
        print("no configuration fits: nothing compared")
        return 1
    # Configurations the device refused (None, printed above) are left out of the comparison.
    changed = sorted(k for k in now.keys() | golden.keys()
                     if now.get(k, "") is not None and now.get(k) != golden.get(k))
    for k in changed:
        print(f"changed: {k}")
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main())
