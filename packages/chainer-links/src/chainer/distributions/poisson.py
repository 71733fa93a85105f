"""Poisson distribution."""

from __future__ import annotations

import chainer.functions as F
from chainer.distributions import utils
from chainer.distributions.distribution import Distribution, register_kl
from chainer.variable import Variable

__all__ = ["Poisson"]


class Poisson(Distribution):
    """Poisson Distribution.

    .. math::
        P(x; \\lambda) = \\frac{\\lambda^x e^{-\\lambda}}{x!}, \\quad x = 0, 1, 2, \\ldots

    Points off the support (negative or non-integer) have probability 0. Samples come from
    ``xp.random.poisson`` (in the parameter's dtype) and carry no gradient.

    Args:
        lam: The positive rate :math:`\\lambda` (array or variable).

    Example:
        >>> d = Poisson(np.array([1, 4], np.float32))
        >>> d.prob(np.array([0, 0], np.float32)).array
        array([0.36787942, 0.01831564], dtype=float32)
    """

    def __init__(self, lam) -> None:
        (self.lam,) = utils.as_params("Poisson", lam=lam)
        utils.check_param("Poisson", "lam", self.lam, lambda a: a > 0, "positive")

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
        return "non negative integer"

    def log_prob(self, x) -> Variable:
        x = utils.as_points(x, self.lam.dtype)
        counts = (x.array >= 0) & (x.array == self.xp.floor(x.array))
        return utils.on_support(
            x, counts, 0, lambda x: x * F.log(self.lam) - self.lam - F.lgamma(x + 1)
        )

    @property
    def mean(self) -> Variable:
        return self.lam

    @property
    def variance(self) -> Variable:
        return self.lam

    def sample_n(self, n: int) -> Variable:
        utils.check_sample_count(n)
        return Variable(
            utils.random_array(
                self.xp, self.lam.dtype, "poisson", self.lam.array, size=(n, *self.batch_shape)
            ),
            requires_grad=False,
        )


@register_kl(Poisson, Poisson)
def _kl_poisson_poisson(dist1: Poisson, dist2: Poisson) -> Variable:
    lam1, lam2 = dist1.lam, dist2.lam
    return lam1 * (F.log(lam1) - F.log(lam2)) - lam1 + lam2
