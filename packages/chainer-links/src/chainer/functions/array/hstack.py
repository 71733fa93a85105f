"""``hstack``: concatenate variables horizontally (column wise), as :func:`numpy.hstack`."""

from __future__ import annotations

from chainer._ops.array_ops import reshape
from chainer.functions.array.concat import concat
from chainer.variable import Variable

__all__ = ["hstack"]


def hstack(xs) -> Variable:
    """Concatenate variables horizontally: along axis 1, or axis 0 for 1-D inputs.

    0-D inputs are treated as 1-D of length one, as in :func:`numpy.hstack`.

    Args:
        xs: A non-empty list of variables or arrays with the same dtype, and the same shape
            except along the joined axis.

    Returns:
        The concatenated variable.

    Example:
        >>> a = np.array([1, 2], np.float32)
        >>> b = np.array([3], np.float32)
        >>> F.hstack((a, b)).array
        array([1., 2., 3.], dtype=float32)
        >>> F.hstack((np.zeros((2, 1)), np.ones((2, 2)))).shape
        (2, 3)
    """
    if len(xs) == 0:
        raise ValueError("hstack needs at least one variable, got none")
    xs = [reshape(x, (1,)) if x.ndim == 0 else x for x in xs]
    return concat(xs, axis=0 if xs[0].ndim == 1 else 1)
