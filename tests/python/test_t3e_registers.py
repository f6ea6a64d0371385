"""R_VCSEL words of a simulated Cray T3E (lockstep.t3e.vcsel_tables / load_vcsel): the host's
time-of-crossing words reproduced, every route of rings 2..32 walked hop by hop in both
directions (no VC1 packet through a dateline, the - direction balanced as the + one), R_NET_LUT
modes 1 and 2, loading into a Simulator, bad input, and the optimised tables' effect on
saturation throughput (section 4 of Scott & Thorson, "The Cray T3E Network")."""

import numpy as np
import pytest

import lockstep as ls
from lockstep.t3e import load_vcsel, vcsel_tables
from lockstep.t3e.registers import DATELINE_BIT, physical_ordinates
from lockstep.t3e.vc_balance import link_balance, shipped_table


def t3e(radix, **keys):
    data = {"router": {"family": "t3e"}, "topology": {"kind": "torus", "radix": radix},
            "run": {"threads": 1}}
    cfg = ls.Config(data)
    return cfg.with_(**keys) if keys else cfg


def default_plus(s, d, k):
    """The host's default_tag: minimal, a tie at k/2 + from even sources, - from odd."""
    hops = (d - s) % k
    return 2 * hops < k or (2 * hops == k and s % 2 == 0)


def pair_plus(s, d, k):
    """R_NET_LUT modes 1/2 in X and Y (host group_tag): the sign reaching the destination pair
    {t, t+1} (t even) in fewer hops in total."""
    t = d & ~1
    plus = (t - s) % k + (t + 1 - s) % k
    minus = (s - t) % k + (s - t - 1) % k
    return default_plus(s, d, k) if plus == minus else plus < minus


def walk_ring(words, routers, k, plus_rule):
    """Walk every route of one ring hop by hop as route.hpp does. ``routers[p]``: the router
    of physical ordinate p; ``words``: [routers, 6], X columns 0 (+) and 3 (-). Returns the
    VC0/VC1 routes per link [direction, link from node, vc]; fails on a VC1 packet that
    travels through a dateline node."""
    count = np.zeros((2, k, 2), dtype=int)
    for s in range(k):
        for d in range(k):
            if s == d:
                continue
            minus = not plus_rule(s, d, k)
            step, col = (-1, 3) if minus else (1, 0)
            vc = int(words[routers[s], col]) >> (d & 7) & 1  # SELECT bit entering the ring
            node = s
            while True:
                count[int(minus), node, vc] += 1
                node = (node + step) % k
                if node == d:
                    break
                if int(words[routers[node], col]) & DATELINE_BIT:  # through the dateline
                    assert vc == 0, (f"k = {k}: route {s} -> {d} ({'-' if minus else '+'}X) "
                                     f"travels through the dateline node {node} on VC1")
                    vc = 1
    return count


# -- the words --------------------------------------------------------------------------------

@pytest.mark.parametrize("radix, orient", [([8, 1, 1], 0), ([8, 4, 2], 5), ([5, 3, 7], 7),
                                           ([12, 6, 1], 2), ([1, 1, 4], 4), ([32, 2, 1], 1)])
def test_time_of_crossing_is_what_the_host_loads(radix, orient):
    cfg = t3e(radix, r_orient=orient)
    sim = ls.Simulator(cfg)
    assert np.array_equal(vcsel_tables(cfg, "time_of_crossing"), sim.state("r_vcsel"))
    p = physical_ordinates(cfg)
    assert np.array_equal(p[:, 0] | p[:, 1] << 8 | p[:, 2] << 16, sim.state("r_pwho"))
    # The optimised words keep the host's DATELINE bits and differ only in SELECT<7:0>.
    opt = vcsel_tables(sim, "optimized")
    assert opt.dtype == np.uint64 and opt.shape == (np.prod(radix), 6)
    assert np.array_equal(opt & np.uint64(DATELINE_BIT), sim.state("r_vcsel"))
    assert not np.any(opt & ~np.uint64(DATELINE_BIT | 0xFF))


def test_plus_words_are_the_shipped_table_and_minus_its_mirror():
    k = 12
    cfg = t3e([k, 1, 1], r_orient=1)  # physical ordinate k-1-r
    words = vcsel_tables(cfg, "optimized")
    table = shipped_table(k, "optimized")
    for r in range(k):
        s = k - 1 - r
        plus = sum(int(b) << e for e, b in enumerate(table[s]))
        minus = sum(int(table[k - 1 - s, (k - 1 - e) % 8]) << e for e in range(8))
        assert int(words[r, 0]) & 0xFF == plus
        assert int(words[r, 3]) & 0xFF == minus
    assert np.all(words[:, [1, 2, 4, 5]] == 0)  # rings of one node: no SELECT, no dateline


@pytest.mark.parametrize("orient", [0, 1])
def test_no_route_crosses_a_dateline_on_vc1_and_minus_balances_as_plus(orient):
    """Every route of every ring 2..32, both directions, hop by hop, under the default
    tables' routes; the per-link balance of each direction is the model's for the + one."""
    for k in range(2, 33):
        cfg = t3e([k, 1, 1], r_orient=orient, adaptive=False)
        words = vcsel_tables(cfg, "optimized")
        routers = np.argsort(physical_ordinates(cfg)[:, 0])
        count = walk_ring(words, routers, k, default_plus)
        diff = np.abs(count[..., 0] - count[..., 1])
        busiest = count.sum(axis=2).max()
        model = link_balance(k, k, "optimized")  # link j: j -> j+1 of the + direction
        assert np.allclose(diff[0] / busiest, model), k
        assert np.allclose(diff[1][::-1] / busiest, model), k  # - link n -> n-1 mirrors k-1-n
        walk_ring(vcsel_tables(cfg, "time_of_crossing"), routers, k, default_plus)


def test_lut_modes_1_and_2_route_ties_otherwise_and_the_bits_they_need_are_cleared():
    """Modes 1/2 send X and Y ties the way of the destination pair: on rings of k % 4 == 0 the
    shipped tables would put 1-5 of them through the dateline on VC1 (rings 12..32)."""
    assert pair_plus(9, 3, 12) and not default_plus(9, 3, 12)
    for k in range(4, 33, 4):
        cfg = t3e([k, 2, 1], lut_mode="mode1", logical_format="format1")
        words = vcsel_tables(cfg, "optimized")
        routers = np.flatnonzero(physical_ordinates(cfg)[:, 1] == 0)
        routers = routers[np.argsort(physical_ordinates(cfg)[routers, 0])]
        walk_ring(words, routers, k, pair_plus)
        walk_ring(words, routers, k, default_plus)
    raw = vcsel_tables(t3e([12, 2, 1]), "optimized")  # mode 0: the shipped bits as they are
    mode1 = vcsel_tables(t3e([12, 2, 1], lut_mode="mode1", logical_format="format1"),
                         "optimized")
    assert int(raw[9, 0]) >> 3 & 1 == 1 and int(mode1[9, 0]) >> 3 & 1 == 0  # 9 -> 3 goes +


def test_raw_shipped_bits_stop_a_mode1_packet_in_simulation():
    """The hazard is real: the unmodified bits in a mode-1 machine stop a packet at the +X
    dateline within a few hundred clocks; the cleared ones run clean in debug mode."""
    cfg = t3e([12, 4, 1], lut_mode="mode1", logical_format="format1", adaptive=False,
              offered=1.0, debug=True)
    sim = load_vcsel(ls.Simulator(cfg), "optimized")
    sim.step(600)
    raw = vcsel_tables(cfg.with_(lut_mode="mode0"), "optimized")
    with pytest.raises(ls.SimulationError, match="dateline of"):
        ls.Simulator(cfg).set_state("r_vcsel", raw).step(600)


def test_explicit_tables():
    k = 8
    bits = np.zeros((k, 8), dtype=int)
    bits[1, 2] = 1  # 1 -> 2 does not wrap
    words = vcsel_tables(t3e([k, k, 1]), {k: bits})
    assert int(words[1, 0]) & 0xFF == 0b100 and int(words[8, 1]) & 0xFF == 0b100
    assert int(words[k - 1 - 1, 3]) & 0xFF == 1 << (k - 1 - 2)  # mirrored: - from 6 to 5
    assert np.array_equal(vcsel_tables(t3e([k, 1, 1]), bits), vcsel_tables(t3e([k, 1, 1]),
                                                                           {k: bits}))
    mixed = vcsel_tables(t3e([8, 4, 1]), {8: "optimized", 4: "time_of_crossing"})
    assert np.array_equal(mixed[:, [0, 3]], vcsel_tables(t3e([8, 4, 1]), "optimized")[:, [0, 3]])
    assert np.array_equal(mixed[:, [1, 4]],
                          vcsel_tables(t3e([8, 4, 1]), "time_of_crossing")[:, [1, 4]])


def one_bit(k, source, entry):
    bits = np.zeros((k, 8), dtype=int)
    bits[source, entry] = 1
    return bits


@pytest.mark.parametrize("cfg, table, message", [
    (lambda: t3e([8, 1, 1]), "full", "allowed time_of_crossing, optimized"),
    (lambda: t3e([8, 4, 1]), {8: "optimized"}, "no table for rings of k = 4"),
    (lambda: t3e([8, 4, 1]), np.zeros((8, 8), dtype=int), "dimension Y has rings of k = 4"),
    (lambda: t3e([8, 1, 1]), np.zeros((8, 4), dtype=int), r"allowed \(8, 8\)"),
    (lambda: t3e([8, 1, 1]), np.full((8, 8), 1), "through the dateline node 0 on VC1"),
    (lambda: t3e([12, 2, 1], lut_mode="mode1", logical_format="format1"),
     {12: one_bit(12, 9, 3), 2: "time_of_crossing"}, "modes 1/2"),  # the tie 9 -> 3 goes +
    (lambda: ls.Config({"topology": {"kind": "torus", "radix": [4, 4]}}), "optimized",
     "router.family"),
])
def test_bad_input_is_refused_by_name(cfg, table, message):
    with pytest.raises(ValueError, match=message):
        vcsel_tables(cfg(), table)


def test_load_vcsel_writes_every_instance_and_survives_a_run():
    cfgs = [t3e([8, 4, 1], offered=0.2, warmup=50, measure=100, drain=500, seed=s)
            for s in (1, 2)]
    sim = ls.Simulator(cfgs)
    assert load_vcsel(sim, "optimized") is sim
    want = vcsel_tables(cfgs[0], "optimized")
    assert sim.state("r_vcsel").shape == (2, 32, 6)
    assert np.array_equal(sim.state("r_vcsel"), np.stack([want, want]))
    assert not np.array_equal(want, vcsel_tables(cfgs[0], "time_of_crossing"))
    sim.run()
    assert np.array_equal(sim.state("r_vcsel"), np.stack([want, want]))
    one = load_vcsel(ls.Simulator(cfgs[0]), "time_of_crossing")
    assert np.array_equal(one.state("r_vcsel"), vcsel_tables(cfgs[0], "time_of_crossing"))


# -- in simulation ----------------------------------------------------------------------------

def test_optimized_tables_run_clean_in_debug_mode():
    """Debug mode (invariants every clock) at saturation, deterministic and adaptive: no
    configuration error (no VC1 packet reaches a dateline) with the optimised tables."""
    for radix in ([8, 8, 1], [12, 4, 2]):
        for adaptive in (False, True):
            cfg = t3e(radix, adaptive=adaptive, offered=1.0, debug=True, seed=3)
            sim = load_vcsel(ls.Simulator(cfg), "optimized")
            sim.step(400)
            assert not sim.state("config_error").any()
            assert sim.state("occupancy").sum() > 0  # it was loaded, not idle


@pytest.mark.parametrize("table, used", [("time_of_crossing", [0, 2]),
                                         ("optimized", [0, 1, 2, 3])])
def test_the_pe_enters_the_node_interface_vc_its_first_hop_selects(table, used):
    """The node interface's four VCs (paper section 7) are the static pairs of the two classes:
    a packet waits on the one its first hop's R_VCSEL selects. Every first hop selects VC0 in
    the time-of-crossing tables, either VC in the optimised ones; the adaptive VC (4) never holds
    a PE's packet. Debug mode checks every packet arrives whole and once."""
    cfg = t3e([8, 8, 1], adaptive=True, offered=0.6, debug=True, seed=2)
    sim = load_vcsel(ls.Simulator(cfg), table)
    held = np.zeros(5, dtype=np.int64)
    for _ in range(300):
        sim.step(1)
        held += sim.state("occupancy")[:, 0].sum(axis=0, dtype=np.int64)  # port 0: the PE
    assert np.flatnonzero(held).tolist() == used, held


@pytest.mark.skipif("cuda" not in ls.available_backends(), reason="no CUDA device")
def test_cuda_runs_the_optimised_tables_as_the_cpu():
    """The default tables start every packet on VC0 (the fingerprints' runs); the optimised ones
    put packets on VC1 at the node interface and on first hops: every state array equal."""
    for adaptive in (False, True):  # a batch shares t3e.adaptive
        batch = [t3e([8, 8, 1], adaptive=adaptive, offered=0.8, seed=s) for s in (1, 2)]
        states = []
        for backend in ("cpu", "cuda"):
            sim = load_vcsel(ls.Simulator(batch, backend=backend), "optimized")
            sim.step(3000)
            states.append({n: sim.state(n) for n in sim.state_names()})
        for name, cpu in states[0].items():
            assert np.array_equal(cpu, states[1][name]), (adaptive, name)


def saturated(radix, table, seed):
    cfg = t3e(radix, adaptive=False, offered=1.0, warmup=1000, measure=10000, drain=3000,
              seed=seed)
    return load_vcsel(ls.Simulator(cfg), table).run()


# Measured (docs/design/t3e.md, "Optimised VC tables"; the PE entering the node interface VC
# its first hop selects): optimised over time of crossing at offered 1.0, seeds 1-5, throughput
# and mean latency: [8, 8, 1] 1.115-1.177 and 0.81-0.94, [16, 1, 1] 0.94-1.12 and 0.49-0.75 (the
# saturated ring of 16 is erratic), [8, 1, 1] 1.01-1.04 and 0.92-0.99. Asserted over seeds 1-3:
# the mean throughput ratio above `floor`, each seed's above `least`, each latency ratio below
# `latency`.
@pytest.mark.parametrize("radix, floor, least, latency", [([8, 8, 1], 1.10, 1.05, 0.95),
                                                          ([16, 1, 1], 1.0, 0.9, 0.8),
                                                          ([8, 1, 1], 1.02, 0.97, 0.97)])
def test_optimized_tables_raise_saturation_throughput(radix, floor, least, latency):
    gains = []
    for seed in (1, 2, 3):
        toc = saturated(radix, "time_of_crossing", seed)
        opt = saturated(radix, "optimized", seed)
        gains.append(opt.accepted / toc.accepted)
        assert gains[-1] > least, (seed, toc.accepted, opt.accepted)
        assert opt.latency_mean < latency * toc.latency_mean, (seed, toc.latency_mean,
                                                               opt.latency_mean)
    assert sum(gains) / len(gains) > floor, gains


# R_NET_LUT mode 3 (manual, "R_LUT_OVERRIDE Register"): every packet a PE creates takes the one
# tag in R_LUT_OVERRIDE, which the host fills with the PE's partner in a paired pattern.
MODE3 = ls.Config().with_(family="t3e", radix=[4, 4, 4], adaptive=False, threads=1,
                          warmup=300, measure=1500, offered=0.2)


@pytest.mark.parametrize("pattern", ["bitcomp", "transpose", "bitrev"])
def test_mode3_routes_paired_traffic_as_the_full_table_does(pattern):
    """Each PE's override is the tag its R_NET_LUT entry for its partner holds in mode 0, so the
    runs agree in every figure and every state array but the registers."""
    a, b = (ls.Simulator(MODE3.with_(pattern=pattern, lut_mode=m)) for m in ("mode0", "mode3"))
    a.run()
    b.run()
    lut = a.state("r_net_lut")
    for name in sorted(set(a.state_names()) - {"r_net_lut", "r_lut_override"}):
        assert np.array_equal(a.state(name), b.state(name)), name
    assert b.state("r_net_lut").shape[1] == 1  # mode 3 keeps one (unused) entry
    partner = {"bitcomp": lambda n: 63 - n, "transpose": lambda n: (n >> 3 | n << 3) & 63,
               "bitrev": lambda n: int(f"{n:06b}"[::-1], 2)}[pattern]
    lwho = a.state("r_lwho")
    for r in range(64):
        assert b.state("r_lut_override")[r] == lut[r, partner(int(lwho[r]))]


def test_mode3_packets_read_the_override():
    """One request from PE 0 to its partner (bitcomp: PE 15 of 2x4x2): giving PE 0's override an
    initial +X or +Z hop moves the links the request and its response take; giving the same
    hop to the (unused) R_NET_LUT entry moves nothing."""
    cfg = MODE3.with_(radix=[2, 4, 2], pattern="bitcomp", lut_mode="mode3", offered=4.0,
                      max_packets=1, sender_every=16, warmup=0, measure=200, drain=200)

    def links(register: str | None = None, hop: int = 3) -> frozenset:
        sim = ls.Simulator(cfg)
        if register:
            reg = sim.state(register)
            reg.flat[0] = (int(reg.flat[0]) & ~(3 << 18)) | (hop << 18)
            sim.set_state(register, reg)
        assert sim.run().packets > 0  # delivered in the window
        return frozenset(map(tuple, np.argwhere(sim.state("link_flits")[:, 1:] > 0)))

    ref = links()
    assert links("r_lut_override", 0) != ref or links("r_lut_override", 2) != ref
    assert links("r_net_lut", 0) == ref and links("r_net_lut", 2) == ref


@pytest.mark.parametrize("changes, message", [
    ({"pattern": "uniform"}, 'traffic.pattern = "uniform" is not allowed: allowed bitcomp'),
    ({"pattern": "bitcomp", "hot_spares": 1}, "t3e.hot_spares"),
    ({"pattern": "bitcomp", "partitions": [0, 31]}, "t3e.partitions")])
def test_mode3_refuses_traffic_it_cannot_carry(changes, message):
    with pytest.raises(ValueError, match=r't3e.lut_mode = "mode3"') as e:
        MODE3.with_(lut_mode="mode3", **changes)
    assert message in str(e.value)
