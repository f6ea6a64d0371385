"""The T3E special network from Python: SPUT/SGET of router registers, and the machine's shape
found over it before nodes have numbers (the manual's use for R_SW and R_SGET_RTRN)."""

import pytest

import lockstep as ls
from lockstep.t3e import special


def t3e(radix, **extra):
    return ls.Config().with_(**{"router.family": "t3e", "topology.radix": radix, **extra})


@pytest.mark.parametrize("radix,orient", [([4, 8, 2], 0), ([5, 3, 1], 3), ([2, 1, 6], 0)])
def test_ring_sizes_found_over_the_special_network(radix, orient):
    sim = ls.Simulator(t3e(radix, **{"t3e.r_orient": orient}))
    assert special.ring_sizes(sim, router=1) == tuple(radix)
    # A ring of one node has no link: its probe (SPUT, then SGET) goes nowhere and is eaten.
    assert int(sim.state("special_eaten").sum()) == 2 * radix.count(1)
    assert int(sim.state("r_sw").sum()) == 0  # the marks wiped


def test_sput_sget_round_trip_under_load():
    sim = ls.Simulator(t3e([4, 4, 4], **{"traffic.offered": 0.6}))
    sim.step(200)
    route = [1, -1, 2]
    special.sput(sim, 5, route, "R_SW", 424242)
    sim.step(4 * 6 + 1)
    special.sput(sim, 5, route, "R_SGET_RTRN", special.deltas([-d for d in route]))
    sim.step(4 * 6 + 1)
    special.sget(sim, 5, route, "R_SW")
    sim.step(2 * 4 * 6 + 1)
    assert special.received(sim, 5) == 424242


def test_bad_deltas_are_named():
    with pytest.raises(ValueError, match="deltas = \\[40\\]"):
        special.deltas([40])
