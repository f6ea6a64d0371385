"""ls.viz for the METRO family (router.family = "metro", docs/design/metro.md): which wires
carried a word (against the belts), the connections held through each router, the layered
layout of multibutterflies and fat trees, the drawings, and an endpoint's connections followed
through the crossbars (metro_trace)."""

import matplotlib
import numpy as np
import pandas as pd
import pytest

import lockstep as ls
from conftest import REPO
from lockstep import viz
from lockstep.metro import view as metro_view
from lockstep.viz.topology import LAYER_GAP, port_names, positions

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after choosing the backend)

NO_PORT = 0xFF
SETUP, OPEN = 1, 2  # PortMode (kernels/metro/metro_state.hpp)


def metro(name="metro_figure1", **overrides):
    """A shipped METRO config at a load that keeps connections in flight; one thread, debug
    checks (every belt slot written at most once a clock, every connection mirrored)."""
    cfg = ls.load_config(REPO / "configs" / f"{name}.toml")
    return cfg.with_(**{"offered": 0.3, "threads": 1, "debug": True, **overrides})


def history(cycles, name="metro_figure1", **overrides):
    h = viz.History(ls.Simulator(metro(name, **overrides)))
    h.cycle(cycles - 1)
    return h


def test_link_use_marks_exactly_the_ports_that_sent_a_word():
    h = history(100)
    routers, ports = h.peer.shape
    eports = h.config.get("topology.endpoint_ports")
    st = h.sim.state
    forward, delay = st("forward_ports"), st("wire_delay")
    entering, leaving = {}, {}
    for r, p in zip(*np.nonzero(h.port_node >= 0)):
        side = leaving if p >= forward[r] else entering
        side.setdefault(h.port_node[r, p], []).append((r, p))
    counted = {"router": 0, "leaving": 0, "entering": 0}
    for t in range(100):
        c = h.cycle(t)
        use = h.family.link_use(c)
        before, after = c.before["belt"], c.after["belt"]
        slots = before.shape[1]

        def written(x, p, sender):  # a word into (element x, column p) sent in clock t
            s = (t + delay[sender]) % slots
            return after[x, s, p] != 0 and before[x, s, p] == 0

        for r in range(routers):
            for p in range(ports):
                far = h.peer[r, p]
                if far >= 0:
                    assert use[r, p] == written(far // ports, far % ports, (r, p)), (t, r, p)
                    counted["router"] += use[r, p]
                elif h.port_node[r, p] < 0:
                    assert use[r, p] == 0
        for n, wires in leaving.items():  # the k-th backward port into n: its leaving wire k
            for k, (r, p) in enumerate(wires):
                assert use[r, p] == written(routers + n, eports + k, (r, p)), (t, n, k)
                counted["leaving"] += use[r, p]
        for n, wires in entering.items():  # back into n's entering wires: as many as arrived
            arrived = sum(written(routers + n, k, wires[0]) for k in range(eports))
            assert sum(use[w] for w in wires) == arrived, (t, n)
            counted["entering"] += arrived
    assert counted["router"] > 500 and counted["leaving"] > 100 and counted["entering"] > 20, \
        counted
    assert h.link_use(99, window=100).max() <= 1


def test_held_is_the_connections_through_each_router():
    h = history(120, reclaim="detailed")
    most = 0
    for t in range(120):
        s = h.cycle(t).after
        held = h.family.buffered(s)
        conn, mode, forward = s["conn"], s["port_mode"], s["forward_ports"]
        for r in range(len(held)):
            f = int(forward[r])
            fwd, bwd = conn[r, :f], conn[r, f:2 * f]
            assert held[r] == (fwd != NO_PORT).sum() == (bwd != NO_PORT).sum()
            assert held[r] == np.isin(mode[r, :f], (SETUP, OPEN)).sum()
            for k in np.nonzero(fwd != NO_PORT)[0]:  # mirrored across the crossbar
                assert f <= fwd[k] < 2 * f and conn[r, fwd[k]] == k
        most = max(most, held.max())
    assert h.family.unit == "word" and h.family.held_max(h.config) == 4
    assert 2 <= most <= 4, "some router carries several connections at 0.3"


@pytest.mark.parametrize("name", ["metro_figure1", "metro_fat_tree"])
def test_positions_put_each_layer_in_its_own_column(name):
    cfg = metro(name)
    sim = ls.Simulator(cfg)
    peer, stage, forward = sim.state("peer"), sim.state("stage"), sim.state("forward_ports")
    pos = positions(cfg, peer, stage)
    assert np.array_equal(pos[:, 0], stage * LAYER_GAP)
    for s in np.unique(stage):
        ys = pos[stage == s, 1]
        assert len(set(ys)) == len(ys) and np.isclose(ys.mean(), 0), "centred, one a row"
    shapes = metro_view.layer_shapes(cfg)
    assert len(shapes) == stage.max() + 1
    ports = peer.shape[1]
    steps, turns = 0, 0
    for r, p in zip(*np.nonzero(peer >= 0)):
        q = peer[r, p] // ports
        if q < r:
            continue  # each wire once: from the backward port of the lower layer
        assert p >= forward[r] and peer[r, p] % ports < forward[q], "backward to forward port"
        if stage[q] == stage[r] + 1:
            steps += 1
            continue
        # A fat tree's up router turns down into the down routers of its own level.
        what, level = shapes[stage[r]][0], shapes[stage[r]][0].split()[-1]
        assert what.startswith("up") and shapes[stage[q]][0] == f"down router, level {level}"
        assert p - forward[r] < forward[r] // 2, "the turn is direction 0"
        turns += 1
    assert steps > 0 and (turns > 0) == (name == "metro_fat_tree")
    r = int(np.argmax(forward))
    f = int(forward[r])
    assert port_names(cfg, 2 * f, f) == [f"fwd {k}" for k in range(f)] + [f"bwd {k}"
                                                                         for k in range(f)]


def router_texts(ax):
    return [t.get_text() for t in ax.texts]


def test_router_view_draws_the_connections_and_the_words_received(tmp_path):
    h = history(80, reclaim="detailed")
    # The busiest router in the busiest cycle, so there is something to draw.
    t, r = max(((t, r) for t in range(40, 80) for r in range(24)),
               key=lambda tr: h.family.buffered(h.cycle(tr[0]).after)[tr[1]])
    c = h.cycle(t)
    held = int(h.family.buffered(c.after)[r])
    f = int(c.before["forward_ports"][r])
    ax = viz.router_view(h, router=r, cycle=t)
    assert f"METRO router {r}, layer {c.before['stage'][r]}" in ax.get_title(loc="left")
    assert f"{held} of {f} forward ports connected" in ax.get_title(loc="left")
    arrows = [a for a in ax.texts if isinstance(a, matplotlib.text.Annotation)]
    assert len(arrows) == held > 0, "one arrow per connection"
    words = c.before["belt"][r, t % c.before["belt"].shape[1], :2 * f]
    shown = [x for x in router_texts(ax) if x.rstrip("*") in metro_view.WORD_KINDS.values() and x]
    assert sorted(shown) == sorted(metro_view.word_text(w) for w in words if w)
    texts = router_texts(ax)
    for p in range(2 * f):
        side = "bwd" if p >= f else "fwd"
        assert any(x.startswith(f"{side} {p % f} ") for x in texts)
    ax.figure.savefig(tmp_path / "router.png")
    plt.close("all")


def test_router_view_marks_a_dead_router_and_a_broken_wire(tmp_path):
    # Router 9 (middle stage) dead, router 0's first backward wire broken, both masked.
    h = history(5, failed_routers=[9], failed_ports=[0, 4])
    c = h.cycle(4)
    assert c.after["router_dead"][9] and c.after["port_dead"][0, 4]
    ax = viz.router_view(h, router=9, cycle=4)
    assert "DEAD" in ax.get_title(loc="left") and any("DEAD" in x for x in router_texts(ax))
    ax = viz.router_view(h, router=0, cycle=4)
    texts = router_texts(ax)
    assert any(x.startswith("bwd 0 to router") and x.endswith("(disabled)") for x in texts)
    crosses = [line for line in ax.lines if line.get_marker() == "x"]
    assert len(crosses) == 1, "one broken wire"
    ax.figure.savefig(tmp_path / "faults.png")
    plt.close("all")


@pytest.mark.parametrize("name", ["metro_figure1", "metro_fat_tree"])
def test_network_view_draws_metro_networks(name, tmp_path):
    h = history(30, name)
    ax = viz.network_view(h, cycle=29, window=10)
    links = int((h.peer >= 0).sum())
    arrows = [a for a in ax.texts if isinstance(a, matplotlib.text.Annotation)]
    assert len(arrows) == links, "one arrow per direction of every wire"
    grey = matplotlib.colors.to_rgb("#d0d0d0")
    coloured = [a for a in arrows if a.arrow_patch.get_edgecolor()[:3] != grey]
    used = int((h.link_use(29, 10)[h.peer >= 0] > 0).sum())
    assert used > 0 and len(coloured) == used, "wires that carried words are coloured"
    assert any("words/cycle" in a.get_ylabel() for a in ax.figure.axes)
    src = next(n for n in range(16) if len(viz.metro_trace(h, src=n, cycles=30, start=0)))
    path = viz.metro_trace(h, src=src, cycles=30, start=0)
    _, ax = plt.subplots()
    viz.network_view(h, cycle=29, window=10, path=path, ax=ax)
    ax.figure.savefig(tmp_path / "network.png")
    plt.close("all")


def test_metro_trace_follows_each_attempt_hop_by_hop():
    h = history(1, offered=0.2)
    ports = h.peer.shape[1]
    seen = 0
    for src in range(16):
        df = viz.metro_trace(h, src=src, cycles=150, start=0)
        for _, hops in df.groupby("seq"):
            hops = hops.sort_values("hop")
            assert list(hops.hop) == list(range(len(hops)))
            first = hops.iloc[0]
            assert h.port_node[first.router, first.in_port] == src
            for a, b in zip(hops.iloc[:-1].itertuples(), hops.iloc[1:].itertuples()):
                assert h.peer[a.router, a.out_port] == b.router * ports + b.in_port
                # The start word sets up one router a clock (dp = 1, vtd = 0, hw = 0).
                assert pd.isna(a.arrived) or b.arrived == a.arrived + 1
            last = hops.iloc[-1]
            if hops.released.notna().all() and hops.arrived.notna().all():
                # Acknowledged, or blocked and dropped: the drop runs back, a router a clock.
                assert list(np.diff(hops.released.astype(int))) == [-1] * (len(hops) - 1)
                if not pd.isna(last.out_port) and h.port_node[last.router, last.out_port] >= 0:
                    assert h.port_node[last.router, last.out_port] == last.dest
                    seen += 1
    assert seen >= 5, "several connections reached their destination and closed"


def test_trace_refuses_metro_and_metro_trace_refuses_packets(tiny):
    h = history(1)
    with pytest.raises(ValueError, match="metro_trace"):
        viz.trace(h, src=0, cycles=5)
    with pytest.raises(ValueError, match="allowed an endpoint, 0 to 15"):
        viz.metro_trace(h, src=16)
    with pytest.raises(ValueError, match="follows METRO connections"):
        viz.metro_trace(ls.Simulator(tiny), src=0)
