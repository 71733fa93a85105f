"""The multi-node batch-normalization function behind ``MultiNodeBatchNormalization``."""

from __future__ import annotations

import numpy

import chainer
from chainer import backend

_BACKENDS = ("auto", "mpi", "nccl")


def get_communication_backend(comm, communication_backend: str = "auto") -> str:
    """The backend, ``'mpi'`` or ``'nccl'``, that ``communication_backend`` selects for ``comm``.

    ``'auto'`` picks ``'nccl'`` for the ``pure_nccl`` communicator and ``'mpi'`` otherwise;
    ``'nccl'`` needs the ``pure_nccl`` communicator. Either way the statistics travel through
    the communicator's ``allreduce`` (they are a few values per channel).

    Raises:
        ValueError: ``communication_backend`` is unknown, or ``'nccl'`` without NCCL.
    """
    if communication_backend not in _BACKENDS:
        raise ValueError(
            f"communication_backend must be one of {_BACKENDS}, got {communication_backend!r}"
        )
    has_nccl = hasattr(comm, "nccl_comm")
    if communication_backend == "nccl" and not has_nccl:
        raise ValueError(
            "communication_backend='nccl' needs the 'pure_nccl' communicator, got "
            f"{type(comm).__name__}; use 'mpi' or 'auto'"
        )
    if communication_backend == "auto":
        return "nccl" if has_nccl else "mpi"
    return communication_backend


def _sum_over_ranks(comm, arrays: list, xp) -> list:
    """Sum equally shaped 1-D arrays over the ranks with one allreduce."""
    packed = backend.CpuDevice().send(xp.concatenate(arrays))
    total = comm.allreduce(numpy.ascontiguousarray(packed))
    total = backend.get_device_from_array(arrays[0]).send(total)
    return xp.split(total, len(arrays))


class MultiNodeBatchNormalizationFunction(chainer.Function):
    """Batch normalization with the mean and variance of the union of every rank's batch.

    Called as ``func(x, gamma, beta)`` on every rank; returns the normalized ``x``. Forward
    allreduces the per-channel sums of ``x`` and ``x**2`` (and the counts); backward
    allreduces the per-channel sums of ``gy`` and ``gy * x_hat``, which the input gradient of
    a statistic shared by all ranks needs (its backward is not differentiable again).

    Args:
        comm: ChainerMN communicator.
        eps (float): Added to the variance before the square root.
        mean, var: Running averages updated in place (``None``: not kept). ``var`` gets the
            unbiased variance of the global batch.
        decay (float): The running averages keep ``decay`` of their value.
        communication_backend (str): ``'auto'``, ``'mpi'`` or ``'nccl'``
            (see :func:`get_communication_backend`).
    """

    def __init__(
        self, comm, eps=2e-5, mean=None, var=None, decay=0.9, communication_backend="auto"
    ) -> None:
        self.comm = comm
        self.eps = eps
        self.running_mean = mean
        self.running_var = var
        self.decay = decay
        self.communication_backend = get_communication_backend(comm, communication_backend)

    def forward(self, inputs):
        x, gamma, beta = inputs
        xp = backend.get_array_module(x)
        self.x_dtype = x.dtype
        self.axes = (0, *range(2, x.ndim))
        self.shape = (1, -1) + (1,) * (x.ndim - 2)
        dtype = numpy.result_type(x.dtype, numpy.float32)
        xf = x.astype(dtype, copy=False)
        local_count = xp.full(gamma.shape, x.size // gamma.size, dtype)
        sums, squares, counts = _sum_over_ranks(
            self.comm, [xf.sum(axis=self.axes), (xf * xf).sum(axis=self.axes), local_count], xp
        )
        self.count = float(counts[0])
        mean = sums / self.count
        var = xp.maximum(squares / self.count - mean * mean, 0)
        self.inv_std = 1 / xp.sqrt(var + self.eps)
        self.x_hat = (xf - mean.reshape(self.shape)) * self.inv_std.reshape(self.shape)
        y = gamma.reshape(self.shape) * self.x_hat + beta.reshape(self.shape)
        if self.running_mean is not None:
            self.running_mean *= self.decay
            self.running_mean += (1 - self.decay) * mean.astype(self.running_mean.dtype)
        if self.running_var is not None:
            unbiased = var * (self.count / max(self.count - 1, 1))
            self.running_var *= self.decay
            self.running_var += (1 - self.decay) * unbiased.astype(self.running_var.dtype)
        self.retain_inputs((1,))
        return (y.astype(x.dtype, copy=False),)

    def backward(self, inputs, grad_outputs):
        _, gamma, _ = inputs
        (gy,) = grad_outputs
        xp = backend.get_array_module(gy)
        gy = gy.astype(self.x_hat.dtype, copy=False)
        gbeta = gy.sum(axis=self.axes)
        ggamma = (gy * self.x_hat).sum(axis=self.axes)
        total_gbeta, total_ggamma = _sum_over_ranks(self.comm, [gbeta, ggamma], xp)
        scale = (gamma * self.inv_std).reshape(self.shape)
        gx = scale * (
            gy
            - (self.x_hat * total_ggamma.reshape(self.shape) + total_gbeta.reshape(self.shape))
            / self.count
        )
        return (
            gx.astype(self.x_dtype, copy=False),
            ggamma.astype(gamma.dtype, copy=False),
            gbeta.astype(gamma.dtype, copy=False),
        )
