"""Routing tables for any topology, from the engine (host/routing/).

``table(cfg)`` builds the table the engine's table-routed families use: for each router and
destination node, the network ports a message may leave on (a bit mask, bit p for port p) and
the virtual channel (0 or 1) it leaves on, complete and free of deadlock by resource ordering
(S-Connect, seed 004 section 2.4). ``check(cfg, port_mask, vc)`` lists what is wrong with any
table, one of your own included::

    t = ls.routing.table({"topology": {"kind": "hypercube", "dimension": 6, "max_ports": 6}})
    t.stats["minimal"]                        # 1.0: every route a shortest path
    ls.routing.check(None, t.port_mask, t.vc, kind="hypercube", dimension=6, max_ports=6)  # []

Only the topology's rules apply, not a router family's, so a configuration may name a graph
kind that no family runs yet (a plain dict; a `Config` holds only what a family runs).
"""

from __future__ import annotations

import copy
import os
import tomllib
from dataclasses import dataclass
from typing import Any, Mapping

import numpy as np

from . import _core
from .config import Config, plain_value, resolve_key


@dataclass(frozen=True)
class RoutingTable:
    """A table and what it is built on; arrays are [routers, nodes] unless said."""

    port_mask: np.ndarray  # uint32: bit p set: the message may leave on network port p
    vc: np.ndarray  # uint8: the VC it leaves the router on
    dist: np.ndarray  # uint16: hops to the destination's router
    peer: np.ndarray  # int32 [routers, ports]: router * ports + port at the far end, -1 none
    node_router: np.ndarray  # int32 [nodes]: the router each node's host is attached to
    stats: _core.RoutingStats  # minimal, stretch, options, minimal_options, root


def _config_dict(cfg: Config | Mapping[str, Any] | str | os.PathLike | None,
                 overrides: Mapping[str, Any]) -> dict:
    """A nested config dict from a Config, a dict, a TOML path or None, with overrides."""
    if isinstance(cfg, Config):
        data = cfg.to_dict()
    elif isinstance(cfg, (str, os.PathLike)):
        with open(cfg, "rb") as f:
            data = tomllib.load(f)
    else:
        data = copy.deepcopy(dict(cfg or {}))
    for name, value in overrides.items():
        key = resolve_key(name)
        section, short = key.split(".")
        data.setdefault(section, {})[short] = plain_value(key, value)
    return data


def table(cfg: Config | Mapping[str, Any] | str | os.PathLike | None = None,
          roots: int = 16, **overrides: Any) -> RoutingTable:
    """The engine's routing table for the topology of ``cfg`` (keys as in `Config.with_`)."""
    return RoutingTable(**_core.routing_table(_config_dict(cfg, overrides), roots))


def check(cfg: Config | Mapping[str, Any] | str | os.PathLike | None, port_mask: Any, vc: Any,
          **overrides: Any) -> list[str]:
    """Problems of a [routers, nodes] table for the topology of ``cfg``; empty when it is
    complete (every route arrives) and free of deadlock (no cycle of buffer classes)."""
    return _core.check_routing_table(_config_dict(cfg, overrides), np.asarray(port_mask),
                                     np.asarray(vc))
