"""Following packets hop by hop through the `vc` family's routers (`ls.viz.trace`): at every
router a packet's head reached, the cycle of each of its stages (written into the input VC,
route computed, output VC won, switch crossed) and when its tail left, as a DataFrame that
`network_view(path=...)` draws.

It reads only the recorded state (`History`): the buffer views say where a packet's flits
are, and `vc_requests` what the input VC holding its head did in each cycle.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..simulate import Simulator
from ..viz.history import History, as_history
from ..viz.router_view import HEAD, NO_FLIT
from .requests import vc_requests

COLUMNS = ["src", "seq", "dest", "hop", "router", "in_port", "vc", "created", "injected",
           "arrived", "routed", "vc_allocated", "departed", "out_port", "out_vc", "tail_left"]


def trace(source: Simulator | History, src: int, seq: int | None = None, cycles: int = 100,
          start: int | None = None) -> pd.DataFrame:
    """Packet `seq` of source node `src` (every packet of `src` when `seq` is None), followed
    over `cycles` cycles from `start` (default: the next cycle not yet recorded), stepping the
    Simulator as far as needed. One row per packet and router its head reached within those
    cycles, in order of the hops (`hop` 0: the router it was injected into; a packet followed
    by `seq` that was already in flight has no hop numbers; following every packet of `src`
    takes those injected within the cycles followed):

    arrived: the cycle its head was written into the router's input VC (`in_port`, `vc`),
    <NA> for a head already there when the following began;
    routed, vc_allocated, departed: the cycles its head was routed, won output VC (`out_port`,
    `out_vc`) and crossed the switch; tail_left: the cycle its last flit crossed it. A stage
    not reached within the cycles followed is <NA>. created / injected: the packet's creation
    and injection cycles, as its flits carry them.
    """
    history = as_history(source)
    if history.family.name != "vc":
        hint = history.family.trace_hint
        other = (f": {hint}" if hint else
                 "; it reads the vc router's pipeline state (routing, VC and switch allocation)")
        raise ValueError(f"router.family {history.family.name!r}: ls.viz.trace follows packets "
                         f"through the vc family's routers only{other}")
    first = history.last + 1 if start is None else start
    if cycles < 1:
        raise ValueError(f"cycles {cycles}: allowed 1 or more")
    nodes = history.port_node.max() + 1
    if not 0 <= src < nodes:
        raise ValueError(f"src {src}: allowed a node of the network, 0 to {nodes - 1}")
    hops: dict[tuple[int, int, int, int], dict] = {}  # (seq, router, port, vc) -> row
    for t in range(first, first + cycles):
        cycle = history.cycle(t)
        before, after = cycle.before, cycle.after
        for key, row in hops.items():  # stages of heads that were at the front as t began
            if row["departed"] is None and front_is_head(before, key, src):
                stage(row, vc_requests(cycle, key[1]).set_index(["port", "vc"]).loc[key[2:]], t)
        mine = (after["buffer_src"] == src) & (after["buffer_meta"] != NO_FLIT)
        if seq is not None:
            mine &= after["buffer_seq"] == seq
        for r, p, v, k in zip(*np.nonzero(mine & (after["buffer_meta"] & HEAD).astype(bool))):
            key = (int(after["buffer_seq"][r, p, v, k]), int(r), int(p), int(v))
            if key not in hops:  # a head there as the following began arrived before it
                arrived = None if t == first and holds(before, key, src) else t
                hops[key] = new_hop(after, key, src, (r, p, v, k), arrived)
        for key, row in hops.items():  # the tail leaves when the packet's last flit is gone
            if row["departed"] is not None and row["tail_left"] is None and not holds(
                    after, key, src):
                row["tail_left"] = t
    df = pd.DataFrame(list(hops.values()), columns=COLUMNS)
    df = df.sort_values(["seq", "arrived"], ignore_index=True, na_position="first")
    # Hops count from the router a packet was injected into; a packet already in flight when
    # the following began has no hop numbers (and, following all of a source's, is left out).
    first_rows = df.groupby("seq").head(1)
    injected_here = first_rows[[history.port_node[r, p] >= 0 for r, p in
                                zip(first_rows["router"], first_rows["in_port"])]]["seq"]
    if seq is None:
        df = df[df["seq"].isin(injected_here)].reset_index(drop=True)
    df["hop"] = df.groupby("seq").cumcount().where(df["seq"].isin(injected_here))
    stages = ["hop", "arrived", "routed", "vc_allocated", "departed", "out_port", "out_vc",
              "tail_left"]
    return df.astype({c: "Int64" for c in stages})


def new_hop(state, key, src, at, arrived) -> dict:
    r, p, v, k = at
    return dict(src=src, seq=key[0], dest=int(state["buffer_dest"][r, p, v, k]), hop=None,
                router=key[1], in_port=key[2], vc=key[3], created=int(state["buffer_ctime"][at]),
                injected=int(state["buffer_itime"][at]), arrived=arrived, routed=None,
                vc_allocated=None, departed=None, out_port=None, out_vc=None, tail_left=None)


def front_is_head(state, key, src) -> bool:
    """Whether the packet's head is at the front of its input VC in `state`."""
    seq, r, p, v = key
    return (state["buffer_meta"][r, p, v, 0] != NO_FLIT and state["buffer_meta"][r, p, v, 0] & HEAD
            and state["buffer_src"][r, p, v, 0] == src and state["buffer_seq"][r, p, v, 0] == seq)


def holds(state, key, src) -> bool:
    """Whether any flit of the packet is still in the input VC in `state`."""
    seq, r, p, v = key
    return bool(((state["buffer_src"][r, p, v] == src) & (state["buffer_seq"][r, p, v] == seq)
                 & (state["buffer_meta"][r, p, v] != NO_FLIT)).any())


def stage(row: dict, request, t: int) -> None:
    """Records what the head's input VC did in cycle t (a row of `vc_requests`)."""
    if request.status == "routed" and row["routed"] is None:
        row["routed"] = t
    elif request.status == "VC won":
        row["routed"] = t if row["routed"] is None else row["routed"]
        row["vc_allocated"] = t
        row["out_port"], row["out_vc"] = int(request.out_port), int(request.out_vc)
    elif request.status == "sent":
        row["departed"] = t
        row["out_port"], row["out_vc"] = int(request.out_port), int(request.out_vc)
