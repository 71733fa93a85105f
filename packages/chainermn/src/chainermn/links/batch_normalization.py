"""``MultiNodeBatchNormalization``: batch statistics over the global batch of all ranks."""

from __future__ import annotations

import copy

import numpy

import chainer
from chainer import backend, configuration, initializers, link
from chainer.function_node import FunctionNode
from chainer.variable import Parameter, Variable

_BACKENDS = ("auto", "mpi", "nccl")


def _sum_over_ranks(comm, arrays: list, xp) -> list:
    """Sum equally shaped 1-D arrays over the ranks with one allreduce."""
    packed = backend.CpuDevice().send(xp.concatenate(arrays))
    total = comm.allreduce(numpy.ascontiguousarray(packed))
    total = backend.get_device_from_array(arrays[0]).send(total)
    return xp.split(total, len(arrays))


class _MultiNodeBatchNormalization(FunctionNode):
    """Normalize with the mean and variance of the union of every rank's batch.

    Forward allreduces the per-channel sums of ``x`` and ``x**2`` (and the counts); backward
    allreduces the per-channel sums of ``gy`` and ``gy * x_hat``, which the input gradient of
    a statistic shared by all ranks needs. Its backward is not differentiable again.
    """

    def __init__(self, comm, eps, running_mean, running_var, decay) -> None:
        self.comm = comm
        self.eps = eps
        self.running_mean = running_mean
        self.running_var = running_var
        self.decay = decay

    def forward(self, inputs):
        x, gamma, beta = inputs
        xp = backend.get_array_module(x)
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
            unbiased = var * (self.count / max(self.count - 1, 1))
            self.running_mean *= self.decay
            self.running_mean += (1 - self.decay) * mean.astype(self.running_mean.dtype)
            self.running_var *= self.decay
            self.running_var += (1 - self.decay) * unbiased.astype(self.running_var.dtype)
        self.retain_inputs((1,))
        return (y.astype(x.dtype, copy=False),)

    def backward(self, indexes, grad_outputs):
        (gamma,) = self.get_retained_inputs()
        gy = grad_outputs[0].array
        xp = backend.get_array_module(gy)
        gy = gy.astype(self.x_hat.dtype, copy=False)
        gbeta = gy.sum(axis=self.axes)
        ggamma = (gy * self.x_hat).sum(axis=self.axes)
        total_gbeta, total_ggamma = _sum_over_ranks(self.comm, [gbeta, ggamma], xp)
        scale = (gamma.array * self.inv_std).reshape(self.shape)
        gx = scale * (
            gy
            - (self.x_hat * total_ggamma.reshape(self.shape) + total_gbeta.reshape(self.shape))
            / self.count
        )
        dtype = gamma.dtype
        return (
            Variable(gx.astype(self.inputs[0].dtype, copy=False)),
            Variable(ggamma.astype(dtype, copy=False)),
            Variable(gbeta.astype(dtype, copy=False)),
        )


class MultiNodeBatchNormalization(link.Link):
    """Batch normalization whose statistics cover the batches of all ranks together.

    With small per-rank batches the local statistics are noisy; this link computes the mean
    and variance of the global batch (one allreduce forward, one backward), so data-parallel
    training matches single-process training on the concatenated batch. In evaluation mode it
    uses the running averages like ``BatchNormalization``.

    Args:
        size (int or tuple): Shape of the channel dimensions.
        comm: ChainerMN communicator.
        decay, eps, dtype, use_gamma, use_beta, initial_gamma, initial_beta: As
            ``chainer.links.BatchNormalization``.
        communication_backend: ``'auto'``, ``'mpi'`` or ``'nccl'``; the statistics are small,
            so every backend sends them through the communicator's MPI path.
    """

    def __init__(
        self,
        size,
        comm,
        decay=0.9,
        eps=2e-5,
        dtype=None,
        use_gamma=True,
        use_beta=True,
        initial_gamma=None,
        initial_beta=None,
        communication_backend="auto",
    ) -> None:
        super().__init__()
        if communication_backend not in _BACKENDS:
            raise ValueError(
                f"communication_backend must be one of {_BACKENDS}, got {communication_backend!r}"
            )
        if communication_backend == "nccl" and not hasattr(comm, "nccl_comm"):
            raise ValueError(
                "communication_backend='nccl' needs the 'pure_nccl' communicator, got "
                f"{type(comm).__name__}; use 'mpi' or 'auto'"
            )
        self.comm = comm
        self.communication_backend = communication_backend
        self.decay = decay
        self.eps = eps
        self._dtype = chainer.get_dtype(dtype, map_mixed16=numpy.float32)
        self.avg_mean = numpy.zeros(size, self._dtype)
        self.register_persistent("avg_mean")
        self.avg_var = numpy.ones(size, self._dtype)  # as BatchNormalization
        self.register_persistent("avg_var")
        self.N = 0
        self.register_persistent("N")
        with self.init_scope():
            if use_gamma:
                self.gamma = Parameter(self._initializer(initial_gamma, 1), size)
            if use_beta:
                self.beta = Parameter(self._initializer(initial_beta, 0), size)

    def _initializer(self, initial, default):
        if isinstance(initial, chainer.Initializer):
            initializer = copy.copy(initial)  # the link's dtype wins, on a copy
            initializer.dtype = self._dtype
            return initializer
        return initializers.Constant(default if initial is None else initial, self._dtype)

    def _gamma_beta(self):
        xp = self.xp
        gamma = self.gamma if hasattr(self, "gamma") else None
        beta = self.beta if hasattr(self, "beta") else None
        with chainer.using_device(self.device):
            if gamma is None:
                gamma = Variable(xp.ones(self.avg_mean.shape, self._dtype), requires_grad=False)
            if beta is None:
                beta = Variable(xp.zeros(self.avg_mean.shape, self._dtype), requires_grad=False)
        return gamma, beta

    def forward(self, x, finetune=False):
        """Normalize ``x`` with global batch statistics (training) or the running ones."""
        gamma, beta = self._gamma_beta()
        if not configuration.config.train:
            from chainer.functions import fixed_batch_normalization

            return fixed_batch_normalization(x, gamma, beta, self.avg_mean, self.avg_var, self.eps)
        if finetune:
            self.N += 1
            decay = 1.0 - 1.0 / self.N
        else:
            decay = self.decay
        function = _MultiNodeBatchNormalization(
            self.comm, self.eps, self.avg_mean, self.avg_var, decay
        )
        (y,) = function.apply((x, gamma, beta))
        return y

    def start_finetuning(self) -> None:
        """Reset the batch count, to accumulate exact population statistics."""
        self.N = 0
