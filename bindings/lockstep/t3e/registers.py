"""R_VCSEL words for a simulated Cray T3E (``router.family = "t3e"``): the shipped optimised
SELECT tables (section 4 of Scott & Thorson, "The Cray T3E Network"; vc_balance.py) laid out
over a configuration's torus and loaded into a `Simulator`.

    sim = ls.Simulator(cfg)                      # cfg: router.family = "t3e"
    ls.t3e.load_vcsel(sim, "optimized")          # every instance's r_vcsel, before stepping
    words = ls.t3e.vcsel_tables(cfg, "optimized")  # [routers, 6] uint64, the same words

An R_VCSEL word per router and direction (+X, +Y, +Z, -X, -Y, -Z, the order of the
``r_vcsel`` state array): SELECT<7:0>, bit e for the destination ordinates d with d mod 8 = e
(0: the packet enters the direction on VC0, 1: on VC1), and DATELINE, bit 32, where the host
sets it (host/t3e/t3e_registers.cpp): at physical ordinate 0 for + directions, k - 1 for -
directions (the nodes the wrap links lead into); rings of one node have neither.

Physical ordinates are what R_PWHO holds: the cube coordinate of router r, (r % kx,
r // kx % ky, r // (kx * ky)), mirrored (k - 1 - c) in the dimensions whose ``t3e.r_orient``
bit is set; + always runs towards increasing physical ordinate.

The tables of vc_balance.py are for one + direction with its dateline at node 0: bit e of
source s is the SELECT bit of routes s -> d with d mod 8 = e.

* + directions take them as they are.
* - directions mirror the ring: the - route s -> d (dateline k - 1) is the + route
  k-1-s -> k-1-d (dateline 0) of the mirrored ring, so bit e of physical source s is the
  table's bit (k - 1 - e) mod 8 of source k - 1 - s. That is right for every ring size, not
  only for k <= 8 or k % 8 == 0: (k - 1 - d) mod 8 = (k - 1 - (d mod 8)) mod 8 depends on d
  only through d mod 8, so the destinations that share a physical entry share a mirrored one
  and the map is a permutation of the 8 entries. The mirror of the default routes' tie (k/2
  hops: + from even sources, - from odd) is the same tie rule, so the mirrored - routes are
  exactly the + routes the table was checked against (no route through the dateline on VC1)
  and the - direction balances as the + one does.
* R_NET_LUT modes 1 and 2 route the X and Y ties differently: a group of two destinations
  (t, t + 1) takes the sign that reaches both in fewer hops, so the tie goes + when s + k/2
  is odd. For k % 4 == 0 that is the opposite of the default rule, and a few shipped bits
  (rings 12, 20, 24, 28, 32) would put such a tie route through the dateline on VC1. When a
  configuration may use modes 1 or 2 (``t3e.lut_mode`` "mode1" or "mode2", or "auto" with
  more than 544 PEs) "optimized" clears those bits in X and Y (VC0 is always allowed), and an
  explicit table that sets one is refused.

``table``: "time_of_crossing" (every SELECT bit 0), "optimized" (the shipped 8-entry tables,
`vc_balance.shipped_table(k, "optimized")`), an explicit array of SELECT bits of shape (k, 8)
([source, destination mod 8], + direction, dateline node 0, as vc_balance takes them) used for
every ring of k nodes, or a dict {k: name or array} giving each ring size of the torus its
own. Explicit tables are checked as `vc_balance.check_table` checks them.
"""

from __future__ import annotations

from typing import Mapping

import numpy as np

from ..config import Config, as_config
from ..simulate import Simulator
from .vc_balance import SELECT_BITS, check_table, shipped_table

DATELINE_BIT = 1 << 32
DIRECTIONS = ("+X", "+Y", "+Z", "-X", "-Y", "-Z")
NAMES = ("time_of_crossing", "optimized")
MAX_DEFAULT_LUT_PES = 544  # "auto" takes mode 0 up to here (host/t3e/t3e_registers.cpp)


def plus_route(s: int, d: int, k: int, tie: str = "default") -> bool:
    """Whether the route s -> d (s != d) of a k-node ring goes +: minimal, a tie at k/2
    going + from even sources ("default", the host's default_tag) or when s + k/2 is odd
    ("pair", R_NET_LUT modes 1 and 2 in X and Y)."""
    hops = (d - s) % k
    if 2 * hops != k:
        return 2 * hops < k
    return s % 2 == 0 if tie == "default" else (s + k // 2) % 2 == 1


def dateline_entries(k: int, tie: str = "default") -> np.ndarray:
    """[source, entry] bool for the + direction of a k-node ring, dateline node 0: the entry
    is shared with a + route that travels through node 0 (wraps and goes on past it), so its
    SELECT bit must be 0."""
    mask = np.zeros((k, SELECT_BITS), dtype=bool)
    for s in range(k):
        for d in range(k):
            if d != s and plus_route(s, d, k, tie) and s + (d - s) % k > k:
                mask[s, d % SELECT_BITS] = True
    return mask


def _ties(cfg: Config) -> tuple[str, ...]:
    """The tie rules the X and Y rings of cfg's routes may follow."""
    mode = cfg.get("t3e.lut_mode")
    pes = int(np.prod(cfg.get("topology.radix")))
    if mode in ("mode1", "mode2") or (mode == "auto" and pes > MAX_DEFAULT_LUT_PES):
        return ("default", "pair")
    return ("default",)


def _plus_bits(k: int, table, ties: tuple[str, ...]) -> np.ndarray:
    """[k, 8] int8 SELECT bits of a + direction of a k-node ring."""
    if isinstance(table, str):
        if table not in NAMES:
            raise ValueError(f"table = {table!r}: allowed {', '.join(NAMES)}, an array of "
                             f"SELECT bits of shape (k, 8) or a dict {{k: table}}")
        if table == "time_of_crossing":
            return np.zeros((k, SELECT_BITS), dtype=np.int8)
        bits = shipped_table(k, "optimized").copy()
        for tie in ties:
            bits[dateline_entries(k, tie)] = 0
        return bits
    arr = np.asarray(table)
    if arr.shape != (k, SELECT_BITS):
        raise ValueError(f"table of shape {arr.shape} for a ring of k = {k}: allowed ({k}, 8), "
                         f"R_VCSEL SELECT bits [source, destination mod 8]")
    bits = check_table(k, arr)
    for tie in ties:
        bad = np.argwhere(dateline_entries(k, tie) & (bits == 1))
        if len(bad):
            s, e = bad[0]
            raise ValueError(f"table for k = {k}: SELECT bit {e} of source {s} puts a tie route "
                             f"of R_NET_LUT modes 1/2 through the dateline node 0 on VC1: "
                             f"allowed only 0 there when t3e.lut_mode may be mode1 or mode2")
    return bits


def _ring_words(k: int, table, ties: tuple[str, ...],
                line: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """(+ words, - words), each [k] uint64 indexed by physical ordinate: SELECT bits and the
    DATELINE bit (none on a line: a Y dimension of 2, which has no wrap link)."""
    plus = np.zeros(k, dtype=np.uint64)
    minus = np.zeros(k, dtype=np.uint64)
    if k == 1:  # no link, no dateline
        return plus, minus
    bits = _plus_bits(k, table, ties)
    e = np.arange(SELECT_BITS)
    # - direction: source s, entry e <- mirrored source k-1-s, entry (k-1-e) mod 8.
    mirrored = bits[::-1][:, (k - 1 - e) % SELECT_BITS]
    weights = np.uint64(1) << e.astype(np.uint64)
    plus[:] = (bits.astype(np.uint64) * weights).sum(axis=1)
    minus[:] = (mirrored.astype(np.uint64) * weights).sum(axis=1)
    if not line:
        plus[0] |= np.uint64(DATELINE_BIT)
        minus[k - 1] |= np.uint64(DATELINE_BIT)
    return plus, minus


def _table_for(table, k: int):
    if isinstance(table, Mapping):
        if k not in table:
            raise ValueError(f"no table for rings of k = {k} in the dict (keys "
                             f"{sorted(table)}): give one for every ring size of the torus")
        return table[k]
    return table


def physical_ordinates(cfg) -> np.ndarray:
    """[routers, 3] physical ordinates (R_PWHO's X, Y, Z) of a t3e configuration's routers."""
    cfg = _t3e_config(cfg)
    k = cfg.get("topology.radix")
    orient = cfg.get("t3e.r_orient")
    r = np.arange(int(np.prod(k)))
    cube = np.stack([r % k[0], r // k[0] % k[1], r // (k[0] * k[1])], axis=1)
    flip = np.array([(orient >> d) & 1 for d in range(3)], dtype=bool)
    return np.where(flip, np.array(k) - 1 - cube, cube)


def _t3e_config(cfg_or_sim) -> Config:
    if isinstance(cfg_or_sim, Simulator):
        cfg_or_sim = cfg_or_sim.configs[0]
    cfg = as_config(cfg_or_sim)
    if cfg.get("router.family") != "t3e":
        raise ValueError(f"router.family = {cfg.get('router.family')!r}: R_VCSEL tables are "
                         f"for router.family = \"t3e\"")
    return cfg


def vcsel_tables(cfg_or_sim, table) -> np.ndarray:
    """[routers, 6] uint64 R_VCSEL words (+X, +Y, +Z, -X, -Y, -Z) for the torus of a t3e
    configuration (a Config, anything `Config` takes, or a `Simulator`: its first instance's
    configuration). ``table``: "time_of_crossing", "optimized", an explicit (k, 8) array of +
    SELECT bits (dateline node 0) for every ring of k nodes, or a dict {k: name or array};
    see the module's docstring for the - directions and R_NET_LUT modes 1 and 2.

    "time_of_crossing" gives exactly the words the host loads (the ``r_vcsel`` state array
    of a fresh Simulator)."""
    cfg = _t3e_config(cfg_or_sim)
    radix = cfg.get("topology.radix")
    ties_xy = _ties(cfg)
    phys = physical_ordinates(cfg)
    words = np.zeros((len(phys), 6), dtype=np.uint64)
    for d in range(3):
        k = radix[d]
        if isinstance(table, np.ndarray) and table.shape[0] != k and k > 1:
            raise ValueError(f"table of shape {table.shape} but dimension {'XYZ'[d]} has rings "
                             f"of k = {k}: give a dict {{k: table}} for a torus of several "
                             f"ring sizes")
        if isinstance(table, (list, tuple)) and len(table) != k and k > 1:
            raise ValueError(f"table of {len(table)} rows but dimension {'XYZ'[d]} has rings "
                             f"of k = {k}: give a dict {{k: table}} for a torus of several "
                             f"ring sizes")
        ring_table = "time_of_crossing" if k == 1 else _table_for(table, k)
        plus, minus = _ring_words(k, ring_table, ties_xy if d < 2 else ("default",),
                                  line=d == 1 and k == 2)
        words[:, d] = plus[phys[:, d]]
        words[:, d + 3] = minus[phys[:, d]]
    return words


def load_vcsel(sim: Simulator, table) -> Simulator:
    """Write the R_VCSEL words of ``table`` (see `vcsel_tables`) into every instance of a t3e
    `Simulator`'s ``r_vcsel`` state, each from its own configuration; returns ``sim``. Load
    them before the first `step` or `run` (packets already on a VC keep it)."""
    words = np.stack([vcsel_tables(c, table) for c in sim.configs])
    if sim.instances == 1:
        words = words[0]
    current = sim.state("r_vcsel")
    if current.shape != words.shape:
        raise ValueError(f"r_vcsel state of shape {current.shape}, computed {words.shape}")
    sim.set_state("r_vcsel", words.astype(current.dtype))
    return sim
