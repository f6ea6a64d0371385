"""The `sconnect` family's entry in the registry: what its views read, how busy its channels
are, what its routers hold, and one router drawn during one cycle (its shared buffer pool and
its queues per channel, priority and virtual channel).

An S-Connect channel is a belt of slots (`message_belt` [router, slot, port], at the receiving
end; kernels/sconnect/channel_module.hpp): a message sent in cycle t on a channel of delay d is
written into the receiver's slot (t + d) mod slots, which holds nothing as the cycle begins
(the slot being received in cycle t is t mod slots, and d < slots). So the slots set in cycle t
that were clear before it are exactly the messages sent in cycle t, whatever the delays: that
is the link use drawn, one message per slot, refused ones included (a refusal costs a slot).
`link_messages` counts the same sends, but only inside a `run`'s measurement window.
"""

from __future__ import annotations

import numpy as np
from matplotlib.patches import Patch, Rectangle

from ..viz.history import Cycle
from ..viz.registry import RouterFamily, State, register
from ..viz.topology import port_names

__all__ = ["sconnect_link_use"]  # what the family adds to lockstep.viz

# buf_state (kernels/sconnect/sconnect_state.hpp)
FREE, QUEUED, SENT, POOL, PART, RESERVED = 0, 1, 2, 3, 4, 5
PRIORITIES, VCS = 4, 2

STATE_COLOURS = {
    "free": "#f4f4f4",
    "queued": "#9ecae1",  # in a linked queue of a channel (the TIC), or of the host port
    "waiting (Figure 4)": "#c7b2de",  # in the pool with its options (near_optimal, optimal)
    "sent, awaiting ack": "#fdae6b",  # on the belt or acknowledged next: locked until then
    "quad part": "#a1d99b",  # a quad-message's part, held apart from the queues (quad.hpp)
    "reserved for a part": "#e5f5e0",  # held for a quad's part still to arrive
}
SENT_NOW, REFUSED_NOW = "#2ca02c", "#d62728"

SCONNECT_STATE_NAMES = ("buf_state", "pool_dest", "pool_meta", "queue_count", "message_belt",
                        "ack_belt", "free_mask")


def sconnect_buffered(state: State) -> np.ndarray:
    """[routers] buffers of the pool held (queued, waiting or sent and not yet acknowledged)."""
    return (state["buf_state"] != FREE).sum(axis=1)


def sconnect_link_use(cycle: Cycle) -> np.ndarray:
    """[routers, ports] 1 where a channel sent a message in `cycle` (see the module's
    docstring), mapped from the receiver's belt slot to the sending router and port."""
    new = (cycle.after["message_belt"] != 0) & (cycle.before["message_belt"] == 0)
    at_receiver = new.sum(axis=1)  # [routers, ports]: a channel sends at most one per cycle
    ports = cycle.peer.shape[1]
    use = np.zeros(cycle.peer.shape)
    r, p = np.nonzero(at_receiver)
    sender = cycle.peer[r, p]
    use[sender // ports, sender % ports] = at_receiver[r, p]
    return use


def _state_name(s: int) -> str:
    return {FREE: "free", QUEUED: "queued", POOL: "waiting (Figure 4)", PART: "quad part",
            RESERVED: "reserved for a part"}.get(s, "sent, awaiting ack")


def draw_sconnect_router(ax, cycle: Cycle, router: int) -> None:
    """Router `router` during `cycle`: its buffer pool as the cycle ended (each buffer's state,
    destination, priority and age; green: sent in this cycle; red: refused downstream in this
    cycle and queued again) and, per port, the messages queued per priority and VC, whether the
    channel sent one and the acknowledgements that arrived."""
    b, a = cycle.before, cycle.after
    state_b, state_a = b["buf_state"][router], a["buf_state"][router]
    buffers = len(state_a)
    ports = cycle.peer.shape[1]
    names = port_names(cycle.config, ports)
    sent = sconnect_link_use(cycle)[router]
    slots = b["ack_belt"].shape[1]
    acks = b["ack_belt"][router, cycle.t % slots]  # arriving in this cycle, per port
    cols = 8
    for k in range(buffers):
        x, y = k % cols, -(k // cols)
        s = int(state_a[k])
        now_sent = s == SENT and state_b[k] != SENT
        refused = state_b[k] == SENT and s in (QUEUED, POOL, PART)
        edge = SENT_NOW if now_sent else REFUSED_NOW if refused else "#999999"
        ax.add_patch(Rectangle((x + 0.04, y - 0.46), 0.92, 0.92,
                               fc=STATE_COLOURS[_state_name(s)], ec=edge,
                               lw=2.5 if edge != "#999999" else 0.6))
        if s not in (FREE, RESERVED):
            meta = int(a["pool_meta"][router, k])
            age = (meta >> 11) & 255
            label = f">{a['pool_dest'][router, k]}\np{meta & 3}" + (f" a{age}" if age else "")
            if meta >> 30 & 1:  # a quad-message's part: which one
                label += f" q{meta >> 25 & 3}"
            ax.text(x + 0.5, y, label, ha="center", va="center", fontsize=7, linespacing=0.9)
    held = int((state_a != FREE).sum())
    pool = f"buffer pool: {held} of {buffers} held"
    if cycle.config.get("sconnect.unacknowledged") == "channel":  # sent ones wait apart
        stored = int((state_a == SENT).sum())
        pool = (f"buffer pool: {held - stored} of {cycle.config.get('sconnect.buffers')} held, "
                f"{stored} sent in the channels' stores")
    ax.text(cols / 2, 0.75, f"{pool} (>dest, p priority, a age, q quad part)", ha="center",
            fontsize=9, style="italic")
    right = cols + 0.8
    for p in range(ports):
        y = -p * 1.0
        far = cycle.peer[router, p]
        node = cycle.port_node[router, p]
        to = (f"host of node {node}" if node >= 0 else f"router {far // ports}" if far >= 0
              else "unconnected")
        q = a["queue_count"][router, p]  # [priority, vc]
        waiting = ", ".join(f"p{pr}: {q[pr, 0]}+{q[pr, 1]}" for pr in range(PRIORITIES)
                            if q[pr].any()) or "none"
        what = []
        if sent[p]:
            what.append(("sent a message", SENT_NOW))
        if p > 0 and acks[p] >= 0:
            what.append(("ack: accepted", "black") if acks[p] & 1
                        else ("ack: refused", REFUSED_NOW))
        name = "" if names[p] == f"port {p}" else f" ({names[p]})"
        ax.text(right, y + 0.15, f"port {p}{name} to {to}", fontsize=9, fontweight="bold",
                va="bottom")
        ax.text(right, y - 0.1, f"queued (VC0+VC1): {waiting}", fontsize=8, va="top")
        x = right + 7.5
        for text, colour in what:
            ax.text(x, y - 0.1, text, fontsize=8, va="top", color=colour, fontweight="bold")
            x += 3.2
    rows = -(-buffers // cols)
    handles = [Patch(fc=c, ec="#999999", label=n) for n, c in STATE_COLOURS.items()]
    handles += [Patch(fc="white", ec=SENT_NOW, lw=2.5, label="sent in this cycle"),
                Patch(fc="white", ec=REFUSED_NOW, lw=2.5, label="refused, queued again")]
    bottom = -max(rows, ports) - 0.2
    ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=3,
              fontsize=8, frameon=False)
    ax.set_title(f"S-Connect router {router}, cycle {cycle.t}", fontsize=11, loc="left")
    ax.set_xlim(-0.3, right + 15)
    ax.set_ylim(bottom, 1.2)
    ax.axis("off")


def sconnect_figsize(config, ports: int) -> tuple[float, float]:
    rows = -(-config.get("sconnect.buffers") // 8)
    return 14.0, 1.8 + 0.55 * max(rows, ports)


def sconnect_held_max(config) -> int:
    return config.get("sconnect.buffers")


register(RouterFamily("sconnect", SCONNECT_STATE_NAMES, draw_sconnect_router,
                      sconnect_buffered, sconnect_link_use, sconnect_figsize,
                      unit="message", held_max=sconnect_held_max))
