"""Chi-square distribution."""

from __future__ import annotations

import math

import chainer.functions as F
from chainer.distributions import utils
from chainer.distributions.distribution import Distribution, register_kl
from chainer.utils.cache import cached_property
from chainer.variable import Variable

__all__ = ["Chisquare"]


class Chisquare(Distribution):
    """Chi-Square Distribution with ``k`` degrees of freedom (a gamma law with scale 2).

    .. math::
        p(x; k) = \\frac{x^{k/2 - 1} e^{-x/2}}{2^{k/2}\\, \\Gamma(k/2)}, \\quad x \\ge 0

    Samples come from ``xp.random.chisquare`` and carry no gradient.

    Args:
        k: The positive degrees of freedom (array or variable).

    Example:
        >>> d = Chisquare(np.array([1, 4], np.float32))
        >>> d.variance.array
        array([2., 8.], dtype=float32)
    """

    def __init__(self, k) -> None:
        (self.k,) = utils.as_params("Chisquare", k=k)
        utils.check_param("Chisquare", "k", self.k, lambda a: a > 0, "positive")

    @property
    def params(self) -> dict[str, Variable]:
        return {"k": self.k}

    @property
    def batch_shape(self) -> tuple[int, ...]:
        return self.k.shape

    @property
    def event_shape(self) -> tuple[int, ...]:
        return ()

    @property
    def support(self) -> str:
        return "positive"

    def log_prob(self, x) -> Variable:
        x = utils.as_points(x, self.k.dtype)
        half_k = 0.5 * self.k
        return utils.on_support(
            x,
            x.array >= 0,
            1,
            lambda x: (half_k - 1) * F.log(x) - 0.5 * x - half_k * math.log(2) - F.lgamma(half_k),
        )

    @cached_property
    def entropy(self) -> Variable:
        half_k = 0.5 * self.k
        return half_k + math.log(2) + F.lgamma(half_k) + (1 - half_k) * F.digamma(half_k)

    @property
    def mean(self) -> Variable:
        return self.k

    @cached_property
    def variance(self) -> Variable:
        return 2 * self.k

    def sample_n(self, n: int) -> Variable:
        utils.check_sample_count(n)
        return Variable(
            utils.random_array(
                self.xp, self.k.dtype, "chisquare", self.k.array, size=(n, *self.batch_shape)
            ),
            requires_grad=False,
        )


@register_kl(Chisquare, Chisquare)
def _kl_chisquare_chisquare(dist1: Chisquare, dist2: Chisquare) -> Variable:
    # Gamma laws of equal scale: the scale terms of the gamma KL cancel.
    k1, k2 = 0.5 * dist1.k, 0.5 * dist2.k
    return (k1 - k2) * F.digamma(k1) - F.lgamma(k1) + F.lgamma(k2)
