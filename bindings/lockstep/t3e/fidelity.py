"""The Cray T3E's claims (documents 000, Scott & Thorson's paper, and 002, the hardware manual),
measured on the t3e family: `fidelity.ledger("t3e")`.

Measurements reuse lockstep.t3e (Table 1's balance, Table 4's bandwidth, Figures 7 and 8, the
barrier and special networks); the runs are short with ``quick`` (what `make test` asserts)
and longer without. Each helper is cached, so a run measured for several claims runs once.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from ..config import Config
from ..fidelity.claim import (DIVERGES, NOT_REPRODUCIBLE, REPRODUCED, Between, Claim, Measured,
                              Near)
from .._core import SimulationError
from ..simulate import Simulator, simulate
from . import arbitration, bandwidth, barrier, figures, special, vc_anneal
from .registers import load_vcsel
from .vc_balance import printed_table1, ring, vc_balance

PAPER, MANUAL = "000", "002"


def machine(radix, **keys) -> Config:
    """A T3E of the given shape under the family's defaults (single-word Gets, adaptive)."""
    return Config().with_(family="t3e", kind="torus", radix=list(radix), threads=1, **keys)


# -- Table 1 (section 4) --------------------------------------------------------------------

SCHEMES = {"toc": "time_of_crossing", "opt": "optimized", "full": "full"}
SCHEME_WORDS = {"toc": "Time of Crossing", "opt": "Optimized T3E",
                "full": "Optimized Full Tables"}
# The cells where our annealed tables balance better than the paper's (the annealer is capped
# at the printed values, never floored): found by experiment, see TABLE1_CAUSE.
TABLE1_BETTER = {(16, 16, "opt", "avg"), (16, 16, "full", "avg"), (32, 16, "opt", "avg"),
                 (32, 16, "opt", "max"), (32, 8, "opt", "avg"), (32, 4, "opt", "avg"),
                 (32, 16, "full", "max")}
TABLE1_CAUSE = (
    "Our annealed tables (vcsel_tables.json, scripts/t3e_vc_tables.py) balance better than the "
    "paper's, which it does not print. Traced on the 32-node ring, one reading at a time "
    "(/tmp experiments, vc_anneal with the whole ring capped at its printed .220/.875): the "
    "documents' constraints (8 SELECT entries indexed by destination mod 8, entries shared "
    "with a route through the dateline node forced to VC0) admit tables that beat the printed "
    "row on every level at once (16: .194/.531, 8: .281/1, 4: .266/1), so no weighting of "
    "the levels explains it; stricter readings do not either: routes ending at the dateline "
    "node constrained too cannot reach the whole ring's .220 (best .229) and make the 4-node "
    "ring's printed 0/0 impossible; routes from the dateline node constrained leave the "
    "subrings as good (.246/.391/.438 with the whole ring alone optimised) and also break "
    "ring 4; the dateline at nodes 16 or 1 gives .195/.281/.266 and .123/.199/.250 (node 31 "
    "changes the whole ring's time of crossing, .805). An objective of the whole ring and the "
    "16-node subrings alone gives 4-node subrings of .578 (printed .594) and 8-node of .36 "
    "(printed .488): the printed 32-node subrings are those of tables optimised for the whole "
    "ring and not for small partitions, which the paper's hierarchical objective (not given) "
    "evidently weighted less than ours. The paper's point holds in the model: 8 entries cost "
    "the 32-node ring balance against full tables (t3e.table1.limited_32).")


@functools.lru_cache(maxsize=None)
def _balance(ring_size: int, subring: int, scheme: str) -> tuple[float, float]:
    return vc_balance(ring_size, subring, SCHEMES[scheme])


def _table1_claims() -> list[Claim]:
    out = []
    for r in printed_table1().itertuples():
        k, m = int(r.ring), int(r.subring)
        for scheme in SCHEMES:
            for i, stat in enumerate(("avg", "max")):
                better = (k, m, scheme, stat) in TABLE1_BETTER
                out.append(Claim(
                    id=f"t3e.table1.ring{k}_sub{m}.{scheme}_{stat}", document=PAPER,
                    where="section 4, Table 1",
                    quote=f"ring {k}, subring {m}, {SCHEME_WORDS[scheme]}, {stat}: "
                          f"{getattr(r, f'{scheme}_{stat}')}",
                    check=Near(float(getattr(r, f"{scheme}_{stat}")), abs=0.0005 + 1e-9),
                    measure=functools.partial(_balance_cell, ring_size=k, subring=m, scheme=scheme,
                                              i=i),
                    setup=f"ls.t3e.vc_balance({k}, {m}, {SCHEMES[scheme]!r}) (the paper's "
                          "printed precision)",
                    expect=DIVERGES if better else REPRODUCED,
                    cause=TABLE1_CAUSE if better else ""))
    return out


def _table_size_cost(rings) -> float:
    return max(_balance(k, m, "opt")[0] - _balance(k, m, "full")[0]
               for k, m in printed_table1()[["ring", "subring"]].itertuples(index=False)
               if k in rings)


def _toc_vc1_share(link: int | None) -> Measured:
    r = ring(32)
    uses = r.uses if link is None else r.uses[:, [link]]
    after = r.after if link is None else r.after[:, [link]]
    share = after.sum() / uses.sum()
    return Measured(float(share), f"32-node ring, time of crossing: VC1 carries {share:.3f} of "
                                  f"{'all link crossings' if link is None else 'link 0 -> 1'}")


def _dally_seitz() -> Measured:
    """Dally and Seitz's assignment: every route on VC1 except those that use the wrap link,
    which use VC0 before it; the largest difference from time of crossing (whole rings)."""
    diffs = []
    for k in (8, 16, 32):
        r = ring(k)
        bits = np.ones((k, k), dtype=np.int8)
        bits[r.src[r.constrained], r.dst[r.constrained]] = 0
        bits[:, 0] = 0  # a route ending at node 0 crosses the wrap link too
        diffs.append(abs(vc_balance(k, k, bits)[0] - vc_balance(k, k)[0]))
    return Measured(max(diffs), "whole rings of 8, 16, 32: average balance differs by "
                                + ", ".join(f"{d:.4f}" for d in diffs))


# -- Tables 2, 3, 4 and Figure 7 (section 11) -------------------------------------------------

@functools.lru_cache(maxsize=None)
def _zero_load_round_trip(radix: tuple, pattern: str, packet_type: str = "single_word_get",
                          no_fast: bool = False):
    """One request per PE to one offset, sent in clock 0: packets never meet (the test
    test_zero_load_round_trip_is_the_emulators)."""
    r = simulate(machine(radix, pattern=pattern, offered=4.0, max_packets=1, warmup=0,
                         measure=200, packet_type=packet_type, no_fast=no_fast))
    return float(r.round_trip_mean)


def _end_point() -> float:
    # One hop: each way 1 (sent the clock after creation) + 2 end points + 1 (second flit).
    return (_zero_load_round_trip((8, 1, 1), "neighbor") / 2 - 2) / 2


def _straight(no_fast: bool = False) -> float:
    # Three hops straight along X against one: two more routers each way.
    extra = (_zero_load_round_trip((8, 1, 1), "tornado", no_fast=no_fast)
             - _zero_load_round_trip((8, 1, 1), "neighbor", no_fast=no_fast))
    return extra / 4


def _turn() -> float:
    # (1, 1, 0) on a 4x4x1 torus: two hops, one router between that turns.
    return _zero_load_round_trip((4, 4, 1), "tornado") / 2 - 2 - 2 * _end_point()


def _balance_cell(quick: bool, ring_size: int, subring: int, scheme: str, i: int) -> float:
    return _balance(ring_size, subring, scheme)[i]


def _packet_flits_at(quick: bool, packet_type: str) -> Measured:
    return _packet_flits(packet_type)


def _table4_at(quick: bool, kind: str, one_way: bool) -> float:
    return _table4(kind, one_way, quick)


def _sustained_at(quick: bool, radix: tuple) -> Measured:
    return _sustained(radix, quick)


def _balance_gain(quick: bool) -> Measured:
    """Deterministic routing on the 8x8 plane past its knee (a PE's full port rate): accepted
    with the optimised R_VCSEL tables over time of crossing, the least of three seeds."""
    plane = machine([8, 8, 1], adaptive=False, offered=1.0,
                    **(dict(warmup=300, measure=1000, drain=0) if quick
                       else dict(warmup=1000, measure=10000, drain=0)))
    seeds = [1, 2, 3]
    got = {}
    for t in ("time_of_crossing", "optimized"):
        runs = load_vcsel(Simulator([plane.with_(seed=s) for s in seeds]), t).run()
        assert isinstance(runs, list)  # three instances
        got[t] = [r.accepted for r in runs]
    gains = [o / t for o, t in zip(got["optimized"], got["time_of_crossing"])]
    return Measured(min(gains), "accepted flits/PE/clock, seeds 1-3: time of crossing "
                    + ", ".join(f"{x:.3f}" for x in got["time_of_crossing"]) + "; optimised "
                    + ", ".join(f"{x:.3f}" for x in got["optimized"]))


def _packet_flits(packet_type: str) -> Measured:
    # Round trip of one hop: 2 x (1 + 20) + (request - 1) + (response - 1).
    rt = _zero_load_round_trip((8, 1, 1), "neighbor", packet_type)
    return Measured(rt - 40, f"zero-load round trip of one hop {rt:g} clocks")


@functools.lru_cache(maxsize=None)
def _table4(kind: str, one_way: bool, quick: bool) -> float:
    return bandwidth.payload_bandwidth(kind, one_way, measure=1000 if quick else 10000)


def _figure7(quick: bool, radix: tuple = (8, 8, 8)) -> Measured:
    calc = figures.round_trip(radix)
    r = simulate(machine(radix, pattern="uniform", offered=0.02, warmup=200,
                         measure=800 if quick else 4000, drain=1000))
    # The model measures from creation to the tail home and addresses its own PE too: the
    # zero-load arithmetic of both conventions says by how much (figures.round_trip).
    paper_convention = r.round_trip_mean - (calc.model_mean - calc.paper_mean)
    return Measured(paper_convention, f"{int(calc.nodes)} PEs at 0.02 flits/PE/clock: "
                                      f"{r.round_trip_mean:.1f} clocks creation to tail, "
                                      f"{calc.model_mean:.1f} at zero load in that convention")


def _figure7_max(quick: bool, radix: tuple) -> Measured:
    """Figure 7's maximum is a zero-load one (Table 2's latencies, no contention): PE 0 alone
    sends one request to the farthest PE (half of every ring away, the most hops and turns),
    as `hotspot` traffic with every packet to that PE."""
    k = np.asarray(radix)
    far = int(np.ravel_multi_index(tuple(k // 2), tuple(k), order="F"))  # X fastest
    r = simulate(machine(radix, pattern="hotspot", hotspot_nodes=[far], hotspot_fraction=1.0,
                         sender_every=int(k.prod()), offered=4.0, max_packets=1, warmup=0,
                         measure=50, drain=500))
    calc = figures.round_trip(radix)
    # Each way 1 clock (sent the clock after creation) and 1 of serialisation (2-flit packets).
    paper_convention = r.round_trip_max - (calc.model_max - calc.paper_max)
    return Measured(paper_convention, f"{int(calc.nodes)} PEs: PE 0 to "
                                      f"{tuple(int(x) for x in k // 2)}, "
                                      f"{r.round_trip_max:.0f} clocks creation to tail; the "
                                      "largest under uniform traffic at 0.02 comes to "
                                      f"{_light_max(radix, quick):.0f} (contention)")


@functools.lru_cache(maxsize=None)
def _light_max(radix: tuple, quick: bool) -> float:
    r = simulate(machine(radix, pattern="uniform", offered=0.02, warmup=200,
                         measure=800 if quick else 4000, drain=1000))
    calc = figures.round_trip(radix)
    return float(r.round_trip_max - (calc.model_max - calc.paper_max))


# -- Figure 8 (section 11) ------------------------------------------------------------------

@functools.lru_cache(maxsize=None)
def _peak(radix: tuple, quick: bool):
    """Uniform traffic at fractions of the machine's bound; the run that carries the most
    (adaptive routing's knee is near 0.7 of the bound from 512 PEs on, and it falls past it).
    Quick runs of 4,096 PEs take the knee's fraction alone."""
    bound = figures.global_bandwidth(radix).bound_flits
    window = (dict(warmup=500, measure=800, drain=0) if quick
              else dict(warmup=1500, measure=4000, drain=0))
    if not quick:
        fractions: tuple[float, ...] = (0.6, 0.7, 0.8, 0.9, 1.0)
    elif np.prod(radix) > 1024:
        fractions = (0.7,)
    else:
        fractions = (0.7, 0.85, 1.0)
    runs = [simulate(machine(radix, pattern="uniform", offered=round(f * bound, 4), **window))
            for f in fractions]
    return max(runs, key=lambda r: r.accepted)


def _sustained(radix: tuple, quick: bool) -> Measured:
    bw = figures.global_bandwidth(radix)
    r = _peak(radix, quick)
    payload = r.accepted * figures.LINK_MB_S * 0.25  # Table 4: single-word Gets, 25%
    return Measured(payload, f"{'x'.join(map(str, radix))}: {r.accepted:.3f} flits/PE/clock "
                             f"at best, {r.accepted / bw.bound_flits:.1%} of Figure 8's "
                             f"{bw['global']:.0f} MB/s")


def _port_over_links(radix: tuple, quick: bool) -> Measured:
    """Ejection-port use (accepted) over the mean use of the busiest dimension's links, at half
    the machine's bound: under uniform traffic the ratio is the routes' geometry, so it says
    which binds at saturation."""
    bound = figures.global_bandwidth(radix).bound_flits
    r = simulate(machine(radix, pattern="uniform", offered=round(0.5 * bound, 4), warmup=300,
                         measure=600 if quick else 3000, drain=0))
    u = np.asarray(r.link_utilization)  # [router, port]: ports 1 + 2d, 2 + 2d (R_ORIENT 0)
    dims = [u[:, [1 + 2 * d, 2 + 2 * d]].mean() if radix[d] > 1 else 0.0 for d in range(3)]
    busiest = int(np.argmax(dims))
    return Measured(r.accepted / dims[busiest],
                    f"at half the bound: PE port {r.accepted:.3f} flits/clock, links by "
                    "dimension " + ", ".join(f"{'XYZ'[d]} {x:.3f}" for d, x in enumerate(dims))
                    + f" (busiest {'XYZ'[busiest]})")


def _scaling(a: tuple, b: tuple, quick: bool) -> Measured:
    ra, rb = _peak(a, quick), _peak(b, quick)
    return Measured(rb.accepted / ra.accepted,
                    f"{'x'.join(map(str, b))} sustains {rb.accepted:.3f}, "
                    f"{'x'.join(map(str, a))} {ra.accepted:.3f} flits/PE/clock at best")


def _bound_ratio(a: tuple, b: tuple) -> Measured:
    ga, gb = figures.global_bandwidth(a), figures.global_bandwidth(b)
    return Measured(gb["global"] / ga["global"],
                    f"{'x'.join(map(str, b))}: {gb['global']:.1f} MB/s per PE (bisection "
                    f"{gb.bisection_gb_s:.1f} GB/s); {'x'.join(map(str, a))}: "
                    f"{ga['global']:.1f} ({ga.bisection_gb_s:.1f} GB/s)")


FIG8_CAUSE = (
    "From 128 PEs on the model sustains about 70% of Figure 8's bound (4x4x4, where only the "
    "port binds: 92%). Figure 8 counts channel capacity only. Changed one at a time on 8x8x8 "
    "(uniform single-word Gets, 2,500-4,000 clocks, fractions of the bound): buffers of 64 "
    "flits on every VC 0.714 (0.697 with the T3E's 12 and 22); the optimised R_VCSEL tables "
    "0.699 adaptive (deterministic routing on them carries 0.597 at 0.6 and is not yet "
    "saturated, against 0.36 past its knee on time of crossing); requests kept off the "
    "adaptive VC 0.53. None reaches the bound: adaptive routing saturates near 0.7 of it and "
    "falls past it (t3e.adaptive.uniform_saturated), and what the links could carry beyond is "
    "lost to contention (random destinations, packets queued behind each other), which the "
    "paper's arithmetic leaves out. The paper measured none of this: Figure 8 is the bound, "
    "which the model's topology gives exactly (t3e.figure8.bisection).")

ADAPTIVE_CAUSE = (
    "Past its knee adaptive routing falls below deterministic routing (8x4x4, uniform, offered "
    "1.0: adaptive 0.465 against 0.596; 0.70 before the knee). Changed one at a time "
    "(tests/python/test_t3e_saturation.py's machine, 10,000 clocks): outstanding requests per PE "
    "limited to 128 (the paper's \"well over a kilobyte\" of 8-byte Gets) 0.474, 256 0.465, 64 "
    "0.596, 32 0.726, 16 0.651; a response queue of 1,000 0.567; single-word Puts 0.61; every "
    "request ordered (requests never adapt, their responses do: paper section 5) 0.624, above "
    "deterministic. The cause is the one adaptive VC shared by requests and responses (section "
    "5: \"the fifth channel is used for adaptive routing of request and response packets\"): a "
    "request at the head of an adaptive buffer waits for its deterministic request VC, which "
    "backs up from PEs whose response queues are full, and the responses queued behind it wait "
    "with it. The documents give no outstanding limit (only its lower bound) and no other "
    "sharing rule; the paper measures nothing past saturation.")


@functools.lru_cache(maxsize=None)
def _past_knee(quick: bool, pattern: str, radix: tuple) -> tuple[float, float]:
    window = dict(warmup=1000, measure=3000, drain=0) if quick else dict(warmup=2000,
                                                                           measure=10000, drain=0)
    got = [simulate(machine(radix, pattern=pattern, offered=1.0, adaptive=a, **window)).accepted
           for a in (True, False)]
    return got[0], got[1]


def _adaptive_gain(quick: bool, pattern: str, radix: tuple) -> Measured:
    a, d = _past_knee(quick, pattern, radix)
    return Measured(a / d, f"{'x'.join(map(str, radix))} {pattern}, offered 1.0: adaptive "
                           f"{a:.3f}, deterministic {d:.3f} flits/PE/clock")


# -- Section 5: admission to the adaptive VC (t3e.adaptive_admission) ------------------------

CORESIDE_CAUSE = (
    "Past the knee co-residence carries less than Duato's rule (8x4x4, uniform, the four "
    "packet types alike, offered 1.0, seed 1: 0.561 against 0.599 flits/PE/clock; single-word "
    "Gets alone 0.465 against 0.641). Changed one at a time (2,000 + 10,000 clocks, seed 1, the "
    "mix): up to its knee co-residence carries more (offered 0.65: 0.648 against 0.624; 0.7: "
    "0.632 against 0.586, 1.08); with the post-knee collapse of t3e.adaptive.uniform_saturated "
    "removed by limiting each PE to 32 or 16 outstanding requests, 0.640 against 0.619 (1.03) "
    "and 0.659 against 0.632 (1.04); with every request ordered (only responses adapt) 0.511 "
    "against 0.506. The empty-buffer rule lets fewer packets into the adaptive VC (0.28 of the "
    "link flits against 0.39), and past the knee that is a gain: fewer responses queue in "
    "adaptive buffers behind requests that wait for their deterministic VC, the collapse "
    "t3e.adaptive.uniform_saturated traces (one adaptive VC shared by requests and "
    "responses). The paper measures nothing past saturation; on transposes "
    "(t3e.adaptive.coreside_transpose) and up to the knee the claim holds.")


@functools.lru_cache(maxsize=None)
def _admission(quick: bool, pattern: str, radix: tuple, rule: str, seed: int = 1,
               offered: float = 1.0):
    """Offered 1.0 (as _past_knee; or `offered`) of Table 3's four packet types in equal
    measure, so that the 10-flit packets the adaptive buffers are sized against travel too,
    under adaptive admission `rule`: (accepted, mean link utilisation, adaptive share), or the
    watchdog's words."""
    window = dict(warmup=1000, measure=3000, drain=0) if quick else dict(warmup=2000,
                                                                           measure=10000, drain=0)
    try:
        r = simulate(machine(radix, pattern=pattern, offered=offered, packet_mix=[1, 1, 1, 1],
                             adaptive_admission=rule, seed=seed, **window))
    except SimulationError as e:  # "flit" admission may deadlock (t3e.adaptive_admission)
        return str(e).split(";")[0]
    return r.accepted, r.link_util_mean, r.adaptive_fraction


def _admission_text(got) -> str:
    return got if isinstance(got, str) else (f"accepted {got[0]:.3f}, links {got[1]:.3f}, "
                                             f"adaptive {got[2]:.2f}")


def _whole_packet_cost(quick: bool, pattern: str, radix: tuple, offered: float = 1.0) -> Measured:
    """Link utilisation with whole-packet admission over flit-credit admission; a flit-credit
    run that deadlocks carried nothing past its deadlock (ratio infinite)."""
    p, f = (_admission(quick, pattern, radix, rule, offered=offered)
            for rule in ("packet", "flit"))
    assert not isinstance(p, str), p  # the T3E's rule never deadlocks
    ratio = p[1] / f[1] if not isinstance(f, str) else float("inf")
    return Measured(ratio, f"{'x'.join(map(str, radix))} {pattern}: whole packet "
                           f"{_admission_text(p)}; flit credits {_admission_text(f)}")


CORESIDE = ("Allowing multiple packets to co-reside in an adaptive VC buffer improves pipelining, "
            "avoiding bubbles introduced by waiting for the buffer to drain before routing into "
            "it")  # section 5: one quote, measured on a transpose and on uniform traffic


def _coresidence_gain(quick: bool, pattern: str, radix: tuple) -> Measured:
    """Accepted with co-residence (the T3E's rule) over Duato's empty-buffer rule, the least of
    seeds 1-3."""
    got = {rule: [_admission(quick, pattern, radix, rule, s) for s in (1, 2, 3)]
           for rule in ("packet", "empty")}
    gains = [p[0] / e[0] for p, e in zip(got["packet"], got["empty"])]
    return Measured(min(gains), f"{'x'.join(map(str, radix))} {pattern}, accepted seeds 1-3: "
                    "co-residing " + ", ".join(f"{p[0]:.3f}" for p in got["packet"])
                    + "; empty buffer " + ", ".join(f"{e[0]:.3f}" for e in got["empty"])
                    + f" (adaptive share {got['packet'][0][2]:.2f} against "
                      f"{got['empty'][0][2]:.2f})")


# -- Sections 1, 5, 6, 8 ----------------------------------------------------------------------

def _initial_credits(vc: int) -> float:
    sim = Simulator(machine((4, 4, 1)))
    credits = sim.state("credits")  # [router, port, vc] of the one instance
    return float(credits[:, 1:, vc].max())


@functools.lru_cache(maxsize=None)
def _vcs_holding(adaptive: bool, tables: str = "time_of_crossing") -> np.ndarray:
    """[port, VC] flit-clocks buffered at the inputs of a loaded 8x8x1 (uniform single-word
    Gets at 0.6, clocks 1-400; rings of 8, so that routes pass their dateline, as none does in
    a ring of 4) with R_VCSEL `tables`: which of the 7 x 5 input VCs the model uses."""
    sim = Simulator(machine((8, 8, 1), pattern="uniform", offered=0.6, adaptive=adaptive))
    load_vcsel(sim, tables)
    seen = np.zeros(sim.state("occupancy").shape[1:], dtype=np.int64)
    for _ in range(400):
        sim.step(1)
        seen += sim.state("occupancy").sum(axis=0, dtype=np.int64)
    return seen


def _vcs_used(ports: slice, adaptive: bool) -> Measured:
    used = _vcs_holding(adaptive)[ports].sum(axis=0) > 0
    return Measured(int(used.sum()), f"VCs that held flits: {np.flatnonzero(used).tolist()} of "
                                     f"{used.size} (0, 1 requests, 2, 3 responses, 4 adaptive)")


def _node_interface_vcs() -> Measured:
    """The VCs of the router's input from its PE that hold flits, with the optimised R_VCSEL
    tables (whose first hops select either VC of a pair), adaptive; and with time of crossing."""
    used = {t: np.flatnonzero(_vcs_holding(True, t)[0] > 0).tolist()
            for t in ("optimized", "time_of_crossing")}
    return Measured(len(used["optimized"]), f"VCs that held flits (0, 1 requests, 2, 3 responses, "
                    f"4 adaptive): optimised tables {used['optimized']}, time of crossing "
                    f"{used['time_of_crossing']} (every first hop selects VC0)")


def _network_ports() -> Measured:
    r = simulate(machine((4, 4, 4), pattern="uniform", offered=0.5, warmup=100, measure=300))
    u = np.asarray(r.link_utilization)  # [router, port], port 0 the PE
    both = (u[:, 1:] > 0).sum(axis=1)  # every link is a port's output and its peer's input
    return Measured(int(both.min()), f"4x4x4, uniform: {int(both.min())} to {int(both.max())} "
                                     f"network ports per router carry flits; {u.shape[1]} ports "
                                     "with the PE's")


def _largest_accepted(mode: str, shapes) -> tuple[tuple | None, str]:
    """The largest of `shapes` whose machine t3e.lut_mode `mode` accepts, and the refusals."""
    best, refused = None, []
    for radix in shapes:
        try:
            machine(radix, lut_mode=mode, logical_format="format1")
            best = radix
        except ValueError as e:
            refused.append(str(e))
    return best, "; ".join(refused)


def _lut_mode0_limit() -> Measured:
    best, refused = _largest_accepted("mode0", [(8, 8, 8), (8, 4, 17), (6, 7, 13)])
    return Measured(float(np.prod(best)) if best else 0.0,
                    f"mode0 accepted up to {best}; refused: {refused}")


def _lut_entries_at_2176(quick: bool) -> Measured:
    """R_NET_LUT entries of the largest machine mode 1 accepts, which carries uniform traffic
    (a packet at the wrong PE stops the run: invariants.hpp)."""
    best, refused = _largest_accepted("mode1", [(8, 16, 17), (8, 16, 18)])
    if best is None:
        return Measured(0.0, f"mode1 refused every size: {refused}")
    cfg = machine(best, lut_mode="mode1", logical_format="format1", pattern="uniform",
                  offered=0.1, warmup=50, measure=200 if quick else 1000, drain=0)
    entries = Simulator(cfg).state("r_net_lut").shape[-1]
    r = simulate(cfg)
    return Measured(entries, f"mode1 accepted up to {best} ({int(np.prod(best))} PEs, "
                             f"{entries} R_NET_LUT entries each); refused: {refused}; uniform "
                             f"at 0.1: {r.accepted:.3f} flits/PE/clock delivered, "
                             f"{r.unroutable_packets:g} unroutable")


def _outstanding_bytes(quick: bool) -> Measured:
    """The model's limit (t3e.outstanding, 0: none) in bytes of single-word Gets, and what a
    saturated 4x4x4 reaches."""
    limit = machine((4, 4, 4)).get("t3e.outstanding")
    sim = Simulator(machine((4, 4, 4), pattern="uniform", offered=1.0))
    sim.step(1000 if quick else 4000)
    most = int(sim.state("outstanding").max())
    return Measured(8.0 * limit if limit else float("inf"),
                    f"t3e.outstanding = {limit} (no limit); a saturated 4x4x4 had up to {most} "
                    "single-word Gets (8 bytes each) outstanding at a PE")


@functools.lru_cache(maxsize=None)
def _sync_latencies(quick: bool):
    """ls.t3e.barrier.latency_vs_size's row of 4x4x4 (quick) or 8x32x8 (2,048 PEs)."""
    shape = (4, 4, 4) if quick else (8, 32, 8)
    return barrier.latency_vs_size([shape], rounds=4 if quick else 8).iloc[0]


def _eureka_over_read(quick: bool) -> Measured:
    row = _sync_latencies(quick)
    return Measured(row.eureka_mean / row.round_trip_mean,
                    f"{row.name}: eureka notifications {row.eureka_mean:.0f} clocks after the "
                    f"trigger's round began (last {row.eureka_max:.0f}), barrier "
                    f"{row.barrier_mean:.0f}, single-word Get round trip "
                    f"{row.round_trip_mean:.0f} clocks at light load")


def _barrier_over_read(quick: bool) -> Measured:
    row = _sync_latencies(quick)
    return Measured(row.barrier_mean / row.round_trip_mean,
                    f"{row.name}: barrier {row.barrier_mean:.0f} clocks (last "
                    f"{row.barrier_max:.0f}), eureka {row.eureka_mean:.0f}, single-word Get "
                    f"round trip {row.round_trip_mean:.0f} clocks at light load")


def _special_under_barriers(data: bool = False) -> Measured:
    """20 SPUTs over 4 hops among barrier packets, or (`data`) among uniform single-word Gets
    offered 1.0 (past the knee: data VCs full): R_SW written 25 clocks after each is sent, and
    special packets eaten."""
    keys = (dict(pattern="uniform", offered=1.0) if data else
            dict(barrier="barrier", barrier_bsus=32, barrier_period=40))
    sim = Simulator(machine((4, 4, 2), **keys))
    sim.step(100)
    route, far = [0, 2, 0, 1, 0, 1], 1 + 4 * 2 + 16
    late = 0
    for i in range(1, 21):
        special.sput(sim, 0, route, "R_SW", i)
        sim.step(25)
        late += int(sim.state("r_sw")[far] != i)
        sim.step(i % 7)
    eaten = int(sim.state("special_eaten").sum())
    among = (f"uniform data at offered 1.0 ({int(sim.state('occupancy').sum())} flits buffered)"
             if data else "barrier packets (32 BSUs every 40 clocks)")
    return Measured(eaten, f"20 SPUTs over 4 hops among {among}: {20 - late} arrived on time, "
                           f"{eaten} eaten")


# -- Sections 6, 7, 8, 9 and 2: barriers under load, progress, special collisions, paths -----

@functools.lru_cache(maxsize=None)
def _barriers(quick: bool, offered: float):
    """Barrier rounds of all 32 BSUs (every PE a member) under uniform data at `offered`:
    4x4x4 quick, 8x8x8 full, a round every 100 / 150 clocks (the last BSU's completion takes
    2 h (D + 1) + 31 clocks: 73 / 109), 4 / 10 rounds measured."""
    radix, period = ((4, 4, 4), 100) if quick else ((8, 8, 8), 150)
    rounds = 4 if quick else 10
    r = simulate(machine(radix, pattern="uniform", offered=offered, barrier="barrier",
                         barrier_bsus=32, barrier_period=period, warmup=2 * period,
                         measure=rounds * period, drain=0))
    return r, int(np.prod(radix)), rounds


def _bsus_per_round(quick: bool) -> Measured:
    r, pes, rounds = _barriers(quick, 0.0)
    shape = Simulator(machine((2, 2, 1))).state("r_bsu").shape
    return Measured(r.barrier_completions / (pes * rounds),
                    f"{r.barrier_completions:g} completions of {pes} PEs in {rounds} rounds, "
                    f"{r.barrier_overruns:g} overruns; r_bsu {list(shape)} [router, BSU]")


def _barrier_loaded(quick: bool) -> Measured:
    (idle, pes, _), (busy, _, _) = _barriers(quick, 0.0), _barriers(quick, 1.0)
    return Measured(busy.barrier_latency_mean / idle.barrier_latency_mean,
                    f"{pes} PEs, 32 BSUs: barrier latency mean/last {idle.barrier_latency_mean:.2f}"
                    f"/{idle.barrier_latency_max:.0f} clocks with no data, "
                    f"{busy.barrier_latency_mean:.2f}/{busy.barrier_latency_max:.0f} under "
                    f"uniform data offered 1.0 (accepted {busy.accepted:.3f} flits/PE/clock), "
                    f"completions {idle.barrier_completions:g} and {busy.barrier_completions:g}")


def _drains(quick: bool, pattern: str, tables: str = "time_of_crossing", radix=None,
            **keys) -> Measured:
    """Every PE sends a fixed number of requests at a PE's full rate (offered 1.0, past the
    knee), then stops: forward progress means every request and its response arrive. The
    flits delivered over those sent, after the machine has had ample time to empty. `tables`:
    the R_VCSEL tables (ls.t3e.load_vcsel; time of crossing is the default); `radix` and
    `keys`: another machine."""
    radix = radix or ((4, 4, 4) if quick else ((8, 8, 8) if pattern == "uniform"
                                               else (8, 8, 4)))
    each = 300 if quick else 3000
    sim = Simulator(machine(radix, pattern=pattern, offered=1.0, max_packets=each, warmup=0,
                            measure=1, drain=0, **keys))
    if tables != "time_of_crossing":
        load_vcsel(sim, tables)
    pes, clocks = int((sim.state("r_lwho") != 0xFFFFFFFF).sum()), 0  # a partial plane's slots
    want = 4 * each * pes  # Table 3: 2 + 2 flits a single-word Get
    while clocks < 40 * each:  # 4 x each clocks to inject them at 1 flit/clock
        sim.step(500)
        clocks += 500
        if (int(sim.state("ejected_flits").sum()) == want
                and not sim.state("outstanding").any()):
            break
    got = int(sim.state("ejected_flits").sum())
    per_pe = sim.state("ejected_flits")[sim.state("r_lwho") != 0xFFFFFFFF]
    return Measured(got / want,
                    f"{'x'.join(map(str, radix))} {pattern}, "
                    + ("" if tables == "time_of_crossing" else f"{tables} R_VCSEL tables, ")
                    + f"{each} single-word Gets from each PE at offered 1.0: {got} of {want} "
                    f"flits delivered within {clocks} clocks, every PE's requests answered: "
                    f"{not sim.state('outstanding').any()}; flits ejected per PE "
                    f"{int(per_pe.min())} to {int(per_pe.max())}")


@functools.lru_cache(maxsize=None)
def _special_collision(apart: int = 0) -> tuple[int, dict]:
    """Two SPUTs on the 4x4x1 torus that reach router (1, 0) in the same clock (`apart` 0) and
    both leave it by +Y: A from (0, 0), deltas X +1, Y +2, ends at (1, 2); B from (1, 3), Y +2,
    ends at (1, 1). Returns special_eaten and the R_SW words written, by router."""
    sim = Simulator(machine((4, 4, 1)))
    special.sput(sim, 0, [1, 2, 0], "R_SW", 0xA)
    sim.step(apart)
    special.sput(sim, 1 + 4 * 3, [0, 2, 0], "R_SW", 0xB)
    sim.step(40)
    written = {int(r): int(v) for r, v in enumerate(sim.state("r_sw")) if v}
    return int(sim.state("special_eaten").sum()), written


def _collision_text(eaten: int, written: dict) -> str:
    names = {9: "A's (1, 2)", 5: "B's (1, 1)"}
    return (f"{eaten} eaten; R_SW written: "
            + (", ".join(f"{names.get(r, r)} = {v:#x}" for r, v in written.items()) or "none"))


def _special_eaten() -> Measured:
    eaten, written = _special_collision()
    return Measured(eaten, _collision_text(eaten, written) + "; sent a clock apart: "
                    + _collision_text(*_special_collision(1)))


def _special_survivor() -> Measured:
    eaten, written = _special_collision()
    ok = sum(written.get(r) == v for r, v in ((9, 0xA), (5, 0xB)))
    return Measured(ok, f"{ok} of the two SPUTs write R_SW at their end: "
                    + _collision_text(eaten, written) + "; sent a clock apart: "
                    + _collision_text(*_special_collision(1)))


def _dateline_routes(k: int, offset: int) -> int:
    """Routes of the tornado (s -> s + offset, +) of a k-node ring that travel through its
    + dateline node 0 and go on past it."""
    return sum(s + offset > k for s in range(k))


def _vcsel_lost() -> Measured:
    """8x1x1, deterministic, one request from every PE to the PE 3 hops + (tornado): for each
    source in turn, every SELECT bit of its +X R_VCSEL set to 1 (the software error the manual
    warns of), the requests that never arrive. One source at a time: a stopped packet holds
    its VC1 buffer, and packets queued behind it would be lost with it (they are: all eight
    set at once lose 3 requests where 2 routes cross)."""
    k, lost, errors = 8, 0, 0
    for s in range(k):
        sim = Simulator(machine((k, 1, 1), pattern="tornado", offered=4.0, max_packets=1,
                                adaptive=False, warmup=0, measure=100, drain=100))
        v = sim.state("r_vcsel")
        v[s, 0] |= np.uint64(0xFF)  # +X, R_ORIENT 0
        sim.set_state("r_vcsel", v)
        try:
            sim.run()
        except SimulationError:  # the model reports the stopped packet as a configuration error
            errors += 1
        lost += (4 * k - int(sim.state("ejected_flits").sum())) // 4  # request and response
    return Measured(lost, f"requests lost {lost}, runs reporting a stopped packet {errors} of "
                          f"{k}; routes through the dateline {_dateline_routes(k, 3)}")


def _eight_paths(initial=(3,)) -> Measured:
    """4x4x4, deterministic: PE 0's R_NET_LUT entry for (1, 1, 1) with each of the 8 choices of
    X_SGN, Y_SGN, Z_SGN (and each INITIAL_HOP of `initial`: 3 none, 0-2 +X, +Y, +Z); one
    request from PE 0 alone. Distinct sets of links used among the round trips that complete
    (the response's route is the same in all)."""
    cfg = machine((4, 4, 4), pattern="tornado", offered=4.0, max_packets=1, sender_every=64,
                  adaptive=False, warmup=0, measure=200, drain=200)
    dest, sets, trips = 1 + 4 + 16, set(), []
    for hop in initial:
        for signs in range(8):
            sim = Simulator(cfg)
            lut = sim.state("r_net_lut")
            tag = int(lut[0, dest]) & ~sum(1 << (6 * d + 5) for d in range(3))
            tag |= sum((signs >> d & 1) << (6 * d + 5) for d in range(3))
            lut[0, dest] = _with_initial_hop(tag, hop)
            sim.set_state("r_net_lut", lut)
            r = sim.run()
            assert not isinstance(r, list)  # one instance
            if int(sim.state("ejected_flits")[dest]) == 2 and r.lost == 0:
                sets.add(frozenset(map(tuple, np.argwhere(sim.state("link_flits")[:, 1:] > 0))))
                trips.append(f"{r.round_trip_mean:.0f}")
    tags = "8 sign choices" if len(initial) == 1 else f"{8 * len(initial)} tags"
    return Measured(len(sets), f"round trips (clocks) of the {tags}: {', '.join(trips)}")


def _every_pair(quick: bool, machines: tuple) -> Measured:
    """Uniform traffic at 0.1 on each machine: pairs without a route (the host's tables),
    requests lost or unroutable; and how many R_NET_LUT entries take an initial or final hop."""
    bad, parts = 0, []
    for name, radix, keys in machines:
        cfg = machine(radix, pattern="uniform", offered=0.1, warmup=200,
                      measure=500 if quick else 4000, drain=2000, **dict(keys))
        sim = Simulator(cfg)
        tags = sim.state("r_net_lut").astype(np.int64)
        r = sim.run()
        assert not isinstance(r, list)  # one instance
        initial = int(((tags >> 18 & 3) != 3).sum())
        final = int((tags >> 20 & 1).sum())
        bad += int(r.unreachable_pairs + r.lost + r.unroutable_packets)
        parts.append(f"{name}: {r.unreachable_pairs:g} unreachable pairs, {r.lost:g} lost, "
                     f"{r.unroutable_packets:g} unroutable of {r.packets:g} packets; "
                     f"{initial} entries with an initial hop, {final} with a final -Z hop")
    return Measured(bad, "; ".join(parts))


PARTIAL_PLANES = (("the 20-PE AC machine (2x4x3, partial plane 2x2)", (2, 4, 3),
                   (("partial_plane", (2, 2)),)),
                  ("424 PEs (8x8x7, partial plane 8x5)", (8, 8, 7), (("partial_plane", (8, 5)),)))
# Figure 4: two broken Y links cut a string of nodes off the rest of their Y ring.
BROKEN_Y = (("4x4x1, (0, 1) and (0, 2) cut off", (4, 4, 1), (("failed_links", (0, 0, 0, 1,
                                                                              0, 2, 0, 1)),)),)
BROKEN_Y_FULL = BROKEN_Y + (("8x8x4, (0, 1..3, 0) cut off", (8, 8, 4),
                             (("failed_links", (0, 0, 0, 1, 0, 3, 0, 1)),)),)


@functools.lru_cache(maxsize=None)
def _turns_straight(radix: tuple) -> tuple[float, float]:
    """Mean turning and straight-through routers per route from PE 0 to every other PE,
    read off the model's zero-load timing: one request of PE 0 alone to each destination (a
    batch of `hotspot` runs), whose one-way time between the end points is 3 clocks per
    straight router and 6 per turning one (Table 2), with hops - 1 routers between."""
    n = int(np.prod(radix))
    runs = Simulator([machine(radix, pattern="hotspot", hotspot_nodes=[d], hotspot_fraction=1.0,
                              sender_every=n, offered=4.0, max_packets=1, warmup=0,
                              measure=20, drain=400) for d in range(1, n)]).run()
    assert isinstance(runs, list)  # one instance per destination
    trip = np.array([r.round_trip_mean for r in runs])
    hops = np.array([r.hops_mean for r in runs])
    # round trip = 2 x (1 clock to leave + 2 end points + between) + 2 (second flits)
    between = (trip - 4) / 2 - 2 * figures.TABLE2["end_point"]
    turns = (between - figures.TABLE2["straight"] * (hops - 1)) / (
        figures.TABLE2["turn"] - figures.TABLE2["straight"])
    return float(turns.mean()), float((hops - 1 - turns).mean())


def _turns_over_straight(radix: tuple) -> Measured:
    t, st = _turns_straight(radix)
    return Measured(t / st, f"{'x'.join(map(str, radix))}, PE 0 to the other "
                            f"{int(np.prod(radix)) - 1}: {t:.3f} turning and {st:.3f} "
                            "straight-through routers per route")


@functools.lru_cache(maxsize=None)
def _hierarchy(quick: bool) -> dict:
    """{ring: (whole-ring-only table, hierarchical table)}: vc_anneal's 8-entry tables for rings
    of 16 and 32 with the same seed and steps, annealed once for the whole ring alone (its
    weight 10^4 against the subrings' 1) and once for the hierarchy (the default weights, no
    caps from the printed Table 1)."""
    steps = 500 if quick else 3000
    return {k: (vc_anneal.anneal(k, False, steps, whole_ring=1e4),
                vc_anneal.anneal(k, False, steps)) for k in (16, 32)}


def _hierarchy_subrings(quick: bool) -> Measured:
    ratios, parts = [], []
    for k, (flat, hier) in _hierarchy(quick).items():
        for m in vc_anneal.levels(k)[1:]:
            f, h = vc_balance(k, m, flat)[0], vc_balance(k, m, hier)[0]
            ratios.append(h / f)
            parts.append(f"ring {k} sub {m}: {h:.3f} against {f:.3f}")
    return Measured(max(ratios), "subring average balance, hierarchical against whole ring "
                                 "only: " + "; ".join(parts))


def _hierarchy_global(quick: bool) -> Measured:
    shares, parts = [], []
    for k, (flat, hier) in _hierarchy(quick).items():
        f, h, toc = (vc_balance(k, k, t)[0] for t in (flat, hier, "time_of_crossing"))
        shares.append((h - f) / (toc - f))
        parts.append(f"ring {k}: {h:.3f} hierarchical, {f:.3f} whole ring only, {toc:.3f} time "
                     "of crossing")
    return Measured(max(shares), "whole-ring average balance: " + "; ".join(parts))


# -- The manual (002) -----------------------------------------------------------------------

TABLE13 = [(0, 0, 0, 1, 0, 0), (1, 0, 0, 1, 0, 0), (0, 0, 1, 0, 0, 0), (1, 0, 1, 0, 0, 0),
           (0, 0, 0, 1, 1, 0), (1, 0, 0, 1, 1, 0), (0, 0, 1, 0, 1, 0), (1, 0, 1, 0, 1, 0),
           (0, 0, 2, 0, 0, 0), (1, 0, 2, 0, 0, 0), (0, 0, 3, 0, 0, 0), (1, 0, 3, 0, 0, 0),
           (0, 0, 2, 0, 1, 0), (1, 0, 2, 0, 1, 0), (0, 0, 3, 0, 1, 0), (1, 0, 3, 0, 1, 0)]
TABLE14 = [(0, 0, 0, 1, 0, 0), (0, 0, 0, 1, 1, 0), (0, 0, 2, 0, 0, 0), (0, 0, 2, 0, 1, 0)]
TABLE15 = list(TABLE14)  # printed the same: mode 2 differs only in the x bits the PE fills
# Table 11: R_LWHO 0-F against its R_NET_LUT register in mode 0 and in modes 1 or 2, as printed.
TABLE11 = [(0, 0), (1, 0), (2, 0), (3, 0), (4, 1), (5, 1), (6, 1), (7, 1), (8, 2), (9, 2),
           (10, 2), (11, 2), (12, 3), (13, 3), (14, 3), (15, 3)]


def _with_initial_hop(tag: int, hop: int) -> int:
    """A routing tag with its INITIAL_HOP field (bits 18-19: 0 +X, 1 +Y, 2 +Z, 3 none) set."""
    return (int(tag) & ~(3 << 18)) | (hop << 18)


def _table11() -> Measured:
    """2x4x2, deterministic: one request from PE 0 to each logical PE 1-F in turn, run once as
    is and with each R_NET_LUT entry of router 0 given an initial +X hop (INITIAL_HOP 0) and an
    initial +Z hop (2), one of which moves any route: the entries whose change moves the
    request's links are those its destination reads. Counted against Table 11's column for the
    mode (row 0 is PE 0 itself, which sends nothing through the network)."""
    agree, seen = 0, []
    for mode, fmt, column in (("mode0", "format1", 0), ("mode1", "format1", 1),
                              ("mode2", "format1_yx", 1)):
        base = machine((2, 4, 2), lut_mode=mode, logical_format=fmt, adaptive=False,
                       pattern="hotspot", hotspot_fraction=1.0, offered=4.0, max_packets=1,
                       sender_every=16, warmup=0, measure=200, drain=200)
        entries = int(Simulator(base.with_(hotspot_nodes=[1])).state("r_net_lut").shape[1])
        for lwho in range(1, 16):
            cfg = base.with_(hotspot_nodes=[lwho])

            def links(entry: int | None = None, hop: int = 3) -> frozenset:
                sim = Simulator(cfg)
                if entry is not None:
                    lut = sim.state("r_net_lut")
                    lut[0, entry] = _with_initial_hop(lut[0, entry], hop)
                    sim.set_state("r_net_lut", lut)
                sim.run()
                return frozenset(map(tuple, np.argwhere(sim.state("link_flits")[:, 1:] > 0)))
            ref = links()
            read = [e for e in range(entries) if links(e, 0) != ref or links(e, 2) != ref]
            agree += read == [TABLE11[lwho][column]]
            if read != [TABLE11[lwho][column]]:
                seen.append(f"{mode} R_LWHO {lwho:X}: {read}")
    return Measured(agree, "rows 1-F in modes 0, 1 and 2; "
                    + ("every one reads the printed register alone" if not seen
                       else "differ: " + "; ".join(seen)))


def _mode3() -> Measured:
    """2x4x2 in mode 3, deterministic, bitcomp (each PE's partner is its complement), one
    request from every PE: for each PE in turn, its R_LUT_OVERRIDE given an initial +X hop and
    an initial +Z hop (INITIAL_HOP 0, 2); the PEs for which either moves flits between links
    read the override. Also: mode 3 gives mode 0's results on paired patterns on 4x4x4."""
    cfg = machine((2, 4, 2), lut_mode="mode3", adaptive=False, pattern="bitcomp", offered=4.0,
                  max_packets=1, warmup=0, measure=200, drain=200)

    def flits(pe: int | None = None, hop: int = 3) -> np.ndarray:
        sim = Simulator(cfg)
        if pe is not None:
            reg = sim.state("r_lut_override")
            router = int(np.flatnonzero(sim.state("r_lwho") == pe)[0])
            reg[router] = _with_initial_hop(reg[router], hop)
            sim.set_state("r_lut_override", reg)
        sim.run()
        return sim.state("link_flits").copy()
    ref = flits()
    read = [pe for pe in range(16)
            if not (np.array_equal(flits(pe, 0), ref) and np.array_equal(flits(pe, 2), ref))]
    same = []
    for pattern in ("bitcomp", "transpose", "bitrev"):
        base = machine((4, 4, 4), adaptive=False, pattern=pattern, offered=0.2, warmup=300,
                       measure=1500)
        a, b = (simulate(base.with_(lut_mode=m)) for m in ("mode0", "mode3"))
        figures = [(r.packets, r.accepted, r.latency_mean, r.link_util_mean) for r in (a, b)]
        same.append(f"{pattern} {'the same' if figures[0] == figures[1] else 'differs'}")
    return Measured(len(read), f"PEs whose packets moved with their override: {len(read)} of "
                    f"16; 4x4x4, mode 3 against mode 0's result: {', '.join(same)}")


def _fields(tag: int) -> tuple:
    """X, Y, Z address and sign of a routing tag (kernels/t3e/routing_tag.hpp's packing)."""
    return tuple(v for d in range(3) for v in ((tag >> 6 * d) & 31, (tag >> (6 * d + 5)) & 1))


def _lut_rows(lut_mode: str, table, logical_format: str = "format1", **keys) -> Measured:
    sim = Simulator(machine((2, 4, 2), lut_mode=lut_mode, logical_format=logical_format,
                            adaptive=False, **keys))
    src = int(np.flatnonzero(sim.state("r_pwho") == 0x000100)[0])
    lut = sim.state("r_net_lut")[src]
    same = [i for i, want in enumerate(table) if _fields(int(lut[i])) == want]
    return Measured(len(same), "differ: " + (", ".join(f"R_NET_LUT[{i}]" for i in
                                                      range(len(table)) if i not in same)
                                            or "none"))


TABLE6 = {  # R_PWHO: Format 1, Format 2 (linear), Format 3
    0x000000: (0, 0, 0), 0x000001: (1, 1, 1), 0x000100: (2, 2, 4), 0x000101: (3, 3, 5),
    0x000200: (8, 4, 8), 0x000201: (9, 5, 9), 0x000300: (10, 6, 12), 0x000301: (11, 7, 13),
    0x010000: (4, 8, 2), 0x010001: (5, 9, 3), 0x010100: (6, 10, 6), 0x010101: (7, 11, 7),
    0x010200: (12, 12, 10), 0x010201: (13, 13, 11), 0x010300: (14, 14, 14),
    0x010301: (15, 15, 15)}


def _table6() -> float:
    hits = 0
    for i, fmt in enumerate(("format1", "linear", "format3")):
        sim = Simulator(machine((2, 4, 2), logical_format=fmt))
        lwho = dict(zip(sim.state("r_pwho").tolist(), sim.state("r_lwho").tolist()))
        hits += sum(lwho[p] == want[i] for p, want in TABLE6.items())
    return hits


def _table7() -> Measured:
    """Table 7's partitions A (base 0, limit 3), B (4, 5), C (13, 2): virtual PE numbers."""
    sim = Simulator(machine((2, 4, 2), partitions=[0, 3, 4, 5, 13, 2]))
    lwho = sim.state("r_lwho")
    base, limit = sim.state("base_lpe"), sim.state("virtual_limit")
    want = {0: 0, 1: 1, 2: 2, 3: 3, 4: 0, 5: 1, 6: 2, 7: 3, 8: 4, 9: 5, 13: 0, 14: 1, 15: 2}
    got = {int(lwho[r]): int(lwho[r] - base[r]) for r in range(16)
           if limit[r] != 0xFFFFFFFF}
    return Measured(sum(got.get(k) == v for k, v in want.items()) + sum(
        k not in got for k in (10, 11, 12)), "16 PEs: 13 in partitions, 3 in none")


def _y2_links() -> Measured:
    r = simulate(machine((2, 2, 2), pattern="uniform", offered=0.5, warmup=200, measure=1000))
    u = np.asarray(r.link_utilization)[:, [3, 4]]  # +Y, -Y ports (R_ORIENT 0)
    used = int((u > 0).sum())
    return Measured(used / 8, f"2x2x2, uniform: {used} of 16 Y ports carry flits")


def _x2_links() -> Measured:
    """2x2x2, uniform at 0.5: X links that carry flits (either way), per pair of nodes. Ties
    go + (t3e.half_ring_tie = "plus"), so that X = 0 sends over one link and X = 1 over the
    other (under the default parity rule both ends pick the same link)."""
    cfg = machine((2, 2, 2), pattern="uniform", offered=0.5, warmup=200, measure=1000,
                  half_ring_tie="plus")
    sim = Simulator(cfg)
    peer = sim.state("peer")  # [router, port]: router x 7 + port at the far end, -1 none
    r = sim.run()
    assert not isinstance(r, list)  # one instance
    u = np.asarray(r.link_utilization)
    links = {frozenset({(int(a), p), divmod(int(peer[a, p]), 7)})
             for a in range(8) for p in (1, 2) if u[a, p] > 0}
    wired = int((peer[:, 1:3] >= 0).sum()) // 2
    return Measured(len(links) / 4, f"2x2x2, uniform: {len(links)} X links carry flits, "
                                    f"{wired} wired, between 4 pairs of nodes")


def _sget_return_hops() -> Measured:
    """4x4x2: PE 0 loads R_SGET_RTRN of the router 3 hops away ((1, 2, 0)) with return
    deltas X +3, Y -2, Z +2 (7 hops, a long way back to (0, 0, 0)) and SGETs its R_SW: the
    response's hops from the clocks until it lands (a hop takes t3e.fall_through_turn, 6)."""
    sim = Simulator(machine((4, 4, 2)))
    out, back = [1, 2, 0], [3, -2, 0, 0, 0, 2]
    special.sput(sim, 0, out, "R_SGET_RTRN", special.deltas(back))
    sim.step(1)  # one command per clock
    special.sput(sim, 0, out, "R_SW", 0x5A)
    sim.step(40)
    special.sget(sim, 0, out, "R_SW")
    clocks = 0
    while special.received(sim, 0) is None and clocks < 200:
        sim.step(1)
        clocks += 1
    got = special.received(sim, 0)
    # sent the clock after the command, 3 hops out, the response leaves on arrival
    return Measured((clocks - 1 - 6 * 3) / 6, f"response {got if got is None else hex(got)} at "
                    f"PE 0 {clocks} clocks after the SGET")


def _orientations() -> Measured:
    """4x4x4, one request from every PE to (x + 1, y + 1, z + 1) at clock 0 under each of the
    8 R_ORIENT values (the one value software writes, which the hardware spreads to every
    node): those whose round trips are R_ORIENT 0's, every request answered."""
    got = []
    for o in range(8):
        r = simulate(machine((4, 4, 4), pattern="tornado", offered=4.0, max_packets=1,
                             warmup=0, measure=200, r_orient=o))
        got.append((r.round_trip_mean, r.round_trip_max, r.packets, r.lost))
    same = sum(g == got[0] and g[3] == 0 for g in got)
    return Measured(same, "round trip mean/max, packets, lost by R_ORIENT: "
                    + "; ".join(f"{o}: {m:.1f}/{x:.0f}, {p:g}, {lo:g}"
                                for o, (m, x, p, lo) in enumerate(got)))


FIGURE49_CAUSE = (
    "Z_SGN comes out 0, the manual's own \"Z direction = +\": it prints Z_SGN = 1 beside those "
    "words, while its mode 0, 1 and 2 examples (Figures 46-48) pair + with SGN 0 and - with "
    "SGN 1 in every field, and its Table 13 prints Z_SGN 0 for this very entry (R_NET_LUT[15] "
    "of 000100; t3e.manual.table13 matches all 16 entries). On this Z ring of two both signs "
    "reach Z = 1 in one hop, so either bit routes the packet; the model's tie rules (parity "
    "and plus) both go + from Z = 0. Read by its words the entry matches 9 of 9; the other "
    "eight fields match as printed.")
FIGURE49 = {"INITIAL_HOP": 3, "X_SGN": 0, "X_ADR": 1, "Y_SGN": 0, "Y_ADR": 3, "Z_SGN": 1,
            "Z_ADR": 1, "FINAL_HOP": 0, "ADAPT": 1}


def _figure49() -> Measured:
    sim = Simulator(machine((2, 4, 2), lut_mode="mode0", logical_format="format1",
                            half_ring_tie="plus"))
    src = int(np.flatnonzero(sim.state("r_pwho") == 0x000100)[0])
    tag = int(sim.state("r_net_lut")[src, 15])
    x, xs, y, ys, z, zs = _fields(tag)
    got = {"INITIAL_HOP": tag >> 18 & 3, "X_SGN": xs, "X_ADR": x, "Y_SGN": ys, "Y_ADR": y,
           "Z_SGN": zs, "Z_ADR": z, "FINAL_HOP": tag >> 20 & 1, "ADAPT": tag >> 21 & 1}
    return Measured(sum(got[f] == v for f, v in FIGURE49.items()),
                    "differ: " + (", ".join(f"{f} {got[f]} (printed {v})" for f, v in
                                            FIGURE49.items() if got[f] != v) or "none"))


def _ignore_normal() -> Measured:
    sim = Simulator(machine((4, 4, 1), pattern="uniform", offered=0.6))
    chan = sim.state("r_chan")
    chan[:, 3] |= 1  # IGNORE_NORMAL on every router's -X channel (R_CHAN3)
    sim.set_state("r_chan", chan)
    adaptive = deterministic = 0
    for _ in range(500):
        sim.step(1)
        occ = sim.state("occupancy")[:, 2]  # the -X input ports (R_ORIENT 0), five VCs
        adaptive += int(occ[:, 4].sum())
        deterministic += int(occ[:, :4].sum())
    return Measured(adaptive, f"flit-clocks buffered at the cut inputs over 500 clocks: "
                              f"adaptive VC {adaptive}, direction-order VCs {deterministic}; "
                              f"dropped {int(sim.state('dropped_flits').sum())} flits")


def _no_adapt() -> Measured:
    """Adaptive flits sent out of every router's -Y port (R_ORIENT 0: port 4) with NO_ADAPT in
    R_CHAN4 (-Y, the direction adaptive requests ask for most: the highest-ordered one left),
    and without it."""
    got = {}
    for on in (True, False):
        sim = Simulator(machine((4, 4, 1), pattern="uniform", offered=0.6, warmup=100,
                                measure=500, drain=0))
        if on:
            chan = sim.state("r_chan")
            chan[:, 4] |= 4  # NO_ADAPT (Table 10 bit 2)
            sim.set_state("r_chan", chan)
        sim.run()  # the window's counters
        ad = sim.state("link_adaptive_flits")
        got[on] = (int(ad[:, 4].sum()), int(ad.sum() - ad[:, 4].sum()))
    return Measured(got[True][0], f"adaptive flits out of -Y, out of the other ports: "
                                  f"{got[True][0]}, {got[True][1]} with NO_ADAPT; "
                                  f"{got[False][0]}, {got[False][1]} without")


def _ignore_spcl() -> Measured:
    """Ten SPUTs from router 0 over 4 hops with IGNORE_SPCL on every router's network channels
    (R_CHAN0-5), and without it: R_SW writes at the far router."""
    far = 1 + 4 * 2 + 16
    got = {}
    for on in (True, False):
        sim = Simulator(machine((4, 4, 2)))
        if on:
            chan = sim.state("r_chan")
            chan[:, :6] |= 2  # IGNORE_SPCL (Table 10 bit 1)
            sim.set_state("r_chan", chan)
        written = 0
        for i in range(1, 11):
            special.sput(sim, 0, [0, 2, 0, 1, 0, 1], "R_SW", i)
            sim.step(30)
            written += int(sim.state("r_sw")[far] == i)
        got[on] = (written, int(sim.state("special_ignored").sum()))
    return Measured(got[True][0], f"of 10 SPUTs: {got[True][0]} written at (1, 2, 1), "
                                  f"{got[True][1]} discarded with IGNORE_SPCL; "
                                  f"{got[False][0]} written, {got[False][1]} discarded without")


def _figure45() -> Measured:
    """Figure 45's deltas on the 20-PE AC machine from (0, 0, 0): they lead to (1, 1, 2)."""
    sim = Simulator(machine((2, 4, 3), partial_plane=[2, 2]))
    pwho = sim.state("r_pwho")
    far = int(np.flatnonzero(pwho == 0x020101)[0])
    special.sput(sim, 0, [0, 2, 1, 1, -1, 1], "R_SW", 0xF45)
    clocks = 0
    while sim.state("r_sw")[far] != 0xF45 and clocks < 100:
        sim.step(1)
        clocks += 1
    # a hop takes fall_through_turn (6) clocks; the command leaves the clock after it is set
    return Measured((clocks - 1) / 6, f"R_SW of (1, 1, 2) written {clocks} clocks after the "
                                      f"SPUT; {int((sim.state('r_sw') != 0).sum())} router(s) "
                                      "written")


# -- Routes hop by hop (sections 2 and 7; the manual's routing lists) ------------------------

DIRS = ("+X", "+Y", "+Z", "-X", "-Y", "-Z")  # direction order (section 2.1)
PORT_DIR = {1: 0, 3: 1, 5: 2, 2: 3, 4: 4, 6: 5}  # R_ORIENT 0: port 1 + 2d is +d, 2 + 2d is -d


def _coords(pwho: int) -> list[int]:
    return [int(pwho) >> 8 * d & 255 for d in range(3)]


def _route(radix: tuple, src: int, dest: int, tag: int | None = None,
           **keys) -> list[tuple[int, bool]]:
    """The hops of one request from router `src` alone to logical PE `dest` at zero load, as
    (direction, on the adaptive VC), `tag` replacing src's R_NET_LUT entry for dest (mode 0).
    The order comes from stepping one clock at a time and watching which inputs a flit is on
    its way to (`flit_belt`: flits at zero load never wait in a buffer); the VC from a second,
    identical run's `link_adaptive_flits` on those links (the response travels the other
    way, on other links)."""
    cfg = machine(radix, pattern="hotspot", hotspot_nodes=[dest], hotspot_fraction=1.0,
                  offered=4.0, max_packets=1, warmup=0, measure=400, drain=0, **keys)
    sims = [Simulator(cfg), Simulator(cfg)]
    for sim in sims:
        made = sim.state("packets_created")
        made[np.arange(made.size) != src] = 1  # every other PE has sent its one packet
        sim.set_state("packets_created", made)
        if tag is not None:
            lut = sim.state("r_net_lut")
            lut[src, dest] = tag
            sim.set_state("r_net_lut", lut)
    sim = sims[0]
    peer = sim.state("peer")  # [router, port]: router x 7 + port at the far end
    link = {divmod(int(peer[r, p]), 7): (r, p) for r in range(peer.shape[0])
            for p in range(1, 7) if peer[r, p] >= 0}
    home = int(np.flatnonzero(sim.state("r_lwho") == dest)[0])
    seen: set = set()
    hops = []
    for _ in range(400):  # one hop leaves per clock at most
        sim.step(1)
        now = {(int(r), int(c)) for r, _, c in np.argwhere(sim.state("flit_belt") > 0)} - seen
        seen |= now
        hops += [link[rc] for rc in now if 1 <= rc[1] <= 6]
        if (home, 7) in now:  # the PE's column: the request reaches its PE
            break
    sims[1].run()
    adaptive = sims[1].state("link_adaptive_flits")
    return [(PORT_DIR[p], bool(adaptive[r, p] > 0)) for r, p in hops]


def _expected_route(radix: tuple, here: int, tag: int, adaptive: bool) -> list[tuple[int, bool]]:
    """Section 7's rule from a routing tag: the initial hop, then at each node the lowest
    ordered unsatisfied direction (deterministic) or, for an adaptive packet, the highest one
    on the adaptive VC, on the deterministic VC where it is the only one left (both choices
    the same output)."""
    pos = _coords(here)
    x, xs, y, ys, z, zs = _fields(tag)
    adr, sgn = (x, y, z), (xs, ys, zs)
    out = []
    if tag >> 18 & 3 != 3:
        d = tag >> 18 & 3
        pos[d] = (pos[d] + 1) % radix[d]
        out.append((d, False))
    while todo := [d + 3 * sgn[d] for d in range(3) if pos[d] != adr[d]]:
        d = max(todo) if adaptive else min(todo)
        pos[d % 3] = (pos[d % 3] + (1 if d < 3 else -1)) % radix[d % 3]
        out.append((d, adaptive and len(todo) > 1))
    return out


def _route_text(route) -> str:
    return ", ".join(DIRS[d] + (" (adaptive VC)" if a else "") for d, a in route) or "none"


def _routes_as_ruled(quick: bool, adaptive: bool) -> Measured:
    """One request of PE 0 alone to each other PE (4x4x4; full 8x8x8), its hops against
    section 7's rule (direction order, or the highest-ordered direction on the adaptive VC):
    the fraction of routes that follow it."""
    radix = (4, 4, 4) if quick else (8, 8, 8)
    n = int(np.prod(radix))
    sim = Simulator(machine(radix))
    lut, pwho = sim.state("r_net_lut")[0], sim.state("r_pwho")
    agree, differ = 0, list[str]()
    for dest in range(1, n):
        got = _route(radix, 0, dest, adaptive=adaptive)
        want = _expected_route(radix, int(pwho[0]), int(lut[dest]), adaptive)
        agree += got == want
        if got != want and len(differ) < 3:
            differ.append(f"to {tuple(_coords(pwho[dest]))}: {_route_text(got)} (rule "
                          f"{_route_text(want)})")
    example = _route(radix, 0, 1 + radix[0] + radix[0] * radix[1], adaptive=adaptive)
    return Measured(agree / (n - 1), f"{'x'.join(map(str, radix))}: {agree} of {n - 1} routes "
                    f"as the rule says; to (1, 1, 1): {_route_text(example)}"
                    + ("; differ: " + "; ".join(differ) if differ else ""))


def _route_match(got, want) -> int:
    """Hops of `got` that agree with `want` position by position, less any extra or missing."""
    return sum(g[0] == w[0] for g, w in zip(got, want)) - abs(len(got) - len(want))


def _initial_hop_route() -> Measured:
    """Section 2.2's example on 4x4x4, deterministic: PE 0's tag for (3, 1, 1) (-X, +Y, +Z)
    given an initial +X hop: +X, then +Y, +Z and -X (two hops back past X = 0)."""
    radix = (4, 4, 4)
    dest = 3 + 4 + 16
    tag = _with_initial_hop(Simulator(machine(radix, adaptive=False)).state("r_net_lut")[0, dest],
                            0)
    got = _route(radix, 0, dest, tag=tag, adaptive=False)
    want = [(0, False), (1, False), (2, False), (3, False), (3, False)]
    return Measured(_route_match(got, want), f"hops: {_route_text(got)}; without the initial "
                    f"hop: {_route_text(_route(radix, 0, dest, adaptive=False))}")


def _figure46_route() -> Measured:
    """Figure 46: the 16-PE machine (2x4x2, mode 0, format 1), logical PE 2 (R_PWHO 000100) to
    logical PE 4 (010000), deterministic: +Z, then -Y."""
    cfg: dict[str, Any] = dict(lut_mode="mode0", logical_format="format1", adaptive=False)
    src = int(np.flatnonzero(Simulator(machine((2, 4, 2), **cfg)).state("r_pwho")
                             == 0x000100)[0])
    got = _route((2, 4, 2), src, 4, None, **cfg)
    return Measured(_route_match(got, [(2, False), (4, False)]), f"hops: {_route_text(got)}")


@functools.lru_cache(maxsize=None)
def _arrivals(quick: bool, ordered: float) -> dict:
    """8x8x1, transpose (each PE a fixed partner, so that a pair has several requests on their
    way at once) at 0.6, adaptive, t3e.ordered_fraction `ordered`, stepped one clock at a time
    for 300 clocks (quick) or 3,000: each packet's head as first seen in a buffer of its
    destination router (its hops then), and each packet seen on the adaptive VC anywhere. Heads
    at zero queueing never wait in a buffer and are not seen (about half)."""
    radix = (8, 8, 1)
    sim = Simulator(machine(radix, pattern="transpose", offered=0.6, ordered_fraction=ordered))
    at = np.indices(sim.state("buffer_meta").shape)  # router, port, VC, slot of each entry
    home, onto = [], []  # per clock: [clock, class, source, destination, seq, hops] of heads
    for clock in range(300 if quick else 3000):
        sim.step(1)
        meta = sim.state("buffer_meta")
        head = (meta & 1) == 1
        fields = [sim.state(f"buffer_{f}")[head] for f in ("src", "dest", "seq")]
        m = meta[head].astype(np.int64)
        heads = np.stack([np.full(m.shape, clock), m >> 31, *fields, m >> 8 & 255], axis=-1)
        home.append(heads[heads[:, 3] == at[0][head]])
        onto.append(heads[at[2][head] == 4])  # VC 4 is the adaptive VC
    # the first sighting of each packet (rows are in clock order), by one integer key each
    def key(rows):
        return ((rows[:, 1] * 4096 + rows[:, 2]) * 4096 + rows[:, 3]) << 32 | rows[:, 4]
    rows = np.concatenate(home)
    _, firsts = np.unique(key(rows), return_index=True)
    first = {tuple(int(x) for x in row[1:5]): (int(row[0]), int(row[5])) for row in rows[firsts]}
    rows = np.concatenate(onto)
    _, once = np.unique(key(rows), return_index=True)
    adaptive = {(int(c), int(s), int(q)) for c, s, q in rows[once][:, [1, 2, 4]]}
    return {"first": first, "adaptive": adaptive, "pwho": sim.state("r_pwho"), "radix": radix}


def _reordered(quick: bool, ordered: float) -> Measured:
    """Requests whose head reached the destination router after that of a later request of the
    same source (sequence numbers count a source's packets in the order it sends them)."""
    seen = _arrivals(quick, ordered)
    pairs: dict = {}
    for (cls, s, d, q), (clock, _) in seen["first"].items():
        if cls == 0:
            pairs.setdefault((s, d), []).append((clock, q))
    late = total = 0
    for arrivals in pairs.values():
        latest = -1
        for _, q in sorted(arrivals):
            late += q < latest
            latest = max(latest, q)
            total += 1
    requests = sum(c == 0 for c, _, _ in seen["adaptive"])
    return Measured(late, f"t3e.ordered_fraction {ordered:g}: {late} of {total} requests seen "
                          f"arriving after a later one of their pair; {requests} requests and "
                          f"{len(seen['adaptive']) - requests} responses seen on the adaptive VC")


def _adaptive_packets(quick: bool, ordered: float, cls: int) -> Measured:
    seen = _arrivals(quick, ordered)["adaptive"]
    got = sum(c == cls for c, _, _ in seen)
    return Measured(got, f"t3e.ordered_fraction {ordered:g}: {got} "
                         f"{('requests', 'responses')[cls]} seen on the adaptive VC, "
                         f"{len(seen) - got} {('responses', 'requests')[cls]}")


def _extra_hops(quick: bool) -> Measured:
    """Adaptive packets (ordered_fraction 0) seen at their destination router: the most hops
    any took beyond the torus distance of its pair (both ways round at half a ring)."""
    seen = _arrivals(quick, 0.0)
    k = np.asarray(seen["radix"])
    where = np.array([_coords(p) for p in seen["pwho"]])
    extra = []
    for (_, s, d, _), (_, hops) in seen["first"].items():
        apart = np.abs(where[s] - where[d])
        extra.append(hops - int(np.minimum(apart, k - apart).sum()))
    return Measured(max(extra), f"{len(extra)} packets seen at their destination router, "
                                f"{sum(e != 0 for e in extra)} not minimal; "
                                f"{len(seen['adaptive'])} packets seen on the adaptive VC")


@functools.lru_cache(maxsize=None)
def _contended_round_trips(quick: bool) -> dict:
    """Uniform single-word Gets with contention but below every knee: 8x8x8 at 0.55 of the bound
    (quick: 8x8x1 at 0.6), seeds 1-3, 500 + 2,000 clocks (quick 300 + 1,000): mean round trips
    adaptive on time-of-crossing tables, and deterministic on time-of-crossing and optimised
    tables (ls.t3e.load_vcsel)."""
    radix, fraction = ((8, 8, 1), 0.6) if quick else ((8, 8, 8), 0.55)
    window = dict(warmup=300, measure=1000, drain=0) if quick else dict(warmup=500, measure=2000,
                                                                        drain=0)
    offered = round(fraction * figures.global_bandwidth(radix).bound_flits, 4)
    got = {}
    for adaptive, table in ((True, "time_of_crossing"), (False, "time_of_crossing"),
                            (False, "optimized")):
        base = machine(radix, pattern="uniform", offered=offered, adaptive=adaptive, **window)
        runs = load_vcsel(Simulator([base.with_(seed=s) for s in (1, 2, 3)]), table).run()
        assert isinstance(runs, list)  # three instances
        got[adaptive, table] = [(r.round_trip_mean, r.accepted) for r in runs]
    return {"runs": got, "radix": radix, "offered": offered}


def _contended_ratio(quick: bool, better: tuple, worse: tuple) -> Measured:
    """The largest over seeds 1-3 of the mean round trip with `better` over `worse`."""
    c = _contended_round_trips(quick)
    b, w = c["runs"][better], c["runs"][worse]

    def text(runs):
        return ", ".join(f"{rt:.1f}" for rt, _ in runs)
    return Measured(max(x[0] / y[0] for x, y in zip(b, w)),
                    f"{'x'.join(map(str, c['radix']))} at {c['offered']:g} flits/PE/clock, "
                    f"round trips seeds 1-3: {text(b)} against {text(w)} clocks; accepted "
                    + ", ".join(f"{a:.3f}" for _, a in w))


def _spare_machine(quick: bool, fail_cycle: int) -> Config:
    """Uniform single-word Gets at 0.3 over one partition of every PE but 4 hot spares (logical
    PEs N - 4 .. N - 1), with one node failing (4x4x4: router 1) or two (8x8x4: routers 1 and
    82) before the run (`fail_cycle` 0) or at `fail_cycle`."""
    radix, failed = ((4, 4, 4), [1, 0, 0]) if quick else ((8, 8, 4), [1, 0, 0, 2, 2, 1])
    return machine(radix, pattern="uniform", offered=0.3, hot_spares=4, failed_nodes=failed,
                   fail_cycle=fail_cycle, warmup=500, measure=2000 if quick else 4000, drain=0)


def _spare_reached(quick: bool) -> Measured:
    """The fraction of virtual PEs (0 .. virtual_limit) whose PE received flits, through the
    routers R_LWHO gives them: nodes failed before the run (a whole run), or at clock 2,000
    (clocks 3,000-6,000); the smaller."""
    got, parts = [], []
    for fail in (0, 2000):
        sim = Simulator(_spare_machine(quick, fail))
        start = sim.step(3000 if fail else 0).state("ejected_flits").astype(np.int64)
        if fail:
            sim.step(3000)
            losses = ""
        else:
            r = sim.run()
            assert not isinstance(r, list)  # one instance
            losses = (f", {r.lost:g} lost, {r.unroutable_packets:g} unroutable, "
                      f"{r.unreachable_pairs:g} unreachable pairs")
        limit, base = sim.state("virtual_limit"), sim.state("base_lpe")
        inside = limit != 0xFFFFFFFF
        size = int(limit[inside][0]) + 1
        routers = sim.state("pe_router")[int(base[inside][0]) + np.arange(size)]
        reached = (sim.state("ejected_flits").astype(np.int64) - start)[routers] > 0
        got.append(reached.mean())
        spares = [int(x) for x in routers if x >= len(limit) - 4]
        parts.append(f"failed {'at clock 2,000' if fail else 'before the run'}: "
                     f"{int(reached.sum())} of {size} virtual PEs received flits, spare routers "
                     f"serving virtual PEs {spares}{losses}")
    return Measured(min(got), "; ".join(parts))


def _healthy_after_failure(quick: bool) -> Measured:
    """Nodes failing at clock 2,000: flits delivered per clock to the PEs neither failed nor
    spare over clocks 3,000-6,000 against 1,000-2,000, and to the failed ones after."""
    sim = Simulator(_spare_machine(quick, 2000))
    limit = sim.state("virtual_limit")
    counts = []
    for clocks in (1000, 1000, 1000, 3000):  # marks at 1,000, 2,000 (the failure), 3,000, 6,000
        sim.step(clocks)
        counts.append(sim.state("ejected_flits").astype(np.int64))
    failed = sim.state("virtual_limit") == 0xFFFFFFFF
    failed &= limit != 0xFFFFFFFF  # in the partition before, out of it now
    healthy = (limit != 0xFFFFFFFF) & ~failed
    before = (counts[1] - counts[0])[healthy].sum() / 1000
    after = (counts[3] - counts[2])[healthy].sum() / 3000
    return Measured(after / before, f"{int(healthy.sum())} healthy PEs: {before:.1f} flits a clock "
                    f"before the failure, {after:.1f} after; to the {int(failed.sum())} failed "
                    f"nodes after it: {int((counts[3] - counts[2])[failed].sum())}; flits "
                    f"discarded on arrival (cut links): {int(sim.state('dropped_flits').sum())}")


def _adaptive_initial_hop() -> Measured:
    """4x4x4, adaptive: PE 0's entry for (3, 1, 1) (ADAPT set, a minimal route of 3 hops) given
    INITIAL_HOP +X, and given the final hop bit instead, one request alone: the hops it takes
    (the longer of the two); and the initial hop with t3e.adaptive_hops = "taken", the tag
    without either, and with ADAPT cleared."""
    radix, dest = (4, 4, 4), 3 + 4 + 16
    tag = int(Simulator(machine(radix)).state("r_net_lut")[0, dest])
    hop, final = _with_initial_hop(tag, 0), tag | 1 << 20
    taken = {"t3e.adaptive_hops": "taken"}
    routes = {name: _route(radix, 0, dest, tag=t, **keys) for name, t, keys in (
        ("with INITIAL_HOP +X", hop, {}), ("with the final hop", final, {}),
        ("INITIAL_HOP +X, t3e.adaptive_hops = \"taken\"", hop, taken),
        ("without either", tag, {}), ("INITIAL_HOP +X with ADAPT cleared", hop & ~(1 << 21), {}))}
    return Measured(max(len(routes["with INITIAL_HOP +X"]), len(routes["with the final hop"])),
                    "; ".join(f"{name}: {_route_text(r)}" for name, r in routes.items()))


def _special_through_deadlock(quick: bool) -> Measured:
    """8x4x4, the four packet types alike at offered 1.0 with flit-credit admission to the
    adaptive VC (t3e.adaptive_admission = "flit", which deadlocks near clock 5,000: see
    t3e.adaptive.whole_packet_uniform), the watchdog off, stepped until no flit has reached a
    PE for 250 clocks. Then router 0's PE SPUTs a value and the way back (R_SGET_RTRN) into
    other routers and SGETs the value back: the fraction answered with it."""
    radix = (8, 4, 4)
    sim = Simulator(machine(radix, pattern="uniform", offered=1.0, packet_mix=[1, 1, 1, 1],
                            adaptive_admission="flit", watchdog=0))
    delivered = -1
    while int(sim.state("ejected_flits").sum()) != delivered and sim.cycle < 20000:
        delivered = int(sim.state("ejected_flits").sum())
        sim.step(250)
    stuck, stopped = int(sim.state("occupancy").sum()), sim.cycle - 250
    targets = [1 + 8 * 1 + 32 * 1, 4 + 8 * 2 + 32 * 2, 7 + 8 * 3 + 32 * 3, 2, 16, 64,
               3 + 8 + 64, 5 + 24 + 32, 6 + 16 + 96, 4] if quick else range(1, 128)
    answered = 0
    for i, r in enumerate(targets, start=1):
        there = [r % 8, r // 8 % 4, r // 32]
        hops = sum(there)
        special.sput(sim, 0, there, "R_SGET_RTRN", special.deltas([-d for d in there]))
        sim.step(1)  # one command a clock
        special.sput(sim, 0, there, "R_SW", i)
        sim.step(6 * hops + 2)
        special.clear_received(sim, 0)
        special.sget(sim, 0, there, "R_SW")
        sim.step(12 * hops + 4)
        answered += special.received(sim, 0) == i
    moved = int(sim.state("ejected_flits").sum()) - delivered
    return Measured(answered / len(targets),
                    f"no flit delivered from clock {stopped} on ({stuck} flits buffered), "
                    f"{moved} after the SGETs either; {answered} of {len(targets)} SGETs "
                    f"answered, {int(sim.state('special_eaten').sum())} special packets eaten")


def _eureka_reaches_all(quick: bool) -> Measured:
    """t3e.barrier = "eureka" on one BSU, every PE a member: each round one PE performs OP_EUR_B
    and every other joins the barrier only once the eureka has taken its BSU to S_EUR, so a
    round completes at a member only if that one check-in reached every member. Completions
    per member per round; quick 4x4x4, a round every 100 clocks, 4 rounds; full 8x8x8, 150
    clocks, 10 rounds."""
    radix, period = ((4, 4, 4), 100) if quick else ((8, 8, 8), 150)
    rounds, pes = 4 if quick else 10, int(np.prod(radix))
    r = simulate(machine(radix, barrier="eureka", barrier_bsus=1, barrier_period=period,
                         warmup=2 * period, measure=rounds * period, drain=0))
    return Measured(r.barrier_completions / (pes * rounds),
                    f"{r.barrier_completions:g} completions of {pes} members in {rounds} rounds, "
                    f"{r.barrier_overruns:g} overruns; eureka notifications after "
                    f"{r.eureka_latency_mean:.1f} clocks on average (last {r.eureka_latency_max:g})"
                    f", the barrier that follows {r.barrier_latency_mean:.1f}")


def _adaptive_cut_through(quick: bool) -> Measured:
    """PE 0 alone sends one vector Get (2-flit request, 10-flit response) to the PE half of every
    ring away (quick 8x8x1, full 8x8x8), adaptive and deterministic: the round trips' difference.
    Adaptive hops that waited for the whole packet would add 9 clocks each (10 flits, one a
    clock) to the response's."""
    radix = (8, 8, 1) if quick else (8, 8, 8)
    k = np.asarray(radix)
    far = int(np.ravel_multi_index(tuple(k // 2), radix, order="F"))  # X fastest
    got = {}
    for adaptive in (True, False):
        got[adaptive] = simulate(machine(radix, pattern="hotspot", hotspot_nodes=[far],
                                         hotspot_fraction=1.0, sender_every=int(k.prod()),
                                         offered=4.0, max_packets=1, warmup=0, measure=50,
                                         drain=500, packet_type="vector_get", adaptive=adaptive))
    a, d = got[True], got[False]
    return Measured(a.round_trip_mean - d.round_trip_mean,
                    f"{'x'.join(map(str, radix))}, PE 0 to {tuple(int(x) for x in k // 2)}, "
                    f"{a.hops_mean:g} hops each way: round trip {a.round_trip_mean:g} clocks "
                    f"adaptive ({a.adaptive_fraction:.0%} of link flits on the adaptive VC), "
                    f"{d.round_trip_mean:g} deterministic")


@functools.lru_cache(maxsize=None)
def _ring_hops(k: int, table: str) -> dict:
    """A k x 1 x 1 machine, deterministic, R_VCSEL `table` (ls.t3e.load_vcsel): one request from
    each node to each other alone (a batch of k - 1 instances per source). Per + route s -> d,
    the VC (0 or 1, request class) it was given leaving each router on +X, read off `ovc_owner`
    (an output VC held for each packet; stepped one clock at a time), and whether it arrived.
    Also each source's +X R_VCSEL word."""
    hops, arrived = {}, {}
    words = None
    for s in range(k):
        dests = [d for d in range(k) if d != s]
        sim = Simulator([machine((k, 1, 1), pattern="hotspot", hotspot_nodes=[d],
                                 hotspot_fraction=1.0, offered=4.0, max_packets=1, warmup=0,
                                 measure=400, drain=0, adaptive=False) for d in dests])
        load_vcsel(sim, table)
        words = sim.state("r_vcsel")[0, :, 0]  # [router]: +X (R_ORIENT 0)
        made = sim.state("packets_created")
        made[:, np.arange(k) != s] = 1  # only s sends
        sim.set_state("packets_created", made)
        seen: set = set()
        for _ in range(3 * k + 60):  # the request is home by then
            try:
                sim.step(1)
            except SimulationError:  # a VC1 packet at the dateline: it stops there
                break
            own = sim.state("ovc_owner")[:, :, 1, :2]  # [instance, router, VC] of +X requests
            seen |= {tuple(int(x) for x in i) for i in np.argwhere(own >= 0)}
        ejected = sim.state("ejected_flits")
        for i, d in enumerate(dests):
            hops[s, d] = {r: v for j, r, v in seen if j == i}
            arrived[s, d] = bool(ejected[i, d] > 0)
    return {"hops": hops, "arrived": arrived, "words": words}


def _dateline_rule(quick: bool, table: str = "time_of_crossing", rings=None) -> Measured:
    """The fraction of + routes of the rings (16 quick, 32 full) that arrive with every hop on
    the VC the rule gives: the SELECT bit of their destination at the source (R_VCSEL),
    switched to VC1 leaving the dateline node 0 if they travel through it."""
    ok = total = 0
    parts: list[str] = []
    bad: list[str] = []
    for k in rings or ((16,) if quick else (32,)):
        got, r = _ring_hops(k, table), ring(k)
        for s, d, length, through in zip(r.src, r.dst, r.length, r.constrained):
            s, d = int(s), int(d)
            start = int(got["words"][s]) >> (d & 7) & 1
            want = {h % k: 1 if through and h % k < d else start for h in range(s, s + length)}
            hit = got["hops"][s, d] == want and got["arrived"][s, d]
            ok += hit
            if not hit and len(bad) < 3:
                bad.append(f"ring {k} {s} -> {d}: {got['hops'][s, d]} (rule {want})")
        total += len(r.src)
        first = [h[0] for h in got["hops"].values() if 0 in h]
        every = [v for h in got["hops"].values() for v in h.values()]
        arithmetic = (f" ({r.after[:, 0].sum() / r.uses[:, 0].sum():.3f} by "
                      "ls.t3e.vc_balance's arithmetic)" if table == "time_of_crossing" else "")
        parts.append(f"ring {k}: VC1 carries {np.mean(first):.3f} of link 0 -> 1's "
                     f"packets{arithmetic} and {np.mean(every):.3f} of all + hops")
    return Measured(ok / total, f"{table}: {ok} of {total} + routes as the rule says; "
                    + "; ".join(parts) + ("; differ: " + "; ".join(bad) if bad else ""))


def _unconnected_adaptive(quick: bool) -> Measured:
    """Adaptive uniform traffic at 0.5 with NO_ADAPT 0 in every R_CHAN0-5, as the manual's step
    says, on machines with unconnected links: the 20-PE AC machine (a partial plane) and, in
    the full run, 2x2x2 (Y = 2: one Y link per pair of nodes). Packets lost or unroutable
    (a packet sent out of a port with no link would vanish)."""
    machines = [("the 20-PE AC machine", (2, 4, 3), {"partial_plane": [2, 2]})]
    if not quick:
        machines.append(("2x2x2", (2, 2, 2), {}))
    bad, parts = 0, []
    for name, radix, keys in machines:
        sim = Simulator(machine(radix, pattern="uniform", offered=0.5, warmup=200,
                                measure=1000 if quick else 4000, drain=1000, **keys))
        chan = sim.state("r_chan")
        chan[:, :6] &= ~np.uint8(4)  # NO_ADAPT (Table 10 bit 2) cleared
        sim.set_state("r_chan", chan)
        installed = sim.state("r_lwho") != 0xFFFFFFFF  # a partial plane leaves empty slots
        unlinked = int((sim.state("peer")[installed, 1:] < 0).sum())
        r = sim.run()
        assert not isinstance(r, list)  # one instance
        bad += int(r.lost + r.unroutable_packets)
        parts.append(f"{name}: {unlinked} network ports without a link, {r.lost:g} lost and "
                     f"{r.unroutable_packets:g} unroutable of {r.packets:g} packets, adaptive "
                     f"share {r.adaptive_fraction:.2f}")
    return Measured(bad, "; ".join(parts))


def _shape_found(quick: bool) -> Measured:
    """ls.t3e.special.ring_sizes (SPUT/SGET of R_SW and R_SGET_RTRN over deltas) with R_PWHO
    and R_NET_LUT zeroed, as before software numbers the nodes: rings found of the right size
    from each router tried. The 20-PE AC machine's Z rings close over 3 nodes where the
    partial plane has a node (router 0) and over 2 elsewhere (router 4, at Y = 2)."""
    cases = [((8, 4, 4), {}, 0, (8, 4, 4)), ((2, 4, 3), {"partial_plane": [2, 2]}, 0, (2, 4, 3)),
             ((2, 4, 3), {"partial_plane": [2, 2]}, 4, (2, 4, 2))]
    if not quick:
        cases.append(((8, 12, 8), {}, 0, (8, 12, 8)))
    right, parts = 0, []
    for radix, keys, router, want in cases:
        sim = Simulator(machine(radix, **keys))
        for name in ("r_pwho", "r_net_lut"):
            sim.set_state(name, np.zeros_like(sim.state(name)))
        got = special.ring_sizes(sim, router)
        right += sum(g == w for g, w in zip(got, want))
        parts.append(f"{'x'.join(map(str, radix))}{' + partial plane' if keys else ''} from "
                     f"router {router}: {got}")
    return Measured(right / (3 * len(cases)), "; ".join(parts))


def _pair_adapt_off() -> Measured:
    """4x4x4, adaptive: one request of PE 0 alone to (1, 1, 1) and to (1, 2, 3), with ADAPT
    cleared in PE 0's R_NET_LUT entry for (1, 1, 1) only: hops on the adaptive VC of that
    pair's request (its route as it is with ADAPT set, and the other pair's, in detail)."""
    radix, pair, other = (4, 4, 4), 1 + 4 + 16, 1 + 8 + 48
    tag = int(Simulator(machine(radix)).state("r_net_lut")[0, pair])
    off = _route(radix, 0, pair, tag=tag & ~(1 << 21))
    return Measured(sum(a for _, a in off),
                    f"to (1, 1, 1) with ADAPT cleared: {_route_text(off)}; set: "
                    f"{_route_text(_route(radix, 0, pair))}; to (1, 2, 3), its entry as it was: "
                    f"{_route_text(_route(radix, 0, other, tag=None))}")


def _special_hops(radix: tuple, route: list, **keys) -> list[int]:
    """The directions a SPUT from router 0 with deltas `route` travels, in order: stepped one
    clock at a time, the inputs a special packet is on its way to (`special_present`)."""
    sim = Simulator(machine(radix, **keys))
    peer = sim.state("peer")
    link = {divmod(int(peer[r, p]), 7): (r, p) for r in range(peer.shape[0])
            for p in range(1, 7) if peer[r, p] >= 0}
    special.sput(sim, 0, route, "R_SW", 0x5)
    seen: set = set()
    hops = []
    for _ in range(6 * sum(map(abs, route)) + 10):  # a hop takes fall_through_turn (6)
        sim.step(1)
        now = {(int(r), int(c)) for r, _, c in np.argwhere(sim.state("special_present") > 0)}
        hops += [PORT_DIR[link[rc][1]] for rc in sorted(now - seen) if 1 <= rc[1] <= 6]
        seen |= now
    return hops


def _special_order() -> Measured:
    """Figure 45's deltas on the 20-PE AC machine (primary X 0, Y +2, Z +1, secondary X +1,
    Y -1, Z +1) and, on 4x4x4, primary X +1, Y +1, Z +1, secondary X -1, Y +1, Z -1: hops in
    place against the order of the delta list (primary X, Y, Z, then secondary X, Y, Z)."""
    cases = [((2, 4, 3), [0, 2, 1, 1, -1, 1], {"partial_plane": [2, 2]}),
             ((4, 4, 4), [1, 1, 1, -1, 1, -1], {})]
    right = total = 0
    parts = []
    for radix, route, keys in cases:
        want = [(i % 3 + (3 if d < 0 else 0), False) for i, d in enumerate(route)
                for _ in range(abs(d))]
        got = [(d, False) for d in _special_hops(radix, route, **keys)]
        right += _route_match(got, want)
        total += len(want)
        parts.append(f"{'x'.join(map(str, radix))} deltas {route}: {_route_text(got)}")
    return Measured(right / total, "; ".join(parts))


def _link_delays(senders: tuple, clocks: int) -> tuple[np.ndarray, int]:
    """8x1x1, deterministic: the PEs of `senders` send single-word Gets to router 4 at 0.5 (the
    others nothing). Clocks each flit on link 2 -> 3 takes (read off the slot of `flit_belt` it
    is written to, by arrival clock), counted by clocks; and the flits router 2's PE injected
    (its requests, which all take that link; the responses go back on the other links)."""
    many = 1 << 20
    sim = Simulator(machine((8, 1, 1), pattern="hotspot", hotspot_nodes=[4], hotspot_fraction=1.0,
                            offered=0.5, max_packets=many, adaptive=False))
    made = sim.state("packets_created")
    made[[r for r in range(8) if r not in senders]] = many  # they have sent all theirs
    sim.set_state("packets_created", made)
    slots = sim.state("flit_belt").shape[1]
    before = np.zeros(slots, bool)
    delays = []
    for _ in range(clocks):
        sim.step(1)
        now = sim.state("flit_belt")[3, :, 2] > 0  # router 3's input from router 2 (port 2)
        delays += [(s - sim.cycle) % slots + 1 for s in np.flatnonzero(now & ~before)]
        before = now
    return np.bincount(delays, minlength=slots + 1), int(sim.state("injected_flits")[2])


def _short_circuit(quick: bool) -> Measured:
    """The share of straight-through flits at router 2 (PE 0's requests to router 4) that took
    the crossbar (6 clocks, not the fast path's 3) while router 2's PE sent to router 4 too,
    contesting the +X output, less that share with PE 0 alone."""
    clocks = 400 if quick else 3000
    alone, _ = _link_delays((0,), clocks)
    both, injected = _link_delays((0, 2), clocks)
    straight = int(both.sum()) - injected  # every flit router 2's PE sent is a turn (6)
    crossbar = int(both[6]) - injected
    return Measured(crossbar / straight - (1 - alone[3] / alone.sum()),
                    f"contested: {straight} straight-through flits, {both[3]} on the fast path "
                    f"(3 clocks), {crossbar} through the crossbar beside router 2's {injected} "
                    f"(6); PE 0 alone: {alone[3]} of {int(alone.sum())} on the fast path")


def _completion_after_last_arm(quick: bool) -> Measured:
    """t3e.barrier = "eureka" on one BSU, every PE a member (as t3e.eureka_any_one): the others
    arm (OP_BAR) as the eureka reaches them, so the arms of a round are spread over the tree's
    depth. Stepping one clock at a time (`bsu_state`: 0 S_BAR, 1 S_ARM, 2 S_EUR), per round
    the clocks from the last member's arm to the first completion (S_ARM -> S_BAR); the least
    over the rounds."""
    radix, period, rounds = ((4, 4, 4), 100, 3) if quick else ((8, 8, 8), 150, 6)
    sim = Simulator(machine(radix, barrier="eureka", barrier_bsus=1, barrier_period=period))
    before = sim.state("bsu_state")[:, 0]
    gaps, spreads, done = [], [], []
    for _ in range(rounds):
        arms, completed = [], []
        for _ in range(period):
            sim.step(1)
            now = sim.state("bsu_state")[:, 0]
            arms += [sim.cycle] * int(((now == 1) & (before != 1)).sum())
            completed += [sim.cycle] * int(((now == 0) & (before == 1)).sum())
            before = now
        gaps.append(min(completed) - max(arms))
        spreads.append(max(arms) - min(arms))
        done.append(len(completed))
    return Measured(min(gaps), f"{int(np.prod(radix))} members; per round: arms spread over "
                               f"{spreads} clocks, first completion {gaps} clocks after the "
                               f"last arm, completions {done}")


def _shapes_carry(quick: bool, dim: int, sizes: tuple) -> Measured:
    """Machines of 2 x k x 2 (Y shapes) or 2 x 4 x k (Z shapes) for each k of `sizes`, uniform
    single-word Gets at 0.1, adaptive, 200 + 500 clocks (full 2,000) and a drain of 2,000: the
    shapes that build and deliver every request (none lost, unroutable or unreachable, no
    configuration error)."""
    good, parts = 0, []
    for k in sizes:
        radix = (2, k, 2) if dim == 1 else (2, 4, k)
        try:
            r = simulate(machine(radix, pattern="uniform", offered=0.1, warmup=200,
                                 measure=500 if quick else 2000, drain=2000))
        except (SimulationError, ValueError) as e:
            parts.append(f"{'x'.join(map(str, radix))}: {str(e).split(';')[0]}")
            continue
        bad = r.lost + r.unroutable_packets + r.unreachable_pairs
        good += bad == 0
        if bad:
            parts.append(f"{'x'.join(map(str, radix))}: {r.lost:g} lost, "
                         f"{r.unroutable_packets:g} unroutable, {r.unreachable_pairs:g} "
                         "unreachable pairs")
    return Measured(good, f"{good} of {len(sizes)} shapes deliver everything"
                          + ("; " + "; ".join(parts) if parts else ""))


def _flits_per_input(quick: bool) -> Measured:
    """Uniform single-word Gets at offered 1.0, adaptive (4x4x4, full 8x8x8), stepped one clock
    at a time for 500 clocks after 300: the most flits that left one input (all its VCs) in
    one clock, from the advance of each input VC's read index (`ivc_head`; their sum equals the
    flits written onto the links and to the PEs, `flit_belt`, so no flit bypasses them)."""
    cfg = machine((4, 4, 4) if quick else (8, 8, 8), pattern="uniform", offered=1.0)
    sim = Simulator(cfg)
    sim.step(300)
    capacity = np.array([cfg.get("t3e.buffer_depth")] * 4 + [cfg.get("t3e.adaptive_depth")])
    head, belt = sim.state("ivc_head").astype(np.int64), sim.state("flit_belt") > 0
    most = popped = written = crowded = 0
    for _ in range(500):
        sim.step(1)
        now, on = sim.state("ivc_head").astype(np.int64), sim.state("flit_belt") > 0
        left = ((now - head) % capacity).sum(axis=2)  # [router, input]
        most, popped = max(most, int(left.max())), popped + int(left.sum())
        written += int((on & ~belt)[:, :, 1:].sum())
        crowded += int(((sim.state("occupancy") > 0).sum(axis=2) >= 2).sum())
        head, belt = now, on
    inputs = 500 * int(np.prod(sim.state("ivc_head").shape[:2]))
    return Measured(most, f"{popped} flits left the inputs ({written} written onto links and to "
                          f"PEs); {crowded / inputs:.0%} of input-clocks had two or more VCs "
                          "holding flits")


@functools.lru_cache(maxsize=None)
def _class_flits(packet_type: str) -> tuple[int, int]:
    """8x1x1, PE 0 alone sends one request of `packet_type` to PE 1: flits on the link 0 -> 1
    (the request) and on 1 -> 0 (its response), from `link_flits`."""
    sim = Simulator(machine((8, 1, 1), pattern="hotspot", hotspot_nodes=[1], hotspot_fraction=1.0,
                            sender_every=8, offered=4.0, max_packets=1, packet_type=packet_type,
                            warmup=0, measure=200, drain=200))
    sim.run()
    flits = sim.state("link_flits")  # [router, port]: port 1 +X, 2 -X (R_ORIENT 0)
    return int(flits[0, 1]), int(flits[1, 2])


def _class_flits_at(quick: bool, packet_type: str, cls: int) -> Measured:
    req, resp = _class_flits(packet_type)
    return Measured((req, resp)[cls], f"request {req} flits on link 0 -> 1, response {resp} on "
                                      "1 -> 0")


def _claims() -> list[Claim]:
    c: list[Claim] = []
    add = c.append
    # -- 000 section 1 and 2
    add(Claim("t3e.outstanding_kilobyte", PAPER, "section 1",
              "well over a kilobyte of memory requests can be concurrently outstanding from "
              "each node", Between(1024), _outstanding_bytes,
              "the default t3e.outstanding in bytes of 8-byte Gets (0: no limit, infinite); "
              "detail: the state array `outstanding` of a saturated 4x4x4", REPRODUCED,
              unit="bytes"))
    add(Claim("t3e.buffers_adaptive", PAPER, "section 1",
              "Buffers for each adaptive virtual channel at each network link input hold 22 "
              "flits", Near(22), lambda q: _initial_credits(4),
              "a fresh 4x4x1 Simulator's `credits` of the adaptive VC", REPRODUCED,
              unit="flits"))
    add(Claim("t3e.buffers_deterministic", PAPER, "section 1",
              "and the other virtual channel buffers hold 12 flits each", Near(12),
              lambda q: _initial_credits(0), "as above, VC0 of the request class", REPRODUCED,
              unit="flits"))
    add(Claim("t3e.network_ports_six", PAPER, "section 1",
              "The router contains a full-duplex PE interface, six full-duplex network ports",
              Near(6), lambda q: _network_ports(), "4x4x4, uniform at 0.5: the least number of "
              "a router's network ports that carry flits (`link_utilization`)", REPRODUCED,
              unit="ports"))
    add(Claim("t3e.vcs_five", PAPER, "section 1",
              "The router uses five virtual channels to prevent deadlock and provide adaptive "
              "routing", Near(5), lambda q: _vcs_used(slice(1, None), True),
              "8x8x1 adaptive, uniform single-word Gets at 0.6, 400 clocks: VCs of the network "
              "inputs that hold flits (`occupancy`)", REPRODUCED, unit="VCs"))
    # -- 000 section 3
    add(Claim("t3e.vcs_four_acyclic", PAPER, "section 3.3",
              "Thus the acyclic network has a total of four virtual channels in each direction",
              Near(4), lambda q: _vcs_used(slice(1, None), False),
              "as above with adaptive routing off", REPRODUCED, unit="VCs"))
    add(Claim("t3e.lut_2176", PAPER, "section 2",
              "Routing information is looked-up in a 544 entry table located on the router. ... "
              "For systems with more than 544 processors, the two low bits of the logical node "
              "address are untranslated ... The table can thus support up to 2176 processors",
              Near(544), _lut_entries_at_2176,
              "t3e.lut_mode = \"mode1\", format1: `r_net_lut` entries of the largest machine "
              "accepted of 8x16x17 (2,176 PEs) and 8x16x18 (2,304), which then carries uniform "
              "traffic at 0.1 for 200 clocks (quick) or 1,000", REPRODUCED, unit="entries"))
    add(Claim("t3e.reconfigure_broken_y", PAPER, "section 2.1, Figure 4",
              "allows the network to reconfigure around many multiple failures that would "
              "otherwise be uncorrectable. This particular case has a string of nodes cut off "
              "from the rest of the nodes in one of the Y rings due to two broken Y links",
              Near(0), lambda q: _every_pair(q, BROKEN_Y if q else BROKEN_Y_FULL),
              "t3e.failed_links: two Y links of the Y ring at X = 0 (4x4x1; full also 8x8x4, "
              "three nodes cut off), uniform single-word Gets at 0.1, 200 + 500 clocks (full "
              "4,000): unreachable pairs + lost + unroutable requests", REPRODUCED,
              unit="pairs + packets"))
    add(Claim("t3e.partial_plane_every_pair", PAPER, "section 2.3, Figure 5",
              "Traffic originating at a partial plane node ... can take an initial hop in +Z to "
              "its neighbor ... Traffic with a destination of a partial plane node can route "
              "to the +Z neighbor of the destination node at which point a final hop in -Z is "
              "taken", Near(0), lambda q: _every_pair(q, PARTIAL_PLANES),
              "the manual's 20-PE AC machine (2x4x3, t3e.partial_plane = [2, 2]) and a 424-PE "
              "machine (8x8x7, [8, 5]; the manual's 424-PE LC system splits its partial planes "
              "over two cabinets' Z planes, which the model does not build), uniform at 0.1 "
              "as above: unreachable pairs + lost + "
              "unroutable requests (detail: R_NET_LUT entries with initial and final hops)",
              REPRODUCED, unit="pairs + packets"))
    add(Claim("t3e.direction_order", PAPER, "section 2.1, Figure 3",
              "The ordering used in the T3E is +X first, followed by +Y, +Z, -X, -Y and -Z. ... a "
              "route of (+X, +Y, +Z) will travel in the X, then Y, and then Z, while a route of "
              "(-X, +Y, +Z) will travel in Y, then Z, and then X", Near(1),
              lambda q: _routes_as_ruled(q, False),
              "8x8x8 (quick 4x4x4), deterministic: one request of PE 0 alone to each other PE "
              "at zero load, its hops in the order taken (stepping one clock at a time: "
              "`flit_belt`, which input each flit is on its way to): the fraction of routes "
              "whose hops follow the direction order over the directions of PE 0's R_NET_LUT "
              "entry", REPRODUCED, unit="fraction"))
    add(Claim("t3e.initial_hop_route", PAPER, "section 2.2",
              "a packet that routes first in the + directions can be given an initial direction "
              "of +X and its routing bits can indicate a -X, +Y, +Z path. This results in a "
              "single \"initial-hop\" in the +X direction followed by routes in +Y, +Z, and "
              "finally -X", Near(5), lambda q: _initial_hop_route(),
              "4x4x4, deterministic, as t3e.direction_order: PE 0's entry for (3, 1, 1) (-X, +Y, "
              "+Z) given INITIAL_HOP +X: hops in place against +X, +Y, +Z, -X, -X (two -X hops "
              "back past X = 0), less any extra or missing", REPRODUCED, unit="of 5 hops"))
    add(Claim("t3e.dateline_switch", PAPER, "section 3.2",
              "With the exception of adaptive traffic, any packet that crosses the dateline on "
              "VC0 is switched by the hardware to VC1 leaving the dateline node", Near(1),
              _dateline_rule,
              "32x1x1 (quick 16x1x1), deterministic, time-of-crossing R_VCSEL: one request from "
              "each node to each other alone (batches of instances), the VC of each +X hop from "
              "`ovc_owner` stepped clock by clock: the fraction of + routes that arrive on the "
              "VC of their SELECT bit before the dateline node 0 and on VC1 after it (detail: "
              "VC1's share of link 0 -> 1 and of all hops, t3e.toc.after_dateline and "
              "t3e.toc.mostly_vc0 measured in the simulator)", REPRODUCED, unit="fraction"))
    add(Claim("t3e.optimized_large_rings", PAPER, "sections 3.2 and 4",
              "The maximum radix supported by the tables is 8, so dimensions larger than 8 nodes "
              "are partially constrained in their VC assignments. ... Only the lower 8 bits of "
              "the destination ordinate is used to index the table, and any routes using the "
              "same entry as a constrained route must use VC0", Near(1),
              lambda q: _dateline_rule(q, "optimized", (16,) if q else (12, 16, 24, 32)),
              "as t3e.dateline_switch with the optimised tables (ls.t3e.load_vcsel: 8 SELECT "
              "bits indexed by the destination ordinate's low 3 bits) on rings of 16 (quick) and "
              "12, 16, 24 and 32 (full; the manual's Y shapes include 12 and 24): the fraction "
              "of + routes that arrive on the VCs the rule gives (a VC1 entry shared with a "
              "route through the dateline would be stopped there)", REPRODUCED,
              unit="fraction"))
    for name, radix, plane in (("20pe", (2, 4, 3), [2, 2]), ("424pe", (8, 8, 7), [8, 5])):
        add(Claim(f"t3e.initial_hop_saturated_{name}", PAPER, "section 3.1",
                  "One particular case is the first hop a packet makes. If the first hop is not "
                  "to a dateline (see 3.2 \"Torus cycles\") it can be in any of the first three "
                  "directions of the ordering shown above without introducing any cycles",
                  Near(1),
                  functools.partial(_drains, pattern="uniform", radix=radix,
                                    partial_plane=plane, adaptive=False),
                  f"{'x'.join(map(str, radix))}, t3e.partial_plane = {plane} (tables with "
                  "initial +Z and final -Z hops, the +Z dateline moved off them: see "
                  "t3e.partial_plane_every_pair), deterministic, uniform single-word Gets at "
                  "offered 1.0, as t3e.forward_progress_uniform: 300 (quick) or 3,000 requests "
                  "from every PE, then stepping until all are answered: flits delivered over "
                  "flits sent (a cycle of waiting packets would leave some undelivered)",
                  REPRODUCED, unit="fraction"))
    # -- 000 section 4
    c += _table1_claims()
    add(Claim("t3e.table1.limited_16", PAPER, "section 4",
              "The limited VC table size in the T3E does not impact the quality of the VC "
              "assignments for ring sizes up to 16", Near(0, abs=0.0005),
              lambda q: _table_size_cost((4, 8, 16)),
              "largest average balance of the 8-entry tables less the full tables' over "
              "Table 1's rows of rings 4, 8, 16 (ls.t3e.table1())", REPRODUCED))
    add(Claim("t3e.table1.limited_32", PAPER, "section 4",
              "although it noticeably degrades the VC balance for the 32-node ring "
              "(whole ring: .220 against .173)", Near(0.047, abs=0.005),
              lambda q: _balance(32, 32, "opt")[0] - _balance(32, 32, "full")[0],
              "average balance of the whole 32-node ring, 8-entry less full tables",
              REPRODUCED))
    add(Claim("t3e.hierarchy.subrings", PAPER, "section 4",
              "The hierarchical optimization technique significantly improves VC balance "
              "within subpartitions", Between(0, 0.8), _hierarchy_subrings,
              "ls.t3e.vc_anneal.anneal of 8-entry tables for rings of 16 and 32, same seed, "
              "500 steps (quick) or 3,000: the hierarchical objective (default weights, "
              "uncapped) against the whole ring alone (weight 10^4): the largest ratio of "
              "subring average balance (subrings of 4 and more), hierarchical over whole-ring "
              "only. \"Significantly\": at least a fifth lower (0.8)", REPRODUCED,
              unit="ratio"))
    add(Claim("t3e.hierarchy.global", PAPER, "section 4",
              "without significantly compromising balance for global traffic", Between(0, 0.1),
              _hierarchy_global,
              "as t3e.hierarchy.subrings: the whole ring's average balance, hierarchical less "
              "whole-ring only, as a share of the whole-ring-only tables' gain over time of "
              "crossing (the larger of rings 16 and 32). \"Not significantly\": at most a "
              "tenth of the gain given up", REPRODUCED, unit="share"))
    add(Claim("t3e.balance_throughput", PAPER, "section 4",
              "Sustained throughput is increased when the traffic load is more evenly spread "
              "across the channels", Between(1.05), _balance_gain,
              "8x8 plane (Z radix 1), deterministic routing, uniform single-word Gets offered "
              "at 1 flit/PE/clock (past the knee), seeds 1-3, 1,000 + 10,000 clocks (quick: "
              "300 + 1,000): the least ratio of accepted throughput with the optimised R_VCSEL "
              "tables (ls.t3e.load_vcsel) over time of crossing; above 1.05, clear of the "
              "seeds' spread", REPRODUCED, "x"))
    add(Claim("t3e.toc.mostly_vc0", PAPER, "section 4",
              "[time of crossing] tends to put most of the traffic on VC0", Between(0, 0.5),
              lambda q: _toc_vc1_share(None), "ls.t3e.vc_balance's routes of a 32-node ring",
              REPRODUCED, unit="VC1 share"))
    add(Claim("t3e.toc.after_dateline", PAPER, "section 4",
              "with the exception of the links directly after the dateline, which carry "
              "predominantly VC1 traffic in large rings", Between(0.5, 1),
              lambda q: _toc_vc1_share(0), "the same, link 0 -> 1 (the dateline is node 0)",
              REPRODUCED, unit="VC1 share"))
    add(Claim("t3e.dally_seitz", PAPER, "section 4",
              "the VC balance of their [Dally and Seitz's] assignments is almost identical to "
              "that of the time-of-crossing scheme", Near(0, abs=0.02),
              lambda q: _dally_seitz(), "full tables: VC1 for every route but those over the "
              "wrap link (VC0 before it), ls.t3e.vc_balance", REPRODUCED))
    # -- 000 section 5
    add(Claim("t3e.adaptive_buffer_two_packets", PAPER, "section 5",
              "Our adaptive VC buffers are over two times the size of the largest packet used "
              "in the T3E", Between(2.0001), lambda q: _initial_credits(4) / 10,
              "adaptive VC credits over Table 3's longest packet (10 flits)", REPRODUCED,
              unit="packets"))
    add(Claim("t3e.adaptive.transpose", PAPER, "section 5",
              "Adaptive routing ... improving sustained network throughput, especially for "
              "non-uniform communication workloads such as transposes", Between(1.0001),
              lambda q: _adaptive_gain(q, "transpose", (8, 8, 1)),
              "8x8x1, transpose, offered 1.0, adaptive over deterministic accepted",
              REPRODUCED, unit="ratio"))
    add(Claim("t3e.adaptive.uniform_saturated", PAPER, "section 5",
              "Adaptive routing allows packets to route around local congestion in a network, "
              "thus improving sustained network throughput", Between(1.0001),
              lambda q: _adaptive_gain(q, "uniform", (8, 4, 4)),
              "8x4x4 (128 PEs), uniform single-word Gets offered 1.0 (past both knees), "
              "adaptive over deterministic accepted", DIVERGES, unit="ratio",
              cause=ADAPTIVE_CAUSE))
    for pattern, radix in (("transpose", (8, 8, 1)), ("uniform", (8, 4, 4))):
        shape = "x".join(map(str, radix))
        add(Claim(f"t3e.adaptive.whole_packet_{pattern}", PAPER, "section 5",
                  "Our adaptive VC buffers are over two times the size of the largest packet "
                  "used in the T3E. Thus, requiring that the buffer contain space for the entire "
                  "packet before routing to it does not significantly affect channel "
                  "utilization", Between(0.95),
                  functools.partial(_whole_packet_cost, pattern=pattern, radix=radix),
                  f"{shape}, {pattern}, Table 3's four packet types alike (t3e.packet_mix = "
                  "[1, 1, 1, 1]: 10-flit packets too) offered 1.0, adaptive, 2,000 + 10,000 "
                  "clocks (quick 1,000 + 3,000): mean link utilisation with whole-packet "
                  "admission (t3e.adaptive_admission = \"packet\") over flit credits "
                  "(\"flit\", a wormhole VC; infinite where that run deadlocks). The words "
                  "weigh the requirement's cost: at most a few percent lower (0.95)",
                  REPRODUCED, unit="ratio"))
    add(Claim("t3e.adaptive.whole_packet_below_knee", PAPER, "section 5",
              "Our adaptive VC buffers are over two times the size of the largest packet used in "
              "the T3E. Thus, requiring that the buffer contain space for the entire packet "
              "before routing to it does not significantly affect channel utilization",
              Between(0.95),
              functools.partial(_whole_packet_cost, pattern="uniform", radix=(8, 4, 4),
                                offered=0.6),
              "as t3e.adaptive.whole_packet_uniform (8x4x4, the four packet types alike) at "
              "offered 0.6, below the knee, where flit-credit admission does not deadlock (it "
              "does from about 0.7): mean link utilisation with whole-packet admission over "
              "flit credits", REPRODUCED, unit="ratio"))
    add(Claim("t3e.adaptive.coreside_transpose", PAPER, "section 5",
              CORESIDE, Between(1.0001),
              functools.partial(_coresidence_gain, pattern="transpose", radix=(8, 8, 1)),
              "8x8x1, transpose, the four packet types alike offered 1.0, as above, seeds 1-3: "
              "the least ratio of accepted throughput with co-residence (t3e.adaptive_admission "
              "= \"packet\") over Duato's one packet per adaptive buffer (\"empty\")",
              REPRODUCED, unit="ratio"))
    add(Claim("t3e.adaptive.coreside_uniform_saturated", PAPER, "section 5",
              CORESIDE, Between(1.0001),
              functools.partial(_coresidence_gain, pattern="uniform", radix=(8, 4, 4)),
              "8x4x4 (128 PEs), uniform, as above (offered 1.0, past the knee)", DIVERGES,
              unit="ratio", cause=CORESIDE_CAUSE))
    add(Claim("t3e.reorder.adaptive", PAPER, "section 5",
              "Adaptive routing introduces the possibility of packet-reordering in the network",
              Between(1), lambda q: _reordered(q, 0.0),
              "8x8x1 adaptive, transpose (fixed pairs) at 0.6, stepped 300 clocks (quick) or "
              "3,000: requests whose head reached the destination router's buffers after that "
              "of a later request of the same source (`buffer_*` state each clock; heads that "
              "never wait in a buffer are not seen, so a lower bound)", REPRODUCED,
              unit="requests"))
    add(Claim("t3e.reorder.ordered", PAPER, "section 5",
              "each packet contains a bit that specifies whether adaptive routing is allowed. "
              "The processor may issue ordered requests which will not adapt", Near(0),
              lambda q: _adaptive_packets(q, 1.0, 0),
              "as t3e.reorder.adaptive with every request ordered (t3e.ordered_fraction = 1): "
              "requests seen on the adaptive VC", REPRODUCED, unit="requests"))
    add(Claim("t3e.reorder.in_order", PAPER, "section 5",
              "Adaptive routing introduces the possibility of packet-reordering ... The "
              "processor may issue ordered requests which will not adapt", Near(0),
              lambda q: _reordered(q, 1.0),
              "as t3e.reorder.adaptive with t3e.ordered_fraction = 1: requests seen arriving "
              "after a later one of their pair", REPRODUCED, unit="requests"))
    add(Claim("t3e.reorder.responses_adapt", PAPER, "section 5",
              "ordered requests which will not adapt (although their responses will because "
              "that is not functionally visible)", Between(1),
              lambda q: _adaptive_packets(q, 1.0, 1),
              "as t3e.reorder.ordered: responses seen on the adaptive VC", REPRODUCED,
              unit="responses"))
    for pattern in ("uniform", "transpose"):
        add(Claim(f"t3e.optimized_adaptive_drains_{pattern}", PAPER, "section 5",
                  "This allows us to use the optimized VC assignments discussed in Section 4, for "
                  "which the extended channel dependency graph would be cyclic (a packet can "
                  "start on VC0, cross the dateline on an adaptive VC, and then reenter the "
                  "non-adaptive subnetwork on VC0)", Near(1),
                  functools.partial(_drains, pattern=pattern, tables="optimized"),
                  f"as t3e.forward_progress_{pattern} (adaptive, offered 1.0, a fixed number of "
                  "requests from every PE, then stepping until all are answered) with the "
                  "optimised R_VCSEL tables (ls.t3e.load_vcsel): flits delivered over flits "
                  "sent (a deadlock or a packet stopped at a dateline leaves some undelivered)",
                  REPRODUCED, unit="fraction"))
    add(Claim("t3e.adaptive_cut_through", PAPER, "section 5",
              "This decoupling is similar to that in store-and-forward routing schemes, but we "
              "still rely on the non-adaptive, deadlock free subnetwork (rather than, say, "
              "structured buffer pools), and do not require that the packet actually be fully "
              "received before forwarding", Near(0, abs=2), _adaptive_cut_through,
              "PE 0 alone, one vector Get (10-flit response) to the PE half of every ring away, "
              "zero load, 8x8x8 (quick 8x8x1): round trip adaptive less deterministic (same "
              "hops and turns; waiting for whole packets would add 9 clocks per adaptive hop)",
              REPRODUCED, unit="clocks"))
    add(Claim("t3e.pair_adapt_off", PAPER, "section 5",
              "The routing tables can also turn off all adaptive routing for traffic between "
              "any two nodes", Near(0), lambda q: _pair_adapt_off(),
              "4x4x4, adaptive: PE 0's R_NET_LUT entry for (1, 1, 1) with ADAPT cleared, one "
              "request of PE 0 alone (as t3e.direction_order): its hops on the adaptive VC "
              "(detail: the same pair with ADAPT set, and a pair whose entry is untouched)",
              REPRODUCED, unit="hops"))
    # -- 000 section 6
    add(Claim("t3e.barrier_vs_read", PAPER, "section 6",
              "this scheme keeps global barrier/eureka latency to less than that of a single "
              "remote memory reference", Between(0, 0.9999), _barrier_over_read,
              "ls.t3e.barrier.latency_vs_size: mean barrier latency over the mean single-word "
              "Get round trip (quick 4x4x4, full 8x32x8, 2,048 PEs)", REPRODUCED,
              unit="ratio"))
    add(Claim("t3e.eureka_vs_read", PAPER, "section 6",
              "this scheme keeps global barrier/eureka latency to less than that of a single "
              "remote memory reference (eureka)", Between(0, 0.9999), _eureka_over_read,
              "as t3e.barrier_vs_read, t3e.barrier = \"eureka\": mean eureka notification "
              "latency over the mean single-word Get round trip (quick 4x4x4, full 8x32x8)",
              REPRODUCED, unit="ratio"))
    add(Claim("t3e.bsus_32", PAPER, "section 6",
              "Each processor shell contains a set of 32 barrier/eureka synchronization units "
              "(BSUs)", Near(32), _bsus_per_round,
              "t3e.barrier = \"barrier\" on BSUs 0-31 (t3e.barrier_bsus = 32), every PE a "
              "member, no data; quick 4x4x4, a round every 100 clocks, 4 rounds; full 8x8x8, "
              "150 clocks, 10 rounds: barrier completions per PE per round", REPRODUCED,
              unit="BSUs"))
    add(Claim("t3e.barrier_cannot_block", PAPER, "section 6",
              "Barrier/eureka packets use their own virtual channel and are transmitted with "
              "highest priority. ... The barrier virtual channel requires no buffering and "
              "cannot block", Near(1), _barrier_loaded,
              "as t3e.bsus_32, and again under uniform single-word Gets offered 1.0 (past the "
              "knee): mean barrier latency under data over that without (no blocking: "
              "exactly 1)", REPRODUCED, unit="ratio"))
    add(Claim("t3e.eureka_any_one", PAPER, "section 6, Figure 6(b)",
              "A eureka is completed when any one processor checks in, rather than requiring all "
              "participating processors to check in. ... Starting in the S_BAR state, a single "
              "processor performs an OP_EUR. This takes its BSU to the S_EUR state, and causes "
              "the network to deliver eureka events to all other participating BSUs, taking "
              "them to the S_EUR state as well", Near(1), _eureka_reaches_all,
              "t3e.barrier = \"eureka\" on one BSU, every PE a member: each round one PE "
              "performs OP_EUR_B and the others join the barrier (OP_BAR) only on seeing S_EUR, "
              "so a member completes only if that single check-in reached every member; quick "
              "4x4x4, a round every 100 clocks, 4 rounds; full 8x8x8, 150 clocks, 10 rounds: "
              "barrier completions per member per round", REPRODUCED, unit="per member"))
    add(Claim("t3e.barrier_all_armed", PAPER, "section 6, Figure 6(a)",
              "An OP_BAR operation takes a given BSU from the S_BAR state to the S_ARM state. "
              "When all participating processors have armed their barriers, the network "
              "delivers completion notifications that takes the BSUs to the S_BAR state",
              Between(1), _completion_after_last_arm,
              "as t3e.eureka_any_one (each round the members arm as the eureka reaches them, "
              "spread over the tree's depth), stepped one clock at a time (`bsu_state`); quick "
              "4x4x4, 3 rounds of 100 clocks; full 8x8x8, 6 of 150: the least over rounds of "
              "the clocks from the last member's arm to the first completion (no completion "
              "before every member has armed: at least 1)", REPRODUCED, unit="clocks"))
    # -- 000 section 7
    add(Claim("t3e.node_interface_vcs_four", PAPER, "section 7",
              "The six interfaces mentioned previously each contain buffering for five virtual "
              "channels. The node interface contains four VCs", Near(4),
              lambda q: _node_interface_vcs(),
              "as t3e.vcs_five with the optimised R_VCSEL tables (ls.t3e.load_vcsel), whose "
              "first hops select either VC of a pair: VCs of the router's input from its PE that "
              "hold flits. The PE puts a packet on the static VC of its class that its first "
              "hop's R_VCSEL selects (its two VCs a class are the node interface's four; which "
              "the hardware's PE chooses the documents do not say; until 2026-11-29 the model "
              "used VC0 of each class only, 2 VCs, diverging)", REPRODUCED, unit="VCs"))
    for pattern in ("uniform", "transpose"):
        add(Claim(f"t3e.forward_progress_{pattern}", PAPER, "section 7",
                  "The algorithm attempts to optimize the number of packets routed each cycle, "
                  "and guarantees forward progress to all packets", Near(1),
                  functools.partial(_drains, pattern=pattern),
                  f"{pattern}, every PE sending single-word Gets at offered 1.0 (past the "
                  "knee, adaptive) until it has sent 300 (quick, 4x4x4) or 3,000 (full, "
                  + ("8x8x8" if pattern == "uniform" else "8x8x4: 512 PEs allow no transpose")
                  + "), then stepping until all are answered (at most 40 clocks per request): "
                  "flits delivered over flits sent", REPRODUCED, unit="fraction"))
    add(Claim("t3e.adaptive_direction", PAPER, "section 7",
              "An optional second request is made if the packet is marked as adaptive. This "
              "request goes to the adaptive VC on the output corresponding to the highest ordered "
              "direction yet to be satisfied ... If the requesting interface wins the physical "
              "output at both of its requested interfaces, it flows on the adaptive choice. The "
              "one exception to this is when both the deterministic and the adaptive choices are "
              "the same physical output. In this case, the deterministic VC is used", Near(1),
              lambda q: _routes_as_ruled(q, True),
              "as t3e.direction_order with adaptive routing (zero load: a packet wins both "
              "outputs): routes whose every hop takes the highest-ordered unsatisfied direction, "
              "on the adaptive VC while two or more are left and on a deterministic VC for the "
              "last (`link_adaptive_flits` of a second, identical run)", REPRODUCED,
              unit="fraction"))
    add(Claim("t3e.short_circuit_contested", PAPER, "section 7",
              "If packets are queued up in a given interface, the arbiter tells the other "
              "interfaces that they could get some traffic from the crossbar so they should "
              "stop using the short-circuit path", Between(0.01, 1), _short_circuit,
              "8x1x1, deterministic, single-word Gets at 0.5 to router 4 from PE 0 (straight "
              "through routers 1-3) with and without router 2's PE sending there too (its "
              "packets ask for router 2's +X output from the PE interface), 400 clocks (full "
              "3,000): on link 2 -> 3, each flit's clocks from the `flit_belt` slot it is "
              "written to; the share of PE 0's flits that took the crossbar (6 clocks) with "
              "the contest less without it (every one takes the fast path alone)", REPRODUCED,
              unit="share"))
    add(Claim("t3e.one_path_per_input", PAPER, "section 7",
              "The crossbar only has one path for each of these interfaces, so only one of the "
              "multiple VCs within an interface input may flow at any given time", Near(1),
              _flits_per_input,
              "4x4x4 (full 8x8x8), adaptive, uniform single-word Gets at offered 1.0, stepped "
              "one clock at a time for 500 clocks after 300: the most flits that left one "
              "input's five VCs in one clock (`ivc_head` advances; detail: how often two or "
              "more VCs of an input held flits, so that the rule binds)", REPRODUCED,
              unit="flits"))
    # Section 7's arbitration rules, read clock by clock from the state (t3e/arbitration.py:
    # every flit followed from clock 0, each selected head's route rebuilt, the round-robin
    # pointers kept as the sets of values they can have).
    record = ("a saturated 4x4x4 (uniform, every PE at offered 1.0, mode-0 tables), single-word "
              "Gets for 300 clocks after 300 (full: 2,000, and vector Gets for 2,000 more), "
              "stepped one clock at a time; ls.t3e.arbitration rebuilds each router's requests "
              "and grants from the state before and after each clock: ")
    add(Claim("t3e.arbitration_adaptive_lowest", PAPER, "section 7",
              "The fight between the VCs at a given physical output is typically arbitrated "
              "round-robin. The one exception to this is that the adaptive VC has lowest "
              "priority, unless it has a packet that has started, but not yet completed",
              Between(0, 0), arbitration.adaptive_priority, record + "the outputs an unstarted "
              "adaptive VC won while a deterministic VC contended for them too (detail: how "
              "often it won alone, and a started one's contests)", REPRODUCED, unit="outputs"))
    add(Claim("t3e.arbitration_input_round_robin", PAPER, "section 7",
              "The selection of these input VCs is performed in a round-robin fashion among the "
              "VCs that contain packets", Between(0, 0), arbitration.input_round_robin,
              record + "new selections of an input's requesting VC (`in_sel`, `in_rr`) that were "
              "not the next VC holding flits after the last one (detail: how many passed over a "
              "lower-numbered VC, as fixed priority would not)", REPRODUCED, unit="selections"))
    add(Claim("t3e.arbitration_keeps_right", PAPER, "section 7",
              "Once the selection is made, this input VC keeps the right to continue requesting "
              "until one of three things happens", Between(0, 0), arbitration.input_keeps_right,
              record + "input-clocks whose VC kept or lost the right otherwise than by the "
              "paper's list (it fails to win its output VC, bubbles, completes, or its output "
              "VC is blocked: the list has four)", REPRODUCED, unit="input-clocks"))
    add(Claim("t3e.arbitration_adaptive_round_robin", PAPER, "section 7",
              "Arbitration for the adaptive output VCs is simply round-robin", Between(0, 0),
              arbitration.adaptive_round_robin, record + "adaptive output VC grants that "
              "round-robin among the heads asking for it (whose packets fit) could not have "
              "made", REPRODUCED, unit="grants"))
    add(Claim("t3e.arbitration_remembered", PAPER, "section 7",
              "Once an input VC has made a request for a given deterministic output VC, that "
              "output VC remembers that the request was made allowing that input to continue to "
              "fight for the VC even after the input VC has relinquished the right to request "
              "outputs", Between(1), arbitration.remembered_requests, record + "deterministic "
              "output VC grants to an input VC not requesting in that clock (detail: "
              "round-robin violations among the remembered requests)", REPRODUCED,
              unit="grants"))
    # -- 000 section 8
    add(Claim("t3e.special_conflicts", PAPER, "section 8",
              "The only conflicts that can exist involve packets that are both on this "
              "virtual network", Near(0), lambda q: _special_under_barriers(),
              "4x4x2, barrier rounds of 32 BSUs every 40 clocks, 20 SPUTs from router 0 over "
              "4 hops (ls.t3e.special.sput), `special_eaten`", REPRODUCED, unit="eaten"))
    add(Claim("t3e.special_conflicts_data", PAPER, "section 8",
              "The only conflicts that can exist involve packets that are both on this "
              "virtual network (beside data traffic)", Near(0),
              lambda q: _special_under_barriers(data=True),
              "4x4x2, uniform single-word Gets offered 1.0 (past the knee), 20 SPUTs from router "
              "0 over 4 hops (ls.t3e.special.sput), `special_eaten` (detail: those whose R_SW "
              "write came 25 clocks after sending, as on an idle network)", REPRODUCED,
              unit="eaten"))
    add(Claim("t3e.special_collision_eaten", PAPER, "section 8",
              "Conflicts on these virtual channels result in lost packets. That is, one packet "
              "eats the other and then continues", Near(1), lambda q: _special_eaten(),
              "4x4x1: SPUTs from (0, 0) (X +1, Y +2) and (1, 3) (Y +2) sent in one clock, "
              "both reaching (1, 0) in one clock and leaving by +Y (ls.t3e.special.sput): "
              "`special_eaten`", REPRODUCED, unit="eaten"))
    add(Claim("t3e.special_through_deadlock", PAPER, "section 8",
              "Due to the lack of flow control on this virtual network, no deadlocks can occur "
              "and a badly confused network can be diagnosed and restored", Near(1),
              _special_through_deadlock,
              "8x4x4, the four packet types alike at offered 1.0 with flit-credit admission "
              "(t3e.adaptive_admission = \"flit\", which deadlocks the data network near clock "
              "5,000), run.watchdog 0, stepped until no flit reaches a PE for 250 clocks; then "
              "router 0's PE SPUTs R_SGET_RTRN (the way back) and R_SW into 10 routers (full: "
              "all 127 others) and SGETs R_SW (ls.t3e.special): the fraction answered with the "
              "value written", REPRODUCED, unit="fraction"))
    # -- 000 section 9
    add(Claim("t3e.eight_paths", PAPER, "section 9",
              "Direction order routing allows up to 8 different paths to be taken, simply by "
              "changing the direction of travel in the three dimensions", Near(8),
              lambda q: _eight_paths(),
              "4x4x4, deterministic: PE 0's R_NET_LUT entry for (1, 1, 1) with each choice of "
              "X_SGN, Y_SGN, Z_SGN, one request from PE 0: distinct sets of links of the round "
              "trips that complete", REPRODUCED, unit="paths"))
    add(Claim("t3e.hot_spare", PAPER, "section 9",
              "The routing table along with the logical \"who am I\" registers allows for the "
              "nodes to be logically renamed. Thus, a customer can purchase extra nodes and use "
              "them as hot spares to be brought on-line in the event of a node failure. "
              "Applications continue to see a contiguous range of virtual PE numbers, even "
              "though one or more of the PEs may not be physically contiguous", Near(1),
              _spare_reached,
              "4x4x4 (full 8x8x4), t3e.hot_spares = 4, one partition of the other PEs, one node "
              "(full: two) failed before the run (t3e.failed_nodes), uniform single-word Gets "
              "at 0.3 over the partition's virtual PEs, 500 + 2,000 clocks (full 4,000), and "
              "again with the nodes failing at clock 2,000 (t3e.fail_cycle; clocks 3,000-6,000 "
              "counted): the smaller fraction of virtual PEs 0 .. virtual_limit whose PE "
              "(R_LWHO's router, `pe_router`) received flits (a failed node keeping its number "
              "would receive none)",
              REPRODUCED, unit="fraction"))
    add(Claim("t3e.hot_swap", PAPER, "section 9",
              "The router chips can be set to isolate and route around faulty nodes so that the "
              "system is no longer communicating with the downed nodes. This allows \"hot "
              "swapping\", in which a faulty board is removed from the system and replaced "
              "while the operating system and user jobs are kept running on the healthy nodes",
              Near(1, rel=0.05), _healthy_after_failure,
              "as t3e.hot_spare with the nodes failing at clock 2,000 (t3e.fail_cycle: the host "
              "cuts them off and reloads the tables, a spare takes each failed number): flits "
              "delivered per clock to the healthy PEs (neither failed nor spare) over clocks "
              "3,000-6,000 against 1,000-2,000 (detail: flits to the failed nodes after)",
              REPRODUCED, unit="ratio"))
    add(Claim("t3e.more_paths", PAPER, "section 9",
              "Direction order routing allows up to 8 different paths to be taken, simply by "
              "changing the direction of travel in the three dimensions. Initial and final hops "
              "add even more potential routes", Between(9),
              lambda q: _eight_paths((3, 0, 1, 2)),
              "as t3e.eight_paths, each of the 8 sign choices also with an initial +X, +Y and "
              "+Z hop (32 tags; final hops not tried: they need the tag's Z address moved to "
              "the destination's +Z neighbour): distinct sets of links of the round trips that "
              "complete", REPRODUCED, unit="paths"))
    # -- 000 section 10, 11
    add(Claim("t3e.latency.adaptive_contention", PAPER, "section 11",
              "With any significant contention in the network, however, features such as the "
              "optimized VC assignments and adaptive routing will reduce the realized packet "
              "latency (adaptive routing)", Between(0, 0.9999),
              lambda q: _contended_ratio(q, (True, "time_of_crossing"),
                                         (False, "time_of_crossing")),
              "8x8x8, uniform single-word Gets at 0.55 of Figure 8's bound (contention, below "
              "the knee: every run accepts what is offered), seeds 1-3, 500 + 2,000 clocks "
              "(quick: 8x8x1 at 0.6, 300 + 1,000): the largest ratio of mean round trip, "
              "adaptive over deterministic (time-of-crossing tables)", REPRODUCED, unit="ratio"))
    add(Claim("t3e.latency.vcsel_contention", PAPER, "section 11",
              "With any significant contention in the network, however, features such as the "
              "optimized VC assignments and adaptive routing will reduce the realized packet "
              "latency (optimized VC assignments)", Between(0, 0.9999),
              lambda q: _contended_ratio(q, (False, "optimized"), (False, "time_of_crossing")),
              "as t3e.latency.adaptive_contention, deterministic routing: the largest ratio of "
              "mean round trip with the optimised R_VCSEL tables (ls.t3e.load_vcsel) over time "
              "of crossing", REPRODUCED, unit="ratio"))
    add(Claim("t3e.table2.straight", PAPER, "section 11, Table 2",
              "Straight through 3 clks (40 ns)", Near(3), lambda q: _straight(),
              "zero-load round trips, 8x1x1: three hops straight less one hop, over 4",
              REPRODUCED, unit="clocks"))
    add(Claim("t3e.table2.turn", PAPER, "section 11, Table 2", "Turn 6 clks (80 ns)", Near(6),
              lambda q: _turn(), "zero-load round trip, 4x4x1 to (1, 1, 0): one turning "
              "router", REPRODUCED, unit="clocks"))
    add(Claim("t3e.table2.end_point", PAPER, "section 11, Table 2",
              "End-point 10 clks (133 ns)", Near(10), lambda q: _end_point(),
              "zero-load round trip of one hop, 8x1x1", REPRODUCED, unit="clocks"))
    add(Claim("t3e.turns_small", PAPER, "section 11",
              "An optimized straight-through path is aimed primarily at large systems; smaller "
              "systems tend to have more turns than straight-through routes (64 PEs)",
              Between(1.0001), lambda q: _turns_over_straight((4, 4, 4)),
              "4x4x4: for each destination, one request of PE 0 alone (`hotspot`, a batch of "
              "63 runs); turning routers per route from its zero-load round trip and hops "
              "(Table 2: 3 clocks straight, 6 turning): turning over straight-through routers",
              REPRODUCED, unit="ratio"))
    add(Claim("t3e.turns_large", PAPER, "section 11",
              "An optimized straight-through path is aimed primarily at large systems (512 "
              "PEs: fewer turns than straight-through routes)", Between(0, 0.9999),
              lambda q: _turns_over_straight((8, 4, 4) if q else (8, 8, 8)),
              "as t3e.turns_small on 8x8x8 (quick 8x4x4, 128 PEs, the smallest where straight "
              "routers outnumber turns)", REPRODUCED, unit="ratio"))
    add(Claim("t3e.figure7.mean_512", PAPER, "section 11, Figure 7",
              "the maximum and average round-trip packet latencies vs. system size ... using "
              "the latencies from Table 2 (512 PEs, average: the curve is not in our copy; "
              f"its definition and Table 2 give {figures.round_trip((8, 8, 8)).paper_mean:.1f})",
              Near(float(figures.round_trip((8, 8, 8)).paper_mean), rel=0.03), _figure7,
              "8x8x8, uniform single-word Gets at 0.02 flits/PE/clock, round_trip_mean in "
              "Figure 7's convention (figures.round_trip)", REPRODUCED, unit="clocks"))
    for radix in ((4, 4, 4), (8, 4, 4), (8, 8, 4), (8, 16, 8), (8, 32, 8)):
        calc, n, shape = figures.round_trip(radix), int(np.prod(radix)), "x".join(map(str, radix))
        add(Claim(f"t3e.figure7.mean_{n}", PAPER, "section 11, Figure 7",
                  "the maximum and average round-trip packet latencies vs. system size ... using "
                  f"the latencies from Table 2 ({n} PEs, average: {calc.paper_mean:.1f} from "
                  "its definition)", Near(float(calc.paper_mean), rel=0.03),
                  functools.partial(_figure7, radix=radix),
                  f"{shape}, as t3e.figure7.mean_512 (quick 800 clocks, full 4,000)",
                  REPRODUCED, unit="clocks"))
    for radix in ((4, 4, 4), (8, 4, 4), (8, 8, 4), (8, 8, 8), (8, 16, 8), (8, 32, 8)):
        calc, n, shape = figures.round_trip(radix), int(np.prod(radix)), "x".join(map(str, radix))
        add(Claim(f"t3e.figure7.max_{n}", PAPER, "section 11, Figure 7",
                  "the maximum and average round-trip packet latencies vs. system size, "
                  "assuming uniformly random destinations and using the latencies from Table 2 "
                  f"({n} PEs, maximum: {calc.paper_max:.0f} from its definition)",
                  Near(float(calc.paper_max), rel=0.03),
                  functools.partial(_figure7_max, radix=radix),
                  f"{shape}: the one request of PE 0 alone to the PE half of every ring away "
                  "(`hotspot` with every packet there), round_trip_max in Figure 7's "
                  "convention (figures.round_trip); Figure 7 takes no contention, so not the "
                  "largest of a loaded run (detail)", REPRODUCED, unit="clocks"))
    for kind, (req, resp) in bandwidth.FLITS.items():
        add(Claim(f"t3e.table3.{kind}", PAPER, "section 11, Table 3",
                  f"{bandwidth.NAMES[kind]}: request {req}, response {resp} flits",
                  Near(req + resp), functools.partial(_packet_flits_at, packet_type=kind),
                  f"zero-load round trip of one hop, t3e.packet_type = {kind}",
                  REPRODUCED, unit="flits (request + response)"))
        for cls, name, flits in ((0, "request", req), (1, "response", resp)):
            add(Claim(f"t3e.table3.{kind}.{name}", PAPER, "section 11, Table 3",
                      f"{bandwidth.NAMES[kind]}: {name} {flits} flits", Near(flits),
                      functools.partial(_class_flits_at, packet_type=kind, cls=cls),
                      f"8x1x1, t3e.packet_type = {kind}, one request of PE 0 alone to PE 1: "
                      f"flits on the link {'0 -> 1' if cls == 0 else '1 -> 0'} "
                      "(`link_flits`)", REPRODUCED, unit="flits"))
    for kind, (one, sym) in bandwidth.PAPER.items():
        for one_way, mb in ((True, one), (False, sym)):
            add(Claim(f"t3e.table4.{kind}.{'one_way' if one_way else 'symmetrical'}", PAPER,
                      "section 11, Table 4",
                      f"{bandwidth.NAMES[kind]}, {'one-way' if one_way else 'symmetrical'}: "
                      f"{mb} MB/s", Near(mb, rel=0.01),
                      functools.partial(_table4_at, kind=kind, one_way=one_way),
                      "ls.t3e.bandwidth.payload_bandwidth: a ring of two, both PEs (or one) "
                      "sending as fast as they can", REPRODUCED, unit="MB/s"))
    add(Claim("t3e.payload_500", PAPER, "sections 1 and 10",
              "The maximum data payload bandwidth after protocol overheads is approximately "
              "500 MB/s", Near(500, rel=0.05),
              lambda q: max(_table4(k, True, q) for k in bandwidth.PAPER),
              "the largest one-way payload of Table 4's measurements (vector Gets and Puts)",
              REPRODUCED, unit="MB/s"))
    add(Claim("t3e.figure8.bisection", PAPER, "section 11, Figure 8",
              "the maximum bisection bandwidth remains fixed at 153.6 GB/s", Near(153.6),
              lambda q: float(figures.global_bandwidth((8, 32, 8)).bisection_gb_s),
              "ls.t3e.figures.global_bandwidth((8, 32, 8)): links across the Y cut x 600 MB/s",
              REPRODUCED, unit="GB/s"))
    add(Claim("t3e.figure8.retain_4096", PAPER, "section 11, Figure 8",
              "Normally, a 3D torus would retain the global, per-processor bandwidth of the "
              "1024-node system up to 4096 nodes (16x16x16)", Near(1),
              lambda q: _bound_ratio((8, 16, 8), (16, 16, 16)),
              "ls.t3e.figures.global_bandwidth: Figure 8's per-PE bound of 16x16x16 over "
              "8x16x8 (the bound; what the two sustain: t3e.figure8.retain_4096_sustained)",
              REPRODUCED, unit="ratio"))
    add(Claim("t3e.figure8.retain_4096_sustained", PAPER, "section 11, Figure 8",
              "Normally, a 3D torus would retain the global, per-processor bandwidth of the "
              "1024-node system up to 4096 nodes (16x16x16)", Near(1, rel=0.1),
              lambda q: _scaling((8, 16, 8), (16, 16, 16), q),
              "sustained per-PE throughput of 16x16x16 over 8x16x8 (as t3e.figure8.payload_1024; "
              "quick: 16x16x16 at 0.7 of the bound alone)", DIVERGES, unit="ratio",
              cause="It retains 88%: 8x16x8 sustains 80% of its bound, where the Y links bind "
              "alone, and 16x16x16, whose three dimensions bind together as 8x8x8's do, 70% "
              "(adaptive routing's knee near 0.7 of the bound, t3e.adaptive.uniform_saturated), "
              "as t3e.figure8.drops_1024 finds for 8x8x8 against 8x16x8. " + FIG8_CAUSE))
    add(Claim("t3e.figure8.bound_drops_2048", PAPER, "section 11, Figure 8",
              "Since the mechanical design of the T3E limits the X and Z radix to 8, however, "
              "the maximum bisection bandwidth remains fixed at 153.6 GB/s and the "
              "per-processor bandwidth drops accordingly (2,048 PEs: half of 1,024's)",
              Near(0.5), lambda q: _bound_ratio((8, 16, 8), (8, 32, 8)),
              "as above, 8x32x8 over 8x16x8", REPRODUCED, unit="ratio"))
    add(Claim("t3e.figure8.port_bound_64", PAPER, "section 11, Figure 8",
              "For system sizes up to 64 nodes, the processor-network port is the bottleneck",
              Between(1.0001), lambda q: _port_over_links((4, 4, 4), q),
              "4x4x4, uniform at half the bound: PE port use over the busiest dimension's "
              "link use", REPRODUCED, unit="ratio"))
    add(Claim("t3e.figure8.equal_512", PAPER, "section 11, Figure 8",
              "For systems with 128 to 512 nodes ..., the processor port and most-used network "
              "links are equally utilized", Near(1, rel=0.05),
              lambda q: _port_over_links((8, 8, 8), q), "8x8x8, as above",
              REPRODUCED, unit="ratio"))
    for radix in ((8, 4, 4), (8, 8, 4)):
        add(Claim(f"t3e.figure8.equal_{int(np.prod(radix))}", PAPER, "section 11, Figure 8",
                  "For systems with 128 to 512 nodes ..., the processor port and most-used "
                  "network links are equally utilized", Near(1, rel=0.05),
                  functools.partial(_port_over_links, radix),
                  f"{'x'.join(map(str, radix))}, as t3e.figure8.equal_512", REPRODUCED,
                  unit="ratio"))
    add(Claim("t3e.figure8.y_bottleneck_1024", PAPER, "section 11, Figure 8",
              "Beyond 512 nodes, the Y dimension becomes the bottleneck", Near(0.5, rel=0.05),
              lambda q: _port_over_links((8, 16, 8), q), "8x16x8, as above (Y links "
              "twice as busy as the port)", REPRODUCED, unit="ratio"))
    for radix in ((4, 4, 4), (8, 8, 8), (8, 16, 8)):
        n = int(np.prod(radix))
        bound = figures.global_bandwidth(radix)["global"] * 0.25
        add(Claim(f"t3e.figure8.payload_{n}", PAPER, "section 11, Figure 8",
                  "This number must be scaled by the appropriate efficiency from Table 4 to "
                  f"calculate the per-processor payload bandwidth ({n} PEs, single-word Gets, "
                  f"symmetrical 25%: {bound:g} MB/s)", Near(bound, rel=0.1),
                  functools.partial(_sustained_at, radix=radix),
                  f"{'x'.join(map(str, radix))}, uniform single-word Gets at fractions of the "
                  "bound (quick 0.7, 0.85, 1.0; full 0.6 to 1.0), adaptive: the most accepted "
                  "x 600 MB/s x 25%",
                  REPRODUCED if n == 64 else DIVERGES, unit="MB/s",
                  cause="" if n == 64 else FIG8_CAUSE))
    add(Claim("t3e.figure8.scalable_512", PAPER, "section 11, Figure 8",
              "512 or fewer processors, for which the network appears completely scalable",
              Near(1, rel=0.1), lambda q: _scaling((4, 4, 4), (8, 8, 8), q),
              "sustained per-PE throughput of 8x8x8 over 4x4x4 (as above)", DIVERGES,
              unit="ratio", cause=FIG8_CAUSE))
    add(Claim("t3e.figure8.drops_1024", PAPER, "section 11, Figure 8",
              "the maximum bisection bandwidth remains fixed ... and the per-processor "
              "bandwidth drops accordingly (1,024 PEs: half of 512's)", Near(0.5, rel=0.1),
              lambda q: _scaling((8, 8, 8), (8, 16, 8), q),
              "sustained per-PE throughput of 8x16x8 over 8x8x8 (as above)", DIVERGES,
              unit="ratio", cause="It drops by less than half because 8x8x8 sustains less of its "
              "bound (about 70%) than 8x16x8 does of its own (about 80%), where the Y links bind "
              "alone. " + FIG8_CAUSE))
    # -- 002, the manual
    add(Claim("t3e.manual.table6", MANUAL, "Table 6",
              "Sample Logical PE Numbers: 16 PEs in Formats 1, 2 and 3", Near(48),
              lambda q: _table6(), "2x4x2, t3e.logical_format format1 / linear / format3, "
              "`r_lwho` against `r_pwho`", REPRODUCED, unit="of 48"))
    add(Claim("t3e.manual.table6_random", MANUAL, "Table 6",
              "L_WHOAMI Random Format", None, None, "", NOT_REPRODUCIBLE,
              lacks="the permutation software drew: any permutation is a random format "
                    "(t3e.logical_format = \"random\" draws one per seed)"))
    add(Claim("t3e.manual.table7", MANUAL, "Table 7",
              "Partitions A (base 0, limit 3), B (base 4, limit 5), C (base D, limit 2): "
              "virtual PE numbers", Near(16), lambda q: _table7(),
              "2x4x2, t3e.partitions = [0, 3, 4, 5, 13, 2], `base_lpe` and `virtual_limit`",
              REPRODUCED, unit="of 16"))
    add(Claim("t3e.manual.table11", MANUAL, "Table 11",
              "Logical PE to R_NET_LUT Register Assignments (16 PEs): R_LWHO 0-F, Register "
              "(Mode 0) R_NET_LUT[0]-[15], Register (Mode 1 or 2) R_NET_LUT[0]-[3], four "
              "logical PEs each", Near(45), lambda q: _table11(),
              "2x4x2, deterministic, one request from PE 0 to each other logical PE, with each "
              "R_NET_LUT entry of router 0 in turn given an initial hop: the entries that move "
              "its links, against the printed register; modes 0 and 1 in format1, mode 2 in "
              "format1_yx (15 rows each: row 0 is PE 0 itself)", REPRODUCED, unit="of 45"))
    add(Claim("t3e.manual.table13", MANUAL, "Table 13",
              "R_NET_LUT Register Values for R_PWHO 000100 (hex), mode 0 (16 entries)",
              Near(16), lambda q: _lut_rows("mode0", TABLE13, half_ring_tie="plus"),
              "2x4x2, mode0, format1, t3e.half_ring_tie = \"plus\", `r_net_lut` of router "
              "000100", REPRODUCED, unit="of 16"))
    add(Claim("t3e.manual.table13_default", MANUAL, "Table 13",
              "the same, under the default tie rule", Near(16),
              lambda q: _lut_rows("mode0", TABLE13),
              "as above, t3e.half_ring_tie = \"parity\" (the default)", DIVERGES,
              unit="of 16",
              cause="The four entries whose Y destination is half the ring away from Y = 1 "
                    "(10, 11, 14, 15) go - under the default tie rule (+ from even source "
                    "ordinates, - from odd), which every time-of-crossing value of the paper's "
                    "Table 1 needs; the manual's \"possible values\" go + there. Neither "
                    "document states the rule, so both are configuration (t3e.half_ring_tie) "
                    "and the default follows the paper's Table 1; \"plus\" gives the manual's "
                    "16 (t3e.manual.table13)."))
    add(Claim("t3e.manual.mode0_544", MANUAL, "R_NET_LUT Format",
              "There are a total of 544 R_NET_LUT registers. For systems with 544 or fewer PEs, "
              "software may assign one R_NET_LUT register to each logical PE ... NOTE: For "
              "systems with more than 544 PEs, software cannot use mode 0", Near(544),
              lambda q: _lut_mode0_limit(), "t3e.lut_mode = \"mode0\": PEs of the largest "
              "machine accepted of 8x8x8 (512), 8x4x17 (544) and 6x7x13 (546)", REPRODUCED,
              unit="PEs"))
    add(Claim("t3e.manual.table14", MANUAL, "Table 14",
              "R_NET_LUT Register Values for R_PWHO 000100 (hex), mode 1 (4 entries)",
              Near(4), lambda q: _lut_rows("mode1", TABLE14),
              "2x4x2, mode1, format1, `r_net_lut` of router 000100", REPRODUCED, unit="of 4"))
    add(Claim("t3e.manual.table15", MANUAL, "Table 15",
              "R_NET_LUT Register Values for R_PWHO 000100 (hex), mode 2 (4 entries)",
              Near(4), lambda q: _lut_rows("mode2", TABLE15, "format1_yx"),
              "2x4x2, mode2, t3e.logical_format = \"format1_yx\" (Figure 48's numbering: "
              "logical PE 1 at R_PWHO 000100, 4 at 010000), `r_net_lut` of router 000100",
              REPRODUCED, unit="of 4"))
    add(Claim("t3e.manual.mode3", MANUAL, "R_LUT_OVERRIDE Register",
              "Software may signal the support circuitry to read routing-tag information for "
              "every packet it creates from this register instead of an incomplete or "
              "incorrect look-up table stored in the R_NET_LUT registers. This process is "
              "called mode 3", Near(16), lambda q: _mode3(),
              "2x4x2, t3e.lut_mode = \"mode3\", deterministic, bitcomp (each PE's register "
              "holds its partner's tag: mode 3 carries traffic in which PEs exchange in pairs), "
              "one request from every PE; each PE's R_LUT_OVERRIDE in turn given an initial hop: "
              "the PEs whose packets move", REPRODUCED, unit="of 16"))
    add(Claim("t3e.manual.figure45", MANUAL, "Special Routing Path, Figure 45",
              "Primary delta X 0, Y +2, Z +1, secondary X +1, Y -1, Z +1 ... information makes "
              "the same number of hops as a delta value", Near(6), lambda q: _figure45(),
              "the 20-PE AC machine (2x4x3, t3e.partial_plane = [2, 2]), SPUT from (0, 0, 0) "
              "(ls.t3e.special.sput): hops from the arrival clock", REPRODUCED, unit="hops"))
    add(Claim("t3e.manual.vcsel_dateline_lost", MANUAL, "R_VCSEL Bit Format",
              "If software sets a SELECT bit so that a packet of information that is using "
              "virtual channel set 1 travels through the dateline physical node, the hardware "
              "automatically stops the transfer of the packet and the packet is lost",
              Near(_dateline_routes(8, 3)), lambda q: _vcsel_lost(),
              "8x1x1, deterministic, one request from each PE 3 hops + (tornado); one source "
              "at a time with every SELECT bit of its +X R_VCSEL set: requests lost, against "
              "the routes that travel through the + dateline (node 0) and on", REPRODUCED,
              unit="packets"))
    add(Claim("t3e.manual.special_overwrite", MANUAL, "Special Routing",
              "if two packets of information access the same network router port at the same "
              "time, one packet will overwrite the other", Near(1),
              lambda q: _special_survivor(),
              "as t3e.special_collision_eaten: of the two SPUTs, those that write R_SW at the "
              "router their deltas lead to", REPRODUCED, unit="packets"))
    add(Claim("t3e.manual.vcsel_x4", MANUAL, "R_VCSEL Bit Format",
              "in a system with an X=4 node shape, hardware uses only bits <3 : 0>", Near(3),
              lambda q: float(ring(4).entry(False).max()),
              "the highest SELECT entry a route of a 4-node ring reads (ls.t3e.vc_balance)",
              REPRODUCED, unit="bit"))
    add(Claim("t3e.manual.y2_one_link", MANUAL, "Y=2 Communication Link Connections",
              "For these systems, the external Y-dimension communication links on each PCB "
              "are unconnected (one Y link per pair of nodes)", Near(1), lambda q: _y2_links(),
              "2x2x2, uniform at 0.5: Y ports that carry flits, per pair of nodes",
              REPRODUCED, unit="links"))
    add(Claim("t3e.manual.r_orient", MANUAL, "Direction Assignments, Tables 1-3",
              "software writes a value to specified bits of the router orientation (R_ORIENT) "
              "register in one physical node. System hardware then automatically sets the "
              "R_ORIENT values for all other nodes", Near(8), lambda q: _orientations(),
              "t3e.r_orient 0-7 (one value for every node), 4x4x4, one request from each PE "
              "to (x + 1, y + 1, z + 1) sent at clock 0: settings whose round trips equal "
              "R_ORIENT 0's with nothing lost. The model holds one R_ORIENT for every node (the "
              "hardware's spreading of it is taken as done, not modelled)", REPRODUCED,
              unit="of 8"))
    add(Claim("t3e.manual.x2_two_links", MANUAL, "X=2 Communication Link Connections",
              "For these systems, the external X-dimension communication links on each PCB "
              "connect together (two X links per pair of nodes)", Near(2),
              lambda q: _x2_links(), "2x2x2, uniform at 0.5 with t3e.half_ring_tie = \"plus\": "
              "X links that carry flits either way, per pair of nodes (`link_utilization`, "
              "`peer`)", REPRODUCED, unit="links"))
    add(Claim("t3e.manual.sget_return", MANUAL, "Special Routing Examples",
              "The destination node uses the values stored in the R_SGET_RTRN register as the "
              "delta values for an SGET response packet (return deltas X +3, Y -2, Z +2: 7 "
              "hops)", Near(7), lambda q: _sget_return_hops(),
              "4x4x2: SPUT R_SGET_RTRN of (1, 2, 0) with those deltas, SGET its R_SW from PE 0 "
              "(ls.t3e.special): response hops from the clocks to `special_received`, 6 a hop",
              REPRODUCED, unit="hops"))
    add(Claim("t3e.manual.figure49", MANUAL, "Adaptive Routing Path Example (Figure 49)",
              "In physical node R_PWHO 000100 (hex), R_NET_LUT[15] register values for this "
              "routing are: No initial hop (INITIAL_HOP = 3), X direction = + (X_SGN = 0), X "
              "address = 1 (X_ADR = 1), Y direction = + (Y_SGN = 0), Y address = 3 (Y_ADR = "
              "3), Z direction = + (Z_SGN = 1), Z address = 1 (Z_ADR = 1), No final hop "
              "(FINAL_HOP = 0), ADAPT = 1", Near(9), lambda q: _figure49(),
              "2x4x2, mode0, format1, adaptive, t3e.half_ring_tie = \"plus\" (as "
              "t3e.manual.table13): the nine fields of `r_net_lut` entry 15 of router 000100 "
              "against the printed bits", DIVERGES, unit="of 9", cause=FIGURE49_CAUSE))
    add(Claim("t3e.manual.ignore_normal", MANUAL, "Table 10, R_CHAN",
              "IGNORE_NORMAL ... when it receives any packets on this channel that use the "
              "direction order routing buffers, the network router will not pass the packet "
              "(adaptive packets pass)", Between(1), lambda q: _ignore_normal(),
              "4x4x1 adaptive, uniform 0.6, IGNORE_NORMAL set on every -X channel: "
              "adaptive-VC flit-clocks buffered at those inputs (`occupancy`)", REPRODUCED,
              unit="flit-clocks"))
    add(Claim("t3e.manual.no_adapt", MANUAL, "Table 10, R_CHAN",
              "NO_ADAPT When set to 1, this bit indicates that the adaptive routing channel out "
              "of this channel is disabled", Near(0), lambda q: _no_adapt(),
              "4x4x1 adaptive, uniform 0.6, 100 + 500 clocks, NO_ADAPT in every router's R_CHAN4 "
              "(-Y): adaptive flits sent out of the -Y ports (`link_adaptive_flits`)",
              REPRODUCED, unit="flits"))
    add(Claim("t3e.manual.no_fast", MANUAL, "Table 10, R_CHAN",
              "NO_FAST When set to 1, this bit disables the fast path through the network "
              "router port (straight through: Table 2's 3 clks no longer)", Between(3.0001),
              lambda q: Measured(_straight(no_fast=True), f"straight through "
                                 f"{_straight(no_fast=True):g} clocks with NO_FAST, "
                                 f"{_straight():g} without"),
              "as t3e.table2.straight with NO_FAST in every network channel's R_CHAN "
              "(t3e.no_fast): clocks per router going straight through", REPRODUCED,
              unit="clocks"))
    add(Claim("t3e.manual.ignore_spcl", MANUAL, "Table 10, R_CHAN",
              "IGNORE_SPCL When set to 1, this bit signals the network router that when it "
              "receives any packets on this channel that use the special routing buffers, the "
              "network router will not pass the packet to the next node in the network",
              Near(0), lambda q: _ignore_spcl(),
              "4x4x2, IGNORE_SPCL in every router's R_CHAN0-5: of ten SPUTs from router 0 over "
              "4 hops (ls.t3e.special.sput), those that write R_SW at (1, 2, 1)", REPRODUCED,
              unit="packets"))
    add(Claim("t3e.manual.figure46", MANUAL, "Direction Order Routing, Figure 46",
              "Figure 46 shows one possible direction order routing path from logical PE 2 "
              "[R_PWHO 000100 (hex)] to logical PE 4 [R_PWHO 010000 (hex)] ... X address = 0, Z "
              "direction = +, Z address = 1, Y direction = -, Y address = 0 (the path: +Z, "
              "then -Y, as the list \"4. Any travel in the +Z direction ... 6. Any travel in the "
              "-Y direction\" orders them)", Near(2), lambda q: _figure46_route(),
              "the 16-PE machine (2x4x2, mode0, format1), deterministic: one request of logical "
              "PE 2 alone to logical PE 4, hops in order (as t3e.direction_order) against +Z, "
              "-Y", REPRODUCED, unit="of 2 hops"))
    add(Claim("t3e.manual.adaptive_minimal", MANUAL, "Adaptive Routing",
              "When a packet of information follows an adaptive routing path, the packet "
              "completes hops in any direction as long as it travels toward the destination "
              "node using a minimal-hops path", Near(0), lambda q: _extra_hops(q),
              "as t3e.reorder.adaptive (8x8x1 adaptive, transpose at 0.6): the most hops a "
              "packet seen at its destination router had taken (its header's count) beyond "
              "the torus distance of its pair", REPRODUCED, unit="hops"))
    add(Claim("t3e.manual.adaptive_initial_hop", MANUAL, "Adaptive Routing",
              "the packet completes hops in any direction as long as it travels toward the "
              "destination node using a minimal-hops path. A packet that follows adaptive "
              "routing uses the same routing tag as a packet that uses direction order routing; "
              "however, it does not use the initial hop value and the final hop value",
              Near(3), lambda q: _adaptive_initial_hop(),
              "4x4x4, adaptive: PE 0's R_NET_LUT entry for (3, 1, 1) (ADAPT set; -X, +Y, +Z, a "
              "minimal route of 3 hops) given INITIAL_HOP +X, or the final hop bit, one request "
              "alone at zero load: hops taken (as t3e.direction_order; the longer of the two). "
              "The model reads an ADAPT tag without its "
              "initial and final hops (t3e.adaptive_hops = \"ignored\", the default since "
              "2026-11-29); with \"taken\", the model's reading before, the packet takes the "
              "initial hop on a deterministic VC at the source, then has the X distance it added "
              "to make up: 5 hops (the detail). The host writes initial and final hops only in "
              "detours around faults and partial planes, always with ADAPT clear "
              "(fault_routes.cpp), so either reading shows only in a hand-written tag",
              REPRODUCED, unit="hops"))
    add(Claim("t3e.manual.no_adapt_unconnected", MANUAL, "Adaptive Routing Registers",
              "Set the NO_ADAPT bit of the appropriate R_CHAN[5 : 0] registers to 0. This "
              "ensures that a packet following an adaptive routing path through the "
              "interconnect network does not try to travel over a communication link that is "
              "unconnected. A communication link may be unconnected because it is part of a "
              "partial plane or part of a small system configuration", Near(0),
              _unconnected_adaptive,
              "NO_ADAPT 0 in every R_CHAN0-5 as the sentence says (Table 10 gives the bit the "
              "other sense: 1 disables), adaptive, uniform at 0.5, 200 + 1,000 clocks (full "
              "4,000): the 20-PE AC machine (2x4x3, t3e.partial_plane = [2, 2]) and, full, "
              "2x2x2 (Y = 2): packets lost or unroutable. The model's router asks for no "
              "adaptive VC out of a port without a link whatever NO_ADAPT says (route.hpp), so "
              "either reading of the bit delivers everything", REPRODUCED, unit="packets"))
    add(Claim("t3e.manual.special_shape", MANUAL, "Special Routing; Special Routing Examples",
              "Delta values enable software to send information to physical nodes before "
              "assigning them physical node numbers. ... Software writes values to the R_SW "
              "register while determining the node shape of the system", Near(1),
              _shape_found,
              "R_PWHO and R_NET_LUT zeroed; ls.t3e.special.ring_sizes (mark R_SW, then for k = "
              "1, 2, ... load the way back into R_SGET_RTRN k hops away and SGET its R_SW until "
              "the mark returns): 8x4x4 from router 0, the 20-PE AC machine (2x4x3, partial "
              "plane [2, 2]) from router 0 (Z ring of 3) and router 4 (Z ring of 2), full also "
              "8x12x8: the fraction of rings found with their true size", REPRODUCED,
              unit="fraction"))
    add(Claim("t3e.manual.special_order", MANUAL, "Special Routing",
              "Six delta values define the path of a special route ... 1. Primary delta X Value "
              "2. Primary delta Y Value 3. Primary delta Z Value 4. Secondary delta X Value 5. "
              "Secondary delta Y Value 6. Secondary delta Z Value ... Also when following a "
              "special routing path, information travels through the directions in the order "
              "shown in the list above", Near(1), lambda q: _special_order(),
              "SPUTs from router 0, stepped one clock at a time (`special_present`: the inputs "
              "a special packet is on its way to): Figure 45's deltas on the 20-PE AC machine "
              "(Y +2, Z +1, then X +1, Y -1, Z +1) and, on 4x4x4, X +1, Y +1, Z +1, then X -1, "
              "Y +1, Z -1: the fraction of hops in the list's order, less any extra or missing",
              REPRODUCED, unit="fraction"))
    add(Claim("t3e.manual.y_shapes", MANUAL, "Y-dimension Node Shapes",
              "In the CRAY T3E system, the Y-dimension may be one of nine shapes: Y=2, Y=4, Y=8, "
              "Y=12, Y=16, Y=20, Y=24, Y=28, and Y=32", Near(9),
              functools.partial(_shapes_carry, dim=1, sizes=(2, 4, 8, 12, 16, 20, 24, 28, 32)),
              "2 x Y x 2 for each of the nine, adaptive, uniform single-word Gets at 0.1, 200 + "
              "500 clocks (full 2,000) and a drain of 2,000: the shapes that build and deliver "
              "every request (none lost, unroutable or unreachable; a VC1 packet at a dateline "
              "would stop the run)", REPRODUCED, unit="of 9 shapes"))
    add(Claim("t3e.manual.z_shapes", MANUAL, "Z-dimension Node Shapes",
              "In the CRAY T3E system, the Z-dimension may be one of 9 shapes: Z=1, Z=2, Z=3, "
              "Z=4, Z=5, Z=6, Z=7, Z=8, and Z=9", Near(9),
              functools.partial(_shapes_carry, dim=2, sizes=tuple(range(1, 10))),
              "2 x 4 x Z for each of the nine, as t3e.manual.y_shapes", REPRODUCED,
              unit="of 9 shapes"))
    return c


CLAIMS = _claims()
