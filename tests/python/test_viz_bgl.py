"""ls.viz for Blue Gene/L (router.family = "bgl", docs/design/bgl.md): the chunks each router
holds against its VC FIFOs' token accounting (`vc_used`) and injection FIFOs, what each link
started in a cycle (read from the belts) against the packets popped from the FIFOs, the chunks
sent per VC and the tokens taken, the links' use against the bytes those starts put on them,
and the drawings of a loaded 4x4x2 torus."""

import re

import matplotlib
import numpy as np
import pandas as pd
import pytest

import lockstep as ls
from lockstep import viz
from lockstep.viz import bgl_view

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after choosing the backend)

ROUTERS, DIRS, VCS = 32, 6, 4  # two dynamic VCs, the bubble escape VC, the high-priority VC
START, CYCLES = 3000, 300  # the recorded cycles (byte times)


@pytest.fixture(scope="module")
def loaded():
    """A History of cycles START .. START + CYCLES - 1 of a 4x4x2 torus near saturation, packets
    of 2, 5 and 8 chunks; debug checks every cycle."""
    cfg = ls.Config({"router": {"family": "bgl"}, "topology": {"radix": [4, 4, 2]},
                     "traffic": {"offered": 1.6, "packet_sizes": [64, 160, 256],
                                 "packet_size_weights": [1, 1, 1]},
                     "run": {"threads": 1, "debug": True}})
    h = viz.History(ls.Simulator(cfg, backend="cpu").step(START))
    h.cycle(START + CYCLES - 1)
    return h


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
