"""One router drawn as hardware during one cycle: input ports with their VC buffers and the
flits in them, the crossbar with this cycle's switch grants, output VCs with their credits and
owners, and for every input VC what it did this cycle and, if it wanted the switch and did not
get it, why.

`router_view` draws any family registered in `registry`; the `vc` family's drawing is here,
built from pieces (`draw_flits`, `draw_credits`, `draw_request`, `draw_crossbar`) that other
VC routers' drawings share (the T3E's, t3e_view.py).
It reads the state as the cycle began (what competed) and as it ended (what won): a flit
written into a buffer in cycle t shows from cycle t+1, when it can first act.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.lines import Line2D
from matplotlib.patches import Patch, Rectangle

from ..simulate import Simulator
from .history import Cycle, History, as_history
from .registry import RouterFamily, State, register
from .topology import CUBES, coordinates, port_names

IDLE, VC_ALLOC, ACTIVE = 0, 1, 2  # ivc_state (kernels/vc/vc_state.hpp)
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

VC_STATE_NAMES = ("ivc_state", "occupancy", "route_port", "out_port", "out_vc", "credits",
                  "vc_owner", "credit_belt", "sa_grant", "sa_grant_vc", "buffer_src",
                  "buffer_seq", "buffer_dest", "buffer_meta", "buffer_ctime", "buffer_itime")


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


def vc_requests(cycle: Cycle, router: int) -> pd.DataFrame:
    """What each input VC of `router` did in the cycle, one row per (port, vc): flits held as
    it began, its state, route, output VC, the credits of that output VC at switch
    allocation, and `status` (a key of STATUS_COLOURS)."""
    b, a = cycle.before, cycle.after
    ports, vcs = b["occupancy"].shape[1:]
    credits = credits_at_allocation(b, cycle.t)[router]
    grant, grant_vc = a["sa_grant"][router], a["sa_grant_vc"][router]
    sent = {(int(grant[o]), int(grant_vc[o])): o for o in range(ports) if grant[o] >= 0}
    # With a routing or VC-allocation delay over 1 an active VC may still be in its pipeline.
    cfg = cycle.config
    delayed = cfg.get("router.routing_delay") > 1 or cfg.get("router.vc_alloc_delay") > 1
    rows = []
    for p in range(ports):
        for v in range(vcs):
            flits, state = int(b["occupancy"][router, p, v]), int(b["ivc_state"][router, p, v])
            after = int(a["ivc_state"][router, p, v])
            out_port, out_vc = int(b["out_port"][router, p, v]), int(b["out_vc"][router, p, v])
            route = int(b["route_port"][router, p, v]) if state == VC_ALLOC else None
            credit = None
            if (p, v) in sent and state != ACTIVE:  # zero delays: routed, VC won, sent at once
                status = "sent"
                out_port, out_vc = int(a["out_port"][router, p, v]), int(a["out_vc"][router, p, v])
                route = out_port if out_port >= 0 else sent[(p, v)]
                out_port = out_port if out_port >= 0 else sent[(p, v)]
            elif state == ACTIVE and flits:
                credit = int(credits[out_port, out_vc])
                if (p, v) in sent:
                    status = "sent"
                elif credit == 0:
                    status = "no credit"
                else:
                    status = "waiting" if delayed else "lost arbitration"
            elif state == ACTIVE:
                status = "holds VC, no flit"
            elif not flits:
                status = "empty"
            elif after == ACTIVE:  # VC allocation this cycle (after routing, maybe in it)
                status = "VC won"
                out_port, out_vc = int(a["out_port"][router, p, v]), int(a["out_vc"][router, p, v])
                route = int(a["route_port"][router, p, v])
            elif state == VC_ALLOC:
                status = "no VC"
            elif after == VC_ALLOC:
                status, route = "routed", int(a["route_port"][router, p, v])
            else:
                status = "routing"
            if state != ACTIVE and status not in ("VC won", "sent"):
                out_port = out_vc = None
            rows.append(dict(port=p, vc=v, flits=flits, state=state, status=status,
                             route_port=route, out_port=out_port, out_vc=out_vc, credits=credit))
    return pd.DataFrame(rows).astype({"route_port": "Int64", "out_port": "Int64",
                                      "out_vc": "Int64", "credits": "Int64"})


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


def draw_vc_router(ax, cycle: Cycle, router: int) -> None:
    """The `vc` family's router: see the module's docstring."""
    b, a = cycle.before, cycle.after
    ports, vcs, depth = b["buffer_src"].shape[1:]
    names = port_names(cycle.config, ports)
    req = vc_requests(cycle, router).set_index(["port", "vc"])
    credits = credits_at_allocation(b, cycle.t)[router]
    owner_before, owner_after = b["vc_owner"][router], a["vc_owner"][router]
    grant, grant_vc = a["sa_grant"][router], a["sa_grant_vc"][router]

    y, status_x, xbar_l, xbar_r, credit_x, label_x = router_layout(vcs, 0.7, depth, 7.8, depth)
    for p in range(ports):
        source = link_end(cycle, router, p)
        top = y(p, 0) + 0.45
        ax.text(-0.3, top + 0.15, f"in {p} ({names[p]}) from {source}", ha="left", va="bottom",
                fontsize=9, fontweight="bold")
        ax.text(credit_x, top + 0.15, f"out {p} ({names[p]}) to {source}", ha="left",
                va="bottom", fontsize=9, fontweight="bold")
        for v in range(vcs):
            yy = y(p, v)
            ax.text(-0.3, yy, f"vc{v}", ha="right", va="center", fontsize=8)
            r = req.loc[(p, v)]
            src, seq, dest, meta = (b[f"buffer_{f}"][router, p, v]
                                    for f in ("src", "seq", "dest", "meta"))
            draw_flits(ax, yy, depth, depth, src, seq, dest, meta, r.status == "sent")
            text = r.status
            if r.status in ("routed", "no VC"):
                text += f": wants out {r.route_port}"
            elif r.status == "VC won":
                text += f": out {r.out_port}.vc{r.out_vc}"
            elif r.status in ("sent", "no credit", "lost arbitration", "waiting",
                              "holds VC, no flit"):
                text += f" > out {r.out_port}.vc{r.out_vc}"
            ax.text(status_x, yy, text, ha="left", va="center", fontsize=8,
                    color=STATUS_COLOURS[r.status],
                    fontweight="bold" if r.status != "empty" else "normal")
            if r.status in ("sent", "no credit", "lost arbitration", "waiting"):
                draw_request(ax, xbar_l, yy, xbar_r, y(r.out_port, r.out_vc),
                             STATUS_COLOURS[r.status], r.status == "sent")
            # Output VC (p, v): its credits at switch allocation and who holds it.
            c = credits[p, v]
            draw_credits(ax, credit_x, yy, c, depth)
            held = owner_before[p, v]
            who = f"held by in {held // vcs}.vc{held % vcs}" if held >= 0 else "free"
            if owner_after[p, v] >= 0 and owner_after[p, v] != held:
                n = owner_after[p, v]
                who += f"; now in {n // vcs}.vc{n % vcs}"
            ax.text(label_x, yy, f"{c} credit{'s' if c != 1 else ''}, {who}", ha="left",
                    va="center", fontsize=8)
    bottom = y(ports - 1, vcs - 1) - 0.6
    draw_crossbar(ax, xbar_l, xbar_r, bottom)
    ax.text(depth / 2, 1.2, "input VC buffers (front on the right)", ha="center", fontsize=9,
            style="italic")
    ax.text(credit_x + depth / 2, 1.2, "output VCs: credits", ha="center", fontsize=9,
            style="italic")
    granted = [f"in {grant[o]}.vc{grant_vc[o]} > out {o}" for o in range(ports) if grant[o] >= 0]
    ax.set_title(f"{router_title(cycle, router)}   switch grants: "
                 f"{', '.join(granted) if granted else 'none'}", fontsize=11, loc="left")
    # The three reasons a request loses, always; the other statuses when they occur.
    shown = [s for s in STATUS_COLOURS
             if s in set(req.status) - {"empty"} or s in ("lost arbitration", "no credit", "no VC")]
    handles = [Patch(color=STATUS_COLOURS[s], label=s) for s in shown] + flit_handles()
    ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, -0.01), ncol=4,
              fontsize=8, frameon=False)
    ax.set_xlim(-1.5, label_x + 12)
    ax.set_ylim(bottom - 0.8, 1.8)
    ax.set_aspect("auto")
    ax.axis("off")


def vc_buffered(state: State) -> np.ndarray:
    return state["occupancy"].sum(axis=(1, 2))


def vc_link_use(cycle: Cycle) -> np.ndarray:
    return (cycle.after["sa_grant"] >= 0).astype(float)


def vc_figsize(config, ports: int) -> tuple[float, float]:
    return 15.0, 1.4 + 0.42 * ports * (config.get("router.vcs") + 0.7)


register(RouterFamily("vc", VC_STATE_NAMES, draw_vc_router, vc_buffered, vc_link_use,
                      vc_figsize))


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
