"""``BatchRenormalization``: batch normalization corrected towards the running statistics."""

from __future__ import annotations

import typing as tp

from chainer import configuration, variable
from chainer.functions.normalization.batch_normalization import fixed_batch_normalization
from chainer.functions.normalization.batch_renormalization import batch_renormalization
from chainer.links.normalization.batch_normalization import BatchNormalization, training_decay


class BatchRenormalization(BatchNormalization):
    """Batch renormalization layer (Ioffe, 2017).

    Like :class:`BatchNormalization`, but in training mode the batch-normalized values are
    corrected by ``r`` and ``d`` (clipped to ``[1/rmax, rmax]`` and ``[-dmax, dmax]``) so
    that they match what the running statistics would give; this keeps training and
    inference consistent with small or non-i.i.d. batches.

    Args:
        size: Shape of the statistics and parameters.
        rmax: Upper bound of the scale correction ``r``.
        dmax: Upper bound of the shift correction ``|d|``.
        decay: As in :class:`BatchNormalization`, like ``eps``, ``dtype``, ``use_gamma``,
            ``use_beta``, ``initial_gamma``, ``initial_beta``, ``initial_avg_mean`` and
            ``initial_avg_var``.

    Example:
        >>> brn = L.BatchRenormalization(3, rmax=3, dmax=5)
        >>> brn(numpy.random.randn(8, 3).astype(numpy.float32)).shape
        (8, 3)
    """

    def __init__(
        self,
        size: tp.Any,
        rmax: float = 1,
        dmax: float = 0,
        decay: float = 0.9,
        eps: float = 2e-5,
        dtype: tp.Any = None,
        use_gamma: bool = True,
        use_beta: bool = True,
        initial_gamma: tp.Any = None,
        initial_beta: tp.Any = None,
        initial_avg_mean: tp.Any = None,
        initial_avg_var: tp.Any = None,
    ) -> None:
        super().__init__(
            size,
            decay,
            eps,
            dtype,
            use_gamma,
            use_beta,
            initial_gamma,
            initial_beta,
            initial_avg_mean=initial_avg_mean,
            initial_avg_var=initial_avg_var,
        )
        self.rmax = rmax
        self.dmax = dmax
        # Running statistics as F.forget's graph-less forward saw them, for its recomputation.
        self._stashed_statistics: list[tuple] = []

    def forward(self, x: tp.Any, finetune: bool = False) -> variable.Variable:
        """Normalize ``x``; ``finetune`` as in :meth:`BatchNormalization.forward`."""
        gamma, beta = self._gamma_and_beta()
        if not configuration.config.train:
            return fixed_batch_normalization(x, gamma, beta, self.avg_mean, self.avg_var, self.eps)
        decay = training_decay(self, finetune)
        config = configuration.config
        avg_mean, avg_var = self.avg_mean, self.avg_var
        if config.in_recomputing:
            # F.forget's recomputation repeats a forward pass whose statistics were already
            # counted: it corrects with the statistics that pass saw (r and d depend on them).
            if finetune:
                self.N -= 1
            if self._stashed_statistics:
                avg_mean, avg_var = self._stashed_statistics.pop(0)
        elif config._will_recompute:
            self._stashed_statistics.append((avg_mean.copy(), avg_var.copy()))
        return batch_renormalization(
            x,
            gamma,
            beta,
            self.rmax,
            self.dmax,
            self.eps,
            avg_mean,
            avg_var,
            decay,
            update_statistics=not config.in_recomputing,
        )
