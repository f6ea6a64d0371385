"""What each input VC of a `vc` router did in a cycle (`vc_requests`), read from the state as
the cycle began and as it ended; the router's drawing and the packet tracer both read it.
"""

from __future__ import annotations

import pandas as pd

from ..viz.history import Cycle
from ..viz.router_view import credits_at_allocation

IDLE, VC_ALLOC, ACTIVE = 0, 1, 2  # ivc_state (kernels/vc/vc_state.hpp)


def vc_requests(cycle: Cycle, router: int) -> pd.DataFrame:
    """What each input VC of `router` did in the cycle, one row per (port, vc): flits held as
    it began, its state, route, output VC, the credits of that output VC at switch
    allocation, and `status` (a key of viz.router_view.STATUS_COLOURS)."""
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
