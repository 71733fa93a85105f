"""Means over ranks of dicts of observed values (what evaluators and aggregators report)."""

from __future__ import annotations

import numpy

import chainer
from chainer import backend


def to_host_float(value) -> numpy.ndarray:
    """An observed value (number, array, Variable; any device) as a float64 NumPy array."""
    if isinstance(value, chainer.Variable):
        value = value.array
    if isinstance(value, backend.get_array_types()) and not isinstance(value, numpy.ndarray):
        value = backend.CpuDevice().send(value)
    return numpy.asarray(value, numpy.float64)


def like(value, reference):
    """``value`` (host float64) in the type and on the device of ``reference``."""
    is_variable = isinstance(reference, chainer.Variable)
    array = reference.array if is_variable else reference
    if isinstance(array, backend.get_array_types()):
        dtype = array.dtype if array.dtype.kind == "f" else numpy.float64
        value = backend.get_device_from_array(array).send(numpy.asarray(value, dtype))
    elif isinstance(array, float):
        value = float(value)
    return chainer.Variable(value) if is_variable else value


def mean_over_ranks(communicator, values: dict, operation: str) -> dict:
    """The element-wise mean of ``values`` over all ranks (same keys and shapes everywhere).

    One ``allgather`` of keys and shapes, then one ``Allreduce`` of every value packed in a
    float64 buffer; a rank with other keys or shapes makes every rank raise.
    """
    keys = sorted(values)
    hosts = [to_host_float(values[k]) for k in keys]
    layout = [(k, h.shape) for k, h in zip(keys, hosts)]
    layouts = communicator.mpi_comm.allgather(layout)
    for rank, other in enumerate(layouts):
        if other != layouts[0]:
            raise ValueError(
                f"{operation}: every rank must report the same keys and shapes; rank 0 has "
                f"{layouts[0]} but rank {rank} has {other}"
            )
    packed = numpy.concatenate([h.reshape(-1) for h in hosts]) if hosts else numpy.zeros(0)
    total = communicator.allreduce(packed) / communicator.size
    result, offset = {}, 0
    for key, host in zip(keys, hosts):
        mean = total[offset : offset + host.size].reshape(host.shape)
        offset += host.size
        result[key] = like(mean, values[key])
    return result
