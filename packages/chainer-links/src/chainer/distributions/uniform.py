"""Continuous uniform distribution."""

from __future__ import annotations

import math

import numpy

import chainer.functions as F
from chainer.distributions import utils
from chainer.distributions.distribution import Distribution, register_kl
from chainer.utils import argument
from chainer.utils.cache import cached_property
from chainer.variable import Variable

__all__ = ["Uniform"]


class Uniform(Distribution):
    """Uniform Distribution on ``[low, high]``.

    .. math::
        p(x; l, h) = \\frac{1}{h - l}, \\quad l \\le x \\le h

    Give the interval either by its bounds (``low``, ``high``) or by its start and width
    (``loc``, ``scale``, with ``low = loc`` and ``high = loc + scale``). Samples are
    reparameterized (``low + (high - low) * u``).

    Args:
        low: (keyword only) Lower bound.
        high: (keyword only) Upper bound, greater than ``low``.
        loc: (keyword only) Lower bound, given with ``scale`` instead of ``low``/``high``.
        scale: (keyword only) Positive width of the interval.

    Example:
        >>> d = Uniform(low=np.zeros(2, np.float32), high=np.full(2, 4, np.float32))
        >>> d.cdf(np.array([1, 5], np.float32)).array
        array([0.25, 1.  ], dtype=float32)
    """

    def __init__(self, **kwargs) -> None:
        low, high, loc, scale = argument.parse_kwargs(
            kwargs, ("low", None), ("high", None), ("loc", None), ("scale", None)
        )
        by_bounds = low is not None and high is not None
        by_width = loc is not None and scale is not None
        if by_bounds == by_width or sum(v is not None for v in (low, high, loc, scale)) != 2:
            raise ValueError(
                "Uniform: give either low and high, or loc and scale (exactly one pair), got "
                + (", ".join(kwargs) or "no arguments")
            )
        self._low = self._high = self._loc = self._scale = None
        if by_bounds:
            self._low, self._high = utils.as_params("Uniform", low=low, high=high)
            utils.check_param("Uniform", "high - low", self.scale, lambda a: a > 0, "positive")
        else:
            self._loc, self._scale = utils.as_params("Uniform", loc=loc, scale=scale)
            utils.check_param("Uniform", "scale", self._scale, lambda a: a > 0, "positive")

    @property
    def params(self) -> dict[str, Variable]:
        if self._low is not None:
            return {"low": self._low, "high": self._high}
        return {"loc": self._loc, "scale": self._scale}

    @cached_property
    def low(self) -> Variable:
        return self._low if self._low is not None else self._loc

    @cached_property
    def high(self) -> Variable:
        return self._high if self._high is not None else self._loc + self._scale

    @cached_property
    def loc(self) -> Variable:
        return self.low

    @cached_property
    def scale(self) -> Variable:
        return self._scale if self._scale is not None else self._high - self._low

    @property
    def batch_shape(self) -> tuple[int, ...]:
        return self.low.shape

    @property
    def event_shape(self) -> tuple[int, ...]:
        return ()

    @property
    def support(self) -> str:
        return "[low, high]"

    def log_prob(self, x) -> Variable:
        x = utils.as_points(x, self.low.dtype)
        inside = (x.array >= self.low.array) & (x.array <= self.high.array)
        log_density = F.broadcast_to(-F.log(self.scale), inside.shape)
        return F.where(inside, log_density, self.xp.asarray(-numpy.inf, dtype=x.dtype))

    def cdf(self, x) -> Variable:
        z = (utils.as_points(x, self.low.dtype) - self.low) / self.scale
        return F.clip(z, 0.0, 1.0)

    def icdf(self, x) -> Variable:
        return self.low + self.scale * utils.as_points(x, self.low.dtype)

    @cached_property
    def entropy(self) -> Variable:
        return F.log(self.scale)

    @cached_property
    def mean(self) -> Variable:
        return self.low + 0.5 * self.scale

    @cached_property
    def stddev(self) -> Variable:
        return self.scale / math.sqrt(12)

    @cached_property
    def variance(self) -> Variable:
        return F.square(self.scale) / 12

    def sample_n(self, n: int) -> Variable:
        utils.check_sample_count(n)
        u = utils.random_array(self.xp, self.low.dtype, "uniform", size=(n, *self.batch_shape))
        return self.low + self.scale * u


@register_kl(Uniform, Uniform)
def _kl_uniform_uniform(dist1: Uniform, dist2: Uniform) -> Variable:
    # Finite only when the first interval lies inside the second.
    nested = (dist2.low.array <= dist1.low.array) & (dist1.high.array <= dist2.high.array)
    kl = F.log(dist2.scale) - F.log(dist1.scale)
    return F.where(nested, kl, dist1.xp.asarray(numpy.inf, dtype=kl.dtype))
