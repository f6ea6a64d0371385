"""lockstep: a cycle-synchronous interconnection-network simulator.

Every router of every simulated network advances one cycle at a time, all together, on
the CPU cores or a GPU. This package is the Python face of the compiled ``_core``:

    import lockstep as ls
    cfg = ls.load_config("configs/default.toml").with_(offered=0.3)
    r = ls.simulate(cfg)                                   # one run, a Result
    df = ls.sweep(cfg, offered=[0.1, 0.2, 0.3], seeds=3)   # a batch, a DataFrame
    ls.plot.latency_load(df)
    df = ls.sweep(cfg, offered=[0.1, 0.2], client=dask_client)  # batches on a Dask cluster
"""

from . import _core, cluster, families, plot, routing, viz
from .config import Config, load_config
from .simulate import Result, Simulator, available_backends, cuda_available, simulate
from .sweep import saturation_throughput, sweep

globals().update(families.packages())  # each router family's own tools: ls.t3e, ls.metro ...
schema = _core.schema
SimulationError = _core.SimulationError  # a run stopped: deadlock watchdog, broken invariant

__all__ = [
    "Config", "Result", "Simulator", "SimulationError", "available_backends", "cluster",
    "cuda_available", "families", "load_config", "plot", "routing", "saturation_throughput",
    "schema", "simulate", "sweep", "viz",
]
__all__ += families.NAMES
