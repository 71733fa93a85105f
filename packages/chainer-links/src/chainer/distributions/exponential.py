"""Exponential distribution."""

from __future__ import annotations

import chainer.functions as F
from chainer.distributions import utils
from chainer.distributions.distribution import Distribution, register_kl
from chainer.utils.cache import cached_property
from chainer.variable import Variable, as_variable

__all__ = ["Exponential"]


class Exponential(Distribution):
    """Exponential Distribution with rate ``lam``.

    .. math::
        p(x; \\lambda) = \\lambda e^{-\\lambda x}, \\quad x \\ge 0

    Samples are reparameterized (``eps / lam`` with ``eps`` standard exponential).

    Args:
        lam: The positive rate :math:`\\lambda` (array or variable).

    Example:
        >>> d = Exponential(np.array([1, 2], np.float32))
        >>> d.mean.array
        array([1. , 0.5], dtype=float32)
    """

    def __init__(self, lam) -> None:
        (self.lam,) = utils.as_params("Exponential", lam=lam)
        utils.check_param("Exponential", "lam", self.lam, lambda a: a > 0, "positive")

    @property
    def params(self) -> dict[str, Variable]:
        return {"lam": self.lam}

    @property
    def batch_shape(self) -> tuple[int, ...]:
        return self.lam.shape

    @property
    def event_shape(self) -> tuple[int, ...]:
        return ()

    @property
    def support(self) -> str:
        return "positive"

    @cached_property
    def _log_lam(self) -> Variable:
        return F.log(self.lam)

    def log_prob(self, x) -> Variable:
        x = utils.as_points(x, self.lam.dtype)
        return utils.on_support(x, x.array >= 0, 0, lambda x: self._log_lam - self.lam * x)

    def cdf(self, x) -> Variable:
        x = utils.as_points(x, self.lam.dtype)
        return utils.on_support(x, x.array >= 0, 0, lambda x: -F.expm1(-self.lam * x), outside=0)

    def icdf(self, x) -> Variable:
        return -F.log1p(-utils.as_points(x, self.lam.dtype)) / self.lam

    @cached_property
    def entropy(self) -> Variable:
        return 1.0 - self._log_lam

    @cached_property
    def mean(self) -> Variable:
        return 1.0 / self.lam

    @cached_property
    def mode(self) -> Variable:
        return as_variable(self.xp.zeros(self.batch_shape, dtype=self.lam.dtype))

    @cached_property
    def stddev(self) -> Variable:
        return 1.0 / self.lam

    @cached_property
    def variance(self) -> Variable:
        return 1.0 / F.square(self.lam)

    def sample_n(self, n: int) -> Variable:
        utils.check_sample_count(n)
        eps = utils.random_array(
            self.xp, self.lam.dtype, "standard_exponential", size=(n, *self.batch_shape)
        )
        return eps / self.lam


@register_kl(Exponential, Exponential)
def _kl_exponential_exponential(dist1: Exponential, dist2: Exponential) -> Variable:
    ratio = dist2.lam / dist1.lam
    return ratio - F.log(ratio) - 1.0
