"""Cauchy distribution."""

from __future__ import annotations

import math
import warnings

import numpy

import chainer.functions as F
from chainer.distributions import utils
from chainer.distributions._location_scale import LocationScaleDistribution
from chainer.distributions.distribution import register_kl
from chainer.utils.cache import cached_property
from chainer.variable import Variable, as_variable

__all__ = ["Cauchy"]


class Cauchy(LocationScaleDistribution):
    """Cauchy Distribution.

    .. math::
        p(x; x_0, \\gamma) = \\frac{1}{\\pi\\gamma
            \\left[1 + \\left(\\frac{x - x_0}{\\gamma}\\right)^2\\right]}

    The mean and variance are undefined: reading them warns and gives NaN. Samples are
    reparameterized (``loc + scale * eps``).

    Args:
        loc: The location (median and mode) :math:`x_0` (array or variable).
        scale: The positive scale :math:`\\gamma`, broadcastable with ``loc``.

    Example:
        >>> d = Cauchy(np.zeros(2, np.float32), np.ones(2, np.float32))
        >>> d.icdf(np.array([0.5, 0.75], np.float32)).array
        array([0., 1.], dtype=float32)
    """

    def log_prob(self, x) -> Variable:
        return -F.log1p(F.square(self._standardize(x))) - F.log(math.pi * self.scale)

    def cdf(self, x) -> Variable:
        return 0.5 + F.arctan(self._standardize(x)) / math.pi

    def icdf(self, x) -> Variable:
        p = utils.as_points(x, self.loc.dtype)
        return self.loc + self.scale * F.tan(math.pi * (p - 0.5))

    @cached_property
    def entropy(self) -> Variable:
        return F.log(4 * math.pi * self.scale)

    def _undefined(self, name: str) -> Variable:
        warnings.warn(f"{name} of the Cauchy distribution is undefined", RuntimeWarning, 3)
        return as_variable(self.xp.full(self.batch_shape, numpy.nan, dtype=self.loc.dtype))

    @property
    def mean(self) -> Variable:
        return self._undefined("mean")

    @property
    def variance(self) -> Variable:
        return self._undefined("variance")

    @property
    def mode(self) -> Variable:
        return self.loc

    def sample_n(self, n: int) -> Variable:
        utils.check_sample_count(n)
        eps = utils.random_array(
            self.xp, self.loc.dtype, "standard_cauchy", size=(n, *self.batch_shape)
        )
        return self.loc + self.scale * eps


@register_kl(Cauchy, Cauchy)
def _kl_cauchy_cauchy(dist1: Cauchy, dist2: Cauchy) -> Variable:
    # Closed form of Chyzak and Nielsen (2019).
    spread = F.square(dist1.scale + dist2.scale) + F.square(dist1.loc - dist2.loc)
    return F.log(spread) - F.log(4 * dist1.scale * dist2.scale)
