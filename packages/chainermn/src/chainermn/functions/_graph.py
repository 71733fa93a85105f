"""Checks and small arrays shared by the communication functions."""

from __future__ import annotations

import numbers

import numpy

import chainer
from chainer import backend


def check_peer(comm, rank, operation: str) -> None:
    """``rank`` must name another process of ``comm``."""
    if isinstance(rank, bool) or not isinstance(rank, numbers.Integral):
        raise TypeError(f"{operation}: rank must be an int, got {type(rank).__name__}")
    if not 0 <= rank < comm.size:
        raise ValueError(
            f"{operation}: rank {rank} is outside the communicator (ranks 0 to {comm.size - 1})"
        )
    if rank == comm.rank:
        raise ValueError(
            f"{operation}: rank {rank} is this process; communicating with itself would "
            "deadlock (pass the variable on directly)"
        )


def check_root(comm, root, operation: str) -> None:
    """``root`` must name a process of ``comm`` (this one included)."""
    if isinstance(root, bool) or not isinstance(root, numbers.Integral):
        raise TypeError(f"{operation}: root must be an int, got {type(root).__name__}")
    if not 0 <= root < comm.size:
        raise ValueError(
            f"{operation}: root {root} is outside the communicator (ranks 0 to {comm.size - 1})"
        )


def check_tag(tag, operation: str) -> None:
    if isinstance(tag, bool) or not isinstance(tag, numbers.Integral) or tag < 0:
        raise ValueError(f"{operation}: tag must be an int >= 0, got {tag!r}")


def check_variable_or_array(x, what: str) -> None:
    if not isinstance(x, (chainer.Variable, *backend.get_array_types())):
        raise TypeError(
            f"{what} must be a chainer.Variable or an array (NumPy, CuPy or ChainerX), got "
            f"{type(x).__module__}.{type(x).__name__}"
        )


def check_inputs(xs, what: str, tell_peers) -> None:
    """Check that each of ``xs`` is a variable or an array.

    On the first bad one ``tell_peers()`` runs: the communicator call with the bad input,
    which makes the peers raise too (instead of waiting); this process raises a
    ``TypeError`` naming the argument.
    """
    for i, x in enumerate(xs):
        try:
            check_variable_or_array(x, f"{what}[{i}]" if len(xs) > 1 else what)
        except TypeError:
            try:
                tell_peers()
            except (TypeError, ValueError):
                pass  # the communicator's view of the same error
            raise


def check_variable(x, what: str) -> None:
    if not isinstance(x, chainer.Variable):
        raise TypeError(
            f"{what} must be a chainer.Variable, got {type(x).__module__}.{type(x).__name__}"
        )


def array_of(x):
    """The array of a variable, or ``x`` itself."""
    return x.array if isinstance(x, chainer.Variable) else x


def empty_on(device) -> object:
    """An empty float32 array on ``device``: the data of a delegate or dummy variable."""
    return device.send(numpy.empty((0,), numpy.float32))


def dummy_variable(device=None) -> chainer.Variable:
    """An empty variable that requires grad: an input that keeps a function on the graph."""
    return chainer.Variable(empty_on(device or backend.CpuDevice()))


class InputSpec:
    """Shape, dtype and device of an array, to build zero gradients after it is gone."""

    def __init__(self, array) -> None:
        self.shape = array.shape
        self.dtype = array.dtype
        self.device = backend.get_device_from_array(array)

    def zeros(self):
        return self.device.send(numpy.zeros(self.shape, self.dtype))

    def zero_grad(self) -> chainer.Variable:
        return chainer.Variable(self.zeros(), requires_grad=False)
