"""Inverse of a square matrix, or of a batch of them."""

from __future__ import annotations

import numpy

from chainer import backend
from chainer._ops.matmul import matmul
from chainer.function_node import Fallback, FunctionNode
from chainer.functions.math._linalg import expect_square_matrices, lapack_array
from chainer.utils import type_check
from chainer.variable import Variable


class _Inverse(FunctionNode):
    """``inv(a)`` of ``_ndim``-D input; the gradient is ``-inv(a)^T @ gy @ inv(a)^T``."""

    _ndim = 2

    def check_type_forward(self, in_types) -> None:
        type_check.argname(in_types, ("a",))
        expect_square_matrices(in_types[0], self._ndim, half=True)

    def forward(self, inputs: tuple) -> tuple:
        self.retain_outputs((0,))
        (a,) = inputs
        xp = backend.get_array_module(a)
        try:
            y = xp.linalg.inv(lapack_array(a))
        except numpy.linalg.LinAlgError as e:
            raise ValueError(f"{self.label}: the input has singular matrices ({e})") from e
        return (y.astype(a.dtype, copy=False),)

    def forward_chainerx(self, inputs: tuple):
        import chainerx

        (a,) = inputs
        if a.ndim == 3 and len(a) == 0:  # nothing to stack
            return Fallback
        matrices = lapack_array(a)
        try:
            if a.ndim == 2:
                y = chainerx.linalg.inv(matrices)
            else:  # ChainerX inverts one matrix at a time
                y = chainerx.stack([chainerx.linalg.inv(m) for m in matrices])
        except chainerx.ChainerxError as e:
            raise ValueError(f"{self.label}: the input has singular matrices ({e})") from e
        return (y.astype(a.dtype, copy=False),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        (y,) = self.get_retained_outputs()
        return (-matmul(matmul(y, grad_outputs[0], transa=True), y, transb=True),)


class Inv(_Inverse):
    _ndim = 2


class BatchInv(_Inverse):
    _ndim = 3


def inv(a) -> Variable:
    """Inverse of a square matrix.

    Args:
        a (:class:`~chainer.Variable` or :ref:`ndarray`): An ``(N, N)`` matrix of a float
            dtype (float16 is computed in float32).

    Returns:
        ~chainer.Variable: The ``(N, N)`` inverse.

    Raises:
        ValueError: When ``a`` is singular.

    Example:
        >>> F.inv(np.array([[2.0, 0.0], [0.0, 4.0]])).array
        array([[0.5 , 0.  ],
               [0.  , 0.25]])
    """
    return Inv().apply((a,))[0]


def batch_inv(a) -> Variable:
    """Inverses of a batch of square matrices.

    Args:
        a (:class:`~chainer.Variable` or :ref:`ndarray`): ``(B, N, N)`` matrices of a float
            dtype (float16 is computed in float32).

    Returns:
        ~chainer.Variable: The ``(B, N, N)`` inverses.

    Raises:
        ValueError: When any matrix of ``a`` is singular.

    Example:
        >>> F.batch_inv(np.array([[[2.0]], [[4.0]]])).array
        array([[[0.5 ]],
        <BLANKLINE>
               [[0.25]]])
    """
    return BatchInv().apply((a,))[0]
