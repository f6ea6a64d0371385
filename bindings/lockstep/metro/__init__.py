"""METRO's unloaded network latency (Chong et al., "METRO: A Router Architecture for
High-Performance, Short-Haul Routing Networks", section 6: Table 4, "Latency Equations for
METRO", and Table 3, "METRO Implementation Examples"):

    from lockstep import metro
    metro.t20_32(25, 10, w=4, stages=4, radix=[2, 2, 2, 4])  # METROJR-ORBIT: 1250 ns
    metro.table3()                                           # Table 3, computed beside printed

The model and the reading of Table 3's row labels are in latency_model.py.
"""

from .latency_model import Latency, t20_32, table3

__all__ = ["Latency", "t20_32", "table3"]
