"""Independent: reinterpret batch dimensions of a distribution as event dimensions."""

from __future__ import annotations

import math
import numbers

import chainer.functions as F
from chainer.distributions.distribution import Distribution, kl_divergence, register_kl
from chainer.variable import Variable

__all__ = ["Independent"]


class Independent(Distribution):
    """Independent distribution: the joint law of independent components of a batch.

    The rightmost ``reinterpreted_batch_ndims`` batch dimensions of ``distribution`` become
    event dimensions: ``log_prob`` and ``entropy`` are summed over them, and ``prob``,
    ``cdf`` and ``survival_function`` multiplied (``cdf`` is ``P(X_i <= x_i for all i)``).
    Moments and ``icdf`` are those of the components.

    Args:
        distribution: The base distribution.
        reinterpreted_batch_ndims: How many batch dimensions to reinterpret; ``None`` means
            all but the first.

    Example:
        >>> from chainer.distributions import Normal
        >>> base = Normal(np.zeros((4, 3), np.float32), np.ones((4, 3), np.float32))
        >>> d = Independent(base)
        >>> d.batch_shape, d.event_shape
        ((4,), (3,))
    """

    def __init__(self, distribution: Distribution, reinterpreted_batch_ndims=None) -> None:
        if not isinstance(distribution, Distribution):
            raise TypeError(
                "Independent: distribution must be a Distribution, "
                f"got {type(distribution).__name__}"
            )
        batch_ndim = len(distribution.batch_shape)
        if reinterpreted_batch_ndims is None:
            reinterpreted_batch_ndims = max(0, batch_ndim - 1)
        if (
            not isinstance(reinterpreted_batch_ndims, numbers.Integral)
            or isinstance(reinterpreted_batch_ndims, bool)
            or not 0 <= reinterpreted_batch_ndims <= batch_ndim
        ):
            raise ValueError(
                f"Independent: reinterpreted_batch_ndims must be an int in [0, {batch_ndim}] "
                f"(the base's batch_shape is {distribution.batch_shape}), "
                f"got {reinterpreted_batch_ndims!r}"
            )
        self._distribution = distribution
        self._reinterpreted_batch_ndims = int(reinterpreted_batch_ndims)

    @property
    def distribution(self) -> Distribution:
        """The base distribution."""
        return self._distribution

    @property
    def reinterpreted_batch_ndims(self) -> int:
        """The number of batch dimensions of the base that are event dimensions here."""
        return self._reinterpreted_batch_ndims

    def __repr__(self) -> str:
        return (
            f"Independent({self._distribution!r}, "
            f"reinterpreted_batch_ndims={self._reinterpreted_batch_ndims})"
        )

    @property
    def params(self) -> dict[str, Variable]:
        return self._distribution.params

    @property
    def xp(self):
        return self._distribution.xp

    @property
    def support(self) -> str:
        return self._distribution.support

    @property
    def batch_shape(self) -> tuple[int, ...]:
        shape = self._distribution.batch_shape
        return shape[: len(shape) - self._reinterpreted_batch_ndims]

    @property
    def event_shape(self) -> tuple[int, ...]:
        shape = self._distribution.batch_shape
        moved = shape[len(shape) - self._reinterpreted_batch_ndims :]
        return moved + self._distribution.event_shape

    def _reduce(self, reduction, value: Variable) -> Variable:
        # value has shape ... + base.batch_shape: reduce its rightmost reinterpreted dims.
        if self._reinterpreted_batch_ndims == 0:
            return value
        return reduction(value, axis=tuple(range(-self._reinterpreted_batch_ndims, 0)))

    def log_prob(self, x) -> Variable:
        return self._reduce(F.sum, self._distribution.log_prob(x))

    def prob(self, x) -> Variable:
        return self._reduce(F.prod, self._distribution.prob(x))

    def cdf(self, x) -> Variable:
        return self._reduce(F.prod, self._distribution.cdf(x))

    def log_cdf(self, x) -> Variable:
        return self._reduce(F.sum, self._distribution.log_cdf(x))

    def survival_function(self, x) -> Variable:
        return self._reduce(F.prod, self._distribution.survival_function(x))

    def log_survival_function(self, x) -> Variable:
        return self._reduce(F.sum, self._distribution.log_survival_function(x))

    def icdf(self, x) -> Variable:
        return self._distribution.icdf(x)

    def perplexity(self, x) -> Variable:
        return self._reduce(F.prod, self._distribution.perplexity(x))

    @property
    def entropy(self) -> Variable:
        return self._reduce(F.sum, self._distribution.entropy)

    @property
    def mean(self) -> Variable:
        return self._distribution.mean

    @property
    def mode(self) -> Variable:
        return self._distribution.mode

    @property
    def stddev(self) -> Variable:
        return self._distribution.stddev

    @property
    def variance(self) -> Variable:
        return self._distribution.variance

    @property
    def covariance(self) -> Variable:
        """Block-diagonal covariance of the flattened event, ``batch_shape + (D, D)``.

        ``D`` is the size of :attr:`event_shape`; the blocks are the components' covariances
        (their variances for scalar components).
        """
        base = self._distribution
        batch_shape = self.batch_shape
        n_blocks = math.prod(base.batch_shape[len(batch_shape) :])
        if base.event_shape == ():
            variance = F.reshape(base.variance, (*batch_shape, n_blocks))
            eye = self.xp.eye(n_blocks, dtype=variance.dtype)
            return F.expand_dims(variance, -1) * eye
        block = math.prod(base.event_shape)
        blocks = F.reshape(base.covariance, (*batch_shape, n_blocks, block, block))
        eye = self.xp.eye(n_blocks, dtype=blocks.dtype)
        # (.., i, a, j, b) = blocks[.., i, a, b] * eye[i, j]; then merge (i, a) and (j, b).
        full = F.expand_dims(blocks, -2) * eye[:, None, :, None]
        return F.reshape(full, (*batch_shape, n_blocks * block, n_blocks * block))

    def sample_n(self, n: int) -> Variable:
        return self._distribution.sample_n(n)


@register_kl(Independent, Independent)
def _kl_independent_independent(dist1: Independent, dist2: Independent) -> Variable:
    if (
        dist1.event_shape != dist2.event_shape
        or dist1.reinterpreted_batch_ndims != dist2.reinterpreted_batch_ndims
    ):
        raise NotImplementedError(
            "Kullback-Leibler divergence between Independent distributions is implemented "
            f"for equal event shapes only, got {dist1.event_shape} and {dist2.event_shape}"
        )
    return dist1._reduce(F.sum, kl_divergence(dist1.distribution, dist2.distribution))
