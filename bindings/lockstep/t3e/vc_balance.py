"""Virtual channel balance of one direction of a Cray T3E ring (Scott & Thorson, "The Cray T3E
Network", section 4 and Table 1; datelines in section 3.2; the R_VCSEL SELECT bits in the
T3E hardware manual, "R_VCSEL Bit Format").

The model, one direction (+) of a ring of k nodes, links j: j -> j+1 mod k:

* Traffic: every node sends one route to every other node of its aligned subring. The whole
  ring (subring == k) routes minimally, a tie at distance k/2 going + from even sources and -
  from odd ones; only + routes count. A smaller subring is a mesh: + routes s -> d > s inside
  it, never over its edge.
* Dateline: node 0, so the wrap link k-1 -> 0 leads into it. A packet on VC0 that travels
  through node 0 leaves it on VC1; a packet on VC1 must not travel through it (the hardware
  stops it). A route that uses the wrap link and continues past node 0 is *constrained*: it
  starts on VC0 and is on VC1 from link 0 on. A route that ends at node 0 does not travel
  through it, so it is unconstrained, like every route that does not wrap: it keeps the VC it
  starts on.
* VC assignment: the SELECT bit of the route picks its starting VC (0: VC0, 1: VC1). On the
  T3E each router has 8 SELECT bits per direction, indexed by the low 3 bits of the
  destination ordinate, so a route s -> d uses entry d mod 8 of source s; an entry shared with
  a constrained route must be 0. "Full" tables have one bit per source/destination pair.
* Balance of a link: |VC0 routes - VC1 routes| over the largest number of routes on any link
  under that traffic; the average is over all k links, unused ones counting 0.

Every time-of-crossing value of Table 1 comes out of this reading exactly.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

MAX_RING = 64
SELECT_BITS = 8  # R_VCSEL SELECT<7:0>, indexed by destination ordinate bits <2:0>
SCHEMES = ("time_of_crossing", "optimized", "full")
TABLES_JSON = Path(__file__).with_name("vcsel_tables.json")
# The paper's printed Table 1, copied by hand (see README.md beside it).
PRINTED_CSV = Path(__file__).with_name("table1_paper.csv")
COLUMNS = {"time_of_crossing": "toc", "optimized": "opt", "full": "full"}


@dataclass(frozen=True)
class Ring:
    """The + routes of a whole ring of k nodes; subring traffic is a subset of them.

    Arrays over routes r: ``src``, ``dst``, ``length`` (hops); ``uses[r, j]``: route r
    crosses link j; ``after[r, j]``: it crosses link j after travelling through the dateline
    node (then it is on VC1 whatever it started on); ``constrained[r]``: it travels through
    the dateline node, so it must start on VC0.
    """

    k: int
    src: np.ndarray
    dst: np.ndarray
    length: np.ndarray
    uses: np.ndarray  # [route, link] bool
    after: np.ndarray  # [route, link] bool
    constrained: np.ndarray  # [route] bool

    def member(self, subring: int) -> np.ndarray:
        """[route] bool: the route is part of the all-to-all traffic of ``subring``."""
        if subring == self.k:
            return np.ones(len(self.src), dtype=bool)
        # An aligned mesh subring: same block, destination above the source (no wrap).
        return (self.src // subring == self.dst // subring) & (self.dst > self.src)

    def entry(self, full: bool) -> np.ndarray:
        """[route] column of the route's SELECT bit in a (k, k) or (k, 8) table."""
        return self.dst if full else self.dst % SELECT_BITS


def check_ring(k) -> int:
    if isinstance(k, (bool, np.bool_)) or not isinstance(k, (int, np.integer)):
        raise ValueError(f"k = {k!r}: allowed an integer ring size 2..{MAX_RING}")
    if not 2 <= k <= MAX_RING:
        raise ValueError(f"k = {k}: allowed an integer ring size 2..{MAX_RING}")
    return int(k)


def subring_sizes(k: int) -> list[int]:
    """Allowed subring sizes of a k-node ring: k itself, then the powers of two >= 2 that
    divide k (aligned subrings tile the ring), largest first."""
    sizes = [k]
    m = 1
    while m * 2 < k:
        m *= 2
    while m >= 2:
        if k % m == 0 and m < k:
            sizes.append(m)
        m //= 2
    return sizes


def check_subring(k: int, subring) -> int:
    allowed = subring_sizes(k)
    if isinstance(subring, (bool, np.bool_)) or not isinstance(subring, (int, np.integer)) \
            or int(subring) not in allowed:
        raise ValueError(f"subring = {subring!r}: allowed for a ring of k = {k}: {allowed} "
                         f"(k, the whole ring, or a power of two that divides k)")
    return int(subring)


@functools.lru_cache(maxsize=None)
def ring(k: int) -> Ring:
    """The + routes of a k-node ring under minimal routing (read-only arrays, cached)."""
    k = check_ring(k)
    s, d = np.meshgrid(np.arange(k), np.arange(k), indexing="ij")
    s, d = s.ravel(), d.ravel()
    length = (d - s) % k
    plus = (length > 0) & ((2 * length < k) | ((2 * length == k) & (s % 2 == 0)))
    s, d, length = s[plus], d[plus], length[plus]
    hop = np.arange(k)
    uses = (hop[None, :] - s[:, None]) % k < length[:, None]
    # Hops past node 0: a route wraps when s + length > k; its links 0 .. d-1 follow node 0.
    wraps = s + length > k
    after = wraps[:, None] & (hop[None, :] < d[:, None]) & uses
    constrained = wraps.copy()  # routes ending at node 0 have s + length == k: not counted
    for a in (s, d, length, uses, after, constrained):
        a.flags.writeable = False
    return Ring(k, s, d, length, uses, after, constrained)


def route_vcs(k: int, table) -> np.ndarray:
    """[route] starting VC (0/1) of every + route of ring(k) under ``table``: a scheme name
    or an explicit (k, 8) or (k, k) array of SELECT bits."""
    r = ring(k)
    if isinstance(table, str):
        if table not in SCHEMES:
            raise ValueError(f"table = {table!r}: allowed {', '.join(SCHEMES)}, or an array of "
                             f"SELECT bits of shape ({k}, 8) or ({k}, {k})")
        if table == "time_of_crossing":
            return np.zeros(len(r.src), dtype=np.int8)
        bits = shipped_table(k, table)
    else:
        bits = table
    bits = check_table(k, bits)
    return bits[r.src, r.entry(bits.shape[1] == k)].astype(np.int8)


def check_table(k: int, table) -> np.ndarray:
    """An explicit table as a 0/1 int8 array, checked: shape, values, no VC1 route through
    the dateline node (the hardware would stop the packet)."""
    try:
        bits = np.asarray(table)
    except Exception as e:  # ragged lists and the like
        raise ValueError(f"table = {table!r}: allowed a scheme name or an array of SELECT "
                         f"bits of shape ({k}, 8) or ({k}, {k})") from e
    if bits.shape not in ((k, SELECT_BITS), (k, k)):
        raise ValueError(f"table of shape {bits.shape}: allowed ({k}, 8) (R_VCSEL SELECT bits "
                         f"[source, destination mod 8]) or ({k}, {k}) (full tables "
                         f"[source, destination]) for a ring of k = {k}")
    if bits.dtype == object or not np.all((bits == 0) | (bits == 1)):
        bad = sorted({repr(v) for v in bits.ravel().tolist() if v not in (0, 1)})[:5]
        raise ValueError(f"table values {', '.join(bad)}: allowed SELECT bits 0 (VC0) and "
                         f"1 (VC1)")
    bits = bits.astype(np.int8)
    r = ring(k)
    start = bits[r.src, r.entry(bits.shape[1] == k)]
    bad = np.flatnonzero(r.constrained & (start == 1))
    if len(bad):
        i = bad[0]
        raise ValueError(f"table puts {len(bad)} route(s) that travel through the dateline "
                         f"node 0 on VC1, e.g. source {r.src[i]} -> destination {r.dst[i]}: "
                         f"allowed only VC0 (SELECT bit 0) for them")
    return bits


def link_diff(k: int, vcs: np.ndarray, member: np.ndarray) -> np.ndarray:
    """[link] VC0 routes minus VC1 routes, over the routes in ``member``."""
    r = ring(k)
    on_vc1 = (vcs[:, None] == 1) | r.after  # a VC0 packet is on VC1 past the dateline node
    sign = np.where(on_vc1, -1, 1) * r.uses
    return sign[member].sum(axis=0)


def link_balance(k: int, subring: int, table="time_of_crossing") -> np.ndarray:
    """[link] VC balance of every link j -> j+1 of a k-node ring (see ``vc_balance``)."""
    k = check_ring(k)
    subring = check_subring(k, subring)
    r = ring(k)
    member = r.member(subring)
    busiest = r.uses[member].sum(axis=0).max()
    return np.abs(link_diff(k, route_vcs(k, table), member)) / busiest


def vc_balance(k: int, subring: int, table="time_of_crossing") -> tuple[float, float]:
    """(average, maximum) VC balance of a k-node ring (one direction, +) under all-to-all
    traffic inside each aligned subring of ``subring`` nodes (k: the whole ring).

    ``table``: "time_of_crossing" (every route starts on VC0), "optimized" (the shipped 8-entry
    R_VCSEL SELECT tables), "full" (the shipped tables with one bit per source/destination
    pair), or an explicit array of SELECT bits: shape (k, 8) indexed [source, destination
    mod 8], or (k, k) indexed [source, destination]; bits of - routes are not used.
    """
    b = link_balance(k, subring, table)
    return float(b.mean()), float(b.max())


# -- the shipped optimised tables ------------------------------------------------------------

@functools.lru_cache(maxsize=1)
def _tables_json() -> dict:
    with open(TABLES_JSON) as f:
        return json.load(f)


def shipped_table(k: int, scheme: str) -> np.ndarray:
    """The shipped annealed table of ``scheme`` ("optimized": (k, 8), "full": (k, k)) as 0/1
    bits. The JSON holds one hexadecimal word per source: its SELECT bits, bit e for entry e,
    as R_VCSEL<7:0> holds them (bit d for destination d in full tables)."""
    entry = _tables_json()["tables"].get(str(k))
    if entry is None:
        raise ValueError(f"k = {k}: no shipped {scheme} table for this ring size; allowed "
                         f"{', '.join(_tables_json()['tables'])} (scripts/t3e_vc_tables.py "
                         f"makes them)")
    return unpack_table(entry[scheme], SELECT_BITS if scheme == "optimized" else k)


def pack_table(bits: np.ndarray) -> list[str]:
    """One hexadecimal word per source, bit e = column e (the inverse of unpack_table)."""
    return [hex(sum(int(b) << e for e, b in enumerate(row))) for row in bits]


def unpack_table(words: list[str], width: int) -> np.ndarray:
    return np.array([[(int(w, 16) >> e) & 1 for e in range(width)] for w in words],
                    dtype=np.int8)


# -- Table 1 -----------------------------------------------------------------------------

def printed_table1() -> pd.DataFrame:
    """The paper's Table 1 as printed: ring, subring, toc/opt/full _avg/_max."""
    return pd.read_csv(PRINTED_CSV)


def table1() -> pd.DataFrame:
    """Table 1 of the T3E paper, computed, beside the printed values: one row per (ring,
    subring), columns ``<scheme>_avg``, ``paper_<scheme>_avg``, ``<scheme>_max``,
    ``paper_<scheme>_max`` for scheme toc (time of crossing), opt (the shipped 8-entry
    R_VCSEL tables) and full (the shipped full tables)."""
    paper = printed_table1()
    rows = []
    for ring_size, subring in zip(paper["ring"], paper["subring"]):
        row: dict[str, float] = {"ring": int(ring_size), "subring": int(subring)}
        for scheme, short in COLUMNS.items():
            avg, top = vc_balance(int(ring_size), int(subring), scheme)
            row[f"{short}_avg"], row[f"{short}_max"] = avg, top
        rows.append(row)
    out = pd.DataFrame(rows)
    columns = ["ring", "subring"]
    for short in COLUMNS.values():
        for stat in ("avg", "max"):
            out[f"paper_{short}_{stat}"] = paper[f"{short}_{stat}"].to_numpy()
            columns += [f"{short}_{stat}", f"paper_{short}_{stat}"]
    return out[columns]
