"""Abort every MPI process when one of them dies of an uncaught exception.

Without this, the other processes of an MPI job wait forever in their next communication
when one process raises. ``add_hook()`` (or the environment variable
``CHAINERMN_FORCE_ABORT_ON_EXCEPTION``, read when :mod:`chainermn` is imported) installs a
``sys.excepthook`` that prints the traceback, each line prefixed with the rank, and then
calls ``MPI_Abort`` so that ``mpiexec`` ends every process.
"""

from __future__ import annotations

import os
import sys
import time
import traceback

#: Seconds between writing the traceback and ``MPI_Abort``.
ABORT_GRACE_SECONDS = 0.2
ENVIRONMENT_VARIABLES = (
    "CHAINERMN_FORCE_ABORT_ON_EXCEPTION",
    "CHAINERMN_FORCE_ABORT_ON_EXCEPTIONS",
)


def _abort_on_exception(exc_type, exc_value, exc_traceback) -> None:
    try:
        from mpi4py import MPI

        world = MPI.COMM_WORLD
        rank, size = world.Get_rank(), world.Get_size()
    except Exception:  # MPI unusable: report the exception as Python would
        sys.__excepthook__(exc_type, exc_value, exc_traceback)
        return
    lines = traceback.format_exception(exc_type, exc_value, exc_traceback)
    text = "".join(lines).rstrip("\n").split("\n")
    sys.stderr.write(
        f"[rank {rank}] chainermn: uncaught exception on rank {rank} of {size} "
        f"({MPI.Get_processor_name()}); aborting every rank\n"
    )
    sys.stderr.write("".join(f"[rank {rank}] {line}\n" for line in text))
    sys.stderr.flush()
    # mpiexec's process manager may act on the abort before it has read the lines just
    # written, and they are lost (seen once on a loaded machine): give it a moment.
    time.sleep(ABORT_GRACE_SECONDS)
    world.Abort(1)


def add_hook() -> None:
    """Install a ``sys.excepthook`` that prints the traceback with the rank and aborts all.

    ``mpiexec -n N python -m mpi4py script.py`` aborts too (without the rank prefix).
    """
    sys.excepthook = _abort_on_exception


def _add_hook_if_enabled() -> None:
    if any(os.environ.get(name) for name in ENVIRONMENT_VARIABLES):
        add_hook()
