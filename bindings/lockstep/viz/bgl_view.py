"""The `bgl` family's entry in the registry (docs/design/bgl.md, kernels/bgl/): one Blue Gene/L
torus router drawn during one network cycle (one byte time), how busy its links are and what it
holds (Adiga et al., "Blue Gene/L torus interconnection network", IBM J. R&D 2005).

Each of the six receivers has its VC FIFOs: the dynamic VCs, the escape VCs (the bubble escape
VC, or a dateline pair) and the high-priority VC, last. Packets move whole: a FIFO slot holds a
packet record (`vc_fifo` [router, dir, vc, ring, word]: dest, src, seq, ctime, itime, meta and
two spare words, kernels/bgl/bgl_state.hpp), 1-8 chunks of 32 bytes. A packet that starts
leaving its FIFO is popped at once (the ring index `vc_head` moves on, and it moves for nothing
else) and its chunks' tokens free one every 32 cycles after (`drain_left`). Each sender keeps
the downstream `tokens` per VC, returned by token-acks on the reverse link.

A cycle runs (kernels/bgl/router_cycle.hpp): heads and token-acks arrive from the belts, tokens
free as bytes leave, reception, injection, then the three arbitration phases, whose grants pop
packets onto links (or the reception buses). So tokens are drawn as the arbiter saw them (as the
cycle began plus the token-acks arriving in it), and the FIFOs as the cycle ended with the packet
popped in it put back at the front. A packet started in cycle t is written into the belt slot
(t + d) mod slots at the far receiver (`belt` [router, slot, dir, word]), empty as the cycle
began: the slots set in the cycle are the packets started in it, and `token_belt` likewise the
token-acks. A link is in use in every cycle of a transmission: `link_free` (the cycle it is
free) is past t.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.lines import Line2D
from matplotlib.patches import Patch, Rectangle

from .history import Cycle
from .registry import RouterFamily, State, register
from .router_view import (STATUS_COLOURS, draw_credits, draw_crossbar, draw_request,
                          finish_router_axes, link_end, packet_colour, router_layout,
                          router_title)

DIRECTIONS = ("x+", "x-", "y+", "y-", "z+", "z-")  # direction d: topology port d + 1
DEST, SRC, SEQ, META, READY_AT = 0, 1, 2, 5, 6  # words of a packet record
CHUNK_BYTES, FULL_CHUNKS, PRIORITY_FIFOS = 32, 8, 2
RECEPTION = "reception"

BGL_STATE_NAMES = ("vc_fifo", "vc_head", "vc_count", "vc_used", "drain_left", "drain_extra",
                   "tokens", "token_belt", "token_belt_valid", "belt", "belt_valid",
                   "link_free", "chunks_sent", "reception_free", "reception_busy",
                   "reception_packet", "injection_fifo", "injection_head", "injection_count",
                   "injection_used")

# What a FIFO did in a cycle, with the colour it is drawn in.
BGL_STATUS_COLOURS = {
    "sent": STATUS_COLOURS["sent"],  # its head won the three phases: popped onto a link or bus
    "not granted": STATUS_COLOURS["lost arbitration"],  # head ready, no grant (tokens, JSQ/SLQ)
    "leaving": STATUS_COLOURS["holds VC, no flit"],  # a popped packet's bytes still leaving
    "input pipeline": STATUS_COLOURS["routing"],  # head not ready for arbitration yet
    "empty": STATUS_COLOURS["empty"],
}
ARRIVED = "#1f77b4"  # the edge of a packet whose head arrived this cycle


def chunks(meta) -> np.ndarray:
    """A packet's chunks (1-8) from its meta word (Packet::chunks)."""
    return np.asarray(meta) & 15


def packet_vc(meta) -> np.ndarray:
    """The VC a packet is on, from its meta word (Packet::vc)."""
    return np.asarray(meta) >> 4 & 7


def vc_names(config, vcs: int) -> list[str]:
    """The VCs of a link: the dynamic ones, the escape VC(s), the high-priority VC."""
    dynamic = config.get("bgl.dynamic_vcs")
    escape = ["escape"] if vcs - dynamic == 2 else [f"escape{k}" for k in range(vcs - dynamic - 1)]
    return [f"dynamic{k}" for k in range(dynamic)] + escape + ["high priority"]


def capacity(config, vcs: int) -> np.ndarray:
    """[vcs] tokens (chunks) of each VC FIFO: bgl.vc_bytes for a dynamic VC, bgl.escape_bytes for
    the escape and high-priority VCs (tokens.hpp, capacity)."""
    dynamic = config.get("bgl.dynamic_vcs")
    return np.array([config.get("bgl.vc_bytes" if v < dynamic else "bgl.escape_bytes")
                     // CHUNK_BYTES for v in range(vcs)])


def charge(config, vcs: int, vc: int, n: int) -> int:
    """Tokens a packet of n chunks takes from VC vc (tokens.hpp, charge): a full packet's on a
    bubble VC under the fixed bubble rule, else its size."""
    dynamic = config.get("bgl.dynamic_vcs")
    bubble = vc == vcs - 1 or (config.get("bgl.escape_vcs") == "bubble" and vc == dynamic)
    return FULL_CHUNKS if bubble and config.get("bgl.bubble_rule") == "fixed" else n


def _held(head: np.ndarray, count: np.ndarray, ring: int) -> np.ndarray:
    """[..., ring] True where a ring slot holds a packet."""
    return (np.arange(ring) - head[..., None].astype(int)) % ring < count[..., None]


def bgl_buffered(state: State) -> np.ndarray:
    """[routers] chunks held: the VC FIFOs' packets (a leaving packet's chunks still to leave
    included) and the injection FIFOs'."""
    fifo = state["vc_fifo"]
    held = _held(state["vc_head"], state["vc_count"], fifo.shape[-2])
    queued = np.where(held, chunks(fifo[..., META]), 0).sum(axis=(1, 2, 3))
    return (queued + state["drain_left"].sum(axis=(1, 2))
            + state["injection_used"].sum(axis=1)).astype(int)


def bgl_link_use(cycle: Cycle) -> np.ndarray:
    """[routers, ports] 1 where an output link carried a packet's (or a token-ack's) bytes in
    `cycle`: its `link_free` is past t, set when it started (this cycle or before); port 0, the
    node's, where a receiver's bus into the reception FIFOs carried one."""
    t = cycle.t
    use = np.zeros(cycle.peer.shape)
    use[:, 1:] = cycle.after["link_free"] > t
    use[:, 0] = (cycle.after["reception_free"] > t).any(axis=(1, 2))
    return use


def _popped(b: State, a: State, head: str) -> np.ndarray:
    """1 where a FIFO's head packet left in the cycle: its ring read index moved on."""
    return (a[head] != b[head]).astype(int)


def bgl_starts(cycle: Cycle) -> pd.DataFrame:
    """What each sender started in the cycle, one row per (router, dir) that started anything:
    `what` ("packet" or "token-ack"), and for a packet its `src`, `seq`, `dest`, `chunks`, the
    downstream `vc` it took, and where it came from (`from_dir`, `from_vc`: a receiver's VC FIFO;
    `from_fifo`: an injection FIFO; neither: sent again by the link-level protocol), read from the
    belt slots at the far end set in the cycle."""
    b, a = cycle.before, cycle.after
    routers, dirs = b["link_free"].shape
    rows = []
    new = (a["belt_valid"] != 0) & (b["belt_valid"] == 0)  # [far router, slot, far dir]
    acks = (a["token_belt_valid"] != 0) & (b["token_belt_valid"] == 0)
    ports = cycle.peer.shape[1]
    popped = _popped(b, a, "vc_head")
    taken = _popped(b, a, "injection_head")
    for kind, mask in (("packet", new), ("token-ack", acks)):
        for fr, slot, fd in zip(*np.nonzero(mask)):
            sender = cycle.peer[fr, fd + 1]
            r, d = int(sender // ports), int(sender % ports - 1)
            row = dict(router=r, dir=d, what=kind)
            if kind == "packet":
                f = a["belt"][fr, slot, fd]
                row.update(src=int(f[SRC]), seq=int(f[SEQ]), dest=int(f[DEST]),
                           chunks=int(chunks(f[META])), vc=int(packet_vc(f[META])))
                row.update(_origin(b, popped, taken, r, f))
            rows.append(row)
    cols = ["router", "dir", "what", "src", "seq", "dest", "chunks", "vc", "from_dir",
            "from_vc", "from_fifo"]
    df = pd.DataFrame(rows, columns=cols)
    return df.astype({c: "Int64" for c in cols[3:]}).sort_values(["router", "dir"],
                                                                 ignore_index=True)


def _origin(b: State, popped, taken, r: int, f) -> dict:
    """Which FIFO of router r the packet record f left: the popped head holding the same packet."""
    for d, v in zip(*np.nonzero(popped[r])):
        g = b["vc_fifo"][r, d, v, b["vc_head"][r, d, v]]
        if g[SRC] == f[SRC] and g[SEQ] == f[SEQ] and g[DEST] == f[DEST]:
            return dict(from_dir=int(d), from_vc=int(v))
    for k in np.nonzero(taken[r])[0]:
        g = b["injection_fifo"][r, k, b["injection_head"][r, k]]
        if g[SRC] == f[SRC] and g[SEQ] == f[SEQ]:
            return dict(from_fifo=int(k))
    return {}


def tokens_at_arbitration(before: State, t: int) -> np.ndarray:
    """[routers, dirs, vcs] downstream tokens the senders' arbitration of cycle t saw: those
    held as the cycle began plus the token-acks arriving in it (link.hpp, receive)."""
    tokens = before["tokens"].astype(int)
    belt, valid = before["token_belt"], before["token_belt_valid"]
    now = t % belt.shape[1]
    vcs = tokens.shape[2]
    return tokens + np.where(valid[:, now, :, None] != 0, belt[:, now, :, :vcs], 0)


def _fifo(state: State, prefix: str, r: int, k) -> np.ndarray:
    """FIFO k's packet records of router r, front first ([packets, words])."""
    fifo, head, count = (state[f"{prefix}_{n}"][(r, *k)] for n in ("fifo", "head", "count"))
    ring = fifo.shape[0]
    return fifo[(int(head) + np.arange(int(count))) % ring]


def _as_seen(cycle: Cycle, prefix: str, r: int, k, sent: bool) -> tuple[np.ndarray, int]:
    """A FIFO's packets as the arbiter saw them, front first: the one popped in the cycle, then
    those held as it ended; and how many at the back arrived in the cycle."""
    b, a = cycle.before, cycle.after
    packets = _fifo(a, prefix, r, k)
    if sent:
        packets = np.concatenate([_fifo(b, prefix, r, k)[:1], packets])
    arrived = len(packets) - int(b[f"{prefix}_count"][(r, *k)])
    return packets, max(arrived, 0)


def _draw_packets(ax, y: float, right: float, slots: int, packets, arrived: int, sent: bool,
                  leaving: int, tall: float = 0.8) -> None:
    """A FIFO of `slots` chunks at height y, its front at x = right: the chunks of a packet still
    leaving (hatched), then each packet spanning its chunks, coloured by packet and labelled with
    its chunks and >dest (green edge: popped now; blue: its head arrived now)."""
    for k in range(slots):
        ax.add_patch(Rectangle((right - 1 - k + 0.05, y - tall / 2), 0.9, tall, fc="white",
                               ec="#dddddd", lw=0.6))
    x = right
    if leaving:
        x -= leaving
        ax.add_patch(Rectangle((x + 0.05, y - tall / 2), leaving - 0.1, tall, fc="#dddddd",
                               ec="#7f7f7f", hatch="//", lw=0.8))
    for i, p in enumerate(packets):
        n = int(chunks(p[META]))
        x -= n
        edge, lw = (("#2ca02c", 3) if sent and i == 0 else
                    (ARRIVED, 2) if i >= len(packets) - arrived else ("black", 0.8))
        ax.add_patch(Rectangle((max(x, right - slots) + 0.05, y - tall / 2), n - 0.1, tall,
                               fc=packet_colour(int(p[SRC]), int(p[SEQ])), ec=edge, lw=lw))
        ax.text(x + n / 2, y, f"{n}>{p[DEST]}", ha="center", va="center", fontsize=7,
                fontweight="bold")


def _status(b: State, r: int, k, t: int, sent: bool, prefix: str) -> str:
    if sent:
        return "sent"
    if prefix == "vc" and b["drain_left"][(r, *k)]:
        return "leaving"
    if b[f"{prefix}_count"][(r, *k)] == 0:
        return "empty"
    head = _fifo(b, prefix, r, k)[0]
    return "not granted" if head[READY_AT] <= t else "input pipeline"


def draw_bgl_router(ax, cycle: Cycle, router: int) -> None:
    """Router `router` during `cycle`: per receiver its VC FIFOs (dynamic, escape, high priority)
    with their packets as the arbiter saw them, what each FIFO's head did, the crossbar with the
    packets granted this cycle; per sender its downstream tokens per VC at arbitration and what
    its link started; the injection FIFOs and the reception buses."""
    b, a = cycle.before, cycle.after
    cfg, t = cycle.config, cycle.t
    dirs, vcs = b["vc_count"].shape[1:]
    fifos = b["injection_count"].shape[1]
    normal = fifos - PRIORITY_FIFOS
    names = vc_names(cfg, vcs)
    cap = capacity(cfg, vcs)
    inj_cap = cfg.get("bgl.injection_fifo_bytes") // CHUNK_BYTES
    right = int(max(cap.max(), min(inj_cap, 40)))
    tokens = tokens_at_arbitration(b, t)[router]
    starts = bgl_starts(cycle)
    starts = starts[starts.router == router].set_index("dir")
    popped = _popped(b, a, "vc_head")[router]
    taken = _popped(b, a, "injection_head")[router]

    y, status_x, xbar_l, xbar_r, token_x, label_x = router_layout(vcs, 0.9, right, 9.5,
                                                                  int(cap.max()))
    reception_y = y(dirs, 0)
    granted = []
    for d in range(dirs):
        end = link_end(cycle, router, d + 1)
        top = y(d, 0) + 0.45
        busy = [f"{'HP ' if hp else ''}bus busy to {a['reception_free'][router, d, hp]}"
                for hp in range(2) if a["reception_free"][router, d, hp] > t]
        ax.text(-4, top + 0.2, f"in {DIRECTIONS[d]} from {end}"
                + (f"   reception {', '.join(busy)}" if busy else ""), ha="left",
                va="bottom", fontsize=9, fontweight="bold")
        for v in range(vcs):
            yy = y(d, v)
            ax.text(right - cap[v] - 0.3, yy, names[v], ha="right", va="center", fontsize=8)
            sent = bool(popped[d, v])
            packets, arrived = _as_seen(cycle, "vc", router, (d, v), sent)
            leaving = int(b["drain_left"][router, d, v])
            _draw_packets(ax, yy, right, int(cap[v]), packets, arrived, sent, leaving)
            status = _status(b, router, (d, v), t, sent, "vc")
            text = status
            if sent:
                out = starts[(starts.from_dir == d) & (starts.from_vc == v)]
                if len(out):
                    s, w = int(out.index[0]), int(out.vc.iloc[0])
                    text += f" > out {DIRECTIONS[s]}.{names[w]}"
                    draw_request(ax, xbar_l, yy, xbar_r, y(s, w), BGL_STATUS_COLOURS["sent"], True)
                    granted.append(f"{DIRECTIONS[d]}.{names[v]} > {DIRECTIONS[s]}.{names[w]}")
                else:  # to this node: over the receiver's bus into a reception FIFO
                    text += f" > {RECEPTION}"
                    draw_request(ax, xbar_l, yy, xbar_r, reception_y,
                                 BGL_STATUS_COLOURS["sent"], True)
                    granted.append(f"{DIRECTIONS[d]}.{names[v]} > {RECEPTION}")
            elif status == "leaving":
                text += f": {leaving} chunk{'s' if leaving != 1 else ''} to go"
            ax.text(status_x, yy, text, ha="left", va="center", fontsize=8,
                    color=BGL_STATUS_COLOURS[status],
                    fontweight="bold" if status != "empty" else "normal")
        # Sender d: what its link started, then its downstream tokens per VC.
        if d in starts.index:
            s = starts.loc[[d]].iloc[0]
            what = (f"started token-ack, busy to {a['link_free'][router, d]}"
                    if s.what == "token-ack" else
                    f"started packet {s.src}.{s.seq} ({s.chunks} chunks) on {names[s.vc]}")
        elif b["link_free"][router, d] > t:
            what = f"carrying, free at {b['link_free'][router, d]}"
        else:
            what = "idle"
        ax.text(token_x, top + 0.2, f"out {DIRECTIONS[d]} to {end}: {what}", ha="left",
                va="bottom", fontsize=9, fontweight="bold")
        for v in range(vcs):
            c = int(tokens[d, v])
            draw_credits(ax, token_x, y(d, v), min(c, int(cap[v])), int(cap[v]))
            ax.text(label_x, y(d, v), f"{names[v]}: {c} token{'s' if c != 1 else ''}",
                    ha="left", va="center", fontsize=8)
    # The processor interface: injection FIFOs in, the reception FIFOs out.
    ax.text(-4, reception_y + 0.65, "injection FIFOs (the processor's)", ha="left",
            va="bottom", fontsize=9, fontweight="bold")
    for f in range(fifos):
        yy = reception_y - f
        name = f"inj{f}" if f < normal else f"HP inj{f - normal}"
        ax.text(right - min(inj_cap, right) - 0.3, yy, name, ha="right", va="center",
                fontsize=8)
        sent = bool(taken[f])
        packets, arrived = _as_seen(cycle, "injection", router, (f,), sent)
        _draw_packets(ax, yy, right, min(inj_cap, right), packets, arrived, sent, 0)
        status = _status(b, router, (f,), t, sent, "injection")
        text = status
        out = starts[starts.from_fifo == f] if sent else starts[:0]
        if len(out):
            s, w = int(out.index[0]), int(out.vc.iloc[0])
            text += f" > out {DIRECTIONS[s]}.{names[w]}"
            draw_request(ax, xbar_l, yy, xbar_r, y(s, w), BGL_STATUS_COLOURS["sent"], True)
            granted.append(f"{name} > {DIRECTIONS[s]}.{names[w]}")
        ax.text(status_x, yy, text, ha="left", va="center", fontsize=8,
                color=BGL_STATUS_COLOURS[status],
                fontweight="bold" if status != "empty" else "normal")
    receiving = [f"{a['reception_packet'][router, d, hp, SRC]}."
                 f"{a['reception_packet'][router, d, hp, SEQ]} from {DIRECTIONS[d]}"
                 for d in range(dirs) for hp in range(2)
                 if a["reception_busy"][router, d, hp] and a["reception_free"][router, d, hp] > t]
    ax.text(token_x, reception_y + 0.65, "reception FIFOs", ha="left", va="bottom", fontsize=9,
            fontweight="bold")
    ax.text(token_x, reception_y, "receiving: " + (", ".join(receiving) or "none"),
            ha="left", va="center", fontsize=8)
    bottom = reception_y - fifos + 0.4
    draw_crossbar(ax, xbar_l, xbar_r, bottom)
    ax.text(right / 2, 1.6, "VC FIFOs in chunks as the arbiter saw them (front on the right)",
            ha="center", fontsize=9, style="italic")
    ax.text(token_x + cap.max() / 2, 1.6, "senders: downstream tokens at arbitration",
            ha="center", fontsize=9, style="italic")
    ax.set_title(f"Blue Gene/L {router_title(cycle, router)} (byte times)   granted: "
                 f"{', '.join(granted) if granted else 'none'}", fontsize=10, loc="left")
    handles = [Patch(color=c, label=s) for s, c in BGL_STATUS_COLOURS.items() if s != "empty"]
    handles += [Patch(fc="white", ec="#2ca02c", lw=3, label="packet popped now (granted)"),
                Patch(fc="white", ec=ARRIVED, lw=2, label="head arrived now"),
                Patch(fc="#dddddd", ec="#7f7f7f", hatch="//", label="chunks still leaving"),
                Line2D([], [], color="none", label="colour = packet, n>d: n chunks to node d")]
    finish_router_axes(ax, handles, label_x + 14, bottom)


def bgl_figsize(config, ports: int) -> tuple[float, float]:
    vcs = config.get("bgl.dynamic_vcs") + (3 if config.get("bgl.escape_vcs") != "bubble" else 2)
    fifos = config.get("bgl.injection_fifos") + PRIORITY_FIFOS
    return 26.0, 2.0 + 0.28 * ((ports - 1) * (vcs + 0.9) + fifos + 1)


def bgl_held_max(config) -> int:
    """One receiver's VC FIFOs, in chunks."""
    vcs = config.get("bgl.dynamic_vcs") + (3 if config.get("bgl.escape_vcs") != "bubble" else 2)
    return int(capacity(config, vcs).sum())


register(RouterFamily("bgl", BGL_STATE_NAMES, draw_bgl_router, bgl_buffered, bgl_link_use,
                      bgl_figsize, unit="byte", held_unit="chunk", held_max=bgl_held_max))
