"""Log-normal distribution."""

from __future__ import annotations

import chainer.functions as F
from chainer.distributions import utils
from chainer.distributions.distribution import Distribution, register_kl
from chainer.distributions.normal import LOG_SQRT_2PI, gaussian_kl
from chainer.utils.cache import cached_property
from chainer.variable import Variable

__all__ = ["LogNormal"]


class LogNormal(Distribution):
    """Logarithm Normal Distribution: ``log(X)`` is normal with mean ``mu`` and std ``sigma``.

    .. math::
        p(x; \\mu, \\sigma) = \\frac{1}{\\sqrt{2\\pi\\sigma^2}\\, x}
            \\exp\\left(-\\frac{(\\log x - \\mu)^2}{2\\sigma^2}\\right), \\quad x > 0

    Samples are reparameterized (``exp(mu + sigma * eps)``).

    Args:
        mu: Mean of ``log(X)`` (array or variable).
        sigma: Standard deviation of ``log(X)``, positive, broadcastable with ``mu``.

    Example:
        >>> d = LogNormal(np.zeros(2, np.float32), np.ones(2, np.float32))
        >>> d.mean.array
        array([1.6487212, 1.6487212], dtype=float32)
    """

    def __init__(self, mu, sigma) -> None:
        self.mu, self.sigma = utils.as_params("LogNormal", mu=mu, sigma=sigma)
        utils.check_param("LogNormal", "sigma", self.sigma, lambda a: a > 0, "positive")

    @property
    def params(self) -> dict[str, Variable]:
        return {"mu": self.mu, "sigma": self.sigma}

    @property
    def batch_shape(self) -> tuple[int, ...]:
        return self.mu.shape

    @property
    def event_shape(self) -> tuple[int, ...]:
        return ()

    @property
    def support(self) -> str:
        return "positive"

    @cached_property
    def _log_sigma(self) -> Variable:
        return F.log(self.sigma)

    def _positive_points(self, x):
        x = utils.as_points(x, self.mu.dtype)
        return x, x.array > 0

    def log_prob(self, x) -> Variable:
        x, positive = self._positive_points(x)

        def formula(x):
            log_x = F.log(x)
            z = (log_x - self.mu) / self.sigma
            return -0.5 * F.square(z) - log_x - self._log_sigma - LOG_SQRT_2PI

        return utils.on_support(x, positive, 1, formula)

    def cdf(self, x) -> Variable:
        x, positive = self._positive_points(x)
        return utils.on_support(
            x, positive, 1, lambda x: F.ndtr((F.log(x) - self.mu) / self.sigma), outside=0
        )

    def icdf(self, x) -> Variable:
        return F.exp(self.mu + self.sigma * F.ndtri(utils.as_points(x, self.mu.dtype)))

    @cached_property
    def entropy(self) -> Variable:
        return self.mu + self._log_sigma + (0.5 + LOG_SQRT_2PI)

    @cached_property
    def mean(self) -> Variable:
        return F.exp(self.mu + 0.5 * F.square(self.sigma))

    @cached_property
    def mode(self) -> Variable:
        return F.exp(self.mu - F.square(self.sigma))

    @cached_property
    def variance(self) -> Variable:
        sigma2 = F.square(self.sigma)
        return F.expm1(sigma2) * F.exp(2 * self.mu + sigma2)

    def sample_n(self, n: int) -> Variable:
        utils.check_sample_count(n)
        eps = utils.random_array(
            self.xp, self.mu.dtype, "standard_normal", size=(n, *self.batch_shape)
        )
        return F.exp(self.mu + self.sigma * eps)


@register_kl(LogNormal, LogNormal)
def _kl_log_normal_log_normal(dist1: LogNormal, dist2: LogNormal) -> Variable:
    # KL is invariant under the common bijection exp, so it is the KL of the normal laws.
    return gaussian_kl(
        dist1.mu, dist1.sigma, dist1._log_sigma, dist2.mu, dist2.sigma, dist2._log_sigma
    )
