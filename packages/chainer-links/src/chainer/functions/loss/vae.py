"""Losses of variational autoencoders: Gaussian KL divergence and NLLs (composed functions)."""

from __future__ import annotations

import math

from chainer._ops import array_ops
from chainer._ops.exponential import exp
from chainer.functions.activation.softplus import softplus
from chainer.functions.loss import _checks
from chainer.variable import Variable

_HALF_LOG_2PI = 0.5 * math.log(2 * math.pi)


def _reduce(loss: Variable, reduce: str) -> Variable:
    if reduce == "sum":
        return array_ops.sum(loss)
    return array_ops.mean(loss) if reduce == "mean" else loss


def _as_variable(x) -> Variable:
    return x if isinstance(x, Variable) else Variable(x, requires_grad=False)


def gaussian_kl_divergence(mean, ln_var, reduce: str = "sum") -> Variable:
    """KL divergence of ``N(mean, exp(ln_var))`` from the standard normal ``N(0, I)``.

    Elementwise it is ``(mean^2 + exp(ln_var) - ln_var - 1) / 2``.

    Args:
        mean: Means of the diagonal Gaussian, float.
        ln_var: Log-variances, of the shape and dtype of ``mean``.
        reduce: ``'sum'`` for the total, ``'mean'`` for the mean of the elementwise values,
            ``'no'`` for the elementwise values.

    Returns:
        A scalar variable or one of the shape of ``mean``.

    Example:
        >>> mean = numpy.array([0.0, 1.0], numpy.float32)
        >>> F.gaussian_kl_divergence(mean, numpy.zeros_like(mean)).array
        array(0.5, dtype=float32)
    """
    _checks.check_reduce(reduce, ("sum", "mean", "no"))
    mean, ln_var = _as_variable(mean), _as_variable(ln_var)
    loss = (mean * mean + exp(ln_var) - ln_var - 1) * 0.5
    return _reduce(loss, reduce)


def gaussian_nll(x, mean, ln_var, reduce: str = "sum") -> Variable:
    """Negative log-likelihood of ``x`` under ``N(mean, exp(ln_var))`` (diagonal).

    Elementwise it is ``(ln_var + log(2 pi)) / 2 + (x - mean)^2 * exp(-ln_var) / 2``.

    Args:
        x: Observations, float.
        mean: Means, broadcastable with ``x``.
        ln_var: Log-variances, broadcastable with ``x``.
        reduce: ``'sum'`` for the total, ``'mean'`` for the mean of the elementwise values,
            ``'no'`` for the elementwise values.

    Returns:
        A scalar variable or one of the broadcast shape.

    Example:
        >>> x = numpy.array([0.0, 2.0], numpy.float32)
        >>> F.gaussian_nll(x, numpy.zeros_like(x), numpy.zeros_like(x), reduce='no').array
        array([0.9189385, 2.9189386], dtype=float32)
    """
    _checks.check_reduce(reduce, ("sum", "mean", "no"))
    x, mean, ln_var = _as_variable(x), _as_variable(mean), _as_variable(ln_var)
    diff = x - mean
    loss = ln_var * 0.5 + _HALF_LOG_2PI + diff * diff * exp(-ln_var) * 0.5
    return _reduce(loss, reduce)


def bernoulli_nll(x, y, reduce: str = "sum") -> Variable:
    """Negative log-likelihood of ``x`` under Bernoulli distributions with logits ``y``.

    Elementwise it is ``softplus(y) - x * y``, i.e. ``-x log p - (1 - x) log(1 - p)`` with
    ``p = sigmoid(y)``; ``y`` is the score before the sigmoid.

    Args:
        x: Observations in ``[0, 1]``, float.
        y: Logits of the shape and dtype of ``x``.
        reduce: ``'sum'`` for the total, ``'mean'`` for the mean of the elementwise values,
            ``'no'`` for the elementwise values.

    Returns:
        A scalar variable or one of the shape of ``x``.

    Example:
        >>> x = numpy.array([1.0, 0.0], numpy.float32)
        >>> F.bernoulli_nll(x, numpy.zeros_like(x)).array
        array(1.3862944, dtype=float32)
    """
    _checks.check_reduce(reduce, ("sum", "mean", "no"))
    x, y = _as_variable(x), _as_variable(y)
    return _reduce(softplus(y) - x * y, reduce)
