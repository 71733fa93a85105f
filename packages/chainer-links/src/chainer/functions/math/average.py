"""(Weighted) averages: Chainer's public name for the core's ``mean`` (``Variable.mean``)."""

from __future__ import annotations

from chainer._ops import array_ops
from chainer.variable import Variable

__all__ = ["average", "mean"]


def average(x, axis=None, weights=None, keepdims: bool = False) -> Variable:
    """Weighted average of the elements of ``x`` over ``axis``.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input of a floating-point dtype.
        axis (None, int or tuple of int): The axes to average over; ``None`` averages all.
        weights (None, :class:`~chainer.Variable` or :ref:`ndarray`): ``None`` weighs every
            element by one. With ``axis=None`` it has the shape of ``x``; with an int ``axis``
            it is 1-D of length ``x.shape[axis]``. A tuple ``axis`` takes no weights.
        keepdims (bool): Keep the averaged axes as axes of length one.

    Returns:
        ~chainer.Variable: ``sum(x * weights) / sum(weights)`` over ``axis``.

    Raises:
        ValueError: When ``weights`` does not fit ``x`` and ``axis``.

    Example:
        >>> F.average(np.array([1.0, 3.0]), weights=np.array([3.0, 1.0])).array
        array(1.5)
    """
    return array_ops.mean(x, axis, weights, keepdims)


mean = average
