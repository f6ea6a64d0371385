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

A head that was not granted is told why where the state says so exactly: phase 1 is mirrored
(`head_request`, jsq_request.hpp) from the state as the cycle began, the tokens at arbitration,
and whether the receiver's reception bus was free by then. "lost arbitration": it could make a
request (phases 2 and 3, SLQ and random draws, chose another); "no room downstream": no pair its
hint bits and VC allow has the tokens phase 1 needs; "link busy": those that have are on links
still busy; "no path free": its receiver's paths to the senders are all busy; "reception bus
busy": at its destination (or a row broadcast to leave a copy) with its bus taken; "not
granted": the state cannot tell (the link-level protocol's senders); "arbitration gap": it could
request, but with `bgl.arbitration_gap` its receiver was wholly blocked in the cycle before
(`receiver_blocked`), so the receiver asks for nothing in this one.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.artist import Artist
from matplotlib.lines import Line2D
from matplotlib.patches import Patch, Rectangle

from ..viz.history import Cycle
from ..viz.registry import RouterFamily, State, register
from ..viz.router_view import (STATUS_COLOURS, draw_credits, draw_crossbar, draw_request,
                               finish_router_axes, link_end, packet_colour, router_layout,
                               router_title)

__all__ = ["bgl_starts"]  # what the family adds to lockstep.viz

DIRECTIONS = ("x+", "x-", "y+", "y-", "z+", "z-")  # direction d: topology port d + 1
DEST, SRC, SEQ, META, READY_AT = 0, 1, 2, 5, 6  # words of a packet record
HINTS, DETERMINISTIC, HIGH_PRIORITY, DEPOSIT = 7, 13, 14, 23  # bits of the meta word (Packet)
CHUNK_BYTES, FULL_CHUNKS, PRIORITY_FIFOS = 32, 8, 2
RECEPTION = "reception"

BGL_STATE_NAMES = ("vc_fifo", "vc_head", "vc_count", "vc_used", "drain_left", "drain_extra",
                   "tokens", "token_belt", "token_belt_valid", "belt", "belt_valid",
                   "drain_next", "link_free", "path_free", "chunks_sent", "reception_free",
                   "reception_busy", "reception_packet", "injection_fifo", "injection_head",
                   "injection_count", "injection_used")

# What a FIFO did in a cycle, with the colour it is drawn in.
BGL_STATUS_COLOURS = {
    "sent": STATUS_COLOURS["sent"],  # its head won the three phases: popped onto a link or bus
    "lost arbitration": STATUS_COLOURS["lost arbitration"],  # requested; phase 2 or 3 chose another
    "arbitration gap": "#ff9896",  # could request; its receiver, blocked last cycle, did not
    "no room downstream": STATUS_COLOURS["no credit"],  # no pair it may ask for has the tokens
    "link busy": "#bcbd22",  # pairs with the tokens, their links still busy
    "no path free": "#e377c2",  # its receiver's paths to the senders all busy
    "reception bus busy": STATUS_COLOURS["no VC"],  # at its destination, its bus taken
    "not granted": STATUS_COLOURS["waiting"],  # ready, no grant, why not told by the state
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


def bubble_vc(config, vcs: int, vc: int) -> bool:
    """The high-priority VC, and the escape VC unless a dateline pair (tokens.hpp, bubble_vc)."""
    return vc == vcs - 1 or (config.get("bgl.escape_vcs") == "bubble"
                             and vc == config.get("bgl.dynamic_vcs"))


def charge(config, vcs: int, vc: int, n: int) -> int:
    """Tokens a packet of n chunks takes from VC vc (tokens.hpp, charge): a full packet's on a
    bubble VC under the fixed bubble rule, else its size."""
    fixed = config.get("bgl.bubble_rule") == "fixed"
    return FULL_CHUNKS if bubble_vc(config, vcs, vc) and fixed else n


def _coord(config, node: int, k: int) -> int:
    """A node's coordinate in dimension k, x fastest (Shape::coord)."""
    radix = config.get("topology.radix")
    return node // int(np.prod(radix[:k], dtype=int)) % radix[k]


# Mirrors jsq_request.hpp, JsqRequest::escape_pair (with tokens.hpp, tokens_needed).
def escape_pair(config, vcs: int, router: int, meta: int, dest: int, came: int | None,
                on_vc: int, src: int) -> tuple[int, int, int]:
    """The escape pair (direction, VC, tokens needed) of a packet from `src` with hint bits at
    `router`, waiting at receiver `came` on VC on_vc (None: an injection FIFO): tokens for a full
    packet, for two entering a bubble VC (not already on it going that way), or an escape VC of
    a dateline pair with bgl.pair_entry = "two"."""
    hints, hp = meta >> HINTS & 63, bool(meta >> HIGH_PRIORITY & 1)
    if not hp and config.get("bgl.escape_order") == "direction" and hints & 0x15:
        hints &= 0x15  # x+ y+ z+ first (escape_vc.hpp, escape_direction)
    d = (hints & -hints).bit_length() - 1
    vc = config.get("bgl.dynamic_vcs")
    if hp:
        vc = vcs - 1
    elif config.get("bgl.escape_vcs") != "bubble":  # escape_vc.hpp, dateline_vc
        at, to, fro = (_coord(config, n, d // 2) for n in (router, dest, src))
        ahead = to < at if d % 2 == 0 else to > at  # the dateline still ahead: the lower
        crossed = at < fro if d % 2 == 0 else at > fro
        uncrossed_higher = config.get("bgl.dateline_uncrossed") == "higher"
        vc += 0 if ahead else int(crossed or uncrossed_higher)
    entering = not (came is not None and on_vc == vc and d == came ^ 1)
    two = bubble_vc(config, vcs, vc) or (config.get("bgl.pair_entry") == "two" and not hp)
    return d, vc, 2 * FULL_CHUNKS if two and entering else FULL_CHUNKS


# Mirrors the pairs jsq_request.hpp, JsqRequest::operator() tries, and the tokens each needs.
def phase1_pairs(config, vcs: int, router: int, meta: int, dest: int, came: int | None,
                 on_vc: int, src: int) -> list[tuple[int, int, int]]:
    """The (direction, VC, tokens needed) pairs phase 1 may ask for a packet from `src` (where its
    route, or a relayed packet's second leg, began) with hint bits: an adaptive packet's dynamic
    VCs of each direction its hint bits allow, each needing a full packet's tokens whatever its
    size, then its escape pair."""
    hints = meta >> HINTS & 63
    adaptive = not meta >> HIGH_PRIORITY & 1 and not meta >> DETERMINISTIC & 1
    dynamic = [(d, w, FULL_CHUNKS) for d in range(len(DIRECTIONS)) if adaptive and hints >> d & 1
               for w in range(config.get("bgl.dynamic_vcs"))]
    return dynamic + [escape_pair(config, vcs, router, meta, dest, came, on_vc, src)]


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


def leaving_at_arbitration(before: State, t: int, at: tuple = ()) -> np.ndarray:
    """[routers, dirs, vcs] (those indexed by `at`) chunks of a popped packet still to leave each
    VC FIFO as the arbitration of cycle t saw them: a chunk whose last byte leaves in cycle t has
    gone (link.hpp, drain), and a FIFO with none left may pop its next head in the same cycle."""
    left = before["drain_left"][at].astype(int)
    return left - ((left > 0) & (before["drain_next"][at] == t))


def _bus_free(cycle: Cycle, r: int, d: int, hp: bool) -> bool:
    """Whether receiver d's (normal or high-priority) reception bus was free at arbitration: idle
    as the cycle began, or its packet delivered in the cycle before arbitration
    (processor_interface.hpp, reception), which leaves the bus idle or with a packet started in
    the cycle, not still holding one whose last byte was in."""
    b, a, t, k = cycle.before, cycle.after, cycle.t, (r, d, int(hp))
    if not b["reception_busy"][k]:
        return True
    return b["reception_free"][k] <= t and not (a["reception_busy"][k]
                                                 and a["reception_free"][k] <= t)


# Mirrors jsq_request.hpp, JsqRequest::operator() and available (router_cycle.hpp's path check).
def head_request(cycle: Cycle, router: int, fifo: tuple) -> tuple[bool | None, str, str]:
    """Whether phase 1 of `cycle` could make any request for the head of FIFO `fifo` of `router`
    ((dir, vc): a VC FIFO; (f,): an injection FIFO), one ready for arbitration: True, False, or
    None where the state cannot tell (senders under the link-level protocol); then its status (a
    key of BGL_STATUS_COLOURS: "lost arbitration", "arbitration gap", "not granted", else why it
    could not) and the text drawn ("empty" for a FIFO with no packet). Which pair it would ask
    for (JSQ, ties at random) does not matter here."""
    b, cfg, t = cycle.before, cycle.config, cycle.t
    on_link = len(fifo) == 2
    packets = _fifo(b, "vc" if on_link else "injection", router, fifo)
    if not len(packets):
        return False, "empty", "empty"
    head = packets[0]
    meta, dest = int(head[META]), int(head[DEST])
    came, on_vc = fifo if on_link else (None, 0)
    bus = on_link and _bus_free(cycle, router, came, bool(meta >> HIGH_PRIORITY & 1))
    at_dest, deposit = meta >> HINTS & 63 == 0, on_link and meta >> DEPOSIT & 1
    if not bus and (at_dest or deposit):  # to reception, or a row broadcast leaving a copy
        return False, "reception bus busy", "reception bus busy"
    # bgl.arbitration_gap (router_cycle.hpp): a receiver wholly blocked in the cycle before
    # presents no request in this one, whichever of its heads could ask.
    held = on_link and "receiver_blocked" in b and bool(b["receiver_blocked"][router, came])
    could = ("arbitration gap", "held back: arbitration gap") if held else (
        "lost arbitration", "lost arbitration")
    if at_dest:
        return True, *could
    if on_link and not (b["path_free"][router, came] <= t).any():
        return False, "no path free", "no path free"
    tokens = tokens_at_arbitration(b, t)[router]
    vcs = tokens.shape[1]
    pairs = phase1_pairs(cfg, vcs, router, meta, dest, came, on_vc, int(head[SRC]))
    roomy = [d for d, w, need in pairs if tokens[d, w] >= need]
    if not roomy:
        d, w, need = pairs[-1]
        name = vc_names(cfg, vcs)[w].replace("high priority", "HP")
        return False, "no room downstream", f"no room: {DIRECTIONS[d]} {name} needs {need}"
    if all(b["link_free"][router, d] > t for d in roomy):
        busy = " ".join(DIRECTIONS[d] for d in sorted(set(roomy)))
        return False, "link busy", f"link busy: {busy}"
    if cfg.get("bgl.retransmission_packets"):  # Retransmission::open, changed before phase 1
        return None, "not granted", "not granted"
    return True, *could


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


def head_status(cycle: Cycle, router: int, fifo: tuple) -> tuple[str, str]:
    """What the head of FIFO `fifo` of `router` ((dir, vc): a VC FIFO; (f,): an injection FIFO)
    did in `cycle`, a key of BGL_STATUS_COLOURS, and the text drawn for it."""
    b, a, t = cycle.before, cycle.after, cycle.t
    prefix = "vc" if len(fifo) == 2 else "injection"
    k = (router, *fifo)
    if a[f"{prefix}_head"][k] != b[f"{prefix}_head"][k]:
        return "sent", "sent"
    leaving = int(leaving_at_arbitration(b, t, k)) if prefix == "vc" else 0
    if leaving:
        return "leaving", f"leaving: {leaving} chunk{'s' if leaving != 1 else ''} to go"
    if b[f"{prefix}_count"][k] == 0:
        return "empty", "empty"
    if _fifo(b, prefix, router, fifo)[0][READY_AT] > t:
        return "input pipeline", "input pipeline"
    return head_request(cycle, router, fifo)[1:]


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
    left = leaving_at_arbitration(b, t, (router,))

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
            _draw_packets(ax, yy, right, int(cap[v]), packets, arrived, sent, int(left[d, v]))
            status, text = head_status(cycle, router, (d, v))
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
        status, text = head_status(cycle, router, (f,))
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
    handles: list[Artist] = [Patch(color=c, label=s) for s, c in BGL_STATUS_COLOURS.items()
                             if s != "empty"]
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
                      bgl_figsize, unit="byte", held_unit="chunk", held_max=bgl_held_max,
                      optional_state_names=("receiver_blocked",)))
