"""A sweep's batches as tasks on a Dask cluster (``ls.sweep(..., client=Client(...))``).

Each task is one whole batch, run by ``_core.run_batch`` on the worker that takes it (with
``run.backend`` auto, on its GPU when it has one and the batch runs faster there, else its
CPU cores). A run depends
only on its configuration and seed, never on the batch around it or the machine, so the
rows are the same as a local sweep's. Dask reschedules the task of a worker that dies, so
a batch lost mid-run is run again elsewhere, and its result arrives once.

Dask (Debian's python3-distributed) is imported only when a client is given.
"""

from __future__ import annotations

import os
import uuid
from typing import Any, Iterator, Sequence

from . import _core


def worker_threads() -> int:
    """CPU threads for a batch whose ``run.threads`` is 0 ("all cores") on this worker.

    Dask starts workers with OMP_NUM_THREADS=1 and runs as many tasks at once as the
    worker has threads, so each batch takes one core and the worker's tasks fill its
    cores; a worker started with OMP_NUM_THREADS unset shares its cores among its tasks.
    """
    from distributed import get_worker

    omp = os.environ.get("OMP_NUM_THREADS", "")
    if omp.isdigit() and int(omp) > 0:
        return int(omp)
    return max(1, (os.cpu_count() or 1) // get_worker().state.nthreads)


def run_batch_task(configs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One batch on the worker that runs this task."""
    threads = worker_threads() if configs[0]["run"]["threads"] == 0 else -1
    return _core.run_batch(configs, threads=threads)


# Batches per worker thread: a batch runs until its slowest point drains, so batches differ in
# length; several per thread let Dask even the workers out (a 200-point sweep on 2 one-thread
# workers: 5.5 s with 4 per thread, 6.9 s with 1; benchmarks/cluster_sweep.py).
BATCHES_PER_THREAD = 4


def min_batches(client: Any) -> int:
    """How many batches a sweep on this cluster is cut into at least."""
    check_client(client)
    return BATCHES_PER_THREAD * max(1, sum(client.nthreads().values()))


def local_cluster(workers: int = 2, threads_per_worker: int = 1, **kwargs: Any) -> Any:
    """A Dask LocalCluster of ``workers`` processes on this machine, for notebooks, tests and
    trying a sweep out. Every server it starts (scheduler, workers, their HTTP endpoints)
    listens on 127.0.0.1 only. One thread per worker: each runs one batch at a time on one
    core, so 2 workers fill 2 cores. ``kwargs`` go to LocalCluster."""
    from distributed import LocalCluster

    return LocalCluster(
        n_workers=workers, threads_per_worker=threads_per_worker, processes=True,
        host="127.0.0.1", dashboard_address="127.0.0.1:0",
        worker_dashboard_address="127.0.0.1:0", **kwargs,
    )


def check_client(client: Any) -> None:
    from distributed import Client

    if not isinstance(client, Client):
        raise ValueError(
            f"client = {client!r}: allowed a dask.distributed.Client, e.g. "
            "Client('tcp://127.0.0.1:8786') or Client(LocalCluster())"
        )


def run_batches(
    client: Any, batches: Sequence[list[dict[str, Any]]]
) -> Iterator[tuple[int, list[dict[str, Any]]]]:
    """Submit every batch, then yield (batch index, results) in the order batches finish.

    Tasks not yet finished are cancelled when the caller stops early (an interrupt, an
    error in one batch), so an abandoned sweep leaves no work on the cluster.
    """
    from distributed import as_completed

    check_client(client)
    sweep_id = uuid.uuid4().hex[:8]  # task keys name the sweep and batch in Dask's dashboard
    futures = {
        client.submit(run_batch_task, configs, key=f"lockstep-{sweep_id}-batch-{k}"): k
        for k, configs in enumerate(batches)
    }
    try:
        for future in as_completed(futures):
            k, result = futures.pop(future), future.result()
            future.release()  # the result is ours: a worker lost later must not recompute it
            yield k, result
    finally:
        client.cancel(list(futures))
