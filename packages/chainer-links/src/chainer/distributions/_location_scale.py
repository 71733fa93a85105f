"""The shared part of the real-valued location-scale distributions (Cauchy, Gumbel, Laplace)."""

from __future__ import annotations

from chainer.distributions import utils
from chainer.distributions.distribution import Distribution
from chainer.variable import Variable


class LocationScaleDistribution(Distribution):
    """A scalar distribution on the reals with parameters ``loc`` and a positive ``scale``.

    Subclasses define the density and its functions of ``_standardize(x)``, ``(x - loc) / scale``.
    """

    def __init__(self, loc, scale) -> None:
        name = type(self).__name__
        self.loc, self.scale = utils.as_params(name, loc=loc, scale=scale)
        utils.check_param(name, "scale", self.scale, lambda a: a > 0, "positive")

    @property
    def params(self) -> dict[str, Variable]:
        return {"loc": self.loc, "scale": self.scale}

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
