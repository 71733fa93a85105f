"""``dstack``: concatenate variables along the third axis (depth wise), as
:func:`numpy.dstack`."""

from __future__ import annotations

from chainer._ops.array_ops import reshape
from chainer.functions.array._axes import check_same_ndim
from chainer.functions.array.concat import concat
from chainer.variable import Variable

__all__ = ["dstack"]


def _at_least_3d(shape: tuple) -> tuple:
    # As numpy.atleast_3d: () -> (1, 1, 1), (n,) -> (1, n, 1), (m, n) -> (m, n, 1).
    if len(shape) == 0:
        return (1, 1, 1)
    if len(shape) == 1:
        return (1, shape[0], 1)
    return (*shape, 1)


def dstack(xs) -> Variable:
    """Concatenate variables along the third axis (axis 2).

    Inputs with fewer than three dimensions are promoted first as in :func:`numpy.dstack`:
    ``()`` becomes ``(1, 1, 1)``, ``(n,)`` becomes ``(1, n, 1)`` and ``(m, n)`` becomes
    ``(m, n, 1)``.

    Args:
        xs: A non-empty list of variables or arrays with the same dtype, and the same shape
            except along axis 2.

    Returns:
        The concatenated variable.

    Raises:
        chainer.utils.type_check.InvalidType: The inputs differ in ndim, or (with fewer
            than 3 dimensions) in shape.

    Example:
        >>> a = np.array([1, 2], np.float32)
        >>> b = np.array([3, 4], np.float32)
        >>> F.dstack((a, b)).array
        array([[[1., 3.],
                [2., 4.]]], dtype=float32)
    """
    if len(xs) == 0:
        raise ValueError("dstack needs at least one variable, got none")
    check_same_ndim(xs, 3)
    xs = [reshape(x, _at_least_3d(x.shape)) if x.ndim < 3 else x for x in xs]
    return concat(xs, axis=2)
