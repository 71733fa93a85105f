"""``flatten``: view a variable as one dimension."""

from __future__ import annotations

from chainer._ops.array_ops import reshape
from chainer.variable import Variable

__all__ = ["flatten"]


def flatten(x) -> Variable:
    """Flatten a variable into one dimension (a reshape, so no copy when possible).

    Args:
        x: Input variable or array.

    Returns:
        A 1-D variable of ``x.size`` elements, in C order.

    Example:
        >>> x = np.arange(6, dtype=np.float32).reshape(2, 3)
        >>> F.flatten(x).shape
        (6,)
    """
    return reshape(x, (x.size,))
