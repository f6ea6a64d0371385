"""S-Connect's in-band control messages from Python (section 3.4; ls.sconnect.Controller): the
network mapped from one node by source routes, routing tables downloaded into empty routers and
read back, registers read and written, a channel switched off, and the paper's bootstrap end to
end: a network with no tables mapped, loaded and then carrying traffic."""

import numpy as np
import pytest
from conftest import REPO

import lockstep as ls
from lockstep.sconnect import Controller


def config(name: str, **overrides) -> ls.Config:
    return ls.load_config(REPO / "configs" / f"{name}.toml").with_(**overrides)


@pytest.mark.parametrize("name", ["sconnect_hypercube64", "sconnect_random256"])
def test_map_topology_from_one_node_equals_the_wiring(name):
    sim = ls.Simulator(config(name, offered=0.0))
    links = Controller(sim, node=0).map_topology()
    peer = sim.state("peer")
    ports = peer.shape[1]
    assert len(links) == (peer >= 0).sum()
    got = links.router * ports + links.port, links.neighbour * ports + links.neighbour_port
    assert (peer.ravel()[got[0]] == got[1]).all()
    # Each router's route leads to it: identify at the end of it names the router.
    ctl = Controller(sim, node=0)
    for r, route in links.groupby("router").route.first().sample(8, random_state=1).items():
        assert ctl.identify(route)["router"] == r


def test_unwired_channel_and_bad_requests_are_answered_by_status():
    mesh = ls.Config({"topology": {"kind": "mesh", "radix": [4, 4]},
                      "router": {"family": "sconnect"}, "traffic": {"offered": 0.0}})
    ctl = Controller(ls.Simulator(mesh), node=0)
    assert ctl.identify([1])["router"] == 1
    assert ctl.identify([2])["status"] == "no channel"  # node 0 has no -x neighbour
    assert ctl.identify([1, 1, 1, 1])["status"] == "no channel"  # off the far edge
    assert ctl.call("read_register", [1], 99)["status"] == "bad request"
    with pytest.raises(RuntimeError, match="bad request"):
        ctl.read_table([1], 16)  # 16 nodes: no entry 16
    with pytest.raises(ValueError, match="route"):
        ctl.identify([5])
    with pytest.raises(ValueError, match="op"):
        ctl.send("reboot")
    with pytest.raises(ValueError, match="router.family"):
        Controller(ls.Simulator(ls.Config({"topology": {"kind": "mesh", "radix": [2, 2]}})))


def test_registers_timer_counter_and_channels():
    sim = ls.Simulator(config("sconnect_hypercube64", offered=0.3))
    ctl = Controller(sim, node=0)
    before = ctl.read_register([1], "timer")
    after = ctl.write_register([1], "timer", 1000)  # adds, as the TIC's does
    assert (after - before - 1000) % (1 << 16) < 10  # plus the cycles the reply took
    ctl.write_register([1], "perf_select", 16 + 3)  # messages sent on channel 3
    ctl.write_register([1], "perf_count", 0)
    sim.step(200)
    counted = ctl.read_register([1], "perf_count")
    assert counted > 0 and sim.state("perf_select")[1] == 19
    # Channel 3 of router 1 switched off: it sends nothing more (messages whose table entry
    # offers only channel 3 wait at router 1 until it is on again or the table is rewritten).
    channels = ctl.read_register([1], "channels")
    ctl.write_register([1], "channels", channels & ~(1 << 3))
    sent = sim.state("perf_count")[1]
    sim.step(300)
    assert sim.state("perf_count")[1] == sent
    assert ctl.read_register([1], "channels") == channels & ~(1 << 3)


def test_time_stamps_compare_timers_and_a_global_time_is_set():
    """Time-stamped control packets (section 3.4, "Time keeping"): the timers tick together,
    so every TIC's offset against node 0's is 0; a TIC whose timer was advanced by 1000 (an
    atomic add) is 1000 ahead, however far away and under load; adding back the offsets the
    controller measured sets one time everywhere (S3.mp's "globally synchronized notion of
    time")."""
    sim = ls.Simulator(config("sconnect_hypercube64", offered=0.3))
    sim.step(100)
    ctl = Controller(sim, node=0)
    far = [1, 2, 3, 4, 5, 6]  # router 63, six hops
    assert ctl.timer_offset([1]) == 0 and ctl.timer_offset(far) == 0
    ctl.write_register(far, "timer", 1000)
    ctl.write_register([2], "timer", (1 << 16) - 250)  # 250 behind
    assert ctl.timer_offset(far) == 1000 and ctl.timer_offset([2]) == -250
    for route in (far, [2]):
        ctl.write_register(route, "timer", -ctl.timer_offset(route) % (1 << 16))
    assert ctl.timer_offset(far) == 0 and ctl.timer_offset([2]) == 0
    timer = sim.state("timer").astype(int)
    assert (timer == timer[0]).all()


def test_bootstrap_maps_loads_and_then_carries_traffic():
    """The paper's bootstrap: routers with empty tables; the controller at node 0 maps the
    network by source routes, computes the tables (the engine's builder) and downloads them by
    control messages, verifies some by reading back; the network then carries traffic."""
    cfg = config("sconnect_hypercube64", offered=0.0)
    sim = ls.Simulator(cfg)
    sim.set_state("route_ports", np.zeros_like(sim.state("route_ports")))
    sim.set_state("route_vc", np.zeros_like(sim.state("route_vc")))
    ctl = Controller(sim, node=0)
    links = ctl.map_topology()
    routes = {int(r): list(route) for r, route in zip(links.router, links.route)}
    assert len(routes) == 64
    tables = ls.routing.table(cfg)
    cycles = ctl.load_tables(tables.port_mask, tables.vc, routes)
    assert 0 < cycles < 10_000
    assert (sim.state("route_ports") == tables.port_mask).all()
    assert (sim.state("route_vc") == tables.vc).all()
    assert ctl.read_table(routes[63], 5) == (int(tables.port_mask[63, 5]), int(tables.vc[63, 5]))
    loaded = ls.Simulator(cfg.with_(offered=0.3))
    loaded.set_state("route_ports", sim.state("route_ports"))
    loaded.set_state("route_vc", sim.state("route_vc"))
    r = loaded.run()
    assert r.packets > 1000 and r.lost == 0 and not r.saturated
