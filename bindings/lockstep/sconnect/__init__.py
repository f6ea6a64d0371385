"""S-Connect models beside the router family (Nowatzyk et al., "S-Connect: from Networks of
Workstations to Supercomputer Performance", ISCA 1995). The router itself is the engine's
`router.family = "sconnect"` (docs/design/sconnect.md); here are the host-side models:

    from lockstep.sconnect import pll
    m = pll.model("configs/sconnect_hypercube64.toml", pll.free_running(64, seed=1), K=1e5)
    m.omega                                    # equation 8: the frequency all nodes lock to
    m.integrate(10 * m.time_constant)          # node frequencies over time (equation 2)

pll.py is the distributed phase-locked loop of section 2.5 (equations 1-8). ideal_router.py is
the ideal 8 x 8 router of Figure 1 (section 2): crossbar against buffer pool, fixed against
exponential lengths. control.py is the controlling computer of section 3.4, which configures
and maps the routers of a running network by in-band control messages:

    ctl = ls.sconnect.Controller(sim, node=0)
    links = ctl.map_topology()      # the network, found from node 0 by source routes
"""

from . import ideal_router, pll
from .control import Controller
from .pll import DistributedPLL, channels, free_running, model, settling_time, to_ppm

OFFERED_UNIT = "messages/node/cycle"  # what traffic.offered counts

__all__ = ["Controller", "DistributedPLL", "channels", "free_running", "ideal_router", "model",
           "pll", "settling_time", "to_ppm"]
