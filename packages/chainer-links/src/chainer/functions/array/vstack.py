"""``vstack``: concatenate variables vertically (row wise), as :func:`numpy.vstack`."""

from __future__ import annotations

from chainer._ops.array_ops import reshape
from chainer.functions.array._axes import check_same_ndim
from chainer.functions.array.concat import concat
from chainer.variable import Variable

__all__ = ["vstack"]


def vstack(xs) -> Variable:
    """Concatenate variables vertically, along axis 0.

    Inputs with fewer than two dimensions are promoted first as in :func:`numpy.vstack`:
    shape ``()`` becomes ``(1, 1)`` and ``(n,)`` becomes ``(1, n)``.

    Args:
        xs: A non-empty list of variables or arrays with the same dtype, and the same shape
            except along axis 0.

    Returns:
        The concatenated variable.

    Raises:
        chainer.utils.type_check.InvalidType: The inputs differ in ndim, or (with fewer
            than 2 dimensions) in shape.

    Example:
        >>> a = np.array([1, 2], np.float32)
        >>> b = np.array([3, 4], np.float32)
        >>> F.vstack((a, b)).array
        array([[1., 2.],
               [3., 4.]], dtype=float32)
    """
    if len(xs) == 0:
        raise ValueError("vstack needs at least one variable, got none")
    check_same_ndim(xs, 2)
    xs = [reshape(x, (1, x.size)) if x.ndim < 2 else x for x in xs]
    return concat(xs, axis=0)
