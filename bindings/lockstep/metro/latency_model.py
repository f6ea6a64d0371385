"""Unloaded delivery time t_20,32 of METRO networks (Chong et al., "METRO: A Router
Architecture for High-Performance, Short-Haul Routing Networks", section 6; Table 4 "Latency
Equations for METRO" and Table 3 "METRO Implementation Examples").

Table 4, times in ns:

    vtd       = ceil((t_io + t_wire) / t_clk)       interconnect delay in clock cycles
    t_on_chip = t_clk * dps                         time data traverses the chip
    t_stg     = t_on_chip + vtd * t_clk             chip-to-chip latency in the network
    hbits     = hw * w * c * stages                 hw > 0: the header words every router eats
              = ceil(sum_i log2(r_i) / w) * w * c   hw = 0: the route bits, in whole words
    t_20,32   = stages * t_stg + (20 * 8 + hbits) * t_bit

t_wire = 3 ns; t_bit = t_clk / (w * c), as Table 3 prints it ("25 ns/8 b"): each of c
width-cascaded routers moves a w-bit word per clock. t_20,32 delivers a 20-byte (5-word)
message across a 32-node network: the head crosses every stage, then the header and the
message stream out behind it.

Table 3's rows give t_clk, t_io and stages; the rest comes from the row labels (see
``row_parameters`` and README.md). Every printed t_stg, t_bit and t_20,32 comes out exactly.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from ..config import Config

T_WIRE = 3.0  # ns, Table 4's assumed wire delay
MESSAGE_BITS = 20 * 8  # a 5-word, 20-byte message (a 4-word cache line and its checksum)
NODES = 32
# The paper's printed Table 3, copied by hand (see README.md beside it).
PRINTED_CSV = Path(__file__).with_name("table3_paper.csv")


@dataclass(frozen=True)
class Latency:
    """Table 4's terms for one network, in ns (vtd in clocks, hbits in bits)."""

    vtd: int
    t_on_chip: float
    t_stg: float
    hbits: int
    t_bit: float
    t_20_32: float

    def __float__(self) -> float:
        return float(self.t_20_32)


# -- input checks ------------------------------------------------------------------------------

def _is_int(value) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def _time(name: str, value) -> float:
    if not (_is_int(value) or isinstance(value, (float, np.floating))) \
            or not math.isfinite(value) or value <= 0:
        raise ValueError(f"{name} = {value!r}: allowed a positive, finite time in ns")
    return float(value)


def _count(name: str, value, least: int) -> int:
    if not _is_int(value) or value < least:
        raise ValueError(f"{name} = {value!r}: allowed an integer >= {least}")
    return int(value)


def _power_of_two(name: str, value, least: int) -> int:
    if not _is_int(value) or value < least or value & (value - 1):
        raise ValueError(f"{name} = {value!r}: allowed a power of two >= {least}")
    return int(value)


def _radix(radix, stages: int) -> list[int]:
    if _is_int(radix):
        return [_power_of_two("radix", radix, 2)] * stages
    try:
        per_stage = list(radix)
    except TypeError:
        raise ValueError(f"radix = {radix!r}: allowed a power of two >= 2, or a list of one "
                         f"per stage") from None
    if len(per_stage) != stages:
        raise ValueError(f"radix = {radix!r}: {len(per_stage)} entries for stages = {stages}; "
                         f"allowed one radix per stage, or a single int for all")
    return [_power_of_two(f"radix[{k}]", r, 2) for k, r in enumerate(per_stage)]


# -- Table 4 -----------------------------------------------------------------------------------

def t20_32(t_clk, t_io, w, stages, radix, c=1, hw=0, dps=1, t_wire=T_WIRE) -> Latency:
    """Table 4's delivery time of a 20-byte message across a 32-node METRO network, in ns.

    ``t_clk``: clock period; ``t_io``: pad delay; ``w``: data width of one router;
    ``stages``: routers on the path; ``radix``: the radix r of every stage (an int) or one per
    stage (a list: only hw = 0 uses it); ``c``: routers width-cascaded into one; ``hw``:
    header words each router consumes; ``dps``: data pipeline stages inside a router (dp);
    ``t_wire``: wire delay. Returns a ``Latency`` (``float()`` of it is t_20,32).
    """
    t_clk, t_io, t_wire = _time("t_clk", t_clk), _time("t_io", t_io), _time("t_wire", t_wire)
    w = _power_of_two("w", w, 1)
    stages = _count("stages", stages, 1)
    r = _radix(radix, stages)
    c, hw, dps = _count("c", c, 1), _count("hw", hw, 0), _count("dps", dps, 1)

    # A delay that is a whole number of clocks up to float rounding fills exactly that many.
    vtd = math.ceil(round((t_io + t_wire) / t_clk, 9))
    t_on_chip = t_clk * dps
    t_stg = t_on_chip + vtd * t_clk
    if hw > 0:
        hbits = hw * w * c * stages  # every router strips hw words from the head
    else:
        route_bits = sum(k.bit_length() - 1 for k in r)  # log2 r_i per stage
        hbits = -(-route_bits // w) * w * c  # padded to whole words on all c routers
    t_bit = t_clk / (w * c)
    # Multiply before dividing: integer-ns inputs then give the printed integers exactly.
    t_total = stages * t_stg + (MESSAGE_BITS + hbits) * t_clk / (w * c)
    return Latency(vtd, t_on_chip, t_stg, hbits, t_bit, t_total)


# -- Table 3: parameters from the row labels ---------------------------------------------------

# Section 6.1: "METROJR is a minimal implementation of the METRO architecture with
# i = o = w = 4, hw = 0, dp = 1, and max_d = 2"; METROJR-ORBIT is its gate array. A "METRO"
# row names its own i, o and w; its hw and dp are the architecture's minimal 0 and 1 unless
# named (the printed t_stg = (dp + vtd) * t_clk confirms dp = 1).
INSTANCES = {
    "METROJR-ORBIT": {"i": 4, "o": 4, "w": 4, "c": 1, "hw": 0, "dp": 1},
    "METROJR": {"i": 4, "o": 4, "w": 4, "c": 1, "hw": 0, "dp": 1},
    "METRO": {"c": 1, "hw": 0, "dp": 1},
}
SETTINGS = ("i", "o", "w", "hw", "dp")


def read_label(label: str) -> tuple[str | None, dict]:
    """(instance name or None, settings) of a Table 3 label: "METRO i = o = 8 hw = 2 w = 4"
    gives ("METRO", {i: 8, o: 8, hw: 2, w: 4}); "2-cascade" gives (None, {c: 2})."""
    rest = label.strip()
    m = re.match(r"(METROJR-ORBIT|METROJR|METRO)(?=\s|$)", rest)
    name = m[1] if m else None
    rest = rest[m.end():] if m else rest
    settings = {}
    while rest := rest.strip():
        if m := re.match(r"(\d+)-cascade\b", rest):
            settings["c"] = int(m[1])
        elif (m := re.match(r"((?:[a-z]+\s*=\s*)+)(\d+)\b", rest)) \
                and set(keys := re.findall(r"[a-z]+", m[1])) <= set(SETTINGS):
            settings.update(dict.fromkeys(keys, int(m[2])))
        else:
            raise ValueError(f"Table 3 label {label!r}: cannot read {rest!r}; allowed an "
                             f"instance ({', '.join(INSTANCES)}), 'n-cascade' and settings "
                             f"'x = n' of {', '.join(SETTINGS)}")
        rest = rest[m.end():]
    return name, settings


def figure1_radix(o: int, stages: int) -> list[int]:
    """Radix per stage of a 32-node network "constructed like the one shown in Figure 1":
    dilation-2 routers (r = o / 2) in every stage but the last, dilation-1 (r = o) in the last.
    Their product must be 32: this is what fixes the printed stages column (4 for i = o = 4,
    2 for i = o = 8)."""
    radix = [o // 2] * (stages - 1) + [o]
    if math.prod(radix) != NODES:
        raise ValueError(f"stages = {stages} of o = {o} routers reach {math.prod(radix)} "
                         f"endpoints; allowed: a network of {NODES}")
    return radix


def row_parameters(labels, stages) -> list[dict]:
    """Parameters (i, o, w, c, hw, dps, radix) of each row of Table 3 from its label and
    stages. A label starting with an instance name is a new instance; one without ("2-cascade",
    "w = 8") is a variant of the nearest instance row above it, with its settings changed."""
    rows, base = [], None
    for label, n in zip(labels, stages):
        name, settings = read_label(label)
        if name is not None:
            base = {**INSTANCES[name], **settings}
            row = dict(base)
        elif base is None:
            raise ValueError(f"Table 3 label {label!r}: a variant with no instance row above it")
        else:
            row = {**base, **settings}
        missing = [k for k in ("i", "o", "w") if k not in row]
        if missing:
            raise ValueError(f"Table 3 label {label!r}: names no {', '.join(missing)}")
        row["dps"] = row.pop("dp")  # Table 1's dp is Table 4's dps
        row["stages"] = int(n)
        row["radix"] = tuple(figure1_radix(row["o"], int(n)))
        rows.append(row)
    return rows


def printed_table3() -> pd.DataFrame:
    """The paper's Table 3 as printed: instance, technology, t_clk, t_io, t_stg, t_bit as
    t_bit_ns per t_bit_b bits, stages, t_20_32 (ns)."""
    return pd.read_csv(PRINTED_CSV)


def table3() -> pd.DataFrame:
    """Table 3 of the METRO paper: every row's derived parameters and Table 4's t_stg, t_bit
    and t_20,32 beside the printed ones (``paper_*``)."""
    paper = printed_table3()
    params = row_parameters(paper["instance"], paper["stages"])
    rows = []
    for p, row in zip(params, paper.itertuples()):
        lat = t20_32(row.t_clk, row.t_io, p["w"], p["stages"], list(p["radix"]), c=p["c"],
                     hw=p["hw"], dps=p["dps"])
        rows.append({
            "instance": row.instance, "technology": row.technology, "t_clk": row.t_clk,
            "t_io": row.t_io, "i": p["i"], "o": p["o"], "w": p["w"], "c": p["c"],
            "hw": p["hw"], "dps": p["dps"], "stages": p["stages"], "radix": p["radix"],
            "vtd": lat.vtd, "hbits": lat.hbits,
            "t_stg": lat.t_stg, "paper_t_stg": row.t_stg,
            "t_bit": lat.t_bit, "paper_t_bit": row.t_bit_ns / row.t_bit_b,
            "t_20_32": lat.t_20_32, "paper_t_20_32": row.t_20_32,
        })
    return pd.DataFrame(rows)


def row_config(row) -> Config:
    """A Table 3 row (of `table3()`) as the emulator's configuration: its 32-node network
    (Figure 1's construction: dilation 2 but in the last stage) and timing, unloaded; a message
    is 20 bytes in words of w x c bits, behind the route's header words (Table 4's count)."""
    dilation = [2] * (len(row.radix) - 1) + [1]
    return Config({
        "topology": {"kind": "multibutterfly", "radix": list(row.radix), "dilation": dilation,
                     "endpoint_ports": 2},
        "router": {"family": "metro"},
        "metro": {"hw": int(row.hw), "dp": int(row.dps), "vtd": int(row.vtd),
                  "width": int(row.w)},
        "traffic": {"packet_size": int(MESSAGE_BITS // (row.w * row.c)), "offered": 0.002},
        "run": {"warmup": 0, "measure": 8000},
    })
