"""Running networks: one-shot `simulate` and the cycle-by-cycle `Simulator`."""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from . import _core
from .config import Config, ConfigLike, as_config


class Result:
    """Statistics of one simulated instance (one network of a batch).

    Every field of the core's result dict is an attribute: ``r.accepted``,
    ``r.latency_mean``, ``r.saturated``, ``r.link_utilization`` (array [routers, ports]) ...
    """

    def __init__(self, fields: dict[str, Any], config: Config | None = None):
        self._fields = fields
        self.config = config

    def __getattr__(self, name: str) -> Any:
        try:
            return self.__dict__["_fields"][name]
        except KeyError:
            raise AttributeError(f"Result has no field '{name}'") from None

    def __dir__(self):
        return [*super().__dir__(), *self._fields]

    def to_dict(self, arrays: bool = True) -> dict[str, Any]:
        """The fields as a dict; arrays as numpy arrays, or left out with ``arrays=False``."""
        return {
            k: v for k, v in self._fields.items() if arrays or not isinstance(v, np.ndarray)
        }

    def __repr__(self) -> str:
        scalars = ", ".join(f"{k}={v!r}" for k, v in self.to_dict(arrays=False).items())
        return f"Result({scalars})"


def simulate(cfg: ConfigLike | None = None, **overrides: Any) -> Result:
    """Simulate one network (warm-up, measurement, drain) and return its statistics.

    ``overrides`` are config keys as in `Config.with_`: ``simulate(cfg, offered=0.3)``.
    """
    config = as_config(cfg).with_(**overrides)
    (fields,) = _core.run_batch([config.to_dict()])
    return Result(fields, config)


def cuda_available() -> bool:
    """Whether the core was built with CUDA and a device is present."""
    return _core.cuda_available()


def available_backends() -> list[str]:
    """Backends that can run here: always "cpu", plus "cuda" when available."""
    return ["cpu", "cuda"] if cuda_available() else ["cpu"]


class Simulator:
    """A batch of networks advanced cycle by cycle, for inspecting router state.

    ``cfg`` is one configuration or a list of them (one instance each; they may differ
    only in per-instance keys, traffic.* and run.seed). When the batch holds one
    instance, state arrays drop the leading instance dimension and `run` returns one
    `Result`; otherwise arrays are [instance, ...] and `run` returns a list.
    """

    def __init__(
        self,
        cfg: ConfigLike | list[ConfigLike] | tuple[ConfigLike, ...] | None = None,
        backend: str | None = None,
        threads: int | None = None,
    ):
        items = cfg if isinstance(cfg, (list, tuple)) else [cfg]
        self.configs = [as_config(c) for c in items]
        if threads is not None and not (isinstance(threads, numbers.Integral) and threads >= 0):
            raise ValueError(f"threads = {threads!r}: allowed None (run.threads) or an integer "
                             ">= 0 (0: every core)")
        self._sim = _core.Simulator(
            [c.to_dict() for c in self.configs],
            backend or "",
            -1 if threads is None else int(threads),
        )

    def step(self, n: int = 1) -> "Simulator":
        """Advance every instance by ``n`` cycles; returns self for chaining.

        Raises `SimulationError` naming the stuck VCs when the deadlock watchdog fires: flits
        in flight and none has moved for ``run.watchdog`` cycles (0 turns it off). The state
        stays readable after the error.
        """
        if not isinstance(n, numbers.Integral) or n < 0:
            raise ValueError(f"step(n = {n!r}): allowed an integer >= 0 (cycles)")
        self._sim.step(int(n))
        return self

    @property
    def cycle(self) -> int:
        return self._sim.cycle

    @property
    def backend(self) -> str:
        """The backend actually running ("cpu" or "cuda"), "auto" resolved."""
        return self._sim.backend

    @property
    def schedule(self) -> str:
        """How the backend runs the cycles, run.schedule's and run.lanes' ``auto`` resolved:
        "stages" (the CPU's own), "launch", "block" or "grid" (with ", tile" where an element
        runs on a tile of lanes, ", roles" with run.roles), "debug" (a step a cycle, checked
        after each) or "phases" (vc, run.fuse_phases off)."""
        return self._sim.schedule

    @property
    def state_bytes(self) -> int:
        """Bytes of state allocated on the backend (on a GPU, device memory), every array."""
        return self._sim.state_bytes

    @property
    def instances(self) -> int:
        return self._sim.instances

    def state_names(self) -> list[str]:
        return self._sim.state_names()

    def state(self, name: str) -> np.ndarray:
        """A copy of one state array (see `state_names`)."""
        array = self._sim.state(name)
        return array[0] if self.instances == 1 else array

    def set_state(self, name: str, array: np.ndarray) -> "Simulator":
        """Overwrite one state array, shaped as `state(name)` returns it (to stage a scenario).

        Only the arrays software writes on the machine (the T3E's registers, S-Connect's tables,
        METRO's scan-path bits), those a fault is staged with (credits) and the sources' counts
        and queues (packets_created, packets_started, source_queue) are writable, each value
        within its range; the rest is refused with a ValueError naming
        the writable arrays (docs/architecture.md)."""
        array = np.asarray(array)
        self._sim.set_state(name, array[None] if self.instances == 1 else array)
        return self

    def _view(self, name: str, prop: str) -> np.ndarray:
        """State array ``name`` for the shortcut property ``prop``; an AttributeError (so
        hasattr says False) naming both where this router family has no such array."""
        if name not in self.state_names():
            family = self.configs[0].get("router.family")
            raise AttributeError(
                f"Simulator.{prop} reads state array \"{name}\", which router.family = "
                f"\"{family}\" does not have: see state_names() for its arrays")
        return self.state(name)

    @property
    def occupancy(self) -> np.ndarray:
        """Flits buffered per input VC: [routers, ports, vcs]."""
        return self._view("occupancy", "occupancy")

    @property
    def credits(self) -> np.ndarray:
        """Credits held per output VC (free slots downstream): [routers, ports, vcs]."""
        return self._view("credits", "credits")

    @property
    def vc_owner(self) -> np.ndarray:
        """Input VC (port * vcs + vc) holding each output VC, -1 if free: [routers, ports, vcs]."""
        return self._view("vc_owner", "vc_owner")

    @property
    def grants(self) -> np.ndarray:
        """Input port granted to each output port last cycle, -1 none: [routers, ports]."""
        return self._view("sa_grant", "grants")

    def run(self) -> Result | list[Result]:
        """Warm-up, measurement window and drain, starting from the current cycle and state.

        Without earlier `step` calls this gives what `simulate` gives for the same configs.
        """
        results = [Result(f, c) for f, c in zip(self._sim.run(), self.configs)]
        return results[0] if self.instances == 1 else results
