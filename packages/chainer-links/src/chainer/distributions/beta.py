"""Beta distribution."""

from __future__ import annotations

import chainer.functions as F
from chainer.distributions import utils
from chainer.distributions.distribution import Distribution, register_kl
from chainer.utils.cache import cached_property
from chainer.variable import Variable

__all__ = ["Beta"]


def _lbeta(a, b) -> Variable:
    return F.lgamma(a) + F.lgamma(b) - F.lgamma(a + b)


class Beta(Distribution):
    """Beta Distribution.

    .. math::
        p(x; a, b) = \\frac{x^{a - 1} (1 - x)^{b - 1}}{B(a, b)}, \\quad 0 \\le x \\le 1

    Samples come from ``xp.random.beta`` and carry no gradient. ``log_prob`` and ``entropy``
    need :func:`chainer.functions.lgamma` and ``digamma`` (SciPy on the CPU).

    Args:
        a: The positive first shape parameter (array or variable).
        b: The positive second shape parameter, broadcastable with ``a``.

    Example:
        >>> d = Beta(np.array([1, 2], np.float32), np.array([1, 6], np.float32))
        >>> d.mean.array
        array([0.5 , 0.25], dtype=float32)
    """

    def __init__(self, a, b) -> None:
        self.a, self.b = utils.as_params("Beta", a=a, b=b)
        utils.check_param("Beta", "a", self.a, lambda v: v > 0, "positive")
        utils.check_param("Beta", "b", self.b, lambda v: v > 0, "positive")

    @property
    def params(self) -> dict[str, Variable]:
        return {"a": self.a, "b": self.b}

    @property
    def batch_shape(self) -> tuple[int, ...]:
        return self.a.shape

    @property
    def event_shape(self) -> tuple[int, ...]:
        return ()

    @property
    def support(self) -> str:
        return "[0, 1]"

    @cached_property
    def _lbeta(self) -> Variable:
        return _lbeta(self.a, self.b)

    def log_prob(self, x) -> Variable:
        x = utils.as_points(x, self.a.dtype)
        inside = (x.array >= 0) & (x.array <= 1)
        return utils.on_support(
            x,
            inside,
            0.5,
            lambda x: (self.a - 1) * F.log(x) + (self.b - 1) * F.log1p(-x) - self._lbeta,
        )

    @cached_property
    def entropy(self) -> Variable:
        a, b = self.a, self.b
        return (
            self._lbeta
            - (a - 1) * F.digamma(a)
            - (b - 1) * F.digamma(b)
            + (a + b - 2) * F.digamma(a + b)
        )

    @cached_property
    def mean(self) -> Variable:
        return self.a / (self.a + self.b)

    @cached_property
    def variance(self) -> Variable:
        total = self.a + self.b
        return self.a * self.b / (F.square(total) * (total + 1))

    def sample_n(self, n: int) -> Variable:
        utils.check_sample_count(n)
        return Variable(
            utils.random_array(
                self.xp,
                self.a.dtype,
                "beta",
                self.a.array,
                self.b.array,
                size=(n, *self.batch_shape),
            ),
            requires_grad=False,
        )


@register_kl(Beta, Beta)
def _kl_beta_beta(dist1: Beta, dist2: Beta) -> Variable:
    a1, b1, a2, b2 = dist1.a, dist1.b, dist2.a, dist2.b
    return (
        _lbeta(a2, b2)
        - dist1._lbeta
        + (a1 - a2) * F.digamma(a1)
        + (b1 - b2) * F.digamma(b1)
        + (a2 - a1 + b2 - b1) * F.digamma(a1 + b1)
    )
