"""The networks `lockstep bench` times: each family's (its bench.py's NETWORKS), in the
families' order, as (name, configuration keys, instances)."""

from __future__ import annotations

from typing import Any

from .families import parts

Network = tuple[str, dict[str, Any], int]


def networks() -> list[Network]:
    """Every family's networks, the families in their order."""
    return [n for bench in parts("bench").values() for n in bench.NETWORKS]


def network_keys(kind: str, radix: list[int], offered: float, **keys: Any) -> dict[str, Any]:
    """The keys of a network of `kind` under uniform traffic of 1-flit packets, with `keys`
    added; torus links take 2 cycles, mesh links 1, as in the BookSim reference measurements."""
    return {"kind": kind, "radix": radix, "offered": offered, "packet_size": 1,
            "pattern": "uniform", "link_delay": 2 if kind == "torus" else 1, **keys}
