"""Type stub of the compiled core (pybind11). Configs are nested dicts by section:
{"topology": {...}, "router": {...}, "traffic": {...}, "run": {...}}; bad keys or values
raise ValueError naming the key, the value and what is allowed."""

from typing import Any, Literal, TypedDict

import numpy as np
import numpy.typing as npt

ConfigDict = dict[str, dict[str, Any]]

class SchemaEntry(TypedDict):
    key: str  # "section.name"
    section: str
    name: str
    type: Literal["str", "int", "float", "bool", "int_list", "float_list"]
    default: Any
    allowed: str
    doc: str
    per_instance: bool  # may differ between the instances of one batch

class BenchResult(TypedDict):
    router_cycles_per_s: float
    cycles: int
    routers: int
    wall_s: float
    peak_rss_mb: float
    backend: str

def schema() -> list[SchemaEntry]: ...
def defaults() -> ConfigDict: ...
def validate(cfg: ConfigDict) -> ConfigDict: ...
def cuda_available() -> bool: ...

class SimulationError(RuntimeError):
    """A run stopped: an invariant broken in debug mode, or the deadlock watchdog fired."""

def run_batch(
    cfgs: ConfigDict | list[ConfigDict],
    backend: str = "",
    threads: int = -1,
    debug: bool | None = None,
) -> list[dict[str, Any]]:
    """One result dict per instance: offered (flits created per node per cycle in the
    window), accepted, accepted_min, latency_mean, latency_p50, latency_p99, latency_max,
    network_latency_mean, hops_mean, packets, saturated, saturation_reason, cycles, wall_s,
    backend, link_util_mean, link_util_max, link_utilization [routers, ports] and
    vc_utilization [routers, ports, vcs]. threads -1 / backend "" / debug None: from run.*
    of the first configuration."""

def bench(
    cfgs: ConfigDict | list[ConfigDict], cycles: int = 10000, threads: int = -1, backend: str = ""
) -> BenchResult:
    """Router-cycles per second over ``cycles`` after a warm-up of up to 1000 cycles; a list
    of configurations is timed as one batch. peak_rss_mb is the whole process's."""

class Simulator:
    def __init__(
        self, cfgs: ConfigDict | list[ConfigDict], backend: str = "", threads: int = -1,
        debug: bool | None = None,
    ) -> None: ...
    def step(self, n: int = 1) -> None: ...
    @property
    def cycle(self) -> int: ...
    @property
    def backend(self) -> str: ...
    @property
    def instances(self) -> int: ...
    def state_names(self) -> list[str]: ...
    def state(self, name: str) -> npt.NDArray[np.integer]:
        """A copy, instance dimension first, e.g. occupancy [inst, routers, ports, vcs]."""
    def run(self) -> list[dict[str, Any]]: ...
