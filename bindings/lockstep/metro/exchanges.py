"""Several request/reply exchanges on one METRO connection (`metro.exchanges`), measured for the
fidelity ledger.

The paper (document 003, section 4, "Overview"): "The connection may be reversed as many times as
the source and destination desire before being closed"; section 5.1, "Connection Reversal":
"Once the connection is established and the request is transmitted, the reply data can stream
back along the path opened by the request without incurring any additional latency to acquire a
new connection through the network."

With `traffic.request_reply` every message is a read; `metro.exchanges` k makes it k
request/reply exchanges on the one connection: after each good reply but the last the source
sends its next request (data words, their checksum word and a TURN: no header, the path is
open), the destination acknowledges, fetches (`metro.reply_delay` clocks of DATA-IDLE), replies
and turns back. The message is delivered once, after its last exchange; its latency runs from
creation to the last reply. `traffic.offered` counts every exchange's words.

    from lockstep.metro.exchanges import lone_read_clocks
    lone_read_clocks(4)   # {"latency": 177, ...} on configs/metro_figure3.toml
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..config import Config, load_config
from ..fidelity.claim import Measured
from ..simulate import simulate

CONFIGS = Path(__file__).resolve().parents[3] / "configs"
REPLY = 5  # the reply's words, its checksum included: the paper's 4-word cache line
DELAY = 10  # clocks of DATA-IDLE while the destination fetches (metro.reply_delay)


def _reads(exchanges: int = 1, **overrides) -> Config:
    """configs/metro_figure3.toml (20-word requests behind the route word) as reads of a 5-word
    reply after 10 clocks of fetching, `exchanges` to a connection."""
    return load_config(CONFIGS / "metro_figure3.toml").with_(**{
        "traffic.request_reply": True, "traffic.reply_size": REPLY,
        "metro.reply_delay": DELAY, "metro.exchanges": exchanges, "threads": 1, **overrides})


def lone_read(exchanges: int, **overrides) -> Config:
    """One read alone on the idle network: endpoint 0 to endpoint 63, created as early as the
    source's rate allows, every other endpoint silent."""
    cfg = _reads(exchanges, **overrides)
    words = cfg.get("traffic.packet_size") + REPLY
    return cfg.with_(**{"traffic.pattern": "hotspot", "traffic.hotspot_nodes": [63],
                        "traffic.hotspot_fraction": 1.0, "traffic.sender_every": 64,
                        "traffic.max_packets": 1, "traffic.offered": float(words),
                        "run.warmup": 0, "run.measure": 100, "run.drain": 5000})


def lone_read_clocks(exchanges: int, **overrides) -> dict[str, float]:
    """The lone read's latency (creation to its last reply, clocks), its attempts and its good
    exchanges (`exchanges_completed`, with more than one)."""
    r = simulate(lone_read(exchanges, **overrides))
    if r.packets != 1 or r.lost:
        raise RuntimeError(f"the lone read was not delivered: {r}")
    return {"latency": float(r.latency_mean), "attempts": float(r.attempts_per_message),
            "exchanges": float(r.exchanges_completed) if exchanges > 1 else 1.0}


def exchanges_one_connection(quick: bool) -> Measured:
    """The clocks each exchange after the first adds to a connection, over the clocks a new
    connection takes for the same exchange (a lone one-exchange read, creation to reply), on
    configs/metro_figure3.toml unloaded. Below 1 by the new connection's setup: its route
    word(s); with metro.hw = 2 (6 header words) beside it in the detail."""
    ks = (1, 2, 4) if quick else (1, 2, 4, 8)
    parts = []
    per_added: dict[int, list[float]] = {}
    fresh: dict[int, float] = {}
    for hw in (0, 2):
        lat = {k: lone_read_clocks(k, **{"metro.hw": hw})["latency"] for k in ks}
        fresh[hw] = lat[1]
        per_added[hw] = [(lat[k] - lat[1]) / (k - 1) for k in ks[1:]]
        parts.append(f"hw {hw}: " + ", ".join(f"{k} exchanges {lat[k]:g}" for k in ks)
                     + f" clocks; per added exchange {', '.join(f'{x:g}' for x in per_added[hw])}")
    added = per_added[0]
    value = added[-1] / fresh[0] if len(set(added)) == 1 else np.nan  # NaN: not constant
    return Measured(value, "; ".join(parts) + f"; a new connection's read {fresh[0]:g} (hw 0), "
                    f"{fresh[2]:g} (hw 2): the added exchange is the fresh read less its header "
                    f"words ({fresh[0] - added[-1]:g} and {fresh[2] - per_added[2][-1]:g})")


def exchanges_under_load(quick: bool, offered: float = 0.2, k: int = 4) -> Measured:
    """At `offered` data words per endpoint per clock (every exchange's request and reply
    counted) on configs/metro_figure3.toml: the clocks per exchange of reads of k exchanges on
    one connection (latency / k) over those of k separate one-exchange reads (each read's
    latency), with the attempts per message and accepted loads in the detail."""
    window = {"run.warmup": 1000 if quick else 3000, "run.measure": 4000 if quick else 20000}
    one = simulate(_reads(1, **window), offered=offered)
    many = simulate(_reads(k, **window), offered=offered)
    if one.saturated or many.saturated or one.lost or many.lost:
        return Measured(np.nan, f"saturated or lost at offered {offered}: {one} / {many}")
    per = many.latency_mean / k
    return Measured(per / one.latency_mean,
                    f"offered {offered}: {k} exchanges a connection {many.latency_mean:.1f} "
                    f"clocks a read ({per:.1f} an exchange, {many.attempts_per_message:.2f} "
                    f"attempts a read, accepted {many.accepted:.3f}); separate reads "
                    f"{one.latency_mean:.1f} clocks ({one.attempts_per_message:.2f} attempts, "
                    f"accepted {one.accepted:.3f})")
