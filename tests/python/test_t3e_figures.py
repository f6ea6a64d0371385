"""Figures 7 and 8 of Scott & Thorson, "The Cray T3E Network", computed (lockstep.t3e.figures):
the bandwidth profile's numbers the text gives, and the zero-load round trips against the
emulator, exactly, for packets that cannot meet (every PE sends one request to the same
offset in clock 0) and for a PE that sends to itself."""

import numpy as np
import pytest

import lockstep as ls
from lockstep.t3e import figures


def t3e(radix, **keys):
    return ls.Config().with_(family="t3e", kind="torus", radix=radix, threads=1, **keys)


def test_bandwidth_profile_follows_section_11():
    shapes = [(2, 2, 2), (4, 4, 4), (8, 4, 4), (8, 8, 8), (8, 16, 8), (8, 32, 8), (16, 16, 16)]
    bw = {r: figures.global_bandwidth(r) for r in shapes}
    # "the maximum bisection bandwidth remains fixed at 153.6 GB/s" from 512 PEs on
    for r in ((8, 8, 8), (8, 16, 8), (8, 32, 8)):
        assert bw[r]["bisection_gb_s"] == pytest.approx(153.6)
    # up to 64 nodes the port binds; 128 to 512 port and network are equal; then Y binds
    assert bw[(2, 2, 2)].network > 600 and bw[(4, 4, 4)].network > 600
    assert bw[(2, 2, 2)]["global"] == bw[(4, 4, 4)]["global"] == 600
    assert bw[(8, 4, 4)].network == bw[(8, 8, 8)].network == 600
    assert bw[(8, 16, 8)]["global"] == 300 and bw[(8, 32, 8)]["global"] == 150
    # a 16 x 16 x 16 torus would keep the 1,024-PE machine's bandwidth
    assert bw[(16, 16, 16)]["global"] == bw[(8, 16, 8)]["global"]
    assert bw[(8, 32, 8)].bound_flits == 0.25
    one = figures.global_bandwidth([1, 1, 1])
    assert one["global"] == 600 and one.bisection_gb_s == 0


def test_routes_count_hops_and_turns():
    r = figures.routes([8, 4, 2])
    assert len(r) == 64 and r.loc[0].tolist() == [0, 0, 0]
    assert r.loc[4].tolist() == [4, 1, 0]            # (4, 0, 0): a tie, straight
    assert r.loc[5 + 8 * 3 + 32].tolist() == [3 + 1 + 1, 3, 2]  # (5, 3, 1): 3 + 1 + 1 hops
    assert r.hops.max() == 4 + 2 + 1
    way = figures.one_way([8, 1, 1])
    assert np.isnan(way[0]) and way[1] == 20 and way[4] == 20 + 3 * 3


@pytest.mark.parametrize("radix", [[8, 1, 1], [4, 4, 2], [8, 4, 4], [8, 8, 8], [4, 2, 1]])
@pytest.mark.parametrize("pattern", ["tornado", "neighbor"])
@pytest.mark.parametrize("adaptive", [False, True])
def test_zero_load_round_trip_is_the_emulators(radix, pattern, adaptive):
    cfg = t3e(radix, pattern=pattern, offered=4.0, max_packets=1, warmup=0, measure=200,
              adaptive=adaptive)
    r = ls.simulate(cfg)
    k = np.array(radix)
    shift = (k + 1) // 2 - 1 if pattern == "tornado" else 1 % k
    offset = int(shift[0] + k[0] * shift[1] + k[0] * k[1] * shift[2])
    # each way: sent the clock after creation, one_way, and the second flit
    expect = 2 * (1 + figures.one_way(radix)[offset] + 1) if offset else 32
    assert r.round_trip_mean == r.round_trip_max == expect


def test_round_trip_to_itself_and_the_means():
    r = ls.simulate(t3e([1, 1, 1], offered=4.0, max_packets=1, warmup=0, measure=200))
    rt = figures.round_trip([1, 1, 1])
    assert r.round_trip_mean == rt.model_mean == rt.model_max == 32
    assert np.isnan(rt.paper_mean)
    rt = figures.round_trip([2, 1, 1])  # one neighbour, one hop: 2 x (10 + 10)
    assert rt.paper_mean == rt.paper_max == 40
    assert rt.model_mean == (32 + 2 * (1 + 20 + 1)) / 2 and rt.model_max == 44
