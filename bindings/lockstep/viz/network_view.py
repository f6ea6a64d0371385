"""Every router and link of a network during one cycle: links coloured by how busy they were
over the cycles before (flits per cycle), routers by the flits they hold, and optionally the
path of traced packets on top (`trace`).

Layouts come from `topology.positions`; what is busy and what is held, from the router
family's entry in the registry, so a new family's networks draw without changes here. Each
direction of a link is drawn on its right-hand side (as traffic drives on the right); a link
between routers that are not neighbours on the page (a torus's wrap-around link, a link to
another z-plane) is drawn as two short strokes, one leaving its router and one entering the
other.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.colors import Normalize
from matplotlib.patches import Circle, Rectangle

from ..simulate import Simulator
from .history import Cycle, History, as_history
from .router_view import packet_colour
from .topology import CUBES, PLANE_GAP, port_direction, positions

LINK_CMAP, ROUTER_CMAP = "YlOrRd", "Blues"
SIDE = 0.09  # how far each direction of a link sits from the line between its routers
STUB = 0.38  # length of the strokes of a link between routers that are not page neighbours


def _segments(cycle: Cycle, pos: np.ndarray):
    """Per output port with a link, (router, port, [(start, end), ...]): one segment between
    page neighbours, two strokes otherwise."""
    peer, ports = cycle.peer, cycle.peer.shape[1]
    cube = cycle.config.get("topology.kind") in CUBES
    out = []
    for r, p in zip(*np.nonzero(peer >= 0)):
        q = peer[r, p] // ports
        d = port_direction(cycle.config, p) if cube else pos[q] - pos[r]
        d = d / np.linalg.norm(d)
        side = SIDE * np.array([d[1], -d[0]])  # to the right of the direction of travel
        if not cube or np.allclose(pos[q] - pos[r], d):
            segs = [(pos[r] + side + 0.2 * d, pos[q] + side - 0.2 * (pos[q] - pos[r]) /
                     np.linalg.norm(pos[q] - pos[r]))]
        else:
            segs = [(pos[r] + side + 0.2 * d, pos[r] + side + STUB * d + 0.2 * d),
                    (pos[q] + side - (STUB + 0.2) * d, pos[q] + side - 0.2 * d)]
        out.append((r, p, segs))
    return out


def _draw_path(ax, cycle: Cycle, pos: np.ndarray, path: pd.DataFrame) -> None:
    ports = cycle.peer.shape[1]
    packets = path.groupby(["src", "seq"], sort=False)
    for (src, seq), hops in packets:
        colour = "#e0009a" if packets.ngroups == 1 else packet_colour(int(src), int(seq))
        hops = hops.sort_values("hop")
        for _, h in hops.iterrows():
            r = int(h.router)
            arrived = "" if pd.isna(h.arrived) else f"{h.arrived}"
            ax.annotate(f"t={arrived}", pos[r], xytext=(8, 10), textcoords="offset points",
                        fontsize=8, color=colour, fontweight="bold",
                        bbox=dict(boxstyle="round,pad=0.15", fc="white", ec=colour, lw=0.8))
            if pd.isna(h.out_port) or cycle.peer[r, int(h.out_port)] < 0:
                continue  # leaves through a terminal port: delivered here
            q = cycle.peer[r, int(h.out_port)] // ports
            near = np.linalg.norm(pos[q] - pos[r]) < 1.01
            ax.annotate("", xy=pos[q], xytext=pos[r], zorder=5,
                        arrowprops=dict(arrowstyle="-|>,head_length=0.8,head_width=0.4",
                                        color=colour, lw=3.5, shrinkA=9, shrinkB=9,
                                        connectionstyle="arc3" if near else "arc3,rad=0.3"))
        first, last = int(hops.router.iloc[0]), int(hops.router.iloc[-1])
        ax.annotate(f"packet {src}.{seq}: node {src} > node {hops.dest.iloc[0]}", pos[first],
                    xytext=(-10, -22), textcoords="offset points", fontsize=9, color=colour,
                    fontweight="bold")
        ax.plot(*pos[last], marker="*", ms=18, color=colour, mec="black", zorder=6)


def network_view(source: Simulator | History, cycle: int | None = None, window: int = 16,
                 path: pd.DataFrame | None = None, flits_max: int | None = None, ax=None):
    """Draws the network during cycle `cycle` (default: the next cycle a Simulator runs, which
    this steps, or a History's last cycle) and returns the Axes.

    Links are coloured by flits (S-Connect: messages) per cycle over the `window` cycles up to
    `cycle` (those recorded), routers by the flits (messages) they hold after it (the colour
    scale ends at `flits_max`, fixed so frames of an animation compare; default: the family's,
    16 flits for the vc family, the buffer pool for S-Connect). `path` is a `trace` DataFrame:
    its packets' hops are drawn on top, each router labelled with the cycle the head arrived.
    Graph topologies (hypercubes, random regular graphs, edge lists) are laid out by networkx.
    """
    history = as_history(source)
    if window < 1:
        raise ValueError(f"window {window}: allowed 1 or more cycles")
    t = cycle if cycle is not None else max(history.last, history.first)
    c = history.cycle(t)
    cfg = c.config
    pos = positions(cfg, c.peer, c.before.get("stage"))
    routers = len(pos)
    use = history.link_use(t, window)
    held = history.family.buffered(c.after)
    unit = history.family.unit
    if flits_max is None:
        flits_max = history.family.held_max(cfg)
    span = np.ptp(pos, axis=0) + 1 if routers > 1 else np.array([6.0, 6.0])
    if ax is None:
        scale = min(1.6, 11 / max(span))
        _, ax = plt.subplots(figsize=(max(6, span[0] * scale + 2.5), max(4, span[1] * scale + 1.8)))
    link_norm, router_norm = Normalize(0, 1), Normalize(0, flits_max)
    lw = 3.0 if routers <= 64 else 1.5
    for r, p, segs in _segments(c, pos):
        colour = plt.get_cmap(LINK_CMAP)(link_norm(use[r, p])) if use[r, p] > 0 else "#d0d0d0"
        for a, b in segs:
            ax.annotate("", xy=b, xytext=a, arrowprops=dict(
                arrowstyle="-|>,head_length=0.5,head_width=0.25", color=colour, lw=lw,
                shrinkA=0, shrinkB=0))
    if cfg.get("topology.kind") == "crossbar":
        _draw_crossbar(ax, c, use)
    else:
        size = 0.44
        cmap = plt.get_cmap(ROUTER_CMAP)
        for r in range(routers):
            ax.add_patch(Rectangle(pos[r] - size / 2, size, size, fc=cmap(router_norm(held[r])),
                                   ec="black", lw=1, zorder=3))
            if routers <= 64:
                dark = router_norm(held[r]) > 0.6
                ax.text(pos[r, 0], pos[r, 1], str(r), ha="center", va="center", fontsize=8,
                        zorder=4, color="white" if dark else "black")
    _plane_labels(ax, cfg, pos)
    if path is not None and len(path):
        _draw_path(ax, c, pos, path)
    fig = ax.figure
    fig.colorbar(plt.cm.ScalarMappable(link_norm, LINK_CMAP), ax=ax, shrink=0.7, pad=0.01,
                 label=f"link use: {unit}s/cycle, cycles "
                 f"{max(history.first, t - window + 1)}-{t}")
    if cfg.get("topology.kind") != "crossbar":
        fig.colorbar(plt.cm.ScalarMappable(router_norm, ROUTER_CMAP), ax=ax, shrink=0.7,
                     pad=0.01, extend="max", label=f"{history.family.held}s held by the router")
    kind, radix = cfg.get("topology.kind"), cfg.get("topology.radix")
    note = "; links leaving an edge wrap around" if kind == "torus" else ""
    if kind in CUBES and len(radix) > 2:
        note += "; z links: diagonal strokes"
    ax.set_title(f"{network_name(cfg, c.peer)}, cycle {t}{note}", fontsize=11)
    ax.set_aspect("equal")
    if kind != "crossbar":
        lo, hi = pos.min(axis=0) - 1, pos.max(axis=0) + 1
        ax.set_xlim(lo[0], hi[0])
        ax.set_ylim(lo[1] - (0.4 if path is not None else 0), hi[1] + 0.3)
    ax.axis("off")
    return ax


def network_name(cfg, peer: np.ndarray) -> str:
    """What the network is, for a title: "8x8 torus", "6-cube (64 routers)", "random
    4-regular graph of 32 routers", "graph of 4 routers, 6 links"."""
    kind, radix, routers = cfg.get("topology.kind"), cfg.get("topology.radix"), len(peer)
    dual = ", dual-TIC nodes" if kind not in (*CUBES, "crossbar") and cfg.get(
        "topology.dual_tic") else ""
    if kind in CUBES:
        return f"{'x'.join(map(str, radix))} {kind}"
    if kind == "crossbar":
        return f"{radix[0]}-port crossbar"
    if kind == "hypercube":
        return f"{cfg.get('topology.dimension')}-cube ({routers} routers{dual})"
    if kind == "random_regular":
        return f"random {cfg.get('topology.degree')}-regular graph of {routers} routers{dual}"
    if kind in ("multibutterfly", "fat_tree"):
        endpoints = int(np.prod(radix))
        name = "multibutterfly" if kind == "multibutterfly" else "fat tree"
        return (f"{name} of radix {'x'.join(map(str, radix))}, dilation "
                f"{'x'.join(map(str, cfg.get('topology.dilation') or [1]))} ({routers} routers, "
                f"{endpoints} endpoints)")
    return f"graph of {routers} routers, {int((peer >= 0).sum()) // 2} links{dual}"


def _draw_crossbar(ax, c: Cycle, use: np.ndarray) -> None:
    """One router as a box, its terminals on a circle around it, each terminal's ejection
    channel coloured by use."""
    ports = c.peer.shape[1]
    ax.add_patch(Rectangle((-1, -1), 2, 2, fc="#f2f2f2", ec="black", lw=1.5, zorder=3))
    ax.text(0, 0, f"crossbar\n{ports} x {ports}", ha="center", va="center", fontsize=11,
            zorder=4)
    cmap = plt.get_cmap(LINK_CMAP)
    for p in range(ports):
        angle = np.pi / 2 - 2 * np.pi * p / ports
        d = np.array([np.cos(angle), np.sin(angle)])
        edge = d / np.abs(d).max()  # where the ray leaves the box
        colour = cmap(use[0, p]) if use[0, p] > 0 else "#d0d0d0"
        ax.annotate("", xy=2.6 * d, xytext=edge, arrowprops=dict(arrowstyle="-|>", color=colour,
                                                                 lw=3, shrinkA=0, shrinkB=8))
        x, y = 2.8 * d
        ax.add_patch(Circle((x, y), 0.22, fc="white", ec="black", zorder=3))
        ax.text(x, y, f"{c.port_node[0, p]}", ha="center", va="center", fontsize=8,
                zorder=4)
    ax.set_xlim(-3.5, 3.5)
    ax.set_ylim(-3.5, 3.5)


def _plane_labels(ax, cfg, pos: np.ndarray) -> None:
    radix = cfg.get("topology.radix")
    if cfg.get("topology.kind") not in CUBES or len(radix) < 3:
        return
    for z in range(radix[2]):
        x = z * (radix[0] + PLANE_GAP) + (radix[0] - 1) / 2
        ax.text(x, pos[:, 1].max() + 0.6, f"z = {z}", ha="center", fontsize=10,
                fontweight="bold")
