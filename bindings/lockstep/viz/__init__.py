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

from ..families import parts
from .animation import animation, export
from .controls import Player, player
from .history import Cycle, History
from .network_view import network_view
from .registry import RouterFamily, families, register
from .router_view import router_view

# Each family's view (lockstep.<family>.view) registers its routers' drawing as it is imported
# and names in its __all__ what it adds here: ls.viz.t3e_requests, the vc family's trace ...
_ADDED = {name: getattr(view, name) for view in parts("view").values() for name in view.__all__}
globals().update(_ADDED)

__all__ = ["Cycle", "History", "Player", "RouterFamily", "animation", "export", "families",
           "network_view", "player", "register", "router_view"]
__all__ += list(_ADDED)
__all__.sort()  # alphabetical, as the API page lists them
