"""METRO's unloaded network latency (Chong et al., "METRO: A Router Architecture for
High-Performance, Short-Haul Routing Networks", section 6: Table 4, "Latency Equations for
METRO", and Table 3, "METRO Implementation Examples"):

    from lockstep import metro
    metro.t20_32(25, 10, w=4, stages=4, radix=[2, 2, 2, 4])  # METROJR-ORBIT: 1250 ns
    metro.table3()                                           # Table 3, computed beside printed

The model and the reading of Table 3's row labels are in latency_model.py.

The emulator's state as words on wires, clock by clock (trace.py):

    tr = metro.Tracer(ls.Simulator(cfg)).step(30)
    tr.table, tr.wide()          # every word that arrived, decoded
    metro.path(sim, node)        # an endpoint's connection through the crossbars
    metro.streams(sim, 2000)     # every attempt followed hop by hop, with what came back

Which wire corrupts data, from the routers' checksums (faults.py):

    metro.suspect_wires(sim)     # the wires the sources blame, most suspected first

Several request/reply exchanges on one connection (metro.exchanges; exchanges.py):

    from lockstep.metro import exchanges
    exchanges.lone_read_clocks(4)  # one read of 4 exchanges alone: its latency, 177 clocks
"""

from .latency_model import Latency, row_config, t20_32, table3
from .faults import suspect_wires, wire_name
from .trace import (Network, Tracer, connections, decode, describe, path, status, streams,
                    words)

OFFERED_UNIT = "data words/endpoint/clock"  # what traffic.offered counts

__all__ = ["Latency", "Network", "Tracer", "connections", "decode", "describe", "path",
           "row_config", "status", "streams", "suspect_wires", "t20_32", "table3", "wire_name",
           "words"]
