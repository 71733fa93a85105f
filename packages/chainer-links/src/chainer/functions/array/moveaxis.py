"""``moveaxis``: move axes to new positions (a transpose, so no copy)."""

from __future__ import annotations

from chainer._ops.array_ops import transpose
from chainer.functions.array._axes import normalize_axis
from chainer.variable import Variable

__all__ = ["moveaxis"]


def _axis_tuple(axes, ndim: int, name: str) -> tuple:
    if isinstance(axes, int):
        axes = (axes,)
    elif not isinstance(axes, tuple):
        raise TypeError(f"{name} must be an int or a tuple of ints, got {type(axes).__name__}")
    normalized = tuple(normalize_axis(a, ndim, name) for a in axes)
    if len(set(normalized)) != len(normalized):
        raise ValueError(f"{name} has repeated axes: {axes}")
    return normalized


def moveaxis(x, source, destination) -> Variable:
    """Move axes of a variable to new positions, as :func:`numpy.moveaxis`.

    Args:
        x: Input variable or array.
        source: The axis (int) or axes (tuple of ints) to move.
        destination: Where each of them goes, in the same form; the other axes keep their
            order.

    Returns:
        The variable with its axes moved.

    Example:
        >>> x = np.zeros((2, 3, 4, 5), np.float32)
        >>> F.moveaxis(x, 0, -1).shape
        (3, 4, 5, 2)
        >>> F.moveaxis(x, (0, 1), (2, 3)).shape
        (4, 5, 2, 3)
    """
    ndim = x.ndim
    source = _axis_tuple(source, ndim, "source")
    destination = _axis_tuple(destination, ndim, "destination")
    if len(source) != len(destination):
        raise ValueError(
            "source and destination must have the same number of axes, got "
            f"{len(source)} and {len(destination)}"
        )
    axes = [a for a in range(ndim) if a not in source]
    for dst, src in sorted(zip(destination, source)):
        axes.insert(dst, src)
    return transpose(x, axes)
