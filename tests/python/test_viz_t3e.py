"""ls.viz for the Cray T3E family (router.family = "t3e", docs/design/t3e.md): the flits in
its input VCs (buffer_* views) against occupancy and the packets' sizes, heads and tails, the
flits each output sent against credits, ring read indices and link_flits, what each input's VCs
did in a clock of section 7's arbitration, the port directions per R_ORIENT, and the drawings
of a loaded 4x4x2 torus."""

import re

import matplotlib
import numpy as np
import pytest
from conftest import packet_runs

import lockstep as ls
from lockstep import viz
from lockstep.t3e import view as t3e_view
from lockstep.viz.router_view import credits_at_allocation

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after choosing the backend)

NO_FLIT = 0xFFFFFFFF  # an empty buffer slot in the buffer_* arrays
HEAD, TAIL = 1, 2  # buffer_meta bits (kernels/common/flit.hpp)
ROUTERS, PORTS, VCS, ADAPTIVE = 32, 7, 5, 4
VC_NAMES = ["req VC0", "req VC1", "resp VC0", "resp VC1", "adaptive"]
START, CYCLES = 300, 40  # the recorded clocks: cycles START .. START + CYCLES - 1


def t3e(**sections):
    """A 4x4x2 T3E torus of vector Gets (2-flit requests, 10-flit responses: whole packets of
    both sizes lie in the buffers) near saturation; debug checks every clock."""
    cfg = {"router": {"family": "t3e"}, "topology": {"radix": [4, 4, 2]},
           "traffic": {"offered": 0.9}, "t3e": {"packet_type": "vector_get"},
           "run": {"threads": 1, "debug": True}}
    for name, values in sections.items():
        cfg[name] = {**cfg.get(name, {}), **values}
    return ls.Config(cfg)


@pytest.fixture(scope="module")
def loaded():
    """A History of clocks START .. START + CYCLES - 1 of the loaded torus, all recorded."""
    h = viz.History(ls.Simulator(t3e(), backend="cpu").step(START))
    h.cycle(START + CYCLES - 1)
    return h


def test_buffer_views_agree_with_occupancy_and_hold_whole_packets(loaded):
    state = loaded.cycle(START + CYCLES - 1).after
    occ = state["occupancy"]
    arrays = {f: state[f"buffer_{f}"] for f in ["src", "seq", "dest", "meta"]}
    assert all(a.shape == (ROUTERS, PORTS, VCS, 22) and a.dtype == np.uint32
               for a in arrays.values()), "the depth axis is the adaptive VC's, 22"
    held = np.arange(22) < occ[..., None]
    assert held.sum() > 300, "near saturation the buffers hold flits"
    for a in arrays.values():  # flits from the front, the sentinel after them
        assert (a[~held] == NO_FLIT).all()
    assert (occ[:, :, :ADAPTIVE] <= 12).all() and occ[:, :, ADAPTIVE].max() > 0
    meta = arrays["meta"]
    assert ((meta[held] >> 2 & 63) == np.nonzero(held)[2]).all(), "a flit's VC is its buffer's"
    whole = {2: 0, 10: 0}
    for r, p, v in zip(*np.nonzero(occ)):
        n = occ[r, p, v]
        packet = list(zip(arrays["src"][r, p, v, :n], arrays["seq"][r, p, v, :n]))
        flags = meta[r, p, v, :n] & (HEAD | TAIL)
        size, cls = meta[r, p, v, :n] >> 16 & 0x7FFF, meta[r, p, v, :n] >> 31
        if v < ADAPTIVE:  # request VC0/VC1 carry requests, response VC0/VC1 responses
            assert (cls == v // 2).all()
        assert (size == np.where(cls == 0, 2, 10)).all(), "Table 3: vector Gets are 2/10"
        for s, e in packet_runs(packet, flags, f"router {r} port {p} vc {v}"):
            if flags[s] & HEAD and flags[e] & TAIL:
                assert e - s + 1 == size[s]
                whole[int(size[s])] += 1
                assert len(set(arrays["dest"][r, p, v, s:e + 1])) == 1
    assert whole[2] > 0 and whole[10] > 0, whole


def test_a_sent_flit_leaves_the_front_and_buffered_sums_occupancy(loaded):
    for t in range(START, START + 10):
        c = loaded.cycle(t)
        b, a = c.before, c.after
        sent = t3e_view.t3e_sent(c)
        assert (sent.sum(axis=2) <= 1).all(), "one VC of an input sends a clock"
        for r, p, v in zip(*np.nonzero(sent)):
            n = max(int(b["occupancy"][r, p, v]) - 1, 0)  # those behind the front moved up a slot
            for f in ("src", "seq", "meta"):
                assert np.array_equal(a[f"buffer_{f}"][r, p, v, :n], b[f"buffer_{f}"][r, p, v,
                                                                                     1:n + 1])
        held = loaded.family.buffered(a)
        assert np.array_equal(held, a["occupancy"].sum(axis=(1, 2))) and held.max() > 0
    assert loaded.family.held_max(loaded.config) == 4 * 12 + 22  # one input's buffers


def test_link_use_marks_exactly_the_ports_that_sent_a_flit(loaded):
    sent_any = 0
    for t in range(START, START + CYCLES):
        c = loaded.cycle(t)
        use = loaded.family.link_use(c)
        # The credits each output VC spent: those at arbitration less those after the clock.
        spent = credits_at_allocation(c.before, t) - c.after["credits"]
        assert set(np.unique(spent)) <= {0, 1}
        assert np.array_equal(use, spent.sum(axis=2)), t
        # ... and the input VCs whose ring read index moved, at the output they left on.
        sent = t3e_view.t3e_sent(c)
        out = np.zeros_like(use)
        for r, p, v in zip(*np.nonzero(sent)):
            o = c.before["ivc_out_port"][r, p, v]
            out[r, o if o >= 0 else c.after["ivc_out_port"][r, p, v]] += 1
        assert np.array_equal(use, out), t
        assert (use[(loaded.peer < 0) & (loaded.port_node < 0)] == 0).all()
        sent_any += int(use.sum())
    assert sent_any > 1000


def test_link_use_adds_up_to_link_flits_over_a_measurement_window(loaded):
    """link_flits counts only inside a run's window: a twin run measuring the recorded clocks
    (warm-up START, measure CYCLES, no drain) counts what link_use marked, port by port."""
    twin = ls.Simulator(t3e(run={"warmup": START, "measure": CYCLES, "drain": 0}),
                        backend="cpu")
    twin.run()
    use = sum(loaded.family.link_use(loaded.cycle(t)) for t in range(START, START + CYCLES))
    assert np.array_equal(twin.state("link_flits")[:, 1:], use[:, 1:])
    adaptive = np.zeros_like(use)
    for t in range(START, START + CYCLES):
        q = t3e_view.t3e_arbitration(loaded.cycle(t))
        q = q[(q.status == "sent") & (q.out_vc == ADAPTIVE)]
        np.add.at(adaptive, (q.router, q.out_port.to_numpy(int)), 1)
    assert np.array_equal(twin.state("link_adaptive_flits")[:, 1:], adaptive[:, 1:])
    assert adaptive.sum() > 50, "adaptive routing is on: some flits take the adaptive VC"


def test_requests_follow_section_7(loaded):
    """One VC of an input requests (in_sel); every flit that left came from its input's
    requester; a requester that lost kept its right only if it holds its output VC with a
    credit; one that gave it up had no credit or no output VC; a head asking afresh (a new bit
    in ovc_requests) is its input's requester."""
    shape = (ROUTERS, PORTS, VCS)
    me = np.arange(PORTS * VCS).reshape(PORTS, VCS)
    r = np.arange(ROUTERS)[:, None, None]
    seen = set()
    for t in range(START, START + CYCLES):
        c = loaded.cycle(t)
        b, a = c.before, c.after
        q = t3e_view.t3e_arbitration(c)
        assert q[["router", "port", "vc"]].values.tolist() == np.indices(shape).reshape(
            3, -1).T.tolist()
        status = q.status.to_numpy().reshape(shape)
        requesting = q.requesting.to_numpy(float, na_value=np.nan).reshape(shape)
        out = (q.out_port.to_numpy(int, na_value=0) * VCS
               + q.out_vc.to_numpy(int, na_value=0)).reshape(shape)
        credits = q.credits.to_numpy(int, na_value=-1).reshape(shape)
        seen |= set(q.status)
        assert not np.isnan(requesting).any(), "in_rr tells every input's requester"
        assert ((requesting == 1).sum(axis=2) <= 1).all(), "one requester an input"
        assert np.array_equal(status == "sent", t3e_view.t3e_sent(c) == 1)
        asking = {"sent", "lost the output", "no credit", "no output VC"}
        assert set(status[requesting == 1]) <= asking
        assert set(status[requesting == 0]) <= {"not its turn", "bubble", "empty"}
        # A head asking for the first time (a new bit in ovc_requests) is its input's requester.
        new = (a["ovc_requests"] & ~b["ovc_requests"]).reshape(ROUTERS, -1, 1)
        fresh = ((new >> me.ravel().astype(np.uint64)) & np.uint64(1)).any(axis=1)
        assert (requesting[fresh.reshape(shape)] == 1).all()
        sel = a["in_sel"][..., None]
        owner = a["ovc_owner"].reshape(ROUTERS, -1)[r, out]
        remembered = (a["ovc_requests"].reshape(ROUTERS, -1)[r, out]
                      >> me.astype(np.uint64)) & np.uint64(1)
        lost = status == "lost the output"  # kept its right: it owns its output VC, a credit
        assert ((sel == np.arange(VCS)) & (owner == me) & (credits > 0))[lost].all()
        no_credit = status == "no credit"  # gave up its right
        assert ((sel < 0) & (credits == 0))[no_credit].all()
        no_vc = status == "no output VC"  # gave up its right; its request is remembered
        assert ((sel < 0) & (owner != me) & (remembered == 1))[no_vc].all()
    assert set(t3e_view.T3E_STATUS_COLOURS) - {"empty"} <= seen, seen


@pytest.mark.parametrize("orient", [0, 5])
def test_port_names_follow_r_orient(orient):
    """The port named +D leads to the router one up in D's physical ordinate (R_PWHO), -D one
    down: R_ORIENT bit d makes port 1 + 2d the - direction."""
    sim = ls.Simulator(t3e(t3e={"r_orient": orient}, topology={"radix": [4, 3, 2]}))
    names = viz.t3e_port_names(sim.configs[0])
    assert sorted(names) == sorted(["PE", "+X", "-X", "+Y", "-Y", "+Z", "-Z"])
    assert (names[1], names[5]) == (("-X", "-Z") if orient else ("+X", "+Z"))
    pwho, peer = sim.state("r_pwho"), sim.state("peer")
    phys = np.stack([pwho & 255, pwho >> 8 & 255, pwho >> 16 & 255], axis=1).astype(int)
    k = np.array([4, 3, 2])
    for r in range(len(peer)):
        for p in range(1, PORTS):
            d = "XYZ".index(names[p][1])
            step = np.zeros(3, int)
            step[d] = 1 if names[p][0] == "+" else -1
            assert np.array_equal(phys[peer[r, p] // PORTS], (phys[r] + step) % k), (r, p)


def test_router_view_draws_the_t3e_router(loaded, tmp_path):
    t = START + CYCLES - 1
    ax = viz.router_view(loaded, router=5, cycle=t)
    texts = [x.get_text() for x in ax.texts]
    assert "T3E router 5 (x=1, y=1, z=0), cycle 339" in ax.get_title(loc="left")
    for name in VC_NAMES:  # every input names its five VCs
        assert texts.count(name) == PORTS
    for p, name in enumerate(["PE", "+X", "-X", "+Y", "-Y", "+Z", "-Z"]):
        assert sum(x.startswith(f"in {p} ({name}) from ") for x in texts) == 1
        assert sum(x.startswith(f"out {p} ({name}) to ") for x in texts) == 1
    assert sum(bool(re.match(r"(req[01]|resp[01]|adapt): \d+ credits?, (free|held by in )", x))
               for x in texts) == PORTS * VCS, "every output VC's credits and owner"
    slots = [a for a in ax.patches if isinstance(a, matplotlib.patches.Rectangle)
             and np.isclose(a.get_height(), 0.8)]
    # buffers: four of 12 flits and the adaptive one of 22 per input (plus marks drawn over)
    assert len(slots) >= PORTS * (4 * 12 + 22)
    credit_boxes = [a for a in ax.patches if np.isclose(a.get_height(), 0.6)]
    assert len(credit_boxes) == 5 * 16 + 6 * (4 * 12 + 22)  # the PE's receive VCs hold 16
    sent = int(t3e_view.t3e_sent(loaded.cycle(t))[5].sum())
    assert sum(x.startswith("sent > out ") for x in texts) == sent
    ax.figure.savefig(tmp_path / "router.png", dpi=40)
    plt.close("all")


def test_network_view_draws_the_t3e_torus(loaded, tmp_path):
    t = START + CYCLES - 1
    ax = viz.network_view(loaded, cycle=t, window=8)
    links = int((loaded.peer >= 0).sum())
    arrows = [a for a in ax.texts if isinstance(a, matplotlib.text.Annotation)]
    assert len(arrows) > links, "wrap-around and z links are two strokes each"
    grey = matplotlib.colors.to_rgb("#d0d0d0")
    coloured = sum(a.arrow_patch.get_edgecolor()[:3] != grey for a in arrows)
    used = int((loaded.link_use(t, 8)[loaded.peer >= 0] > 0).sum())
    assert 0 < used <= coloured <= 2 * used, "a link that sent a flit is coloured"
    assert "4x4x2 torus, cycle 339" in ax.get_title()
    labels = [x.get_ylabel() for x in ax.figure.axes]
    assert "flits held by the router" in labels and any("flits/cycle" in x for x in labels)
    held = loaded.family.buffered(loaded.cycle(t).after)
    assert [x.get_text() for x in ax.texts if not isinstance(x, matplotlib.text.Annotation)
            ][:ROUTERS] == [str(r) for r in range(ROUTERS)] and held.sum() > 0
    ax.figure.savefig(tmp_path / "network.png", dpi=40)
    plt.close("all")


def test_packet_trace_is_refused_by_name():
    """ls.viz.trace reads the vc router's pipeline state: a T3E history is refused with the
    family named, not a KeyError."""
    with pytest.raises(ValueError, match="router.family 't3e'.*vc family"):
        viz.trace(viz.History(ls.Simulator(t3e())), src=0, cycles=5)
