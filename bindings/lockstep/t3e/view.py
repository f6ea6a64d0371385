"""The `t3e` family's entry in the registry (docs/design/t3e.md, kernels/t3e/): one Cray T3E
router drawn during one clock, how busy its links are and what it holds.

The router (paper section 3) has seven inputs, the PE and the six torus directions, each with
five VCs: request VC0 and VC1, response VC0 and VC1 (a dateline pair per message class) and the
adaptive VC, whose buffer is longer (12 and 22 flits by default). Its arbitration (section 7;
kernels/t3e/arbiter.hpp) lets one VC of each input request at a time (`in_sel`); a head asks
for an output VC, and an output VC mid-packet holds its physical output (`out_hold`).

A clock runs: credits and flits arrive (from the belts), then the arbiter sends at most one
flit from each input and on each output. So a flit arriving in clock t may leave in clock t (the
fast path), and the buffers are drawn as the arbiter saw them: as the clock began plus the flit
that arrived. Which flits left is read from `ivc_head` (a VC's ring read index advances once per
flit sent), the output VC a flit took from `ivc_out_port`/`ivc_out_vc` (a head's are set as it
leaves), and which VC of an input requested from `in_sel`, which keeps a VC's right to request
until it fails to win its output VC, is blocked or its packet ends or bubbles, and `in_rr`,
the input's round-robin pointer, where it chose afresh (`t3e_requests`).

A flit sent in clock t is written into the belt slot (t + d) mod slots of the router at the far
end (`flit_belt` [router, slot, column]: columns 0-6 the input ports, 7 the PE's ejection), a
slot empty as the clock began (d < slots; the slot read in clock t is t mod slots). So the
slots set in clock t that were empty before it are exactly the flits sent in clock t: the link
use drawn. `link_flits` counts the same sends, but only inside a `run`'s measurement window.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from matplotlib.lines import Line2D
from matplotlib.patches import Patch, Rectangle

from ..viz.history import Cycle
from ..viz.registry import RouterFamily, State, register
from ..viz.router_view import (STATUS_COLOURS, credits_at_allocation, draw_credits,
                               draw_crossbar, draw_flits, draw_request, finish_router_axes,
                               flit_handles, link_end, router_layout, router_title)

__all__ = ["t3e_port_names", "t3e_requests"]  # what the family adds to lockstep.viz

PORTS, VCS, ADAPTIVE, PE_PORT = 7, 5, 4, 0  # kernels/t3e/t3e_state.hpp
PE_COLUMN = PORTS  # flit_belt's column of flits for the PE
VC_NAMES = ("req VC0", "req VC1", "resp VC0", "resp VC1", "adaptive")  # det_vc(cls, set)
VC_SHORT = ("req0", "req1", "resp0", "resp1", "adapt")
DIRECTIONS = ("+X", "+Y", "+Z", "-X", "-Y", "-Z")  # the kernels' direction numbers, 0..5
CHAN_BITS = {1: "IGNORE_NORMAL", 2: "IGNORE_SPCL", 4: "NO_ADAPT", 8: "NO_FAST",
             16: "LINK_DOWN (the model's failed wire)"}
R_CHAN_PE = 6  # r_chan's entry of the PE channel, after the six directions
NO_PE = 0xFFFFFFFF  # r_lwho of a slot a partial plane leaves empty (register_bits.hpp)

# What an input VC did in a clock, with the colour it is drawn in.
T3E_STATUS_COLOURS = {
    "sent": STATUS_COLOURS["sent"],  # requested and its front flit left
    "lost the output": STATUS_COLOURS["lost arbitration"],  # keeps its right to request
    "no credit": STATUS_COLOURS["no credit"],  # its output VC's downstream buffer is full
    "no output VC": STATUS_COLOURS["no VC"],  # a head that did not win its route's output VC
    "not its turn": STATUS_COLOURS["waiting"],  # another VC of its input has the right
    "bubble": STATUS_COLOURS["holds VC, no flit"],  # mid-packet, its next flit not here
    "empty": STATUS_COLOURS["empty"],
}
ARRIVED = "#1f77b4"  # the edge of a flit that arrived this clock

T3E_STATE_NAMES = ("occupancy", "ivc_head", "ivc_out_port", "ivc_out_vc", "credits",
                   "ovc_owner", "ovc_requests", "in_sel", "in_rr", "out_hold", "flit_belt",
                   "credit_belt", "buffer_src", "buffer_seq", "buffer_dest", "buffer_meta",
                   "r_pwho", "r_lwho", "r_chan")


def t3e_port_names(config) -> list[str]:
    """The ports' names: "PE", then the direction each network port leads in. Port 1 + 2d is
    the + direction of dimension d unless R_ORIENT bit d (`t3e.r_orient`) makes it the -
    (host/t3e/t3e_registers.cpp, direction_port)."""
    orient = config.get("t3e.r_orient")
    names = ["PE"]
    for d in range(3):
        plus, minus = DIRECTIONS[d], DIRECTIONS[d + 3]
        names += [minus, plus] if orient >> d & 1 else [plus, minus]
    return names


def _direction(config, port: int) -> int:
    """The kernels' direction number of network port `port` (r_chan's index)."""
    return DIRECTIONS.index(t3e_port_names(config)[port])


def _capacity(config) -> np.ndarray:
    """[vcs] flits each input VC buffers."""
    return np.array([config.get("t3e.buffer_depth")] * 4 + [config.get("t3e.adaptive_depth")])


def _credit_capacity(config, port: int, vc: int) -> int:
    """Credits of output VC (port, vc) when its downstream buffer is empty: the PE's receive
    VCs on the PE port, the next router's input VC otherwise."""
    return config.get("t3e.pe_buffer_depth") if port == PE_PORT else int(_capacity(config)[vc])


def t3e_sent(cycle: Cycle) -> np.ndarray:
    """[routers, ports, vcs] 1 where the input VC sent its front flit in the clock: its ring
    read index moved on (it moves for nothing else)."""
    cap = _capacity(cycle.config)
    moved = (cycle.after["ivc_head"].astype(int) - cycle.before["ivc_head"]) % cap
    return (moved != 0).astype(int)


def t3e_buffered(state: State) -> np.ndarray:
    """[routers] flits held in the input VC buffers (the PE's injection VCs included)."""
    return state["occupancy"].sum(axis=(1, 2))


def t3e_link_use(cycle: Cycle) -> np.ndarray:
    """[routers, ports] 1 where an output port sent a flit in `cycle` (see the module's
    docstring): a belt slot set in the clock, mapped from the receiving end to the sender; the
    PE column is the router's own PE port."""
    new = (cycle.after["flit_belt"] != 0) & (cycle.before["flit_belt"] == 0)
    arriving = new.sum(axis=1)  # [routers, columns]: a link carries one flit a clock
    use = np.zeros(cycle.peer.shape)
    use[:, PE_PORT] = arriving[:, PE_COLUMN]
    r, p = np.nonzero(arriving[:, :PORTS] * (cycle.peer >= 0))  # column 0: the PE injecting
    sender = cycle.peer[r, p]
    use[sender // PORTS, sender % PORTS] = arriving[r, p]
    return use


def t3e_arbitration(cycle: Cycle) -> pd.DataFrame:
    """What each input VC of every router did in the clock, one row per (router, port, vc):
    `flits` as the arbiter saw them (arrivals included), `arrived` (a flit came in),
    `requesting` (it was its input's VC with the right to request; <NA> where the state does
    not say), `status` (a key of T3E_STATUS_COLOURS), the output VC it asked for or left on
    (`out_port`, `out_vc`; a head's deterministic request is read from `ovc_requests`, which
    remembers it; an adaptive one shows only once it has left) and that output VC's `credits`
    at arbitration.

    The requesting VC of an input is the one that sent, else `in_sel` after the clock (a VC
    that kept its right), else `in_sel` before it if that VC held flits (it asked and gave up
    its right), else the one the input chose afresh: the first VC holding flits from its
    round-robin pointer `in_rr` (past `in_sel` if that VC had emptied), as select() does."""
    b, a = cycle.before, cycle.after
    routers = b["occupancy"].shape[0]
    sent = t3e_sent(cycle).astype(bool)
    credits = credits_at_allocation(b, cycle.t)
    occ_b = b["occupancy"].astype(int)
    flits = a["occupancy"].astype(int) + sent  # at arbitration: after arrivals, before sends
    out_b, vc_b = b["ivc_out_port"].astype(int), b["ivc_out_vc"].astype(int)
    on_way = out_b >= 0
    # The output VC each input VC k = port * VCS + vc asks for: the first whose remembered
    # requesters hold bit k (a head asks for one deterministic VC).
    k = np.arange(PORTS * VCS, dtype=np.uint64)
    asked = a["ovc_requests"].reshape(routers, PORTS * VCS)
    bits = (asked[:, :, None] >> k) & np.uint64(1)  # [router, output VC, input VC]
    ask = np.where(bits.any(axis=1), bits.argmax(axis=1), -1).reshape(routers, PORTS, VCS)
    # A flit on its way asks for the output VC it holds; a head that left, the one it took.
    head_out = np.where(a["ivc_out_port"] >= 0, a["ivc_out_port"] * VCS + a["ivc_out_vc"], -1)
    want = np.where(on_way, out_b * VCS + vc_b,
                    np.where(sent, head_out, np.where(flits > 0, ask, -1)))
    r = np.arange(routers)[:, None, None]
    w = np.maximum(want, 0)
    w_credits = credits.reshape(routers, -1)[r, w]
    me = np.arange(PORTS * VCS).reshape(PORTS, VCS)
    owns = a["ovc_owner"].reshape(routers, -1)[r, w] == me
    # Why a VC that asked and did not send gives up its right (arbiter.hpp, request and
    # step 5): no credit on its output VC, or a head that does not own its route's output VC.
    no_credit = (want >= 0) & (w_credits == 0) & (on_way | owns)
    # The requester of each input, -1 none.
    sel_b, sel_a = b["in_sel"].astype(int), a["in_sel"].astype(int)
    holds_b = np.take_along_axis(flits, np.maximum(sel_b, 0)[..., None], axis=2)[..., 0] > 0
    kept_b = (sel_b >= 0) & holds_b
    # Otherwise the input chose afresh this clock (arbiter.hpp, select): the first VC holding
    # flits from its round-robin pointer (in_rr), which moved past a requester that emptied.
    start = np.where((sel_b >= 0) & ~holds_b, (sel_b + 1) % VCS, b["in_rr"].astype(int))
    holding = flits > 0
    ahead = np.where(holding, (np.arange(VCS) - start[..., None]) % VCS, VCS)
    fresh_pick = np.where(holding.any(axis=2), ahead.argmin(axis=2), -1)
    req = np.select([sent.any(axis=2), sel_a >= 0, kept_b], [sent.argmax(axis=2), sel_a, sel_b],
                    fresh_pick)
    is_req = np.arange(VCS) == req[..., None]
    status = np.select(
        [is_req & sent, is_req & (sel_a >= 0)[..., None], is_req & no_credit, is_req,
         flits > 0, on_way],
        ["sent", "lost the output", "no credit", "no output VC", "not its turn", "bubble"],
        "empty")
    requesting = pd.array(is_req.ravel(), dtype="boolean")
    rr, pp, vv = np.indices(flits.shape).reshape(3, -1)
    none = want.ravel() < 0

    def maybe(values):  # <NA> where the VC asks for nothing
        return pd.arrays.IntegerArray(values.ravel().astype("int64"), none)

    return pd.DataFrame(dict(
        router=rr, port=pp, vc=vv, flits=flits.ravel(), arrived=(flits > occ_b).ravel(),
        requesting=requesting, status=status.ravel(), out_port=maybe(want // VCS),
        out_vc=maybe(want % VCS), credits=maybe(w_credits)))


def t3e_requests(cycle: Cycle, router: int) -> pd.DataFrame:
    """`t3e_arbitration`'s rows of router `router`, without the router column."""
    df = t3e_arbitration(cycle)
    return df[df.router == router].drop(columns="router").reset_index(drop=True)


def _buffer(cycle: Cycle, router: int, port: int, vc: int, sent: bool) -> dict:
    """Input VC (port, vc)'s flits as the arbiter saw them, front first: the one that left (the
    front as the clock began, or if the buffer was empty the flit that arrived and left at once,
    whose contents no state holds: NO_FLIT, `unknown`), then those left after the clock."""
    b, a = cycle.before, cycle.after
    out: dict[str, Any] = {}
    for f in ("src", "seq", "dest", "meta"):
        kept = a[f"buffer_{f}"][router, port, vc]
        front = b[f"buffer_{f}"][router, port, vc, :1] if sent else kept[:0]
        out[f] = np.concatenate([front, kept])[:len(kept)]
    out["unknown"] = sent and b["occupancy"][router, port, vc] == 0
    return out


def _is(flag) -> bool:
    """A nullable boolean that is true (<NA>: not known)."""
    return flag is not pd.NA and bool(flag)


def _name(names: list[str], port: int, vc: int) -> str:
    return f"{names[port]}.{VC_SHORT[vc]}"


def draw_t3e_router(ax, cycle: Cycle, router: int) -> None:
    """Router `router` during `cycle`: per input its five VCs' buffers as the arbiter saw them
    (flits coloured by packet, H head with >dest, T tail; green edge: leaving now, blue: arrived
    now), which VC had the right to request and what each did; the crossbar with this clock's
    flits (solid) and the requests that lost (dashed); per output its VCs' credits, owners and
    remembered requesters, and the output VC holding the physical output mid-packet."""
    b, a = cycle.before, cycle.after
    cfg = cycle.config
    names = t3e_port_names(cfg)
    cap = _capacity(cfg)
    right = int(cap.max())  # every buffer's front at the crossbar side
    req = t3e_requests(cycle, router).set_index(["port", "vc"])
    credits = credits_at_allocation(b, cycle.t)[router]
    owner_b, owner_a = b["ovc_owner"][router], a["ovc_owner"][router]
    asked = a["ovc_requests"][router]
    hold = b["out_hold"][router]  # as the arbiter saw it
    chan = b["r_chan"][router]

    out_depth = max(right, cfg.get("t3e.pe_buffer_depth"))
    y, status_x, xbar_l, xbar_r, credit_x, label_x = router_layout(VCS, 0.9, right, 11.5,
                                                                   out_depth)
    sends = []
    for p in range(PORTS):
        end = link_end(cycle, router, p)
        bits = int(chan[R_CHAN_PE if p == PE_PORT else _direction(cfg, p)])
        flags = " ".join(n for bit, n in CHAN_BITS.items() if bits & bit)
        top = y(p, 0) + 0.45
        sel = req.loc[p]
        asking = sel.index[sel.requesting.fillna(False)]
        who = f"{VC_NAMES[asking[0]]} requests" if len(asking) else "no request"
        ax.text(-4, top + 0.2, f"in {p} ({names[p]}) from {end}: {who}"
                + (f"   R_CHAN {flags}" if flags else ""), ha="left", va="bottom", fontsize=9,
                fontweight="bold")
        held = f", held mid-packet by {VC_NAMES[hold[p]]}" if hold[p] >= 0 else ""
        ax.text(credit_x, top + 0.2, f"out {p} ({names[p]}) to {end}{held}", ha="left",
                va="bottom", fontsize=9, fontweight="bold")
        for v in range(VCS):
            yy = y(p, v)
            r = req.loc[(p, v)]
            ax.text(right - cap[v] - 0.3, yy, VC_NAMES[v], ha="right", va="center", fontsize=8,
                    fontweight="bold" if _is(r.requesting) else "normal")
            leaving = r.status == "sent"
            f = _buffer(cycle, router, p, v, leaving)
            draw_flits(ax, yy, right, int(cap[v]), f["src"], f["seq"], f["dest"], f["meta"],
                       leaving)
            if f["unknown"]:  # arrived and left in this clock: its contents are in no state
                ax.add_patch(Rectangle((right - 0.95, yy - 0.4), 0.9, 0.8, fc="#dddddd",
                                       ec=T3E_STATUS_COLOURS["sent"], lw=3, hatch="//"))
                ax.text(right - 0.5, yy, "?", ha="center", va="center", fontsize=7,
                        fontweight="bold")
            if r.arrived and not f["unknown"]:  # at the back, where it was written
                x = right - r.flits
                ax.add_patch(Rectangle((x + 0.05, yy - 0.4), 0.9, 0.8, fc="none", ec=ARRIVED,
                                       lw=2))
            text = r.status
            if r.out_port is not pd.NA:
                text += f" > out {_name(names, r.out_port, r.out_vc)}"
            ax.text(status_x, yy, text, ha="left", va="center", fontsize=8,
                    color=T3E_STATUS_COLOURS[r.status],
                    fontweight="bold" if r.status != "empty" else "normal")
            if _is(r.requesting) and r.out_port is not pd.NA:
                draw_request(ax, xbar_l, yy, xbar_r, y(r.out_port, r.out_vc),
                             T3E_STATUS_COLOURS[r.status], r.status == "sent")
                if r.status == "sent":
                    sends.append(f"{_name(names, p, v)} > {_name(names, r.out_port, r.out_vc)}")
            # Output VC (p, v): credits at arbitration, who holds it, who waits for it.
            c = int(credits[p, v])
            draw_credits(ax, credit_x, yy, c, _credit_capacity(cfg, p, v))
            o = owner_b[p, v]
            text = f"{c} credit{'s' if c != 1 else ''}, "
            text += f"held by in {_name(names, o // VCS, o % VCS)}" if o >= 0 else "free"
            n = owner_a[p, v]
            if n >= 0 and n != o:
                text += f"; now in {_name(names, n // VCS, n % VCS)}"
            waiting = [_name(names, k // VCS, k % VCS) for k in range(PORTS * VCS)
                       if int(asked[p, v]) >> k & 1 and k != n]
            if waiting:
                text += "; asked by " + ", ".join(waiting)
            ax.text(label_x, yy, f"{VC_SHORT[v]}: {text}", ha="left", va="center", fontsize=8,
                    fontweight="bold" if hold[p] == v else "normal")
    bottom = y(PORTS - 1, VCS - 1) - 0.6
    draw_crossbar(ax, xbar_l, xbar_r, bottom)
    ax.text(right / 2, 1.6, "input VC buffers as the arbiter saw them (front on the right)",
            ha="center", fontsize=9, style="italic")
    ax.text(credit_x + out_depth / 2, 1.6, "output VCs: credits at arbitration", ha="center",
            fontsize=9, style="italic")
    pwho, lwho = int(b["r_pwho"][router]), int(b["r_lwho"][router])
    physical = f"X={pwho & 255}, Y={pwho >> 8 & 255}, Z={pwho >> 16 & 255}"
    pe = f"PE {lwho}" if lwho != NO_PE else "no PE installed"
    ax.set_title(f"T3E {router_title(cycle, router)}   physical {physical}, {pe}   flits "
                 f"crossing: {', '.join(sends) if sends else 'none'}", fontsize=10, loc="left")
    shown = [s for s in T3E_STATUS_COLOURS
             if s in set(req.status) - {"empty"} or s in ("lost the output", "no credit",
                                                         "no output VC", "not its turn")]
    handles = [Patch(color=T3E_STATUS_COLOURS[s], label=s) for s in shown] + flit_handles()
    handles += [Patch(fc="white", ec=ARRIVED, lw=2, label="flit arrived now"),
                Patch(fc="#dddddd", ec=T3E_STATUS_COLOURS["sent"], lw=3, hatch="//",
                      label="arrived and left now (contents not in the state)"),
                Line2D([], [], color="none", label="bold VC: its input's requester; bold "
                       "output VC: holds the output mid-packet (out_hold)")]
    finish_router_axes(ax, handles, label_x + 22, bottom)


def t3e_figsize(config, ports: int) -> tuple[float, float]:
    return 22.0, 1.8 + 0.3 * ports * (VCS + 0.9)


def t3e_held_max(config) -> int:
    """One input's buffers: four deterministic VCs and the adaptive one."""
    return 4 * config.get("t3e.buffer_depth") + config.get("t3e.adaptive_depth")


register(RouterFamily("t3e", T3E_STATE_NAMES, draw_t3e_router, t3e_buffered, t3e_link_use,
                      t3e_figsize, held_max=t3e_held_max))
