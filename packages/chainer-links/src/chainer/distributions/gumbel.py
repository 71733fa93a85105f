"""Gumbel (type-I extreme value) distribution."""

from __future__ import annotations

import math

import numpy

import chainer.functions as F
from chainer.distributions import utils
from chainer.distributions._location_scale import LocationScaleDistribution
from chainer.distributions.distribution import register_kl
from chainer.utils.cache import cached_property
from chainer.variable import Variable

__all__ = ["Gumbel"]

EULER = float(numpy.euler_gamma)


class Gumbel(LocationScaleDistribution):
    """Gumbel Distribution.

    .. math::
        p(x; \\mu, \\beta) = \\frac{1}{\\beta} \\exp(-z - e^{-z}), \\quad
            z = \\frac{x - \\mu}{\\beta}

    Samples are reparameterized (``loc + scale * eps``).

    Args:
        loc: The location (mode) :math:`\\mu` (array or variable).
        scale: The positive scale :math:`\\beta`, broadcastable with ``loc``.

    Example:
        >>> d = Gumbel(np.zeros(2, np.float32), np.ones(2, np.float32))
        >>> d.cdf(np.zeros(2, np.float32)).array
        array([0.36787942, 0.36787942], dtype=float32)
    """

    def log_prob(self, x) -> Variable:
        z = self._standardize(x)
        return -z - F.exp(-z) - F.log(self.scale)

    def cdf(self, x) -> Variable:
        return F.exp(-F.exp(-self._standardize(x)))

    def log_cdf(self, x) -> Variable:
        return -F.exp(-self._standardize(x))

    def icdf(self, x) -> Variable:
        p = utils.as_points(x, self.loc.dtype)
        return self.loc - self.scale * F.log(-F.log(p))

    @cached_property
    def entropy(self) -> Variable:
        return F.log(self.scale) + (EULER + 1.0)

    @cached_property
    def mean(self) -> Variable:
        return self.loc + EULER * self.scale

    @property
    def mode(self) -> Variable:
        return self.loc

    @cached_property
    def stddev(self) -> Variable:
        return (math.pi / math.sqrt(6)) * self.scale

    @cached_property
    def variance(self) -> Variable:
        return (math.pi**2 / 6) * F.square(self.scale)

    def sample_n(self, n: int) -> Variable:
        utils.check_sample_count(n)
        eps = utils.random_array(self.xp, self.loc.dtype, "gumbel", size=(n, *self.batch_shape))
        return self.loc + self.scale * eps


@register_kl(Gumbel, Gumbel)
def _kl_gumbel_gumbel(dist1: Gumbel, dist2: Gumbel) -> Variable:
    # E_1[exp(-(x - loc2) / scale2)] = exp((loc2 - loc1) / scale2) * Gamma(1 + scale1 / scale2).
    ratio = dist1.scale / dist2.scale
    shift = (dist1.loc - dist2.loc) / dist2.scale
    return (
        -F.log(ratio) + EULER * (ratio - 1.0) + shift + F.exp(F.lgamma(ratio + 1.0) - shift) - 1.0
    )
