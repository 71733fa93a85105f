"""Pareto (type I) distribution."""

from __future__ import annotations

import numpy

import chainer.functions as F
from chainer.distributions import utils
from chainer.distributions.distribution import Distribution, register_kl
from chainer.utils.cache import cached_property
from chainer.variable import Variable

__all__ = ["Pareto"]


class Pareto(Distribution):
    """Pareto Distribution.

    .. math::
        p(x; x_m, \\alpha) = \\frac{\\alpha x_m^\\alpha}{x^{\\alpha + 1}}, \\quad x \\ge x_m

    The mean is infinite for ``alpha <= 1`` and the variance for ``alpha <= 2``. Samples are
    reparameterized (``scale * exp(eps / alpha)`` with ``eps`` standard exponential).

    Args:
        scale: The positive minimum :math:`x_m` (array or variable).
        alpha: The positive shape :math:`\\alpha`, broadcastable with ``scale``.

    Example:
        >>> d = Pareto(np.ones(2, np.float32), np.array([3, 0.5], np.float32))
        >>> d.mean.array
        array([1.5, inf], dtype=float32)
    """

    def __init__(self, scale, alpha) -> None:
        self.scale, self.alpha = utils.as_params("Pareto", scale=scale, alpha=alpha)
        utils.check_param("Pareto", "scale", self.scale, lambda a: a > 0, "positive")
        utils.check_param("Pareto", "alpha", self.alpha, lambda a: a > 0, "positive")

    @property
    def params(self) -> dict[str, Variable]:
        return {"scale": self.scale, "alpha": self.alpha}

    @property
    def batch_shape(self) -> tuple[int, ...]:
        return self.scale.shape

    @property
    def event_shape(self) -> tuple[int, ...]:
        return ()

    @property
    def support(self) -> str:
        return "[scale, inf]"

    def _points(self, x):
        x = utils.as_points(x, self.scale.dtype)
        return x, x.array >= self.scale.array

    def log_prob(self, x) -> Variable:
        x, inside = self._points(x)
        return utils.on_support(
            x,
            inside,
            self.scale.array,
            lambda x: (
                F.log(self.alpha) + self.alpha * F.log(self.scale) - (self.alpha + 1) * F.log(x)
            ),
        )

    def cdf(self, x) -> Variable:
        x, inside = self._points(x)
        return utils.on_support(
            x,
            inside,
            self.scale.array,
            lambda x: -F.expm1(self.alpha * (F.log(self.scale) - F.log(x))),
            outside=0,
        )

    def icdf(self, x) -> Variable:
        p = utils.as_points(x, self.scale.dtype)
        return self.scale * F.exp(-F.log1p(-p) / self.alpha)

    @cached_property
    def entropy(self) -> Variable:
        return F.log(self.scale / self.alpha) + 1.0 / self.alpha + 1.0

    def _where_alpha_above(self, bound: float, formula) -> Variable:
        # Moments diverge for small alpha; the formula sees a safe alpha there (no 1/0).
        above = self.alpha.array > bound
        return utils.on_support(self.alpha, above, bound + 1, formula, outside=numpy.inf)

    @cached_property
    def mean(self) -> Variable:
        return self._where_alpha_above(1, lambda a: a * self.scale / (a - 1))

    @cached_property
    def variance(self) -> Variable:
        return self._where_alpha_above(
            2, lambda a: F.square(self.scale) * a / (F.square(a - 1) * (a - 2))
        )

    def sample_n(self, n: int) -> Variable:
        utils.check_sample_count(n)
        eps = utils.random_array(
            self.xp, self.scale.dtype, "standard_exponential", size=(n, *self.batch_shape)
        )
        return self.scale * F.exp(eps / self.alpha)


@register_kl(Pareto, Pareto)
def _kl_pareto_pareto(dist1: Pareto, dist2: Pareto) -> Variable:
    # Finite only when the support of dist1 lies inside that of dist2.
    a1, a2 = dist1.alpha, dist2.alpha
    kl = F.log(a1 / a2) + a2 * F.log(dist1.scale / dist2.scale) + a2 / a1 - 1.0
    inside = dist1.scale.array >= dist2.scale.array
    return F.where(inside, kl, dist1.xp.asarray(numpy.inf, dtype=kl.dtype))
