"""Categorical distribution whose draws are one-hot vectors."""

from __future__ import annotations

import chainer.functions as F
from chainer.distributions import utils
from chainer.distributions.categorical import categorical_kl, prepare_probabilities, sample_indices
from chainer.distributions.distribution import Distribution, register_kl
from chainer.utils.cache import cached_property
from chainer.variable import Variable

__all__ = ["OneHotCategorical"]


class OneHotCategorical(Distribution):
    """OneHotCategorical Distribution: a categorical law whose events are one-hot vectors.

    .. math::
        P(x; p) = \\prod_i p_i^{x_i}, \\quad x \\in \\{e_0, \\ldots, e_{K-1}\\}

    The event shape is ``(K,)``, the last axis of ``p``. Samples are one-hot vectors in the
    dtype of ``p`` and carry no gradient.

    Args:
        p: Probabilities of the categories, summing to 1 along the last axis.

    Example:
        >>> d = OneHotCategorical(np.array([0.2, 0.8], np.float32))
        >>> d.log_prob(np.array([0, 1], np.float32)).array
        array(-0.22314353, dtype=float32)
    """

    def __init__(self, p) -> None:
        self.p, _ = prepare_probabilities("OneHotCategorical", p, None)

    @property
    def params(self) -> dict[str, Variable]:
        return {"p": self.p}

    @property
    def event_shape(self) -> tuple[int, ...]:
        return self.p.shape[-1:]

    @property
    def batch_shape(self) -> tuple[int, ...]:
        return self.p.shape[:-1]

    @cached_property
    def log_p(self) -> Variable:
        return utils.quiet(F.log, self.p)

    def log_prob(self, x) -> Variable:
        x = utils.as_points(x, self.p.dtype)
        return F.sum(utils.times_log(x, self.log_p), axis=-1)

    @cached_property
    def entropy(self) -> Variable:
        return -F.sum(utils.times_log(self.p, self.log_p), axis=-1)

    @property
    def mean(self) -> Variable:
        return self.p

    @cached_property
    def variance(self) -> Variable:
        return self.p * (1 - self.p)

    def sample_n(self, n: int) -> Variable:
        utils.check_sample_count(n)
        xp = self.xp
        indices = sample_indices(xp, self.p.array, n)
        one_hot = indices[..., None] == xp.arange(self.p.shape[-1])
        return Variable(one_hot.astype(self.p.dtype), requires_grad=False)


register_kl(OneHotCategorical, OneHotCategorical)(categorical_kl)
