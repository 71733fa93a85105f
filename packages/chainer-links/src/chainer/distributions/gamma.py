"""Gamma distribution (shape ``k``, scale ``theta``)."""

from __future__ import annotations

import chainer.functions as F
from chainer.distributions import utils
from chainer.distributions.distribution import Distribution, register_kl
from chainer.utils.cache import cached_property
from chainer.variable import Variable

__all__ = ["Gamma"]


class Gamma(Distribution):
    """Gamma Distribution.

    .. math::
        p(x; k, \\theta) = \\frac{x^{k - 1} e^{-x / \\theta}}{\\Gamma(k)\\, \\theta^k},
            \\quad x \\ge 0

    Samples come from ``xp.random.gamma`` and carry no gradient. ``log_prob`` and
    ``entropy`` need :func:`chainer.functions.lgamma` and ``digamma`` (SciPy on the CPU).

    Args:
        k: The positive shape :math:`k` (array or variable).
        theta: The positive scale :math:`\\theta`, broadcastable with ``k``.

    Example:
        >>> d = Gamma(np.array([1, 2], np.float32), np.array([2, 2], np.float32))
        >>> d.variance.array
        array([4., 8.], dtype=float32)
    """

    def __init__(self, k, theta) -> None:
        self.k, self.theta = utils.as_params("Gamma", k=k, theta=theta)
        utils.check_param("Gamma", "k", self.k, lambda a: a > 0, "positive")
        utils.check_param("Gamma", "theta", self.theta, lambda a: a > 0, "positive")

    @property
    def params(self) -> dict[str, Variable]:
        return {"k": self.k, "theta": self.theta}

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
        return utils.on_support(
            x,
            x.array >= 0,
            1,
            lambda x: (
                (self.k - 1) * F.log(x)
                - x / self.theta
                - F.lgamma(self.k)
                - self.k * F.log(self.theta)
            ),
        )

    @cached_property
    def entropy(self) -> Variable:
        k = self.k
        return k + F.log(self.theta) + F.lgamma(k) + (1 - k) * F.digamma(k)

    @cached_property
    def mean(self) -> Variable:
        return self.k * self.theta

    @cached_property
    def variance(self) -> Variable:
        return self.k * F.square(self.theta)

    def sample_n(self, n: int) -> Variable:
        utils.check_sample_count(n)
        return Variable(
            utils.random_array(
                self.xp,
                self.k.dtype,
                "gamma",
                self.k.array,
                self.theta.array,
                size=(n, *self.batch_shape),
            ),
            requires_grad=False,
        )


def gamma_kl(k1, theta1, k2, theta2) -> Variable:
    """KL divergence between two gamma laws given by shape and scale."""
    return (
        (k1 - k2) * F.digamma(k1)
        - F.lgamma(k1)
        + F.lgamma(k2)
        + k2 * (F.log(theta2) - F.log(theta1))
        + k1 * (theta1 / theta2 - 1)
    )


@register_kl(Gamma, Gamma)
def _kl_gamma_gamma(dist1: Gamma, dist2: Gamma) -> Variable:
    return gamma_kl(dist1.k, dist1.theta, dist2.k, dist2.theta)
