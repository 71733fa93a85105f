"""Laplace (double exponential) distribution."""

from __future__ import annotations

import math

import chainer.functions as F
from chainer.distributions import utils
from chainer.distributions._location_scale import LocationScaleDistribution
from chainer.distributions.distribution import register_kl
from chainer.utils.cache import cached_property
from chainer.variable import Variable, as_variable

__all__ = ["Laplace"]


def _laplace_cdf(z) -> Variable:
    """The cumulative distribution function of the standard Laplace law (loc 0, scale 1)."""
    z = as_variable(z)
    # sign(z) is piecewise constant: it carries no gradient, and none is lost.
    return 0.5 - 0.5 * F.sign(z) * F.expm1(-F.absolute(z))


def _laplace_icdf(p) -> Variable:
    """The inverse of :func:`_laplace_cdf`, for probabilities ``p`` in ``(0, 1)``."""
    centred = as_variable(p) - 0.5
    return -F.sign(centred) * F.log1p(-2 * F.absolute(centred))


class Laplace(LocationScaleDistribution):
    """Laplace Distribution.

    .. math::
        p(x; \\mu, b) = \\frac{1}{2b} \\exp\\left(-\\frac{|x - \\mu|}{b}\\right)

    Samples are reparameterized (``loc + scale * eps``).

    Args:
        loc: The location (mean and median) :math:`\\mu` (array or variable).
        scale: The positive scale :math:`b`, broadcastable with ``loc``.

    Example:
        >>> d = Laplace(np.zeros(2, np.float32), np.ones(2, np.float32))
        >>> d.cdf(np.array([0, 1], np.float32)).array
        array([0.5      , 0.8160603], dtype=float32)
    """

    def log_prob(self, x) -> Variable:
        return -F.absolute(self._standardize(x)) - F.log(2 * self.scale)

    def prob(self, x) -> Variable:
        return F.exp(-F.absolute(self._standardize(x))) / (2 * self.scale)

    def cdf(self, x) -> Variable:
        return _laplace_cdf(self._standardize(x))

    def icdf(self, x) -> Variable:
        return self.loc + self.scale * _laplace_icdf(utils.as_points(x, self.loc.dtype))

    @cached_property
    def entropy(self) -> Variable:
        return F.log(2 * self.scale) + 1.0

    @property
    def mean(self) -> Variable:
        return self.loc

    @property
    def mode(self) -> Variable:
        return self.loc

    @cached_property
    def stddev(self) -> Variable:
        return math.sqrt(2) * self.scale

    @cached_property
    def variance(self) -> Variable:
        return 2 * F.square(self.scale)

    def sample_n(self, n: int) -> Variable:
        utils.check_sample_count(n)
        eps = utils.random_array(self.xp, self.loc.dtype, "laplace", size=(n, *self.batch_shape))
        return self.loc + self.scale * eps


@register_kl(Laplace, Laplace)
def _kl_laplace_laplace(dist1: Laplace, dist2: Laplace) -> Variable:
    distance = F.absolute(dist1.loc - dist2.loc)
    scale_ratio = dist1.scale / dist2.scale
    return (
        -F.log(scale_ratio)
        + distance / dist2.scale
        + scale_ratio * F.exp(-distance / dist1.scale)
        - 1.0
    )
