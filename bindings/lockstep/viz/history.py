"""The state of a Simulator cycle after cycle, recorded as it steps, so views can go back.

A view of cycle t needs the state as cycle t began (the buffers, the VC states, the credits
that competed) and as it ended (the grants, what moved): a `Cycle` holds both. `History`
steps its Simulator forward as far as a view asks and keeps every state it saw.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..config import Config
from ..simulate import Simulator
from .registry import RouterFamily, State, family

TOPOLOGY = ("peer", "port_node")


@dataclass(frozen=True)
class Cycle:
    """Cycle `t` of one network: the state as it began (`before`) and ended (`after`)."""

    t: int
    before: State
    after: State
    config: Config
    peer: np.ndarray  # [router, port]: router * ports + port at the far end of a link, -1 none
    port_node: np.ndarray  # [router, port]: the terminal's node on a terminal port, -1 none


class History:
    """Records `sim` (one instance of it: `instance`) from its current cycle on.

    `cycle(t)` steps the Simulator until cycle t has run, if it has not yet, and returns it;
    earlier cycles come from the record. Stepping the Simulator behind the History's back is
    an error (the record would have a gap).
    """

    def __init__(self, sim: Simulator, instance: int = 0):
        if not 0 <= instance < sim.instances:
            raise ValueError(f"instance {instance}: allowed 0 to {sim.instances - 1}")
        self.sim = sim
        self.instance = instance
        self.config = sim.configs[instance if len(sim.configs) > 1 else 0]
        self.family: RouterFamily = family(self.config.get("router.family"))
        present = set(sim.state_names())  # the arrays each cycle's snapshot reads, found once
        self._names = self.family.state_names + tuple(
            n for n in self.family.optional_state_names if n in present)
        self.first = sim.cycle  # the first cycle recorded: its `before` is the state now
        self.peer, self.port_node = (self._read(n) for n in TOPOLOGY)
        self._states: list[State] = [self._snapshot()]

    def _read(self, name: str) -> np.ndarray:
        a = self.sim.state(name)
        return a[self.instance] if self.sim.instances > 1 else a

    def _snapshot(self) -> State:
        return {n: self._read(n) for n in self._names}

    @property
    def last(self) -> int:
        """The last cycle recorded (first - 1 when none has run yet)."""
        return self.first + len(self._states) - 2

    def cycle(self, t: int) -> Cycle:
        """Cycle t, stepping the Simulator forward to it if needed."""
        if t < self.first:
            raise ValueError(f"cycle {t}: allowed {self.first} (where the recording began) "
                             "or later")
        while self.last < t:
            if self.sim.cycle != self.last + 1:
                raise RuntimeError(f"the Simulator is at cycle {self.sim.cycle}, the History "
                                   f"at {self.last + 1}: step it through the History only")
            self.sim.step()
            self._states.append(self._snapshot())
        k = t - self.first
        return Cycle(t, self._states[k], self._states[k + 1], self.config, self.peer,
                     self.port_node)

    def link_use(self, t: int, window: int) -> np.ndarray:
        """Flits (S-Connect: messages) per cycle sent by each output port over cycles
        t-window+1 .. t (those recorded): [routers, ports]."""
        ts = range(max(self.first, t - window + 1), t + 1)
        return np.mean([self.family.link_use(self.cycle(u)) for u in ts], axis=0)


def as_history(source: Simulator | History, instance: int = 0) -> History:
    """`source` itself if it is a History, else a new History of the Simulator."""
    return source if isinstance(source, History) else History(source, instance)
