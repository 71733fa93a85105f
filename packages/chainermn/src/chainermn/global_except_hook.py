"""Abort every MPI process when one of them dies of an uncaught exception."""

from __future__ import annotations

import os
import sys


def _abort_on_exception(exc_type, exc_value, exc_traceback) -> None:
    sys.__excepthook__(exc_type, exc_value, exc_traceback)
    sys.stderr.flush()
    from mpi4py import MPI

    MPI.COMM_WORLD.Abort(1)


def add_hook() -> None:
    """Install a ``sys.excepthook`` that calls ``MPI_Abort`` after printing the traceback.

    ``mpiexec -n N python -m mpi4py script.py`` does the same without code changes.
    """
    sys.excepthook = _abort_on_exception


def _add_hook_if_enabled() -> None:
    names = ("CHAINERMN_FORCE_ABORT_ON_EXCEPTION", "CHAINERMN_FORCE_ABORT_ON_EXCEPTIONS")
    if any(os.environ.get(name) for name in names):
        add_hook()
