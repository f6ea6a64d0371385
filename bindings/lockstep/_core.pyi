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
    choices: list[str]  # an enumerated key's values, in allowed's order; [] for the others
    doc: str
    per_instance: bool  # may differ between the instances of one batch
    family: str  # the router family that reads the key; "" for all

class BenchResult(TypedDict):
    router_cycles_per_s: float
    cycles: int
    routers: int
    wall_s: float
    peak_rss_mb: float
    state_mb: float  # the arrays the engine allocated (device memory on a GPU)
    backend: str

def schema() -> list[SchemaEntry]: ...
def defaults() -> ConfigDict: ...
def validate(cfg: ConfigDict) -> ConfigDict: ...
def offered_limit(cfg: ConfigDict) -> float:
    """The highest traffic.offered the configuration allows (one packet per node per cycle)."""
def finite_workload(cfg: ConfigDict) -> bool:
    """Whether the traffic is a finite workload (alltoall, gather), measured as a whole."""
def cuda_available() -> bool: ...
def network_size(cfg: ConfigDict) -> dict[str, int]:
    """Routers, nodes (terminals) and ports per router of the configuration's network, and
    state_bytes: the bytes of state one instance takes (estimated as the engine checks it)."""
def state_memory_limit(cuda: bool) -> float:
    """The bytes of state a batch may take: 80% of this machine's memory, or of the GPU's."""

class RoutingStats(TypedDict):
    minimal: float  # fraction of (router, destination) pairs whose every route is minimal
    stretch: float  # mean routed hops / shortest hops
    options: float  # mean permitted ports per entry
    minimal_options: float  # mean ports on some shortest path per entry
    root: int  # the router the table's resource order grows from
    max_channel_load: float  # busiest channel's load per unit of offered load (spread evenly)
    natural_order: bool  # the order is the routers' numbering, not grown from a root

class RoutingTableDict(TypedDict):
    port_mask: npt.NDArray[np.uint32]  # [routers, nodes] bit p: may leave on network port p
    vc: npt.NDArray[np.uint8]  # [routers, nodes] the VC (0 or 1) it leaves on
    dist: npt.NDArray[np.uint16]  # [routers, nodes] hops to the destination's router
    peer: npt.NDArray[np.int32]  # [routers, ports] router * ports + port at the far end, -1 none
    node_router: npt.NDArray[np.int32]  # [nodes]
    stats: RoutingStats

def routing_table(cfg: ConfigDict, roots: int = 16) -> RoutingTableDict:
    """A complete, deadlock-free routing table for the topology of ``cfg`` (only its topology
    rules are checked, not a router family's); the resource order grows from the best of the
    ``roots`` most central routers."""

def check_routing_table(
    cfg: ConfigDict, port_mask: npt.ArrayLike, vc: npt.ArrayLike
) -> list[str]:
    """What is wrong with a [routers, nodes] table for the topology of ``cfg``: incomplete
    entries, routes that loop or do not arrive, a cycle of (router, VC) buffer classes with the
    destinations that make each dependency. Empty when complete and deadlock-free. A wrong
    shape or a value out of range raises ValueError."""

class t3e:
    """The submodule _core.t3e: the T3E's compiled helpers (host/t3e/t3e_python.cpp). Each
    family has a submodule _core.<family>; the others hold nothing yet."""

    @staticmethod
    def barrier_tree(cfg: ConfigDict, members: list[int], root: int) -> npt.NDArray[np.uint32]:
        """A T3E BSU's spanning tree over the PEs of routers ``members`` (empty: all), rooted
        at router ``root``: the BSU register word of every router. A root or member out of
        range raises ValueError."""

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
    def schedule(self) -> str: ...
    @property
    def instances(self) -> int: ...
    @property
    def state_bytes(self) -> int:
        """Bytes of every state array allocated on the backend."""
    def state_names(self) -> list[str]: ...
    def state(self, name: str) -> npt.NDArray[np.integer]:
        """A copy, instance dimension first, e.g. occupancy [inst, routers, ports, vcs]."""
    def set_state(self, name: str, array: npt.NDArray[np.integer]) -> None:
        """Overwrite a state array (same shape and dtype as state(name))."""
    def run(self) -> list[dict[str, Any]]: ...
