"""``flipud``: reverse the rows (axis 0) of a variable."""

from __future__ import annotations

from chainer.functions.array.flip import flip
from chainer.variable import Variable

__all__ = ["flipud"]


def flipud(a) -> Variable:
    """Flip a variable in the up/down direction (reverse axis 0), as :func:`numpy.flipud`.

    Args:
        a: Input variable or array with at least one dimension.

    Returns:
        The flipped variable.

    Example:
        >>> a = np.arange(4, dtype=np.float32).reshape(2, 2)
        >>> F.flipud(a).array
        array([[2., 3.],
               [0., 1.]], dtype=float32)
    """
    return flip(a, 0)
