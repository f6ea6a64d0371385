"""Simulator.set_state writes only what software writes on the machine or a user stages a fault
with, each value within its range (docs/architecture.md); the routers' own state (pointers,
counts, records in flight), which the kernels index by unchecked, is refused. Fuzzing every
array with random bytes (fuzz/state_arrays.cpp) found such writes leading the kernels outside
the network."""

import re

import pytest

import lockstep as ls

NETWORKS = {
    "vc": dict(kind="mesh", radix=[3, 3], vcs=2, offered=0.5),
    "t3e": dict(family="t3e", kind="torus", radix=[2, 2, 2], offered=0.5),
    "bgl": dict(family="bgl", kind="torus", radix=[2, 2, 2], packet_size=64, offered=10.0),
    "metro": dict(family="metro", kind="multibutterfly", radix=[2, 2], dilation=[2, 1],
                  packet_size=4, offered=0.3),
    "sconnect": dict(family="sconnect", kind="hypercube", dimension=3, offered=0.5),
}
TERMINALS = {"packets_created", "packets_started", "source_queue"}  # every family's
WRITABLE = {
    "vc": {"credits"},
    "t3e": {"r_pwho", "r_lwho", "pe_router", "r_net_lut", "r_lut_override", "r_vcsel", "r_chan",
            "r_bsu", "base_lpe", "virtual_limit", "r_sw", "r_sget_rtrn", "special_command",
            "special_received", "credits"},
    "bgl": {"tokens", "tokens_owed", "belt"},
    "metro": {"port_enabled", "fast_reclaim", "swallow", "router_dead", "port_dead", "noisy"},
    "sconnect": {"route_ports", "channels_on", "route_vc", "perf_select", "timer", "class_used",
                 "channel_error_threshold", "control_requests", "control_request_head",
                 "control_request_count", "control_reply_count"},
}
# One past each bounded array's range (the value, and what the refusal says is allowed).
PAST = {
    "metro": {bit: (2, "0 or 1") for bit in WRITABLE["metro"]},
    "sconnect": {"route_ports": (32, "masks of the router's 5 ports, 0 to 31"),
                 "channels_on": (32, "0 to 31"), "route_vc": (2, "VC 0 or 1"),
                 "control_request_head": (64, "0 to 63"),
                 "control_request_count": (65, "0 to the queue's 64 entries"),
                 "control_reply_count": (65, "0 to the queue's 64 entries")},
}


def simulator(family: str) -> ls.Simulator:
    return ls.Simulator(ls.Config().with_(**NETWORKS[family], debug=True), backend="cpu").step(20)


@pytest.mark.parametrize("family", sorted(NETWORKS))
def test_only_the_writable_arrays_are_written(family):
    sim = simulator(family)
    refused = set()
    for name in sim.state_names():
        try:
            sim.set_state(name, sim.state(name))
        except ValueError as e:
            assert f'state "{name}": allowed only to read' in str(e)
            refused.add(name)
            if m := re.search(r"writable: (.*)\)$", str(e)):
                listed = set(m[1].split(", "))
                assert listed == WRITABLE[family] | TERMINALS, f"{name}'s refusal lists {m[1]}"
    assert set(sim.state_names()) - refused == WRITABLE[family] | TERMINALS
    sim.step(50)  # what was written back is the state it was: the run goes on, checked


@pytest.mark.parametrize("family", sorted(PAST))
def test_a_value_past_its_range_is_refused_by_name(family):
    sim = simulator(family)
    for name, (value, allowed) in PAST[family].items():
        a = sim.state(name)
        a.flat[3] = value
        with pytest.raises(ValueError, match=rf'state "{name}": allowed .*{re.escape(allowed)}.*'
                                             rf"here {value} at flat index 3"):
            sim.set_state(name, a)
        a.flat[3] = value - 1  # the top of the range: accepted
        sim.set_state(name, a)


def test_a_staged_deadlock_still_reports_through_the_credits():
    sim = simulator("vc")
    credits = sim.credits
    credits[:] = 0  # every output VC believes its downstream buffer full
    sim.set_state("credits", credits)
    with pytest.raises(ls.SimulationError, match="credit"):
        sim.step(1000)  # the debug checks find the credits that vanished
