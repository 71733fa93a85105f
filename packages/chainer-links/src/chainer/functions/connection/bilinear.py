"""Bilinear function ``y = e1^T W e2 + V1^T e1 + V2^T e2 + b``, composed of matrix products."""

from __future__ import annotations

from chainer._ops.array_ops import reshape
from chainer.functions.connection._checks import checking, expect_float, expect_ndim, fail
from chainer.functions.connection.linear import linear
from chainer.utils.array import size_of_shape
from chainer.variable import Variable


def _check(e1, e2, W, linear_terms) -> None:
    for name, array in (("e1", e1), ("e2", e2), ("W", W)):
        expect_float(array, name)
    if e1.ndim < 2 or e2.ndim < 2:
        fail("e1.ndim >= 2 and e2.ndim >= 2", f"e1.ndim == {e1.ndim}, e2.ndim == {e2.ndim}")
    if e1.shape[0] != e2.shape[0]:
        fail("e1.shape[0] == e2.shape[0]", f"{e1.shape[0]} != {e2.shape[0]}")
    expect_ndim(W, 3, "W")
    j, k, n_out = W.shape
    if size_of_shape(e1.shape[1:]) != j:
        fail("prod(e1.shape[1:]) == W.shape[0]", f"{size_of_shape(e1.shape[1:])} != {j}")
    if size_of_shape(e2.shape[1:]) != k:
        fail("prod(e2.shape[1:]) == W.shape[1]", f"{size_of_shape(e2.shape[1:])} != {k}")
    if linear_terms is None:
        return
    V1, V2, b = linear_terms
    for name, array, shape in (("V1", V1, (j, n_out)), ("V2", V2, (k, n_out)), ("b", b, (n_out,))):
        if array.dtype != e1.dtype:
            fail(f"{name}.dtype == e1.dtype", f"{array.dtype} != {e1.dtype}")
        if array.shape != shape:
            fail(f"{name}.shape == {shape} (from W.shape)", f"{name}.shape == {array.shape}")


def bilinear(e1, e2, W, V1=None, V2=None, b=None) -> Variable:
    """Applies a bilinear function based on given parameters.

    For each sample ``n``,
    ``y[n, l] = sum_{j,k} e1[n, j] e2[n, k] W[j, k, l] + sum_j e1[n, j] V1[j, l]
    + sum_k e2[n, k] V2[k, l] + b[l]``; the linear terms are present when ``V1``, ``V2`` and
    ``b`` are given (all three or none). Inputs with more than two axes are flattened after
    the batch axis.

    Args:
        e1: Left input of shape ``(n, J)`` (float).
        e2: Right input of shape ``(n, K)``.
        W: Quadratic weight of shape ``(J, K, L)``.
        V1: Left linear weight of shape ``(J, L)``.
        V2: Right linear weight of shape ``(K, L)``.
        b: Bias of shape ``(L,)``.

    Returns:
        A variable of shape ``(n, L)``.

    Raises:
        ValueError: Some but not all of ``V1``, ``V2`` and ``b`` are given.
        InvalidType: Dtypes or shapes that do not fit together.

    Example:
        >>> e1, e2 = np.ones((2, 3), np.float32), np.ones((2, 4), np.float32)
        >>> F.bilinear(e1, e2, np.ones((3, 4, 5), np.float32)).array[0]
        array([12., 12., 12., 12., 12.], dtype=float32)
    """
    given = [v is not None for v in (V1, V2, b)]
    if any(given) and not all(given):
        missing = [name for name, g in zip(("V1", "V2", "b"), given) if not g]
        raise ValueError(
            f"V1, V2 and b must all be given or all be None, but {', '.join(missing)} is None"
        )
    linear_terms = (V1, V2, b) if all(given) else None
    with checking("BilinearFunction") as enabled:
        if enabled:
            _check(e1, e2, W, linear_terms)
    n = e1.shape[0]
    j, k, n_out = W.shape
    e1 = reshape(e1, (n, j))
    e2 = reshape(e2, (n, k))
    # The outer products e1[n] e2[n]^T as rows, against W as a (J * K, L) matrix.
    outer = reshape(e1, (n, j, 1)) * reshape(e2, (n, 1, k))
    y = linear(reshape(outer, (n, j * k)), reshape(W, (j * k, n_out)).T)
    if linear_terms is not None:
        y = y + linear(e1, V1.T) + linear(e2, V2.T, b)
    return y
