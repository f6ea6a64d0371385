"""Watching a router move: drawings of a router and of the network, cycle by cycle, a packet
tracer, Jupyter controls (play, pause, step, a cycle slider) and animations (offline HTML
pages with the same controls, GIF and MP4). Reads only `Simulator.state` and the config.

    import lockstep as ls
    sim = ls.Simulator(cfg)
    h = ls.viz.History(sim)              # records every cycle as views step it
    ls.viz.router_view(h, router=5, cycle=40)
    ls.viz.network_view(h, cycle=40, path=ls.viz.trace(h, src=0, seq=0, cycles=40, start=0))
    ls.viz.player(h, view="router", router=5)   # in Jupyter: play, pause, step, slider
    ls.viz.export(h, "router5.html", view="router", router=5, cycles=30)

METRO (router.family = "metro") has connections, not packets: follow an endpoint's with
`ls.viz.metro_trace(h, src=0, cycles=40, start=0)`, drawn by `network_view(path=...)` too.
The Cray T3E (router.family = "t3e") has its own router drawing; `ls.viz.t3e_requests(cycle,
router)` says what each input VC did in a clock of its arbitration. Blue Gene/L (router.family =
"bgl") draws its VC FIFOs of whole packets, tokens and injection FIFOs; `ls.viz.bgl_starts(cycle)`
says what each link started in a cycle (a packet and the FIFO it left, or a token-ack).
"""

from .animation import animation, export
from .bgl_view import bgl_starts  # registers the bgl family's views
from .controls import Player, player
from .history import Cycle, History
from .metro_view import metro_link_use, metro_trace  # registers the metro family's views
from .network_view import network_view
from .registry import RouterFamily, families, register
from .router_view import router_view, vc_requests
from .sconnect_view import sconnect_link_use  # registers the sconnect family's views
from .t3e_view import t3e_port_names, t3e_requests  # registers the t3e family's views
from .tracer import trace

__all__ = ["Cycle", "History", "Player", "RouterFamily", "animation", "bgl_starts", "export",
           "families", "metro_link_use", "metro_trace", "network_view", "player", "register",
           "router_view", "sconnect_link_use", "t3e_port_names", "t3e_requests", "trace",
           "vc_requests"]
