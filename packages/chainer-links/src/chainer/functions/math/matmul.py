"""Matrix products. ``matmul`` is the core's own op (the one behind ``@``)."""

from __future__ import annotations

import warnings

from chainer._ops.array_ops import reshape
from chainer._ops.matmul import MatMul, matmul
from chainer.variable import Variable, as_variable

__all__ = ["MatMul", "batch_matmul", "matmul"]


def _as_batch_of_matrices(x) -> Variable:
    # (B, N) means B column vectors; (B, M, N, ...) folds the trailing axes into N.
    x = as_variable(x)
    if x.ndim < 2:
        raise ValueError(f"batch_matmul needs operands with ndim >= 2, got shape {x.shape}")
    return reshape(x, x.shape[:2] + (-1,))


def batch_matmul(a, b, transa: bool = False, transb: bool = False) -> Variable:
    """Matrix products of two batches of matrices (deprecated: use :func:`matmul`).

    Args:
        a (:class:`~chainer.Variable` or :ref:`ndarray`): ``(B, M, N)`` matrices, or
            ``(B, N)`` taken as ``B`` column vectors of shape ``(N, 1)``.
        b (:class:`~chainer.Variable` or :ref:`ndarray`): ``(B, N, K)`` matrices, or ``(B, N)``
            column vectors.
        transa (bool): Transpose each matrix of ``a`` first.
        transb (bool): Transpose each matrix of ``b`` first.

    Returns:
        ~chainer.Variable: The ``B`` products, a 3-D array.

    Example:
        >>> import warnings
        >>> with warnings.catch_warnings():  # it warns: deprecated, use F.matmul
        ...     warnings.simplefilter('ignore', DeprecationWarning)
        ...     F.batch_matmul(np.ones((2, 1, 3)), np.ones((2, 3, 1))).shape
        (2, 1, 1)
    """
    warnings.warn(
        "batch_matmul is deprecated. Use matmul instead.", DeprecationWarning, stacklevel=2
    )
    a = _as_batch_of_matrices(a)
    b = _as_batch_of_matrices(b)
    return MatMul(transa, transb).apply((a, b))[0]
