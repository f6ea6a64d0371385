"""t3e.adaptive_admission (paper section 5): when a head may enter an adaptive VC. "packet" (the
T3E's rule, the default) when its whole packet fits, several packets co-residing; "empty"
(Duato's) only into an empty buffer, one packet at a time; "flit" with one free slot, as a
wormhole VC. Each is observed clock by clock in the named state arrays."""

import numpy as np
import pytest

import lockstep as ls

ADAPTIVE = 4  # the adaptive VC of an input or output (kernels/t3e/t3e_state.hpp)
LOADED = ls.Config().with_(family="t3e", kind="torus", radix=[4, 4, 2], pattern="uniform",
                           offered=0.9, packet_type="vector_get", threads=1)


def observe(rule: str, clocks: int = 400) -> tuple[int, int]:
    """(adaptive buffer-clocks holding flits of two packets or more, adaptive output VCs found
    mid-packet with no credit), over `clocks` clocks of a loaded 4x4x2 machine."""
    sim = ls.Simulator(LOADED.with_(adaptive_admission=rule))
    mixed = stalled = 0
    for _ in range(clocks):
        sim.step(1)
        count = sim.state("occupancy")[:, 1:, ADAPTIVE]  # [router, network input]
        # A packet is (source, number at its source, class): the flits behind the front one
        # that belong to another packet.
        key = [sim.state(f"buffer_{f}")[:, 1:, ADAPTIVE, :].astype(np.int64)
               for f in ("src", "seq", "meta")]
        other = np.zeros(count.shape, dtype=bool)
        for k in key[:2] + [key[2] >> 31]:
            held = np.arange(k.shape[-1]) < count[..., None]
            other |= ((k != k[..., :1]) & held).any(axis=-1)
        mixed += int(other.sum())
        started = sim.state("ovc_started")[:, 1:, ADAPTIVE] == 1
        stalled += int((started & (sim.state("credits")[:, 1:, ADAPTIVE] == 0)).sum())
    return mixed, stalled


def test_the_default_is_the_t3e_rule():
    assert LOADED.get("t3e.adaptive_admission") == "packet"
    a = ls.simulate(LOADED.with_(warmup=100, measure=300, drain=0))
    b = ls.simulate(LOADED.with_(warmup=100, measure=300, drain=0, adaptive_admission="packet"))
    assert (a.accepted, a.round_trip_mean) == (b.accepted, b.round_trip_mean)


@pytest.mark.parametrize("rule, co_reside, stall", [
    ("packet", True, False),  # several packets in a buffer; a packet never waits for room
    ("empty", False, False),  # one packet in a buffer at a time
    ("flit", True, True),     # a packet may stop half-way into a buffer, holding its VC
])
def test_each_rule_admits_as_it_says(rule, co_reside, stall):
    mixed, stalled = observe(rule)
    assert (mixed > 0, stalled > 0) == (co_reside, stall), (mixed, stalled)


def test_an_unknown_rule_is_refused_naming_the_key_and_the_rules():
    with pytest.raises(ValueError, match=r't3e\.adaptive_admission = "whole": allowed packet, '
                                         r'empty, flit'):
        LOADED.with_(adaptive_admission="whole")
