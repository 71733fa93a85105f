"""Bernoulli distribution, parameterized by probability or logit."""

from __future__ import annotations

import numpy

import chainer.functions as F
from chainer.distributions import utils
from chainer.distributions.distribution import Distribution, register_kl
from chainer.utils.cache import cached_property
from chainer.variable import Variable, as_variable

__all__ = ["Bernoulli"]


def _relaxed_log_prob(log_p: Variable, log_q: Variable, x: Variable) -> Variable:
    # x log p + (1 - x) log q, with 0 * log(0) = 0.
    return utils.times_log(x, log_p) + utils.times_log(1 - x, log_q)


def _bernoulli_log_prob(logit, x) -> Variable:
    """``log P(x)`` of the Bernoulli law of log-odds ``logit`` (the relaxed form: any ``x``);
    infinite logits give finite or ``-inf`` values."""
    logit = as_variable(logit)
    x = utils.as_points(x, logit.dtype)
    return _relaxed_log_prob(-F.softplus(-logit), -F.softplus(logit), x)


class Bernoulli(Distribution):
    """Bernoulli Distribution.

    .. math::
        P(x; p) = p^x (1 - p)^{1 - x}, \\quad x \\in \\{0, 1\\}

    Give either the probability ``p`` of 1 or its ``logit`` ``log(p / (1 - p))``; the logit
    form computes ``log_prob`` without loss of precision for probabilities close to 0 or 1.
    ``log_prob`` applies the formula above to any ``x`` (the relaxed form); with
    ``binary_check=True`` points other than 0 and 1 get ``-inf``. Samples carry no gradient.

    Args:
        p: Probability of 1, in ``[0, 1]`` (array or variable).
        logit: Log-odds of 1, given instead of ``p``.
        binary_check: Give ``-inf`` log-probability to points other than 0 and 1.

    Example:
        >>> d = Bernoulli(logit=np.array([0, 2], np.float32))
        >>> d.prob(np.array([1, 1], np.float32)).array
        array([0.5       , 0.88079715], dtype=float32)
    """

    def __init__(self, p=None, logit=None, binary_check: bool = False) -> None:
        if (p is None) == (logit is None):
            raise ValueError("Bernoulli: give either p or logit (exactly one of them)")
        self._p = self._logit = None
        if p is not None:
            (self._p,) = utils.as_params("Bernoulli", p=p)
            utils.check_param(
                "Bernoulli", "p", self._p, lambda a: (a >= 0) & (a <= 1), "in [0, 1]"
            )
        else:
            (self._logit,) = utils.as_params("Bernoulli", logit=logit)
        self.binary_check = binary_check

    @property
    def params(self) -> dict[str, Variable]:
        return {"p": self._p} if self._p is not None else {"logit": self._logit}

    @cached_property
    def p(self) -> Variable:
        return self._p if self._p is not None else F.sigmoid(self._logit)

    @cached_property
    def logit(self) -> Variable:
        return self._logit if self._logit is not None else self._log_p - self._log_q

    @cached_property
    def _q(self) -> Variable:
        return 1 - self._p if self._p is not None else F.sigmoid(-self._logit)

    @cached_property
    def _log_p(self) -> Variable:
        if self._p is not None:
            return utils.quiet(F.log, self._p)
        return -F.softplus(-self._logit)

    @cached_property
    def _log_q(self) -> Variable:
        if self._p is not None:
            return utils.quiet(F.log1p, -self._p)
        return -F.softplus(self._logit)

    @property
    def event_shape(self) -> tuple[int, ...]:
        return ()

    @property
    def support(self) -> str:
        return "{0, 1}"

    def log_prob(self, x) -> Variable:
        x = utils.as_points(x, self.p.dtype)
        y = _relaxed_log_prob(self._log_p, self._log_q, x)
        if not self.binary_check:
            return y
        binary = (x.array == 0) | (x.array == 1)
        return F.where(binary, y, self.xp.asarray(-numpy.inf, dtype=y.dtype))

    @cached_property
    def entropy(self) -> Variable:
        return -(utils.times_log(self.p, self._log_p) + utils.times_log(self._q, self._log_q))

    @property
    def mean(self) -> Variable:
        return self.p

    @cached_property
    def variance(self) -> Variable:
        return self.p * self._q

    def sample_n(self, n: int) -> Variable:
        utils.check_sample_count(n)
        u = self.xp.random.uniform(size=(n, *self.batch_shape))
        return Variable((u < self.p.array).astype(self.p.dtype), requires_grad=False)


@register_kl(Bernoulli, Bernoulli)
def _kl_bernoulli_bernoulli(dist1: Bernoulli, dist2: Bernoulli) -> Variable:
    return utils.times_log(dist1.p, dist1._log_p - dist2._log_p) + utils.times_log(
        dist1._q, dist1._log_q - dist2._log_q
    )
