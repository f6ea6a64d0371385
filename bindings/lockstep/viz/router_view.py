"""One router drawn as hardware during one cycle (`router_view`, any family registered in
`registry`), and the pieces the VC routers' drawings share (lockstep.vc.view, lockstep.t3e.view,
lockstep.bgl.view): the layout of input VC rows, crossbar and output VCs (`router_layout`),
flits in a buffer (`draw_flits`), credits (`draw_credits`), requests across the crossbar
(`draw_request`, `draw_crossbar`), the statuses' colours, titles and legends.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.lines import Line2D
from matplotlib.patches import Patch, Rectangle

from ..simulate import Simulator
from .history import Cycle, History, as_history
from .registry import State
from .topology import CUBES, coordinates

HEAD, TAIL = 1, 2  # buffer_meta bits (kernels/common/flit.hpp)
NO_FLIT = 0xFFFFFFFF  # an empty buffer slot

# What an input VC did in a cycle, with the colour it is drawn in.
STATUS_COLOURS = {
    "sent": "#2ca02c",  # won the switch: its front flit crosses it
    "lost arbitration": "#d62728",  # could send, another input VC got the output or the input
    "no credit": "#ff7f0e",  # its output VC's downstream buffer is full
    "no VC": "#9467bd",  # routed, waiting for VC allocation (every VC of its route held)
    "VC won": "#1f77b4",  # VC allocation gave it an output VC this cycle
    "routed": "#17becf",  # route computation chose its output port this cycle
    "routing": "#17becf",  # a head waiting out a routing delay over 1
    "waiting": "#8c564b",  # could send, not granted: arbitration or a pipeline delay over 1
    "holds VC, no flit": "#7f7f7f",  # owns an output VC, its next flit not here yet
    "empty": "#c7c7c7",
}


def router_layout(vcs: int, gap: float, right: float, status_width: float, out_width: float):
    """Where a router drawing puts things (the vc, T3E and Blue Gene/L drawings): the row y(p, v)
    of port p's VC v (ports vcs + gap rows apart, downwards), and the x of its columns after the
    input buffers, which end at `right`: each VC's status text, the crossbar's two sides, the
    output VCs' credit boxes (`out_width` of them) and their labels. Returns (y, status_x,
    xbar_l, xbar_r, credit_x, label_x)."""
    def y(p, v):
        return -(p * (vcs + gap) + v)

    status_x = right + 0.4
    xbar_l = status_x + status_width
    credit_x = xbar_l + 3.8
    return y, status_x, xbar_l, xbar_l + 3.0, credit_x, credit_x + out_width + 0.4


def finish_router_axes(ax, handles: list, right: float, bottom: float) -> None:
    """The legend under a router drawing of rows from y = 2 down to `bottom`, and the axes'
    limits (the T3E's and Blue Gene/L's drawings)."""
    ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=4,
              fontsize=8, frameon=False)
    ax.set_xlim(-5, right)
    ax.set_ylim(bottom - 0.8, 2.2)
    ax.set_aspect("auto")
    ax.axis("off")


def credits_at_allocation(before: State, t: int) -> np.ndarray:
    """[routers, ports, vcs] credits the switch allocator of cycle t saw: those held as the
    cycle began plus the ones arriving in it (credit receive is its first stage)."""
    credits = before["credits"].astype(int)
    belt = before["credit_belt"]  # [router, slot, column]: the VC of an arriving credit, -1
    arriving = belt[:, t % belt.shape[1], :credits.shape[1]]
    r, p = np.nonzero(arriving >= 0)
    credits[r, p, arriving[r, p]] += 1
    return credits


def packet_colour(src: int, seq: int):
    """A colour per packet (20 of them, reused): the same packet keeps it on every router."""
    return plt.get_cmap("tab20")((src * 7919 + seq * 104729) % 20)


def router_title(cycle: Cycle, router: int) -> str:
    """A router's title: "router r (x=.., y=..), cycle t", its place in a k-ary n-cube."""
    cfg = cycle.config
    where = ""
    if cfg.get("topology.kind") in CUBES:
        c = coordinates(cfg, cycle.peer.shape[0])[router]
        where = " (" + ", ".join(f"{d}={x}" for d, x in zip("xyzw", c)) + ")"
    return f"router {router}{where}, cycle {cycle.t}"


def link_end(cycle: Cycle, router: int, port: int) -> str:
    """What port `port` of `router` connects to: "node n", "router r" or "unconnected"."""
    far, node = cycle.peer[router, port], cycle.port_node[router, port]
    ports = cycle.peer.shape[1]
    return (f"node {node}" if node >= 0 else f"router {far // ports}" if far >= 0
            else "unconnected")


def draw_flits(ax, y: float, right: float, slots: int, src, seq, dest, meta,
               leaving: bool) -> None:
    """An input VC's buffer of `slots` flits at height y, slot k from the front at
    x = right - 1 - k (the front nearest the crossbar); `src`, `seq`, `dest`, `meta` hold the
    flits front first as the buffer_* views do (NO_FLIT: an empty slot). Each flit is coloured
    by its packet, marked H (head, >dest) and T (tail); `leaving`: the front crosses now."""
    for k in range(slots):
        x = right - 1 - k
        if meta[k] == NO_FLIT:
            ax.add_patch(Rectangle((x + 0.05, y - 0.4), 0.9, 0.8, fc="white", ec="#bbbbbb",
                                   lw=0.8))
            continue
        out = leaving and k == 0
        ax.add_patch(Rectangle((x + 0.05, y - 0.4), 0.9, 0.8,
                               fc=packet_colour(int(src[k]), int(seq[k])),
                               ec=STATUS_COLOURS["sent"] if out else "black", lw=3 if out else 0.8))
        mark = ("H" if meta[k] & HEAD else "") + ("T" if meta[k] & TAIL else "")
        if meta[k] & HEAD:
            mark += f"\n>{dest[k]}"
        ax.text(x + 0.5, y, mark, ha="center", va="center", fontsize=7, fontweight="bold",
                linespacing=0.9)


def draw_credits(ax, x: float, y: float, credits: int, slots: int) -> None:
    """An output VC's credits: `slots` boxes (its downstream buffer), the first `credits`
    green."""
    for k in range(slots):
        ax.add_patch(Rectangle((x + k + 0.05, y - 0.3), 0.9, 0.6,
                               fc="#b5e0b5" if k < credits else "white", ec="#999999", lw=0.6))


def draw_request(ax, x0: float, y0: float, x1: float, y1: float, colour, won: bool) -> None:
    """An arrow across the crossbar from an input VC to the output VC it asks for: solid if it
    won, dashed otherwise."""
    ax.annotate("", xy=(x1, y1), xytext=(x0, y0),
                arrowprops=dict(arrowstyle="-|>", color=colour, lw=2.5 if won else 1.2,
                                linestyle="-" if won else (0, (3, 2))))


def draw_crossbar(ax, left: float, right: float, bottom: float) -> None:
    """The crossbar: a box from x = left to right, from y = bottom up past the first row."""
    ax.add_patch(Rectangle((left, bottom), right - left, 0.6 - bottom, fc="#f2f2f2",
                           ec="black", lw=1.2, zorder=0))
    ax.text((left + right) / 2, bottom - 0.2, "crossbar", ha="center", va="top", fontsize=9)


def flit_handles() -> list:
    """Legend entries for the flits `draw_flits` draws."""
    return [Patch(fc="white", ec=STATUS_COLOURS["sent"], lw=3, label="flit leaving now"),
            Line2D([], [], color="none", label="colour = packet, H head (>dest), T tail")]


def router_view(source: Simulator | History, router: int = 0, cycle: int | None = None,
                ax=None):
    """Draws router `router` during cycle `cycle` (default: the next cycle the Simulator runs,
    which this steps, or a History's last cycle) and returns the Axes.

    `source` is a Simulator or a `History` of one (which keeps earlier cycles, so `cycle` may
    go back). The router's family (`router.family`) says how it is drawn.
    """
    history = as_history(source)
    routers = history.peer.shape[0]
    if not 0 <= router < routers:
        raise ValueError(f"router {router}: allowed 0 to {routers - 1}")
    t = cycle if cycle is not None else max(history.last, history.first)
    if ax is None:
        _, ax = plt.subplots(figsize=history.family.figsize(history.config,
                                                            history.peer.shape[1]))
    history.family.draw_router(ax, history.cycle(t), router)
    return ax
