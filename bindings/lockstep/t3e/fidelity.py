"""The Cray T3E's claims (documents 000, Scott & Thorson's paper, and 002, the hardware manual),
measured on the t3e family: `fidelity.ledger("t3e")`.

Measurements reuse lockstep.t3e (Table 1's balance, Table 4's bandwidth, Figures 7 and 8, the
barrier and special networks); the runs are short with ``quick`` (what `make test` asserts)
and longer without. Each helper is cached, so a run measured for several claims runs once.
"""

from __future__ import annotations

import functools

import numpy as np

from ..config import Config
from ..fidelity.claim import (DIVERGES, NOT_REPRODUCIBLE, REPRODUCED, Between, Claim, Measured,
                              Near)
from .._core import SimulationError
from ..simulate import Simulator, simulate
from . import bandwidth, barrier, figures, special, vc_anneal
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
def _admission(quick: bool, pattern: str, radix: tuple, rule: str, seed: int = 1):
    """Offered 1.0 (as _past_knee) of Table 3's four packet types in equal measure, so that the
    10-flit packets the adaptive buffers are sized against travel too, under adaptive admission
    `rule`: (accepted, mean link utilisation, adaptive share), or the watchdog's words."""
    window = dict(warmup=1000, measure=3000, drain=0) if quick else dict(warmup=2000,
                                                                           measure=10000, drain=0)
    try:
        r = simulate(machine(radix, pattern=pattern, offered=1.0, packet_mix=[1, 1, 1, 1],
                             adaptive_admission=rule, seed=seed, **window))
    except SimulationError as e:  # "flit" admission may deadlock (t3e.adaptive_admission)
        return str(e).split(";")[0]
    return r.accepted, r.link_util_mean, r.adaptive_fraction


def _admission_text(got) -> str:
    return got if isinstance(got, str) else (f"accepted {got[0]:.3f}, links {got[1]:.3f}, "
                                             f"adaptive {got[2]:.2f}")


def _whole_packet_cost(quick: bool, pattern: str, radix: tuple) -> Measured:
    """Link utilisation with whole-packet admission over flit-credit admission; a flit-credit
    run that deadlocks carried nothing past its deadlock (ratio infinite)."""
    p, f = (_admission(quick, pattern, radix, rule) for rule in ("packet", "flit"))
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


NODE_VCS_CAUSE = (
    "The model's PE injects each class on VC0 of its pair (request VC0, response VC0: "
    "kernels/t3e/pe_interface.hpp) and its router input from the PE has the five VCs of the "
    "network inputs, of which those two hold flits (the other three never do, adaptive or not). "
    "A packet takes its VC set from R_VCSEL when it enters its first direction whichever VC it "
    "arrived on, so a second VC per class at the PE would only add buffering. The paper does not "
    "say which four VCs the node interface has or how the PE chooses among them (most likely "
    "the four deterministic ones, VC0/VC1 of both classes); the manual says nothing of it. Both "
    "readings tried on 8x8x8, uniform single-word Gets at 0.6-1.0 of the bound (2026-11-28): a "
    "PE that puts each packet on the VC its first direction's R_VCSEL selects runs as the model "
    "does (the time-of-crossing tables select VC0 everywhere: the same accepted loads, 0.697 "
    "at best, 0.686 at 1.0); one that puts each packet on its class's VC with more credits "
    "peaks as the model does (0.696) and falls further past the knee (0.52 at 0.9 and 1.0): "
    "more packets enter a network whose adaptive routing already falls there "
    "(t3e.adaptive.uniform_saturated), and two ordered requests could pass each other.")


@functools.lru_cache(maxsize=None)
def _vcs_holding(adaptive: bool) -> np.ndarray:
    """[port, VC] flit-clocks buffered at the inputs of a loaded 8x8x1 (uniform single-word
    Gets at 0.6, clocks 1-400; rings of 8, so that routes pass their dateline, as none does in
    a ring of 4): which of the 7 x 5 input VCs the model uses."""
    sim = Simulator(machine((8, 8, 1), pattern="uniform", offered=0.6, adaptive=adaptive))
    seen = np.zeros(sim.state("occupancy").shape[1:], dtype=np.int64)
    for _ in range(400):
        sim.step(1)
        seen += sim.state("occupancy").sum(axis=0, dtype=np.int64)
    return seen


def _vcs_used(ports: slice, adaptive: bool) -> Measured:
    used = _vcs_holding(adaptive)[ports].sum(axis=0) > 0
    return Measured(int(used.sum()), f"VCs that held flits: {np.flatnonzero(used).tolist()} of "
                                     f"{used.size} (0, 1 requests, 2, 3 responses, 4 adaptive)")


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


def _barrier_over_read(quick: bool) -> Measured:
    shape = (4, 4, 4) if quick else (8, 32, 8)
    row = barrier.latency_vs_size([shape], rounds=4 if quick else 8).iloc[0]
    return Measured(row.barrier_mean / row.round_trip_mean,
                    f"{row.name}: barrier {row.barrier_mean:.0f} clocks (last "
                    f"{row.barrier_max:.0f}), eureka {row.eureka_mean:.0f}, single-word Get "
                    f"round trip {row.round_trip_mean:.0f} clocks at light load")


def _special_under_barriers() -> Measured:
    sim = Simulator(machine((4, 4, 2), barrier="barrier", barrier_bsus=32, barrier_period=40))
    sim.step(100)
    route, far = [0, 2, 0, 1, 0, 1], 1 + 4 * 2 + 16
    late = 0
    for i in range(1, 21):
        special.sput(sim, 0, route, "R_SW", i)
        sim.step(25)
        late += int(sim.state("r_sw")[far] != i)
        sim.step(i % 7)
    eaten = int(sim.state("special_eaten").sum())
    return Measured(eaten, f"20 SPUTs over 4 hops among barrier packets (32 BSUs every 40 "
                           f"clocks): {20 - late} arrived on time, {eaten} eaten")


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


def _drains(quick: bool, pattern: str) -> Measured:
    """Every PE sends a fixed number of requests at a PE's full rate (offered 1.0, past the
    knee), then stops: forward progress means every request and its response arrive. The
    flits delivered over those sent, after the machine has had ample time to empty."""
    radix = (4, 4, 4) if quick else ((8, 8, 8) if pattern == "uniform" else (8, 8, 4))
    each = 300 if quick else 3000
    sim = Simulator(machine(radix, pattern=pattern, offered=1.0, max_packets=each, warmup=0,
                            measure=1, drain=0))
    pes, clocks = int(np.prod(radix)), 0
    want = 4 * each * pes  # Table 3: 2 + 2 flits a single-word Get
    while clocks < 40 * each:  # 4 x each clocks to inject them at 1 flit/clock
        sim.step(500)
        clocks += 500
        if (int(sim.state("ejected_flits").sum()) == want
                and not sim.state("outstanding").any()):
            break
    got = int(sim.state("ejected_flits").sum())
    per_pe = sim.state("ejected_flits")
    return Measured(got / want,
                    f"{'x'.join(map(str, radix))} {pattern}, {each} single-word Gets from each "
                    f"PE at offered 1.0: {got} of {want} flits delivered within "
                    f"{clocks} clocks, every PE's requests answered: "
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


def _eight_paths() -> Measured:
    """4x4x4, deterministic: PE 0's R_NET_LUT entry for (1, 1, 1) with each of the 8 choices of
    X_SGN, Y_SGN, Z_SGN; one request from PE 0 alone. Distinct sets of links used among the
    round trips that complete (the response's route is the same in all)."""
    cfg = machine((4, 4, 4), pattern="tornado", offered=4.0, max_packets=1, sender_every=64,
                  adaptive=False, warmup=0, measure=200, drain=200)
    dest, sets, trips = 1 + 4 + 16, set(), []
    for signs in range(8):
        sim = Simulator(cfg)
        lut = sim.state("r_net_lut")
        tag = int(lut[0, dest]) & ~sum(1 << (6 * d + 5) for d in range(3))
        lut[0, dest] = tag | sum((signs >> d & 1) << (6 * d + 5) for d in range(3))
        sim.set_state("r_net_lut", lut)
        r = sim.run()
        assert not isinstance(r, list)  # one instance
        if int(sim.state("ejected_flits")[dest]) == 2 and r.lost == 0:
            sets.add(frozenset(map(tuple, np.argwhere(sim.state("link_flits")[:, 1:] > 0))))
            trips.append(f"{r.round_trip_mean:.0f}")
    return Measured(len(sets), f"round trips (clocks) of the 8 sign choices: {', '.join(trips)}")


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
    # -- 000 section 6
    add(Claim("t3e.barrier_vs_read", PAPER, "section 6",
              "this scheme keeps global barrier/eureka latency to less than that of a single "
              "remote memory reference", Between(0, 0.9999), _barrier_over_read,
              "ls.t3e.barrier.latency_vs_size: mean barrier latency over the mean single-word "
              "Get round trip (quick 4x4x4, full 8x32x8, 2,048 PEs)", REPRODUCED,
              unit="ratio"))
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
    # -- 000 section 7
    add(Claim("t3e.node_interface_vcs_four", PAPER, "section 7",
              "The six interfaces mentioned previously each contain buffering for five virtual "
              "channels. The node interface contains four VCs", Near(4),
              lambda q: _vcs_used(slice(0, 1), True),
              "as t3e.vcs_five: VCs of the router's input from its PE that hold flits",
              DIVERGES, unit="VCs", cause=NODE_VCS_CAUSE))
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
    # -- 000 section 8
    add(Claim("t3e.special_conflicts", PAPER, "section 8",
              "The only conflicts that can exist involve packets that are both on this "
              "virtual network", Near(0), lambda q: _special_under_barriers(),
              "4x4x2, barrier rounds of 32 BSUs every 40 clocks, 20 SPUTs from router 0 over "
              "4 hops (ls.t3e.special.sput), `special_eaten`", REPRODUCED, unit="eaten"))
    add(Claim("t3e.special_collision_eaten", PAPER, "section 8",
              "Conflicts on these virtual channels result in lost packets. That is, one packet "
              "eats the other and then continues", Near(1), lambda q: _special_eaten(),
              "4x4x1: SPUTs from (0, 0) (X +1, Y +2) and (1, 3) (Y +2) sent in one clock, "
              "both reaching (1, 0) in one clock and leaving by +Y (ls.t3e.special.sput): "
              "`special_eaten`", REPRODUCED, unit="eaten"))
    # -- 000 section 9
    add(Claim("t3e.eight_paths", PAPER, "section 9",
              "Direction order routing allows up to 8 different paths to be taken, simply by "
              "changing the direction of travel in the three dimensions", Near(8),
              lambda q: _eight_paths(),
              "4x4x4, deterministic: PE 0's R_NET_LUT entry for (1, 1, 1) with each choice of "
              "X_SGN, Y_SGN, Z_SGN, one request from PE 0: distinct sets of links of the round "
              "trips that complete", REPRODUCED, unit="paths"))
    # -- 000 section 10, 11
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
    for radix in ((4, 4, 4), (8, 16, 8), (8, 32, 8)):
        calc, n, shape = figures.round_trip(radix), int(np.prod(radix)), "x".join(map(str, radix))
        add(Claim(f"t3e.figure7.mean_{n}", PAPER, "section 11, Figure 7",
                  "the maximum and average round-trip packet latencies vs. system size ... using "
                  f"the latencies from Table 2 ({n} PEs, average: {calc.paper_mean:.1f} from "
                  "its definition)", Near(float(calc.paper_mean), rel=0.03),
                  functools.partial(_figure7, radix=radix),
                  f"{shape}, as t3e.figure7.mean_512 (quick 800 clocks, full 4,000)",
                  REPRODUCED, unit="clocks"))
    for radix in ((4, 4, 4), (8, 8, 8), (8, 32, 8)):
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
    return c


CLAIMS = _claims()
