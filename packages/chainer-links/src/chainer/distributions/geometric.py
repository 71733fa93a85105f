"""Geometric distribution (number of trials up to the first success)."""

from __future__ import annotations

import chainer.functions as F
from chainer.distributions import utils
from chainer.distributions.distribution import Distribution, register_kl
from chainer.utils.cache import cached_property
from chainer.variable import Variable

__all__ = ["Geometric"]


class Geometric(Distribution):
    """Geometric Distribution: the number of Bernoulli trials up to the first success.

    .. math::
        P(x; p) = p (1 - p)^{x - 1}, \\quad x = 1, 2, 3, \\ldots

    Points off the support (below 1 or non-integer) have probability 0. Samples come from
    ``xp.random.geometric`` (in the parameter's dtype) and carry no gradient.

    Args:
        p: The success probability of each trial, in ``(0, 1]`` (array or variable).

    Example:
        >>> d = Geometric(np.array([0.5, 0.25], np.float32))
        >>> d.mean.array
        array([2., 4.], dtype=float32)
    """

    def __init__(self, p) -> None:
        (self.p,) = utils.as_params("Geometric", p=p)
        utils.check_param("Geometric", "p", self.p, lambda a: (a > 0) & (a <= 1), "in (0, 1]")

    @property
    def params(self) -> dict[str, Variable]:
        return {"p": self.p}

    @property
    def batch_shape(self) -> tuple[int, ...]:
        return self.p.shape

    @property
    def event_shape(self) -> tuple[int, ...]:
        return ()

    @property
    def support(self) -> str:
        return "positive integer"

    @cached_property
    def _log_q(self) -> Variable:
        # log(1 - p) is -inf for p = 1 (a sure first success), which is legitimate.
        return utils.quiet(F.log1p, -self.p)

    def log_prob(self, x) -> Variable:
        x = utils.as_points(x, self.p.dtype)
        trials = (x.array >= 1) & (x.array == self.xp.floor(x.array))
        return utils.on_support(
            x,
            trials,
            1,
            lambda x: utils.times_log(x - 1, self._log_q) + F.log(self.p),
        )

    @cached_property
    def entropy(self) -> Variable:
        return -(utils.modified_xlogx(1 - self.p) + utils.modified_xlogx(self.p)) / self.p

    @cached_property
    def mean(self) -> Variable:
        return 1 / self.p

    @cached_property
    def variance(self) -> Variable:
        return (1 - self.p) / F.square(self.p)

    def sample_n(self, n: int) -> Variable:
        utils.check_sample_count(n)
        return Variable(
            utils.random_array(
                self.xp, self.p.dtype, "geometric", self.p.array, size=(n, *self.batch_shape)
            ),
            requires_grad=False,
        )


@register_kl(Geometric, Geometric)
def _kl_geometric_geometric(dist1: Geometric, dist2: Geometric) -> Variable:
    # E_1[x - 1] = (1 - p1) / p1 failures, each contributing log(1 - p1) - log(1 - p2).
    p1, p2 = dist1.p, dist2.p
    expected_failures = (1 - p1) / p1
    return F.log(p1) - F.log(p2) + utils.times_log(expected_failures, dist1._log_q - dist2._log_q)
