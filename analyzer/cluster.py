"""Dask scale-out: connecting to a scheduler and running kernel work as tasks.

``--scheduler local`` (the default) runs everything in this process with Numba using every core.
``--scheduler tcp://HOST:PORT`` connects a ``distributed.Client`` to a running scheduler and
submits each sweep cell or report part as one task: a whole chunk of kernel work whose random
numbers come from ``SeedSequence`` keyed by the seed and the cell's block indices, so the numbers
are identical whatever the scheduler or the number of workers.

Oversubscription: a task sets Numba to one thread; Dask's workers × threads provide the
parallelism (start workers with ``--nthreads 1 --nworkers <cores>`` per machine, or
``--nthreads <cores>``: either way one kernel thread per Dask thread).
"""
from __future__ import annotations

from analyzer.errors import UserError


def client_for(address: str):
    """A new Client for ``tcp://HOST:PORT``; use it as a context manager so it is closed."""
    try:
        from distributed import Client
    except ImportError:
        raise UserError("--scheduler needs Dask: pip install 'pushluck[dask]'") from None
    if not address.startswith(("tcp://", "tls://", "inproc://", "ucx://")):
        raise UserError(f"--scheduler must be 'local' or an address like tcp://HOST:8786, "
                        f"got '{address}'")
    try:
        return Client(address, timeout="10s")
    except (OSError, TimeoutError) as exc:
        raise UserError(f"cannot reach the Dask scheduler at {address}: {exc}") from None


def one_numba_thread_per_task() -> None:
    """Inside a Dask task: one Numba thread, so workers × threads never oversubscribe cores."""
    try:
        from distributed import get_worker

        get_worker()
    except (ImportError, ValueError):
        return  # not on a worker: keep the process's setting
    import numba

    numba.set_num_threads(1)
