"""Which wire corrupts data, as the sources say from the routers' checksums.

At each TURN every router on a connection returns its STATUS (which names the router and the
port the connection left by) and the checksum of the data it forwarded; the destination's
acknowledgement carries its own checksum. A source compares them in path order: the first hop
whose checksum differs from the one before it (the first router's: from an intact stream's) had its
data corrupted on the wire into it. Each endpoint keeps the count (`faults_located`) and a
majority vote over the wires it named (`suspect_wire`, `suspect_votes`; bounded state whatever
the network's size). `suspect_wires(sim)` gathers the votes: the paper's "fault-localization",
after which the scan system would disable the wire (`metro.failed_ports`, with
`metro.mask_failed`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..simulate import Simulator
from .trace import Network

NO_WIRE = 0xFFFFFFFF


def wire_name(net: Network, router: int, port: int) -> str:
    """A wire named by a router end, as "E3.in→R0.f1", "R0.b2→R9.f0" or "R20.b0→E5"."""
    here = f"R{router}.{net.router_port(router, port)}"
    far, node = int(net.peer[router, port]), int(net.port_node[router, port])
    if port < net.forward[router]:
        return f"E{node}→{here}" if node >= 0 else f"R{far // net.ports}→{here}"
    if far >= 0:
        return f"{here}→R{far // net.ports}.{net.router_port(far // net.ports, far % net.ports)}"
    return f"{here}→E{node}"


def suspect_wires(sim: Simulator, instance: int = 0) -> pd.DataFrame:
    """One row per wire some endpoint suspects, most suspected first: `router` and `port` (the
    router end, as metro.failed_ports and metro.noisy_ports name wires), `layer` (the router's),
    `wire` (what it joins), `endpoints` (how many suspect it) and `votes` (their majority votes'
    counts). `attrs["located"]` is every endpoint's located faults together."""
    net = Network(sim, instance)
    suspect = net.read(sim, "suspect_wire").astype(np.int64)
    votes = net.read(sim, "suspect_votes").astype(np.int64)
    rows: dict[int, list[int]] = {}
    for wire, count in zip(suspect, votes):
        if wire != NO_WIRE and count > 0:
            row = rows.setdefault(int(wire), [0, 0])
            row[0] += 1
            row[1] += int(count)
    out = pd.DataFrame(
        [{"router": w // net.ports, "port": w % net.ports, "layer": int(net.stage[w // net.ports]),
          "wire": wire_name(net, w // net.ports, w % net.ports), "endpoints": e, "votes": v}
         for w, (e, v) in rows.items()],
        columns=["router", "port", "layer", "wire", "endpoints", "votes"])
    out = out.sort_values(["endpoints", "votes"], ascending=False, ignore_index=True)
    out.attrs["located"] = int(net.read(sim, "faults_located").sum())
    return out
