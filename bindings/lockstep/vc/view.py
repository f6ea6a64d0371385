"""The `vc` family's entry in the registry: one router drawn as hardware during one cycle (input
ports with their VC buffers and the flits in them, the crossbar with this cycle's switch grants,
output VCs with their credits and owners, and for every input VC what it did this cycle and, if
it wanted the switch and did not get it, why), how busy its links are and what it holds.

It reads the state as the cycle began (what competed) and as it ended (what won): a flit
written into a buffer in cycle t shows from cycle t+1, when it can first act. Its pieces are
shared with the other VC routers' drawings (lockstep.viz.router_view).
"""

from __future__ import annotations

import numpy as np
from matplotlib.patches import Patch

from ..viz.history import Cycle
from ..viz.registry import RouterFamily, State, register
from ..viz.router_view import (STATUS_COLOURS, credits_at_allocation, draw_credits,
                               draw_crossbar, draw_flits, draw_request, flit_handles, link_end,
                               router_layout, router_title)
from ..viz.topology import port_names
from .requests import vc_requests
from .tracer import trace

__all__ = ["trace", "vc_requests"]  # what the family adds to lockstep.viz

VC_STATE_NAMES = ("ivc_state", "occupancy", "route_port", "out_port", "out_vc", "credits",
                  "vc_owner", "credit_belt", "sa_grant", "sa_grant_vc", "buffer_src",
                  "buffer_seq", "buffer_dest", "buffer_meta", "buffer_ctime", "buffer_itime")


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
