"""Normal (Gaussian) distribution."""

from __future__ import annotations

import math

import chainer.functions as F
from chainer.distributions import utils
from chainer.distributions.distribution import Distribution, register_kl
from chainer.utils import argument
from chainer.utils.cache import cached_property
from chainer.variable import Variable

__all__ = ["Normal"]

LOG_SQRT_2PI = 0.5 * math.log(2 * math.pi)


class Normal(Distribution):
    """Normal Distribution.

    .. math::
        p(x; \\mu, \\sigma) = \\frac{1}{\\sqrt{2\\pi\\sigma^2}}
            \\exp\\left(-\\frac{(x - \\mu)^2}{2\\sigma^2}\\right)

    Samples are reparameterized (``loc + scale * eps``), so they backpropagate to both
    parameters.

    Args:
        loc: The mean :math:`\\mu` (array or variable).
        scale: The standard deviation :math:`\\sigma > 0`, broadcastable with ``loc``.
        log_scale: (keyword only) :math:`\\log \\sigma`, given instead of ``scale``.

    Example:
        >>> d = Normal(np.zeros(3, np.float32), log_scale=np.zeros(3, np.float32))
        >>> d.log_prob(np.zeros(3, np.float32)).array
        array([-0.9189385, -0.9189385, -0.9189385], dtype=float32)
    """

    def __init__(self, loc, scale=None, **kwargs) -> None:
        (log_scale,) = argument.parse_kwargs(kwargs, ("log_scale", None))
        if (scale is None) == (log_scale is None):
            raise ValueError("Normal: give either scale or log_scale (exactly one of them)")
        self._scale = self._log_scale = None
        if scale is not None:
            self.loc, self._scale = utils.as_params("Normal", loc=loc, scale=scale)
            utils.check_param("Normal", "scale", self._scale, lambda a: a > 0, "positive")
        else:
            self.loc, self._log_scale = utils.as_params("Normal", loc=loc, log_scale=log_scale)

    @property
    def params(self) -> dict[str, Variable]:
        if self._scale is not None:
            return {"loc": self.loc, "scale": self._scale}
        return {"loc": self.loc, "log_scale": self._log_scale}

    @cached_property
    def scale(self) -> Variable:
        return self._scale if self._scale is not None else F.exp(self._log_scale)

    @cached_property
    def log_scale(self) -> Variable:
        return self._log_scale if self._log_scale is not None else F.log(self._scale)

    @property
    def batch_shape(self) -> tuple[int, ...]:
        return self.loc.shape

    @property
    def event_shape(self) -> tuple[int, ...]:
        return ()

    @property
    def support(self) -> str:
        return "real"

    def _standardize(self, x) -> Variable:
        return (utils.as_points(x, self.loc.dtype) - self.loc) / self.scale

    def log_prob(self, x) -> Variable:
        return -0.5 * F.square(self._standardize(x)) - self.log_scale - LOG_SQRT_2PI

    def prob(self, x) -> Variable:
        return F.exp(-0.5 * F.square(self._standardize(x))) / (self.scale * math.sqrt(2 * math.pi))

    def cdf(self, x) -> Variable:
        return F.ndtr(self._standardize(x))

    def log_cdf(self, x) -> Variable:
        return F.log_ndtr(self._standardize(x))

    def survival_function(self, x) -> Variable:
        return F.ndtr(-self._standardize(x))

    def log_survival_function(self, x) -> Variable:
        return F.log_ndtr(-self._standardize(x))

    def icdf(self, x) -> Variable:
        return self.loc + self.scale * F.ndtri(utils.as_points(x, self.loc.dtype))

    @cached_property
    def entropy(self) -> Variable:
        return self.log_scale + (0.5 + LOG_SQRT_2PI)

    @property
    def mean(self) -> Variable:
        return self.loc

    @property
    def mode(self) -> Variable:
        return self.loc

    @property
    def stddev(self) -> Variable:
        return self.scale

    @cached_property
    def variance(self) -> Variable:
        return F.square(self.scale)

    def sample_n(self, n: int) -> Variable:
        utils.check_sample_count(n)
        eps = utils.random_array(
            self.xp, self.loc.dtype, "standard_normal", size=(n, *self.batch_shape)
        )
        return self.loc + self.scale * eps


def gaussian_kl(loc1, scale1, log_scale1, loc2, scale2, log_scale2) -> Variable:
    """KL divergence between two normal laws given by mean, scale and log-scale."""
    return (
        log_scale2
        - log_scale1
        + 0.5 * (F.square(scale1 / scale2) + F.square((loc1 - loc2) / scale2))
        - 0.5
    )


@register_kl(Normal, Normal)
def _kl_normal_normal(dist1: Normal, dist2: Normal) -> Variable:
    return gaussian_kl(
        dist1.loc, dist1.scale, dist1.log_scale, dist2.loc, dist2.scale, dist2.log_scale
    )
