"""The Cray T3E's virtual channel balance (Scott & Thorson, "The Cray T3E Network", section 4,
"Virtual Channel Optimization", and its Table 1; datelines in section 3.2; the R_VCSEL
SELECT bits in the T3E hardware manual):

    from lockstep import t3e
    t3e.vc_balance(32, 16, "optimized")   # (average, maximum) over the links of a ring
    t3e.link_balance(8, 8)                # per link, time of crossing
    t3e.table1()                          # Table 1, computed beside the printed values
    t3e.vcsel_tables(cfg, "optimized")    # R_VCSEL words [routers, 6] for a t3e config
    t3e.load_vcsel(sim, "optimized")      # ... written into a Simulator's r_vcsel

The model is in vc_balance.py, the annealer that made the shipped tables
(vcsel_tables.json, by scripts/t3e_vc_tables.py) in vc_anneal.py, the R_VCSEL words of a
simulated torus in registers.py.
"""

from .registers import load_vcsel, vcsel_tables
from .vc_balance import link_balance, table1, vc_balance

__all__ = ["link_balance", "load_vcsel", "table1", "vc_balance", "vcsel_tables"]
