"""The Cray T3E's virtual channel balance (Scott & Thorson, "The Cray T3E Network", section 4,
"Virtual Channel Optimization", and its Table 1; datelines in section 3.2; the R_VCSEL
SELECT bits in the T3E hardware manual):

    from lockstep import t3e
    t3e.vc_balance(32, 16, "optimized")   # (average, maximum) over the links of a ring
    t3e.link_balance(8, 8)                # per link, time of crossing
    t3e.table1()                          # Table 1, computed beside the printed values
    t3e.vcsel_tables(cfg, "optimized")    # R_VCSEL words [routers, 6] for a t3e config
    t3e.load_vcsel(sim, "optimized")      # ... written into a Simulator's r_vcsel
    t3e.figures.round_trip([8, 8, 8])     # Figure 7 from Table 2: zero-load round trips
    t3e.figures.global_bandwidth([8, 16, 8])  # Figure 8: per-PE global bandwidth, MB/s
    t3e.bandwidth.table4()                # Table 4 measured: payload MB/s per traffic type
    t3e.barrier.spanning_tree(cfg, members, root)  # BSU registers of a partition's tree
    t3e.barrier.latency_vs_size(shapes)   # barrier/eureka latency beside a read's round trip
    t3e.special.ring_sizes(sim)           # the machine's shape found by SPUT/SGET (special network)

The model is in vc_balance.py, the annealer that made the shipped tables
(vcsel_tables.json, by scripts/t3e_vc_tables.py) in vc_anneal.py, the R_VCSEL words of a
simulated torus in registers.py, Figures 7 and 8 of section 11 computed in figures.py, Table 4
measured in bandwidth.py, the barrier/eureka networks of section 6 in barrier.py, the special
network's SPUT/SGET in special.py.
"""

from . import bandwidth, barrier, figures, special
from .registers import load_vcsel, vcsel_tables
from .vc_balance import link_balance, table1, vc_balance

OFFERED_UNIT = "flits/PE/clock, requests and responses"  # what traffic.offered counts

__all__ = ["bandwidth", "barrier", "figures", "link_balance", "special", "load_vcsel", "table1",
           "vc_balance", "vcsel_tables"]
