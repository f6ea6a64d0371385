"""ls.viz for Blue Gene/L (router.family = "bgl", docs/design/bgl.md): the chunks each router
holds against its VC FIFOs' token accounting (`vc_used`) and injection FIFOs, what each link
started in a cycle (read from the belts) against the packets popped from the FIFOs, the chunks
sent per VC and the tokens taken, the links' use against the bytes those starts put on them,
the drawings of a loaded 4x4x2 torus, and why a FIFO head was not granted (phase 1 mirrored by
`head_request`) against what the kernel did."""

import collections
import re

import matplotlib
import numpy as np
import pandas as pd
import pytest

import lockstep as ls
from lockstep import viz
from lockstep.bgl import view as bgl_view

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after choosing the backend)

ROUTERS, DIRS, VCS = 32, 6, 4  # two dynamic VCs, the bubble escape VC, the high-priority VC
START, CYCLES = 3000, 300  # the recorded cycles (byte times)
SIZES = {"packet_sizes": [64, 160, 256], "packet_size_weights": [1, 1, 1]}  # 2, 5, 8 chunks
UNIFORM = {"offered": 1.6, **SIZES}  # near saturation
HOT = {"pattern": "hotspot", "hotspot_nodes": [0], "hotspot_fraction": 0.5, "offered": 1.0,
       **SIZES}  # half the packets into node 0: saturated around it
NO_REQUEST = ("no room downstream", "link busy", "no path free", "reception bus busy")


def record(traffic: dict, bgl: dict | None = None, start: int = START, cycles: int = CYCLES,
           debug: bool = False) -> viz.History:
    """A History of cycles start .. start + cycles - 1 of a 4x4x2 torus."""
    cfg = ls.Config({"router": {"family": "bgl"}, "topology": {"radix": [4, 4, 2]},
                     "traffic": traffic, "bgl": bgl or {},
                     "run": {"threads": 1, "debug": debug}})
    h = viz.History(ls.Simulator(cfg, backend="cpu").step(start))
    h.cycle(start + cycles - 1)
    return h


@pytest.fixture(scope="module")
def loaded():
    """A 4x4x2 torus near saturation, packets of 2, 5 and 8 chunks; debug checks every cycle."""
    return record(UNIFORM, debug=True)


@pytest.fixture(scope="module")
def hot():
    """A 4x4x2 torus with half its packets into node 0, saturated: FIFOs fill towards it. Ties
    half way round go by coordinate, so senders in one plane crowd the same links and heads
    wait with no room downstream (the default, by node, spreads them too well for that)."""
    return record(HOT, {"half_way": "coordinate"})


@pytest.fixture(scope="module")
def starts(loaded):
    """bgl_starts of every recorded cycle, with the cycle."""
    return pd.concat([viz.bgl_starts(loaded.cycle(t)).assign(t=t)
                      for t in range(START, START + CYCLES)], ignore_index=True)


def test_buffered_chunks_agree_with_the_token_accounting(loaded):
    cfg = loaded.config
    held_any = 0
    for t in (START, START + CYCLES - 1):
        s = loaded.cycle(t).after
        assert s["vc_fifo"].shape[:3] == (ROUTERS, DIRS, VCS) and s["vc_fifo"].shape[-1] == 8
        buffered = viz.registry.family("bgl").buffered(s)
        for r in range(ROUTERS):
            chunks = 0
            for d in range(DIRS):
                for v in range(VCS):  # a VC holds its packets' tokens and a leaving one's
                    ring = s["vc_fifo"].shape[3]
                    k = (s["vc_head"][r, d, v] + np.arange(s["vc_count"][r, d, v])) % ring
                    meta = s["vc_fifo"][r, d, v, k, 5]
                    assert ((meta >> 4 & 7) == v).all(), "a packet's VC is its FIFO's"
                    charged = sum(bgl_view.charge(cfg, VCS, v, int(m & 15)) for m in meta)
                    left = int(s["drain_left"][r, d, v])
                    assert s["vc_used"][r, d, v] == charged + left + s["drain_extra"][r, d, v]
                    chunks += int((meta & 15).sum()) + left
            for f in range(s["injection_count"].shape[1]):
                ring = s["injection_fifo"].shape[2]
                k = (s["injection_head"][r, f] + np.arange(s["injection_count"][r, f])) % ring
                meta = s["injection_fifo"][r, f, k, 5]
                assert s["injection_used"][r, f] == (meta & 15).sum()
                chunks += int((meta & 15).sum())
            assert buffered[r] == chunks
        held_any += int(buffered.sum())
    assert held_any > 500, "near saturation the FIFOs hold packets"


def test_starts_are_the_packets_popped_and_take_their_tokens(loaded, starts):
    cfg = loaded.config
    packets = starts[starts.what == "packet"]
    assert len(packets) > 150 and (starts.what == "token-ack").sum() > 150
    assert set(packets.chunks.astype(int)) == {2, 5, 8}
    # Every packet left a receiver's VC FIFO or an injection FIFO (no retransmission here).
    assert (packets.from_dir.notna() ^ packets.from_fifo.notna()).all()
    assert packets.from_dir.notna().sum() > 50 and packets.from_fifo.notna().sum() > 50
    assert (packets.dest != packets.router).all()
    for t in range(START, START + CYCLES):
        c = loaded.cycle(t)
        b, a = c.before, c.after
        now = packets[packets.t == t]
        sent = np.zeros((ROUTERS, DIRS, VCS), int)
        taken = np.zeros((ROUTERS, DIRS, VCS), int)
        for p in now.itertuples():
            sent[p.router, p.dir, p.vc] += p.chunks
            taken[p.router, p.dir, p.vc] += bgl_view.charge(cfg, VCS, p.vc, p.chunks)
        assert (a["chunks_sent"].astype(int) - b["chunks_sent"] == sent).all()
        tokens = bgl_view.tokens_at_arbitration(b, t)
        assert (tokens - taken == a["tokens"]).all(), f"cycle {t}: tokens at arbitration"
        # A popped VC FIFO head went onto a link, or else over the bus to reception.
        popped = a["vc_head"] != b["vc_head"]
        onto_link = {(p.router, p.from_dir, p.from_vc) for p in now.itertuples()
                     if p.from_dir is not pd.NA}
        assert onto_link <= set(zip(*np.nonzero(popped)))
        for r, d, v in set(zip(*np.nonzero(popped))) - onto_link:
            head = b["vc_fifo"][r, d, v, b["vc_head"][r, d, v]]
            assert head[0] == r, "popped and not sent: received at its destination"


def test_link_use_is_the_bytes_the_links_started(loaded, starts):
    cfg = loaded.config
    first, last = loaded.cycle(START).before, loaded.cycle(START + CYCLES - 1).after
    use = sum(loaded.family.link_use(loaded.cycle(t)) for t in range(START, START + CYCLES))
    assert use.shape == (ROUTERS, DIRS + 1) and set(np.unique(use)) > {0.0}
    one = viz.registry.family("bgl").link_use(loaded.cycle(START))
    assert set(np.unique(one)) <= {0.0, 1.0}
    # A packet of n chunks holds its link for 32n bytes, trailer and gap; a token-ack ack_bytes.
    size = np.where(starts.what == "packet",
                    32 * starts.chunks.fillna(0).astype(int) + cfg.get("bgl.trailer_bytes")
                    + cfg.get("bgl.gap_bytes"), cfg.get("bgl.ack_bytes"))
    started = np.zeros((ROUTERS, DIRS))
    np.add.at(started, (starts.router.astype(int), starts["dir"].astype(int)), size)
    end = START + CYCLES
    carried = (started - np.maximum(0, last["link_free"].astype(int) - end)
               + np.maximum(0, first["link_free"].astype(int) - START))
    assert (use[:, 1:] == carried).all()
    assert use[:, 1:].mean() > 0.3 * CYCLES, "the links are busy"
    assert use[:, 0].sum() > 0, "reception buses carried packets"


def test_router_and_network_views_draw_the_vcs(loaded, starts):
    granted = starts[(starts.what == "packet") & starts.from_dir.notna()]
    t, r = int(granted.t.iloc[0]), int(granted.router.iloc[0])
    ax = viz.router_view(loaded, router=r, cycle=t)
    texts = [x.get_text() for x in ax.texts]
    for name in ("dynamic0", "dynamic1", "escape", "high priority", "inj0", "HP inj1"):
        assert name in texts
    assert sum(s.startswith("sent > out") for s in texts) >= 1
    assert any(re.match(r"(out|in) [xyz][+-] (to|from) router", s) for s in texts)
    assert any(s.endswith(" tokens") for s in texts)
    title = ax.get_title(loc="left")
    assert title.startswith(f"Blue Gene/L router {r} ") and f"cycle {t}" in title
    g = granted[(granted.t == t) & (granted.router == r)].iloc[0]
    names = bgl_view.vc_names(loaded.config, VCS)
    assert (f"{bgl_view.DIRECTIONS[g.from_dir]}.{names[g.from_vc]} > "
            f"{bgl_view.DIRECTIONS[g.dir]}.{names[g.vc]}") in title
    plt.close(ax.figure)
    ax = viz.network_view(loaded, cycle=START + CYCLES - 1, window=64)
    labels = [a.get_ylabel() for a in ax.figure.axes]
    assert any("chunks held" in s for s in labels) and any("bytes/cycle" in s for s in labels)
    plt.close(ax.figure)
    assert "bgl" in viz.families()


def held_heads(cycle):
    """(router, FIFO) of every FIFO holding a packet as the cycle began: (dir, vc) a VC FIFO,
    (f,) an injection FIFO."""
    b = cycle.before
    for r, d, v in zip(*np.nonzero(b["vc_count"])):
        yield int(r), (int(d), int(v))
    for r, f in zip(*np.nonzero(b["injection_count"])):
        yield int(r), (int(f),)


def head(cycle, r: int, k: tuple):
    """The head packet record of FIFO k of router r as the cycle began."""
    prefix = "vc" if len(k) == 2 else "injection"
    b = cycle.before
    return b[f"{prefix}_fifo"][(r, *k, b[f"{prefix}_head"][(r, *k)])]


def popped(cycle, r: int, k: tuple) -> bool:
    """Whether FIFO k of router r popped its head in the cycle."""
    prefix = "vc" if len(k) == 2 else "injection"
    return bool(cycle.after[f"{prefix}_head"][(r, *k)] != cycle.before[f"{prefix}_head"][(r, *k)])


def hints(cycle, r: int, k: tuple) -> int:
    """The hint bits of the head of FIFO k (bit d: it may still move in direction d)."""
    return int(head(cycle, r, k)[bgl_view.META]) >> bgl_view.HINTS & 63


def pairs(cycle, r: int, k: tuple) -> list[tuple[int, int, int]]:
    """The (direction, VC, tokens needed) pairs phase 1 may ask for the head of FIFO k."""
    f = head(cycle, r, k)
    came, on_vc = k if len(k) == 2 else (None, 0)
    return bgl_view.phase1_pairs(cycle.config, cycle.before["tokens"].shape[2], r,
                                 int(f[bgl_view.META]), int(f[bgl_view.DEST]), came, on_vc,
                                 int(f[bgl_view.SRC]))


def open_senders(cycle, r: int, k: tuple) -> set:
    """The senders the head of FIFO k could ask for (pairs with the tokens on a free link), or
    {"reception"} for a head at its destination."""
    if hints(cycle, r, k) == 0:
        return {"reception"}
    tokens = bgl_view.tokens_at_arbitration(cycle.before, cycle.t)[r]
    return {d for d, w, need in pairs(cycle, r, k)
            if tokens[d, w] >= need and cycle.before["link_free"][r, d] <= cycle.t}


@pytest.mark.parametrize("network, labels", [
    ("loaded", {"lost arbitration", "link busy", "reception bus busy"}),
    ("hot", {"lost arbitration", "no room downstream", "link busy"})])
def test_heads_not_granted_are_told_why(network, labels, request):
    h = request.getfixturevalue(network)
    seen = collections.Counter()
    for t in range(START, START + CYCLES):
        c = h.cycle(t)
        tokens = bgl_view.tokens_at_arbitration(c.before, t)
        for r, k in held_heads(c):
            status, text = bgl_view.head_status(c, r, k)
            seen[status] += 1
            if status not in ("lost arbitration", *NO_REQUEST):
                assert status in ("sent", "leaving", "input pipeline"), status
                continue
            could = bgl_view.head_request(c, r, k)[0]
            assert not popped(c, r, k)
            assert could is (status == "lost arbitration"), f"cycle {t} router {r} {k}: {text}"
            if status == "no room downstream":  # no pair it may ask for has the tokens
                assert all(tokens[r, d, w] < need for d, w, need in pairs(c, r, k))
                assert re.fullmatch(r"no room: [xyz][+-] (escape|HP) needs (8|16)", text)
            if status == "link busy":  # those with the tokens are on busy links
                room = [d for d, w, need in pairs(c, r, k) if tokens[r, d, w] >= need]
                assert room and all(c.before["link_free"][r, d] > t for d in room)
    assert labels <= {s for s, n in seen.items() if n > 0}, seen


def test_heads_held_back_by_the_arbitration_gap_are_told_so():
    """With bgl.arbitration_gap a receiver wholly blocked in one cycle asks for nothing in the
    next: its heads that could request are drawn as held back by the gap, not as having lost
    arbitration, and none of that receiver's FIFOs pops in such a cycle."""
    h = record(HOT, {"half_way": "coordinate", "arbitration_gap": True})
    held = 0
    for t in range(START, START + CYCLES):
        c = h.cycle(t)
        for r, k in held_heads(c):
            status, text = bgl_view.head_status(c, r, k)
            if status != "arbitration gap":
                continue
            held += 1
            assert len(k) == 2 and c.before["receiver_blocked"][r, k[0]] == 1
            assert bgl_view.head_request(c, r, k)[0] is True and text.startswith("held back")
            assert not any(popped(c, r, (k[0], v)) for v in range(VCS))
    assert held > 0


def test_a_head_certainly_without_room_is_told_so(hot):
    """Near the hot spot a head entering the bubble escape VC (from an injection FIFO or a
    dynamic VC) that finds fewer tokens than two full packets there (in dimension order its first
    direction's), and fewer than one on every dynamic VC of every direction it may take, cannot
    request: it has no room downstream."""
    full, escape = bgl_view.FULL_CHUNKS, 2
    certain = collections.Counter()
    for t in range(START, START + CYCLES):
        c = hot.cycle(t)
        tokens = bgl_view.tokens_at_arbitration(c.before, t)
        for r, k in held_heads(c):
            dirs = [d for d in range(DIRS) if hints(c, r, k) >> d & 1]
            entering = len(k) == 1 or k[1] < escape
            on_path = len(k) == 1 or (c.before["path_free"][r, k[0]] <= t).any()
            status = bgl_view.head_status(c, r, k)[0]
            if (not dirs or not entering or not on_path
                    or status in ("sent", "leaving", "input pipeline")):
                continue
            if (tokens[r, dirs, :escape] < full).all() and tokens[r, dirs[0], escape] < 2 * full:
                assert status == "no room downstream", (t, r, k, status)
                certain[len(k)] += 1
    assert certain[2] > 20 and certain[1] > 20, "VC and injection FIFO heads held up"


@pytest.mark.parametrize("bgl, traffic", [
    ({}, UNIFORM),
    ({"deterministic": True}, UNIFORM),
    ({"bubble_rule": "original"}, HOT),
    ({"deterministic": True, "bubble_rule": "original"}, UNIFORM),
    ({"deterministic": True, "escape_vcs": "dateline_pair", "escape_order": "direction"},
     UNIFORM),
    ({"priority_fraction": 0.5}, UNIFORM),
    ({"retransmission_packets": 4, "link_error_rate": 0.01}, UNIFORM)],
    ids=["dynamic", "deterministic", "original-hot", "deterministic-original", "dateline",
         "high-priority", "retransmission"])
def test_phase1_mirror_agrees_with_the_kernel(bgl, traffic):
    """A head with no possible request is never sent; and a receiver (an injection FIFO) whose
    heads could request started something on a sender one of them could ask for (or reception):
    phase 2 presents one of them, and a free sender granted it or sent a token-ack first."""
    h = record(traffic, bgl, start=2000)
    unknown = bgl.get("retransmission_packets", 0) > 0  # senders' protocol not told: None
    sent = asked = 0
    for t in range(2000, 2000 + CYCLES):
        c = h.cycle(t)
        b, a = c.before, c.after
        started = a["link_free"] != b["link_free"]  # [router, dir]: a packet or token-ack
        asks = collections.defaultdict(set)  # (router, receiver or FIFO) -> senders asked for
        for r, k in held_heads(c):
            status = bgl_view.head_status(c, r, k)[0]
            if status in ("leaving", "input pipeline"):
                assert not popped(c, r, k)
                continue
            could = bgl_view.head_request(c, r, k)[0]
            if popped(c, r, k):
                sent += 1
                assert could is True or (unknown and could is None), (t, r, k, status)
            asked += could is not False
            if could:
                asks[r, k[0] if len(k) == 2 else ("injection", k[0])] |= open_senders(c, r, k)
        for (r, unit), senders in asks.items():
            via_bus = "reception" in senders and bool((a["vc_head"][r, unit] !=
                                                       b["vc_head"][r, unit]).any())
            assert via_bus or any(started[r, d] for d in senders - {"reception"}), (t, r, unit)
    assert sent > 100 and asked > sent


def test_router_view_tells_why(hot):
    t, r = next((t, r) for t in range(START, START + CYCLES) for r, k in held_heads(hot.cycle(t))
                if bgl_view.head_status(hot.cycle(t), r, k)[0] == "no room downstream")
    ax = viz.router_view(hot, router=r, cycle=t)
    colours = {x.get_text(): x.get_color() for x in ax.texts}
    rooms = [s for s in colours if s.startswith("no room: ")]
    assert rooms and colours[rooms[0]] == bgl_view.BGL_STATUS_COLOURS["no room downstream"]
    legend = {x.get_text() for x in ax.get_legend().get_texts()}
    assert set(bgl_view.BGL_STATUS_COLOURS) - {"empty"} <= legend
    plt.close(ax.figure)


def test_an_empty_fifo_makes_no_request(loaded):
    c = loaded.cycle(START)
    r, d, vc = (int(x) for x in np.argwhere(c.before["vc_count"] == 0)[0])
    assert bgl_view.head_request(c, r, (d, vc)) == (False, "empty", "empty")
