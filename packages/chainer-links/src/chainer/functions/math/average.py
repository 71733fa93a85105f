"""(Weighted) averages. The unweighted and single-axis cases are the core's ``mean``; this
module adds Chainer's elementwise weights for ``axis=None``."""

from __future__ import annotations

from chainer._ops import array_ops
from chainer.variable import Variable, as_variable

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
    if weights is None or axis is not None:
        return array_ops.mean(x, axis, weights, keepdims)
    x = as_variable(x)
    w = as_variable(weights)
    if w.shape != x.shape:
        raise ValueError(
            f"weights must have the shape of x {x.shape} when axis is None, got {w.shape}"
        )
    total = array_ops.sum(x * w, None, keepdims)
    return total / array_ops.broadcast_to(array_ops.sum(w), total.shape)


mean = average
