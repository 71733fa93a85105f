"""``fliplr``: reverse the columns (axis 1) of a variable."""

from __future__ import annotations

from chainer.functions.array.flip import flip
from chainer.variable import Variable

__all__ = ["fliplr"]


def fliplr(a) -> Variable:
    """Flip a variable in the left/right direction (reverse axis 1), as :func:`numpy.fliplr`.

    Args:
        a: Input variable or array with at least two dimensions.

    Returns:
        The flipped variable.

    Example:
        >>> a = np.arange(4, dtype=np.float32).reshape(2, 2)
        >>> F.fliplr(a).array
        array([[1., 0.],
               [3., 2.]], dtype=float32)
    """
    return flip(a, 1)
