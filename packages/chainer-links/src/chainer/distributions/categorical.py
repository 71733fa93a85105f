"""Categorical distribution over ``{0, ..., K - 1}``, parameterized by probability or logit."""

from __future__ import annotations

import numpy

import chainer.functions as F
from chainer.distributions import utils
from chainer.distributions.distribution import Distribution, register_kl
from chainer.utils import argument
from chainer.utils.cache import cached_property
from chainer.variable import Variable, as_variable

__all__ = ["Categorical"]


def prepare_probabilities(owner: str, p, logit) -> tuple[Variable | None, Variable | None]:
    """Check the ``p``/``logit`` pair of a categorical law; the categories are the last axis."""
    if (p is None) == (logit is None):
        raise ValueError(f"{owner}: give either p or logit (exactly one of them)")
    name, value = ("p", p) if p is not None else ("logit", logit)
    (param,) = utils.as_params(owner, **{name: value})
    if param.ndim == 0:
        raise ValueError(
            f"{owner}: {name} needs a last axis of categories, got a 0-dimensional array"
        )
    if name == "logit":
        return None, param
    utils.check_param(owner, "p", param, lambda a: (a >= 0) & (a <= 1), "in [0, 1]")
    return param, None


def sample_indices(xp, p, n: int):
    """``n`` category indices per distribution drawn from probabilities ``p`` (last axis)."""
    u = xp.random.uniform(size=(n, *p.shape[:-1], 1))
    cumulative = xp.cumsum(p, axis=-1)
    # Rounding can leave the last cumulative sum just under 1: clamp to the last category.
    return xp.minimum((u >= cumulative).sum(axis=-1), p.shape[-1] - 1).astype(numpy.int32)


class Categorical(Distribution):
    """Categorical Distribution.

    .. math::
        P(x = i; p) = p_i, \\quad i = 0, \\ldots, K - 1

    The categories lie along the last axis of ``p`` (or ``logit``); the other axes are the
    batch. ``log_prob`` takes integer category indices; samples are ``int32`` indices and
    carry no gradient.

    Args:
        p: Probabilities of the categories, summing to 1 along the last axis.
        logit: (keyword only) Unnormalized log-probabilities, given instead of ``p``.

    Example:
        >>> d = Categorical(np.array([[0.2, 0.8], [0.5, 0.5]], np.float32))
        >>> d.log_prob(np.array([1, 0])).array
        array([-0.22314353, -0.6931472 ], dtype=float32)
    """

    def __init__(self, p=None, **kwargs) -> None:
        (logit,) = argument.parse_kwargs(kwargs, ("logit", None))
        self._p, self._logit = prepare_probabilities("Categorical", p, logit)

    @property
    def params(self) -> dict[str, Variable]:
        return {"p": self._p} if self._p is not None else {"logit": self._logit}

    @cached_property
    def p(self) -> Variable:
        return self._p if self._p is not None else F.softmax(self._logit, axis=-1)

    @cached_property
    def log_p(self) -> Variable:
        if self._p is not None:
            return utils.quiet(F.log, self._p)
        return F.log_softmax(self._logit, axis=-1)

    @property
    def batch_shape(self) -> tuple[int, ...]:
        return next(iter(self.params.values())).shape[:-1]

    @property
    def event_shape(self) -> tuple[int, ...]:
        return ()

    def log_prob(self, x) -> Variable:
        x = as_variable(x).array
        if x.dtype.kind not in "iu":
            raise TypeError(f"Categorical.log_prob: x must hold integer indices, got {x.dtype}")
        shape = numpy.broadcast_shapes(x.shape, self.batch_shape)
        n_categories = self.log_p.shape[-1]
        log_p = F.reshape(F.broadcast_to(self.log_p, (*shape, n_categories)), (-1, n_categories))
        indices = self.xp.broadcast_to(x, shape).reshape(-1).astype(numpy.int32)
        return F.reshape(F.select_item(log_p, indices), shape)

    @cached_property
    def entropy(self) -> Variable:
        return -F.sum(utils.times_log(self.p, self.log_p), axis=-1)

    def sample_n(self, n: int) -> Variable:
        utils.check_sample_count(n)
        return Variable(sample_indices(self.xp, self.p.array, n), requires_grad=False)


def categorical_kl(dist1, dist2) -> Variable:
    """KL divergence of two laws on the same categories (the last axis of ``p``)."""
    return F.sum(utils.times_log(dist1.p, dist1.log_p - dist2.log_p), axis=-1)


register_kl(Categorical, Categorical)(categorical_kl)
