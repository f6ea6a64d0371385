"""Router families known to the views, by `router.family` name.

The network view, the controls and the export know nothing of a router's insides: each family
registers what its views read and how to draw one of its routers, and they ask for that. A new
family (T3E, S-Connect, BG/L, METRO) registers its own entry; nothing else changes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

import numpy as np

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from ..config import Config
    from .history import Cycle

State = dict[str, np.ndarray]  # one instance's named state arrays, by name


@dataclass(frozen=True)
class RouterFamily:
    """What the views need of one router family.

    - state_names: the named state arrays (`Simulator.state`) its views read each cycle; a
      `History` records these. The topology tables `peer` and `port_node` ([router, port])
      are read once and need not be listed.
    - optional_state_names: arrays it reads too where the configuration has them (a key's own
      state, absent without the key: Blue Gene/L's `receiver_blocked`).
    - draw_router(ax, cycle, router): draws router `router` as hardware during `cycle` (a
      `Cycle`: the state before and after it) on `ax`.
    - buffered(state) -> [routers]: flits held in each router, for the network view's colours.
    - link_use(cycle) -> [routers, ports]: 1 where an output port sent a flit during `cycle` (a
      `Cycle`: the state before and after it), for the links' colours.
    - figsize(config, ports) -> (width, height): inches for one router's drawing.
    - unit: what its links carry ("flit"; S-Connect: "message"; METRO: "word").
    - held_unit: what its routers hold, if not `unit` (METRO: "connection").
    - held_max(config): the end of the colour scale of what a router holds (the network view's
      default; the vc family: 16 flits).
    - trace_hint: what `trace` (which follows the vc family's packets) points to instead for
      this family, if anything (METRO: its own tracers).
    """

    name: str
    state_names: tuple[str, ...]
    draw_router: Callable[["Axes", "Cycle", int], None]
    buffered: Callable[[State], np.ndarray]
    link_use: Callable[["Cycle"], np.ndarray]
    figsize: Callable[["Config", int], tuple[float, float]]
    unit: str = "flit"
    held_max: Callable[["Config"], int] = lambda config: 16
    held_unit: str | None = None
    trace_hint: str | None = None
    optional_state_names: tuple[str, ...] = ()

    @property
    def held(self) -> str:
        return self.held_unit or self.unit


_FAMILIES: dict[str, RouterFamily] = {}


def register(family: RouterFamily) -> RouterFamily:
    """Makes `family` the drawing of routers whose `router.family` is `family.name`."""
    _FAMILIES[family.name] = family
    return family


def family(name: str) -> RouterFamily:
    """The registered family called `name`."""
    try:
        return _FAMILIES[name]
    except KeyError:
        known = ", ".join(sorted(_FAMILIES)) or "none"
        raise ValueError(f"router.family {name!r}: no router drawing registered; "
                         f"registered: {known}") from None


def families() -> list[str]:
    """Names of the registered families."""
    return sorted(_FAMILIES)
