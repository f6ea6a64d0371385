"""The `metro` family's entry in the registry (docs/design/metro.md, kernels/metro/): which
wires carried a word, the connections each router holds, one router drawn during one cycle (its
dilated crossbar, the connections through it, the word each port received) and an endpoint's
connections followed through the crossbars (`metro_trace`, drawn by `network_view(path=...)`).

METRO has no packet buffers: a connection is a path of crossbar settings (`conn`: a forward
port's backward port, and back) and words stream through it, one a clock, on the wires. So a
router "holds" the connections through it, and a link carries words.

Every wire is a belt at its receiving end (`belt` [element, slot, column]; an instance's
elements are its routers, then its endpoints). A word sent in clock t over a wire of d clocks
(1 <= d < slots) is written into slot (t + d) mod slots, which was empty as the clock began: the
slot read in clock t is t mod slots, and a wire has one sender at each end. So the slots set in
clock t that were empty before it are exactly the words sent in clock t, and the word a port
receives in clock t is in slot t mod slots as the clock begins.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.artist import Artist
from matplotlib.lines import Line2D
from matplotlib.patches import Patch, Rectangle

from ..simulate import Simulator
from ..viz.history import Cycle, History, as_history
from ..viz.registry import RouterFamily, State, register
from ..viz.topology import port_names

__all__ = ["metro_link_use", "metro_trace"]  # what the family adds to lockstep.viz

# kernels/metro/metro_state.hpp: a word's kind (bits 0-3) and start bit (4); its value
# (bits 5..) is not read here (STATUS values may change layout).
WORD_KINDS = {0: "", 1: "HEADER", 2: "DATA", 3: "DATA-IDLE", 4: "TURN", 5: "DROP", 6: "STATUS",
              7: "CHECKSUM", 8: "ACK"}
START_BIT = 1 << 4
FREE, SETUP, OPEN, BLOCKED, DISCARD = range(5)  # PortMode
FORWARD, REVERSE = 0, 1  # Flow
NO_PORT = 0xFF  # conn: no crossbar partner
WAIT_BIT = 0x80  # reply: turned, nothing yet from the new sender (DATA-IDLE meanwhile)
HELD = (SETUP, OPEN, BLOCKED)  # a forward port holding part of a path

MODE_COLOURS = {
    "setting up (header words)": "#17becf",
    "open, forward": "#2ca02c",
    "open, reversed (after a TURN)": "#1f77b4",
    "blocked, held (detailed reclamation)": "#d62728",
    "discarding (dropped)": "#ff7f0e",
    "released this cycle": "#aaaaaa",
}
WORD_COLOURS = {"HEADER": "#9467bd", "DATA": "black", "DATA-IDLE": "#999999", "TURN": "#1f77b4",
                "DROP": "#d62728", "STATUS": "#8c564b", "CHECKSUM": "#8c564b", "ACK": "#2ca02c"}
SENT_NOW = "#2ca02c"
DIRECTION_GAP = 0.6  # rows between two logical directions' ports (dilation over 1)

METRO_STATE_NAMES = ("belt", "conn", "port_mode", "flow", "reply", "header_left",
                     "port_enabled", "port_dead", "router_dead", "last_move", "msg_dest",
                     "stage", "forward_ports", "wire_peer")


def word_text(word: int) -> str:
    """A word's kind as the paper names it, "*" after the start of a connection ("" none)."""
    kind = WORD_KINDS.get(int(word) & 15, f"kind {int(word) & 15}")
    return kind + ("*" if kind and word & START_BIT else "")


def layer_shapes(config) -> list[tuple[str, int, int]]:
    """Each layer's (name, radix, dilation), in the order a connection crosses them: a
    multibutterfly's stages; a fat tree's up routers (two directions: turn down, up) from the
    last level to level 1, then its down routers from the root (host/topology/fat_tree.cpp)."""
    radix = list(config.get("topology.radix"))
    dilation = list(config.get("topology.dilation")) or [1] * len(radix)
    if config.get("topology.kind") != "fat_tree":
        return [(f"stage {s}", r, d) for s, (r, d) in enumerate(zip(radix, dilation))]
    levels = len(radix)
    return ([(f"up router, level {s}", 2, dilation[s]) for s in range(levels - 1, 0, -1)]
            + [(f"down router, level {s}", radix[s], dilation[s]) for s in range(levels)])


def metro_link_use(cycle: Cycle) -> np.ndarray:
    """[routers, ports] 1 where a router's port sent a word during `cycle` (the module's
    docstring says how): a new word at the far end of its wire, whose sender `wire_peer` names
    (element * columns + column)."""
    b, a = cycle.before, cycle.after
    routers = len(cycle.peer)
    x, col = np.nonzero(((a["belt"] != 0) & (b["belt"] == 0)).any(axis=1))  # [element, column]
    columns = b["wire_peer"].shape[1]
    sender = b["wire_peer"][x, col]
    element, port = sender // columns, sender % columns
    use = np.zeros(cycle.peer.shape)
    from_router = (sender >= 0) & (element < routers)
    use[element[from_router], port[from_router]] = 1
    return use


def metro_buffered(state: State) -> np.ndarray:
    """[routers] connections held through each router: its forward ports connected across the
    crossbar (`conn` set: setting up or open)."""
    conn = state["conn"]
    forward = np.arange(conn.shape[1]) < state["forward_ports"][:, None]
    return ((conn != NO_PORT) & forward).sum(axis=1)


def _mode_name(mode: int, flow: int) -> str:
    if mode == SETUP:
        return "setting up (header words)"
    if mode == OPEN:
        return "open, reversed (after a TURN)" if flow == REVERSE else "open, forward"
    return {BLOCKED: "blocked, held (detailed reclamation)", DISCARD: "discarding (dropped)"}.get(
        mode, "free")


def _far_end(cycle: Cycle, router: int, p: int, forward_ports: np.ndarray) -> str:
    far, node = cycle.peer[router, p], cycle.port_node[router, p]
    ports = cycle.peer.shape[1]
    if far >= 0:
        q, fp = divmod(int(far), ports)
        return f"router {q} {port_names(cycle.config, ports, int(forward_ports[q]))[fp]}"
    return f"endpoint {node}" if node >= 0 else "unwired"


def draw_metro_router(ax, cycle: Cycle, router: int) -> None:
    """Router `router` during `cycle`: its dilated crossbar, forward ports on the left and
    backward ports on the right by logical direction; each connection as the cycle ended, a line
    from its forward port to its backward port (`conn`) coloured by its mode and flow, the arrow
    the way words flow; a connection released in the cycle dotted; a blocked or discarding
    forward port as a stub. Each port shows the word it received in the cycle (from the belts),
    its far end, and a green edge if it sent a word; disabled ports grey, broken wires crossed,
    a dead router hatched."""
    b, a = cycle.before, cycle.after
    fwd = int(b["forward_ports"][router])
    layer = int(b["stage"][router])
    name, radix, d = layer_shapes(cycle.config)[layer]
    if radix * d != fwd:  # not the layer the config names: draw ungrouped
        radix, d = fwd, 1
    up = name.startswith("up")
    ports = cycle.peer.shape[1]
    names = port_names(cycle.config, ports, fwd)
    gap = DIRECTION_GAP if d > 1 else 0.0
    def y(k):  # row k of either side: direction k // d, its (k % d)-th port
        return -(k // d * (d + gap) + k % d)

    box_w = 5.0
    top, bottom = 0.7, y(fwd - 1) - 0.7
    dead = bool(a["router_dead"][router])
    ax.add_patch(Rectangle((0, bottom), box_w, top - bottom, fc="#e6e6e6" if dead else "#f4f4f4",
                           ec="black", lw=1.2, hatch="xx" if dead else None, zorder=0))
    ax.text(box_w / 2, bottom - 0.15, f"dilated crossbar: {radix} directions x dilation {d}",
            ha="center", va="top", fontsize=8, style="italic")
    if dead:
        ax.text(box_w / 2, (top + bottom) / 2, "DEAD\nwords reaching it are lost", ha="center",
                va="center", fontsize=11, fontweight="bold", color="#d62728", zorder=6,
                bbox=dict(fc="white", ec="#d62728"))
    sent = metro_link_use(cycle)[router]
    slots = b["belt"].shape[1]
    arriving = b["belt"][router, cycle.t % slots]
    enabled, broken = a["port_enabled"][router], a["port_dead"][router]
    for p in range(2 * fwd):
        back = p >= fwd
        k = p - fwd if back else p
        x, yy = (box_w if back else 0.0), y(k)
        out = 1 if back else -1  # the side away from the box
        ax.plot([x, x + 0.5 * out], [yy, yy], color="#555555", lw=1, zorder=1)
        if broken[p]:
            ax.plot(x + 0.3 * out, yy, marker="x", ms=9, mew=2.5, color="#d62728", zorder=3)
        ax.add_patch(Rectangle((x - 0.12, yy - 0.12), 0.24, 0.24,
                               fc="#bbbbbb" if not enabled[p] else "white",
                               ec=SENT_NOW if sent[p] else "black", lw=2.5 if sent[p] else 0.8,
                               zorder=4))
        far = _far_end(cycle, router, p, b["forward_ports"])
        label = f"{names[p]} {'to' if back else 'from'} {far}"
        label += " (disabled)" if not enabled[p] else ""
        ha = "left" if back else "right"
        ax.text(x + 0.65 * out, yy, label, ha=ha, va="center", fontsize=8,
                color="#999999" if not enabled[p] else "black")
        text = word_text(arriving[p])
        if text:
            lost = " (lost)" if broken[p] or dead else ""
            ax.text(x + 6.3 * out, yy, text + lost, ha=ha, va="center", fontsize=8,
                    fontweight="bold", color=WORD_COLOURS.get(text.rstrip("*"), "black"))
    for x, ha in ((-6.3, "right"), (box_w + 6.3, "left")):
        ax.text(x, top, "received", ha=ha, va="bottom", fontsize=8, style="italic")
    for j in range(radix):  # the logical directions, on the backward side
        what = ("turn down" if j == 0 else "up") if up else f"direction {j}"
        ax.text(box_w - 0.3, (y(j * d) + y(j * d + d - 1)) / 2, what, ha="right", va="center",
                fontsize=7, color="#666666")
    conn_b, conn_a = b["conn"][router], a["conn"][router]
    for f in range(fwd):
        mode, flow = int(a["port_mode"][router, f]), int(a["flow"][router, f])
        yf = y(f)
        if conn_a[f] != NO_PORT:
            colour = MODE_COLOURS[_mode_name(mode, flow)]
            start, end = (0.15, yf), (box_w - 0.15, y(int(conn_a[f]) - fwd))
            if flow == REVERSE:
                start, end = end, start
            ax.annotate("", xy=end, xytext=start, zorder=2, arrowprops=dict(
                arrowstyle="-|>,head_length=0.6,head_width=0.3", color=colour, lw=2.5,
                shrinkA=0, shrinkB=0))
            note = "new" if conn_b[f] == NO_PORT else ""
            if mode == SETUP:  # header words this router still consumes before passing on
                note = f"{note} {int(a['header_left'][router, f])} header words left".strip()
            if a["reply"][router, f] & WAIT_BIT:
                note = "turned: DATA-IDLE until the new sender's word"
            if note:
                ax.text(0.2, yf + 0.18, note, fontsize=6.5, color=colour, va="bottom", zorder=5)
        elif conn_b[f] != NO_PORT:
            ax.plot([0.15, box_w - 0.15], [yf, y(int(conn_b[f]) - fwd)], ls=":", lw=1.5,
                    color=MODE_COLOURS["released this cycle"], zorder=2)
        if mode in (BLOCKED, DISCARD):
            colour = MODE_COLOURS[_mode_name(mode, flow)]
            ax.plot([0.15, 1.3], [yf, yf], color=colour, lw=2.5, zorder=2,
                    marker="|" if mode == BLOCKED else "o", markevery=[1], ms=10, mew=2.5)
            ax.text(1.5, yf, "blocked: held until the TURN" if mode == BLOCKED else "discarding",
                    fontsize=7, color=colour, va="center", zorder=5)
    held = int(metro_buffered(a)[router])
    ax.set_title(f"METRO router {router}, layer {layer} ({name}), cycle {cycle.t}: "
                 f"{held} of {fwd} forward ports connected" + (", DEAD" if dead else ""),
                 fontsize=11, loc="left")
    handles: list[Artist] = [
        Line2D([], [], color=c, lw=2.5, ls=":" if n.startswith("released") else "-", label=n)
        for n, c in MODE_COLOURS.items()]
    handles += [Patch(fc="white", ec=SENT_NOW, lw=2.5, label="port sent a word"),
                Patch(fc="#bbbbbb", ec="black", label="port disabled"),
                Line2D([], [], color="#d62728", marker="x", ls="none", mew=2.5,
                       label="broken wire"),
                Line2D([], [], color="none", label="outer text: word received (* start)")]
    ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=4,
              fontsize=8, frameon=False)
    ax.set_xlim(-9.5, box_w + 9.5)
    ax.set_ylim(bottom - 0.6, top + 0.3)
    ax.axis("off")


def metro_figsize(config, ports: int) -> tuple[float, float]:
    rows = max(r * d + (r - 1) * DIRECTION_GAP * (d > 1) for _, r, d in layer_shapes(config))
    return 14.0, 1.9 + 0.45 * rows


def metro_held_max(config) -> int:
    """The widest router's forward ports (a fat tree's up routers, 2 d, are never wider)."""
    return max(r * d for _, r, d in layer_shapes(config))


register(RouterFamily("metro", METRO_STATE_NAMES, draw_metro_router, metro_buffered,
                      metro_link_use, metro_figsize, unit="word", held_max=metro_held_max,
                      held_unit="connection", trace_hint=(
                          "follow an endpoint's connections with ls.viz.metro_trace(history, "
                          "src) (network_view draws it as path=), or its words with "
                          "ls.metro.Tracer")))


def connection_path(state: State, peer: np.ndarray, port_node: np.ndarray,
                    node: int) -> list[tuple[int, int, int | None, int]]:
    """Endpoint `node`'s connection in `state`, hop by hop through the crossbars: (router,
    forward port, backward port or None while blocked, mode). Empty when it holds none."""
    mode, conn, forward = state["port_mode"], state["conn"], state["forward_ports"]
    ports = peer.shape[1]
    held = [(int(r), int(f)) for r, f in zip(*np.nonzero(port_node == node))
            if f < forward[r] and mode[r, f] in HELD]
    path, here = [], held[0] if held else None  # a source uses one entering wire at a time
    while here is not None:
        r, f = here
        b = None if conn[r, f] == NO_PORT else int(conn[r, f])
        path.append((r, f, b, int(mode[r, f])))
        here = None
        if b is not None and peer[r, b] >= 0:
            q, qf = divmod(int(peer[r, b]), ports)
            here = (q, qf) if mode[q, qf] in HELD else None
    return path


TRACE_COLUMNS = ["src", "seq", "dest", "hop", "router", "in_port", "out_port", "mode", "arrived",
                 "released"]


def metro_trace(source: Simulator | History, src: int, cycles: int = 100,
                start: int | None = None) -> pd.DataFrame:
    """Endpoint `src`'s connections (one an attempt) followed through the crossbars over
    `cycles` cycles from `start` (default: the next cycle not yet recorded), stepping the
    Simulator as far as needed; `network_view(path=...)` draws them (METRO's counterpart of
    `trace`, which follows packets through buffers METRO does not have).

    One row per attempt (`seq`, counted from 0 in the cycles followed) and router it reached:
    dest (the message's destination endpoint), hop, router, in_port (the forward port),
    out_port (the backward port it was connected to, <NA> while blocked), mode (its last:
    setting up, open, blocked ...), arrived (the cycle the router set up its part, <NA> if it
    held it as the following began), released (the cycle it let go, <NA> if still held).
    """
    history = as_history(source)
    if history.family.name != "metro":
        raise ValueError(f"router.family {history.family.name!r}: metro_trace follows METRO "
                         "connections; use ls.viz.trace for packets")
    endpoints = int(history.port_node.max()) + 1
    if not 0 <= src < endpoints:
        raise ValueError(f"src {src}: allowed an endpoint, 0 to {endpoints - 1}")
    if cycles < 1:
        raise ValueError(f"cycles {cycles}: allowed 1 or more")
    first = history.last + 1 if start is None else start
    rows: dict[tuple[int, int, int], dict] = {}
    seq = -1
    for t in range(first, first + cycles):
        c = history.cycle(t)
        path = connection_path(c.after, c.peer, c.port_node, src)
        if path:
            r, f = path[0][:2]
            if c.before["port_mode"][r, f] not in HELD or seq < 0:  # a new attempt's first hop
                seq += 1
        keys = set()
        for hop, (r, f, b, mode) in enumerate(path):
            key = (seq, r, f)
            keys.add(key)
            if key not in rows:
                was_held = t == first and c.before["port_mode"][r, f] in HELD
                rows[key] = dict(src=src, seq=seq, dest=int(c.after["msg_dest"][src]), hop=hop,
                                 router=r, in_port=f, out_port=None, mode=None,
                                 arrived=None if was_held else t, released=None)
            rows[key]["out_port"], rows[key]["mode"] = b, _mode_name(mode, c.after["flow"][r, f])
        for key, row in rows.items():
            if key not in keys and row["released"] is None:
                row["released"] = t
    df = pd.DataFrame(list(rows.values()), columns=TRACE_COLUMNS)
    return df.astype({k: "Int64" for k in ("hop", "out_port", "arrived", "released")})
