"""``MultiNodeBatchNormalization``: batch statistics over the global batch of all ranks."""

from __future__ import annotations

import copy

import numpy

import chainer
from chainer import configuration, initializers, link
from chainer.variable import Parameter, Variable
from chainermn.functions.batch_normalization import (
    MultiNodeBatchNormalizationFunction,
    get_communication_backend,
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
        get_communication_backend(comm, communication_backend)  # refuses a bad one
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
        function = MultiNodeBatchNormalizationFunction(
            self.comm, self.eps, self.avg_mean, self.avg_var, decay, self.communication_backend
        )
        return function(x, gamma, beta)

    def start_finetuning(self) -> None:
        """Reset the batch count, to accumulate exact population statistics."""
        self.N = 0
