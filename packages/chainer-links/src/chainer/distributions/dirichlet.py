"""Dirichlet distribution on the probability simplex."""

from __future__ import annotations

import chainer.functions as F
from chainer.distributions import utils
from chainer.distributions.distribution import Distribution, register_kl
from chainer.utils.cache import cached_property
from chainer.variable import Variable

__all__ = ["Dirichlet"]


class Dirichlet(Distribution):
    """Dirichlet Distribution.

    .. math::
        p(x; \\alpha) = \\frac{\\Gamma(\\alpha_0)}{\\prod_i \\Gamma(\\alpha_i)}
            \\prod_i x_i^{\\alpha_i - 1}, \\quad \\alpha_0 = \\sum_i \\alpha_i

    The event shape is ``(K,)``, the last axis of ``alpha``; points must lie inside the
    simplex. Samples (normalized gamma draws) carry no gradient.

    Args:
        alpha: Positive concentrations, categories along the last axis.

    Example:
        >>> d = Dirichlet(np.array([1, 3], np.float32))
        >>> d.mean.array
        array([0.25, 0.75], dtype=float32)
    """

    def __init__(self, alpha) -> None:
        (self.alpha,) = utils.as_params("Dirichlet", alpha=alpha)
        if self.alpha.ndim == 0:
            raise ValueError(
                "Dirichlet: alpha needs a last axis of categories, got a 0-dimensional array"
            )
        utils.check_param("Dirichlet", "alpha", self.alpha, lambda a: a > 0, "positive")

    @property
    def params(self) -> dict[str, Variable]:
        return {"alpha": self.alpha}

    @property
    def batch_shape(self) -> tuple[int, ...]:
        return self.alpha.shape[:-1]

    @property
    def event_shape(self) -> tuple[int, ...]:
        return self.alpha.shape[-1:]

    @property
    def support(self) -> str:
        return "[0, 1]"

    @cached_property
    def alpha0(self) -> Variable:
        return F.sum(self.alpha, axis=-1)

    @cached_property
    def _log_normalizer(self) -> Variable:
        # log of the multivariate beta function B(alpha).
        return F.sum(F.lgamma(self.alpha), axis=-1) - F.lgamma(self.alpha0)

    def log_prob(self, x) -> Variable:
        x = utils.as_points(x, self.alpha.dtype)
        return F.sum((self.alpha - 1) * F.log(x), axis=-1) - self._log_normalizer

    @cached_property
    def entropy(self) -> Variable:
        n_categories = self.alpha.shape[-1]
        return (
            self._log_normalizer
            + (self.alpha0 - n_categories) * F.digamma(self.alpha0)
            - F.sum((self.alpha - 1) * F.digamma(self.alpha), axis=-1)
        )

    @cached_property
    def mean(self) -> Variable:
        return self.alpha / F.expand_dims(self.alpha0, -1)

    @cached_property
    def variance(self) -> Variable:
        alpha0 = F.expand_dims(self.alpha0, -1)
        return self.alpha * (alpha0 - self.alpha) / (F.square(alpha0) * (alpha0 + 1))

    def sample_n(self, n: int) -> Variable:
        utils.check_sample_count(n)
        shape = (n, *self.alpha.shape)
        gammas = self.xp.random.gamma(self.alpha.array, size=shape)
        samples = gammas / gammas.sum(axis=-1, keepdims=True)
        return Variable(samples.astype(self.alpha.dtype), requires_grad=False)


@register_kl(Dirichlet, Dirichlet)
def _kl_dirichlet_dirichlet(dist1: Dirichlet, dist2: Dirichlet) -> Variable:
    expected_log_x = F.digamma(dist1.alpha) - F.expand_dims(F.digamma(dist1.alpha0), -1)
    return (
        dist2._log_normalizer
        - dist1._log_normalizer
        + F.sum((dist1.alpha - dist2.alpha) * expected_log_x, axis=-1)
    )
