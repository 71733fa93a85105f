"""Cholesky decomposition of a symmetric positive-definite matrix."""

from __future__ import annotations

import numpy

from chainer import backend
from chainer._ops.array_ops import transpose
from chainer._ops.matmul import matmul
from chainer.function_node import FunctionNode
from chainer.functions.math._linalg import expect_square_matrices
from chainer.functions.math.inv import inv
from chainer.utils import type_check
from chainer.variable import Variable


class Cholesky(FunctionNode):
    """The lower-triangular ``L`` with ``L @ L.T == a``."""

    def check_type_forward(self, in_types) -> None:
        type_check.argname(in_types, ("a",))
        expect_square_matrices(in_types[0], 2)

    def forward(self, inputs: tuple) -> tuple:
        self.retain_outputs((0,))
        (a,) = inputs
        xp = backend.get_array_module(a)
        try:
            y = xp.linalg.cholesky(a)
        except numpy.linalg.LinAlgError as e:
            raise ValueError(f"cholesky needs a positive-definite matrix ({e})") from e
        return (y.astype(a.dtype, copy=False),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        """``ga = sym(L^-T phi(L^T gL) L^-1)``, with ``phi`` the lower triangle with half its
        diagonal and ``sym(s) = (s + s^T) / 2``: ``a`` is symmetric, so is its gradient."""
        (y,) = self.get_retained_outputs()
        xp = backend.get_array_module(y.array)
        n = y.shape[0]
        phi = xp.tril(xp.ones((n, n), dtype=y.dtype)) - xp.eye(n, dtype=y.dtype) / 2
        y_inv = inv(y)
        s = matmul(
            matmul(y_inv, matmul(y, grad_outputs[0], transa=True) * phi, transa=True), y_inv
        )
        return ((s + transpose(s)) * 0.5,)


def cholesky(a) -> Variable:
    """Cholesky decomposition: the lower-triangular ``L`` with ``L @ L.T == a``.

    Args:
        a (:class:`~chainer.Variable` or :ref:`ndarray`): A symmetric positive-definite
            ``(N, N)`` matrix of dtype float32 or float64 (only its lower triangle is read).

    Returns:
        ~chainer.Variable: The ``(N, N)`` lower-triangular factor. The gradient is symmetric.

    Raises:
        ValueError: When ``a`` is not positive definite.

    Example:
        >>> F.cholesky(np.array([[4.0, 2.0], [2.0, 2.0]])).array
        array([[2., 0.],
               [1., 1.]])
    """
    return Cholesky().apply((a,))[0]
