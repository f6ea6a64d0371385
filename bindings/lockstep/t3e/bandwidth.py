"""Table 4 of the paper (section 11) measured in the emulator: the payload bandwidth a link
sustains for each traffic type, one-way and symmetrical, as a fraction of the link's 600 MB/s.

Two PEs on a ring of two (a 2x1x1 torus) send each other requests of one type as fast as they
can, every request answered by its response; both go over the same link, one per direction
(direction-order routing sends the even PE's packets + and the odd one's -, the tie rule of
the default tables). One-way: only PE 0 sends (``traffic.sender_every = 2``), so one direction
of the link carries the requests and the other the responses; symmetrical: both send, so each
direction carries requests and responses. The payload is the words the data packets carry (a
Get's response, a Put's request: 1 or 8 words of 64 bits, one flit's worth each); a flit per
clock is the peak 600 MB/s.
"""

from __future__ import annotations

import pandas as pd

from ..simulate import simulate
from .figures import LINK_MB_S
WORDS = {"single_word_get": 1, "vector_get": 8, "single_word_put": 1, "vector_put": 8}
FLITS = {  # Table 3: request, response
    "single_word_get": (2, 2),
    "vector_get": (2, 10),
    "single_word_put": (4, 2),
    "vector_put": (10, 2),
}
PAPER = {  # Table 4: MB/s, one-way and symmetrical
    "single_word_get": (300, 150),
    "vector_get": (480, 400),
    "single_word_put": (150, 100),
    "vector_put": (480, 400),
}
NAMES = {"single_word_get": "Single-word Gets", "vector_get": "Vector Gets",
         "single_word_put": "Single word Puts", "vector_put": "Vector Puts"}


def payload_bandwidth(packet_type: str, one_way: bool, measure: int = 4000,
                      seed: int = 1) -> float:
    """Measured payload MB/s of one direction of the link carrying data."""
    request, response = FLITS[packet_type]
    result = simulate({
        "router": {"family": "t3e"},
        "topology": {"kind": "torus", "radix": [2, 1, 1]},
        "traffic": {"pattern": "neighbor", "offered": float(request + response),
                    "sender_every": 2 if one_way else 1},
        "t3e": {"packet_type": packet_type},
        "run": {"warmup": 1000, "measure": measure, "drain": 0, "seed": seed},
    })
    flits = result.accepted * 2  # flits delivered per clock, both PEs
    transactions = flits / (request + response)  # requests answered per clock
    directions = 1 if one_way else 2  # link directions carrying payload
    return transactions * WORDS[packet_type] / directions * LINK_MB_S


def table4(measure: int = 4000, seed: int = 1) -> pd.DataFrame:
    """Table 4 measured, beside the paper's values (MB/s and fraction of the link)."""
    rows = []
    for kind, (one_paper, sym_paper) in PAPER.items():
        one = payload_bandwidth(kind, True, measure, seed)
        sym = payload_bandwidth(kind, False, measure, seed)
        rows.append({"traffic type": NAMES[kind],
                     "one-way MB/s": one, "one-way paper": one_paper,
                     "one-way efficiency": one / LINK_MB_S,
                     "symmetrical MB/s": sym, "symmetrical paper": sym_paper,
                     "symmetrical efficiency": sym / LINK_MB_S})
    return pd.DataFrame(rows).set_index("traffic type")
