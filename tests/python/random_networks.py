"""Random valid networks of every router family, for the differential runs
(tests/python/test_differential.py) and the soaks (benchmarks/soak.py).

`networks(family)` is a Hypothesis strategy of small configurations (at most a few hundred
routers): topology and sizes, loads from idle to far past saturation, traffic patterns, routing,
packet mixes, buffers and the family's own mechanisms, faults among them. Draws the schema
refuses (a pattern that needs a power-of-two node count, say) are rejected, so every
configuration drawn is one the project calls valid. `deadlock_free(cfg)` says whether the family
promises no deadlock for it (the watchdog must then stay quiet).
"""

from __future__ import annotations

import math

from hypothesis import assume
from hypothesis import strategies as st

import lockstep as ls

FAMILIES = ("vc", "t3e", "bgl", "metro", "sconnect")
PATTERNS = ("uniform", "transpose", "bitcomp", "bitrev", "shuffle", "tornado", "neighbor",
            "hotspot", "randperm")


def _torus_radix(draw, dims: tuple[int, int], sizes: tuple[int, int]) -> list[int]:
    # Powers of two more often: several patterns need a power-of-two node count.
    size = st.one_of(st.sampled_from([k for k in (2, 4) if sizes[0] <= k <= sizes[1]]),
                     st.integers(*sizes))
    return draw(st.lists(size, min_size=dims[0], max_size=dims[1]))


def _traffic(draw, offered: tuple[float, float], patterns=PATTERNS) -> dict:
    t = {"pattern": draw(st.sampled_from(patterns)),
         "offered": draw(st.floats(*offered, allow_nan=False).map(lambda x: round(x, 3))),
         "injection": draw(st.sampled_from(["bernoulli", "bernoulli", "onoff"]))}
    if t["pattern"] == "hotspot":
        t["hotspot_fraction"] = draw(st.sampled_from([0.1, 0.5, 1.0]))
    return t


@st.composite
def _vc(draw) -> dict:
    kind = draw(st.sampled_from(["mesh", "torus", "torus", "crossbar"]))
    topo: dict = {"kind": kind, "link_delay": draw(st.integers(1, 3))}
    if kind in ("mesh", "torus"):
        # Up to the four dimensions the schema allows (small ones: at most 256 routers).
        topo["radix"] = (_torus_radix(draw, (1, 3), (2, 5)) if draw(st.integers(0, 3))
                         else _torus_radix(draw, (4, 4), (2, 4)))
    else:
        topo["radix"] = [draw(st.integers(2, 12))]
    flow = draw(st.sampled_from(["wormhole", "vct"]))
    size = draw(st.sampled_from([1, 1, 2, 4, 5, 8, 16]))
    depth = draw(st.integers(size if flow == "vct" else 1, 12 if size <= 12 else 32))
    # Dimension order on a torus takes two dateline classes of VCs; up to 64 a router.
    vcs = st.sampled_from([2, 4, 12]) if kind == "torus" else st.sampled_from([1, 2, 3, 4, 8, 12])
    router = {"vcs": draw(vcs),
              "vc_depth": depth, "flow_control": flow,
              "routing": "dor" if kind == "crossbar" else draw(
                  st.sampled_from(["dor", "dor", "min_adaptive"])),
              "dateline": draw(st.booleans()) if kind == "torus" else True,
              "vc_allocator": draw(st.sampled_from(["islip", "separable_input_first"])),
              "sw_allocator": draw(st.sampled_from(["islip", "separable_input_first"])),
              "alloc_iters": draw(st.integers(1, 3)),
              "routing_delay": draw(st.integers(0, 2)), "st_delay": draw(st.integers(0, 2)),
              "credit_delay": draw(st.integers(0, 2))}
    traffic = _traffic(draw, (0.01, 1.0))
    if draw(st.integers(0, 4)) == 0:  # every packet a request answered by a reply
        traffic |= {"request_reply": True, "reply_size": draw(st.sampled_from([1, 4, 8])),
                    "reply_queue": draw(st.sampled_from([1, 4, 64]))}
    if draw(st.booleans()):
        traffic |= {"packet_sizes": [1, size, 2 * size], "packet_size_weights": [3, 2, 1]}
    else:
        traffic["packet_size"] = size
    return {"topology": topo, "router": router, "traffic": traffic}


@st.composite
def _t3e(draw) -> dict:
    radix = _torus_radix(draw, (3, 3), (1, 4))
    t3e = {"adaptive": draw(st.booleans()), "buffer_depth": draw(st.integers(2, 16)),
           "packet_type": draw(st.sampled_from(["single_word_get", "vector_get",
                                                "single_word_put", "vector_put"])),
           "ordered_fraction": draw(st.sampled_from([0.0, 0.0, 0.5, 1.0])),
           "half_ring_tie": draw(st.sampled_from(["parity", "plus"])),
           "adaptive_admission": draw(st.sampled_from(["packet", "packet", "empty", "flit"])),
           "outstanding": draw(st.sampled_from([0, 0, 1, 4]))}
    if draw(st.booleans()):
        t3e["packet_mix"] = draw(st.lists(st.integers(0, 3), min_size=4, max_size=4))
        assume(sum(t3e["packet_mix"]) > 0)
    if draw(st.integers(0, 4)) == 0:  # a failed link: x, y, z of a node and a dimension
        t3e["failed_links"] = [draw(st.integers(0, k - 1)) for k in radix] + [
            draw(st.integers(0, 2))]
    if draw(st.booleans()):  # the router's timing and buffers over the schema's ranges
        t3e |= {"fall_through_straight": draw(st.integers(1, 15)),
                "fall_through_turn": draw(st.integers(1, 15)),
                "end_point": draw(st.integers(1, 30)), "credit_delay": draw(st.integers(1, 15)),
                "pe_buffer_depth": draw(st.sampled_from([2, 16, 64])),
                "adaptive_depth": draw(st.sampled_from([10, 22, 64])),
                "response_queue": draw(st.sampled_from([10, 64]))}
    if draw(st.integers(0, 3)) == 0:  # the barrier/eureka network beside the data traffic
        t3e |= {"barrier": draw(st.sampled_from(["barrier", "eureka"])),
                "barrier_bsus": draw(st.integers(1, 32)),
                "barrier_period": draw(st.integers(1, 400)),
                "barrier_hop": draw(st.integers(1, 15))}
    return {"topology": {"kind": "torus", "radix": radix}, "router": {"family": "t3e"},
            "t3e": t3e, "traffic": _traffic(draw, (0.01, 1.0))}


@st.composite
def _bgl(draw) -> dict:
    radix = _torus_radix(draw, (3, 3), (2, 4))
    bgl = {"dynamic_vcs": draw(st.integers(1, 3)), "paths": draw(st.integers(1, 3)),
           "vc_bytes": draw(st.sampled_from([256, 512, 1024])),
           "escape_bytes": draw(st.sampled_from([512, 1024])),
           "jsq": draw(st.booleans()), "bypass": draw(st.booleans()),
           "jsq_tokens": draw(st.sampled_from(["range", "exact"])),
           "escape_vcs": draw(st.sampled_from(["bubble", "bubble", "dateline_pair"])),
           "escape_order": draw(st.sampled_from(["dimension", "direction"])),
           "half_way": draw(st.sampled_from(["coordinate", "node", "plus"])),
           "deterministic": draw(st.booleans()),
           "priority_fraction": draw(st.sampled_from([0.0, 0.0, 0.2])),
           "pipeline_delay": draw(st.integers(0, 8)),
           "arbitration_gap": draw(st.sampled_from([False, False, True]))}
    if bgl["escape_vcs"] == "dateline_pair":
        bgl["pair_entry"] = draw(st.sampled_from(["one", "two"]))
    if not bgl["deterministic"] and draw(st.booleans()):  # a mix, drawn per packet
        bgl["deterministic_fraction"] = draw(st.sampled_from([0.1, 0.5]))
    if draw(st.integers(0, 4)) == 0:
        # A retransmission timeout under the differential runs' watchdog (1,500 cycles): a link
        # waiting longer for its acknowledgement would look like a deadlock.
        bgl |= {"link_error_rate": 0.01, "retransmission_packets": draw(st.integers(1, 8)),
                "retransmit_timeout": draw(st.integers(64, 1024))}
    if draw(st.integers(0, 5)) == 0:  # a link down: (node, dimension)
        bgl["dead_links"] = [draw(st.integers(0, radix[0] * radix[1] * radix[2] - 1)),
                             draw(st.integers(0, 2))]
    if draw(st.booleans()):  # the rest of the schema's ranges
        bgl |= {"dynamic_vcs": draw(st.integers(1, 4)), "paths": draw(st.integers(1, 4)),
                "vc_bytes": draw(st.sampled_from([256, 1024, 4096])),
                "escape_bytes": draw(st.sampled_from([512, 4096])),
                "pipeline_delay": draw(st.sampled_from([0, 3, 64])),
                "trailer_bytes": draw(st.integers(0, 16)), "gap_bytes": draw(st.integers(0, 16)),
                "ack_bytes": draw(st.integers(1, 32)), "packet_overhead": draw(st.integers(0, 31)),
                "injection_fifos": draw(st.integers(1, 6)),
                "injection_fifo_bytes": draw(st.sampled_from([256, 1024, 8192])),
                "infinite_injection_fifos": draw(st.booleans()),
                "injection_gap": draw(st.sampled_from([0, 300, 2000])),
                "slq_fraction": draw(st.sampled_from([0.0, 0.75, 1.0])),
                "in_network_fraction": draw(st.sampled_from([0.5, 1.0])),
                "dateline_uncrossed": draw(st.sampled_from(["lower", "higher"]))}
    size = draw(st.sampled_from([32, 64, 128, 256]))
    traffic = _traffic(draw, (0.01, 1.0), PATTERNS + ("alltoall", "hotregion"))
    return {"topology": {"kind": "torus", "radix": radix, "link_delay": draw(st.integers(1, 4))},
            "router": {"family": "bgl"}, "bgl": bgl, "traffic": traffic | {"packet_size": size},
            "run": {"latency_threshold": 20000}}


@st.composite
def _metro(draw) -> dict:
    kind = draw(st.sampled_from(["multibutterfly", "fat_tree"]))
    if draw(st.booleans()):  # the shapes the papers draw
        topo = ({"radix": [2, 2, 4], "dilation": [2, 2, 1]} if kind == "multibutterfly"
                else {"radix": [4, 4], "dilation": [1, 2]})
    else:  # 1-3 stages of radix 2-8 (at most 64 endpoints), dilations up to 4
        radix = draw(st.lists(st.sampled_from([2, 4, 8]), min_size=1, max_size=3)
                     .filter(lambda r: math.prod(r) <= 64))
        topo = {"radix": radix,
                "dilation": [draw(st.sampled_from([1, 2, 4])) for _ in radix]}
    metro = {"hw": draw(st.integers(0, 3)), "dp": draw(st.integers(1, 4)),
             "vtd": draw(st.integers(0, 6)), "reclaim": draw(st.sampled_from(["fast", "detailed"])),
             "backoff": draw(st.sampled_from(["fixed", "exponential", "random"])),
             "retry_delay": draw(st.integers(0, 20)),
             "timeout": draw(st.sampled_from([60, 100, 200])),
             "reply_delay": draw(st.integers(0, 5)),
             "width": draw(st.sampled_from([1, 1, 2, 4])),
             "cascade": draw(st.sampled_from([1, 1, 2]))}
    if draw(st.integers(0, 3)) == 0:
        metro["word_error_rate"] = 0.01
    if draw(st.integers(0, 3)) == 0:
        metro["swallow"] = [draw(st.integers(0, 2))]
    if draw(st.integers(0, 4)) == 0:  # a router failing (masked or found by the timeouts)
        metro |= {"failed_routers": [draw(st.integers(0, 3))],
                  "failure_cycle": draw(st.sampled_from([0, 150])),
                  "mask_failed": draw(st.booleans())}
    if draw(st.integers(0, 4)) == 0:
        metro["header_error_rate"] = 0.01
    traffic = _traffic(draw, (0.01, 0.6), ("uniform", "randperm")) | {
        "packet_size": draw(st.sampled_from([1, 2, 3, 4, 8, 19]))}
    if draw(st.integers(0, 3)) == 0:  # reads: the connection turned back for the reply
        traffic |= {"request_reply": True, "reply_size": draw(st.sampled_from([1, 2, 8]))}
    return {"topology": {"kind": kind, "endpoint_ports": draw(st.sampled_from([1, 2, 2, 4]))}
            | topo, "router": {"family": "metro"}, "metro": metro, "traffic": traffic}


@st.composite
def _sconnect(draw) -> dict:
    kind = draw(st.sampled_from(["random_regular", "random_regular", "hypercube", "torus", "mesh"]))
    # Up to the largest routers there are: 15 channels, or a dual-TIC node's two routers of 15
    # (17 ports each with the twin link and the host's).
    ports = draw(st.sampled_from([4, 4, 7, 15]))
    if kind == "random_regular":
        topo = {"nodes": draw(st.sampled_from([8, 16, 32, 64])), "degree": draw(st.integers(3, 4)),
                "graph_seed": draw(st.integers(1, 1000)), "max_ports": ports,
                "dual_tic": draw(st.booleans())}
    elif kind == "hypercube":
        topo = {"dimension": draw(st.integers(2, 4)), "max_ports": ports}
    else:
        topo = {"radix": _torus_radix(draw, (2, 2), (3, 5))}
    topo["link_delay"] = draw(st.sampled_from([1, 1, 2, 3]))
    sc = {"buffers": draw(st.sampled_from([16, 32, 64])),
          "priorities": draw(st.integers(1, 4)), "bypass": draw(st.booleans()),
          "host_ports": draw(st.integers(1, 2)),
          "assignment": draw(st.sampled_from(["tic", "near_optimal", "optimal"]))}
    if draw(st.integers(0, 3)) == 0:
        sc["bit_error_rate"] = 0.001
    traffic = _traffic(draw, (0.01, 0.5), ("uniform", "randperm", "hotspot"))
    if draw(st.integers(0, 3)) == 0:  # quad-messages: a class's reserve holds a whole one
        sc |= {"buffers": 64, "reserve": 4, "priorities": draw(st.integers(1, 2))}
        traffic |= {"packet_sizes": [1, 4], "packet_size_weights": [3, 1]}
    else:
        traffic["packet_size"] = 1
        if kind in ("torus", "mesh") and draw(st.integers(0, 2)) == 0:
            # Sent messages in the channels' stores: 16 + 2 x 4 channels x 3 + 12 reserved <= 64.
            sc |= {"unacknowledged": "channel", "buffers": 16}
    return {"topology": {"kind": kind} | topo, "router": {"family": "sconnect"}, "sconnect": sc,
            "traffic": traffic}


DRAWS = {"vc": _vc, "t3e": _t3e, "bgl": _bgl, "metro": _metro, "sconnect": _sconnect}


@st.composite
def networks(draw, family: str) -> ls.Config:
    """A valid configuration of `family` (ValueError from the schema: the draw is rejected)."""
    data = draw(DRAWS[family]())
    data.setdefault("router", {}).setdefault("family", family)
    data.setdefault("run", {})["seed"] = draw(st.integers(0, 2**31))
    try:
        return ls.Config(data)
    except ValueError:
        assume(False)
        raise


def deadlock_free(cfg: ls.Config) -> bool:
    """Whether the family promises this configuration never deadlocks (its document's or
    docs/design's argument): dimension order on meshes and hypercubes, on tori with a dateline
    and two VCs; the T3E and Blue Gene/L without failures (Blue Gene/L with the corrected bubble
    rule or the dateline pair; the T3E's adaptive VC not with flit admission, and no barrier
    program, whose packets may starve the data); METRO always (it
    tears down and retries); S-Connect always (two VCs on any topology)."""
    family = cfg.get("router.family")
    if family == "vc":
        kind = cfg.get("topology.kind")
        if cfg.get("router.routing") != "dor":
            return False
        return kind != "torus" or (cfg.get("router.dateline") and cfg.get("router.vcs") >= 2)
    if family == "t3e":
        # A barrier program's packets take their links before any data flit: rounds that keep
        # the links busy starve the data network (the watchdog's report says so), which is no
        # deadlock of it but looks the same.
        flit = cfg.get("t3e.adaptive") and cfg.get("t3e.adaptive_admission") == "flit"
        return (not cfg.get("t3e.failed_links") and not cfg.get("t3e.failed_nodes") and not flit
                and cfg.get("t3e.barrier") == "off")
    if family == "bgl":
        return (not cfg.get("bgl.dead_nodes") and not cfg.get("bgl.dead_links")
                and cfg.get("bgl.bubble_rule") == "fixed")
    return True
