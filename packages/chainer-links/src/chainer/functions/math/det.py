"""Determinant of a square matrix, or of a batch of them."""

from __future__ import annotations

from chainer import backend, utils
from chainer._ops.array_ops import broadcast_to, reshape, transpose
from chainer.function_node import FunctionNode
from chainer.functions.math._linalg import expect_square_matrices, lapack_array
from chainer.functions.math.inv import batch_inv
from chainer.utils import type_check
from chainer.variable import Variable, as_variable


class BatchDet(FunctionNode):
    """``det(a[i])`` of ``(B, N, N)`` input; the gradient is ``gy * det(a) * inv(a)^T``."""

    def check_type_forward(self, in_types) -> None:
        type_check.argname(in_types, ("a",))
        expect_square_matrices(in_types[0], 3, half=True)

    def forward(self, inputs: tuple) -> tuple:
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        (a,) = inputs
        xp = backend.get_array_module(a)
        return (utils.force_array(xp.linalg.det(lapack_array(a)), a.dtype),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        (a,) = self.get_retained_inputs()
        (y,) = self.get_retained_outputs()
        scale = reshape(grad_outputs[0] * y, (len(y), 1, 1))
        return (broadcast_to(scale, a.shape) * transpose(batch_inv(a), (0, 2, 1)),)


def batch_det(a) -> Variable:
    """Determinants of a batch of square matrices.

    Args:
        a (:class:`~chainer.Variable` or :ref:`ndarray`): ``(B, N, N)`` matrices of a float
            dtype (float16 is computed in float32).

    Returns:
        ~chainer.Variable: The ``(B,)`` determinants. The gradient needs invertible matrices.

    Example:
        >>> F.batch_det(np.array([[[2.0, 0.0], [0.0, 3.0]], [[1.0, 2.0], [3.0, 4.0]]])).array
        array([ 6., -2.])
    """
    return BatchDet().apply((a,))[0]


def det(a) -> Variable:
    """Determinant of a square matrix.

    Args:
        a (:class:`~chainer.Variable` or :ref:`ndarray`): An ``(N, N)`` matrix of a float
            dtype (float16 is computed in float32).

    Returns:
        ~chainer.Variable: The 0-d determinant. The gradient needs an invertible matrix.

    Raises:
        InvalidType: When ``a`` is not a square matrix.

    Example:
        >>> F.det(np.array([[1.0, 2.0], [3.0, 4.0]])).array
        array(-2.)
    """
    a = as_variable(a)
    if a.ndim != 2:
        raise type_check.InvalidType("a.ndim == 2", f"a.ndim == {a.ndim} (a.shape={a.shape})")
    return reshape(batch_det(reshape(a, (1,) + a.shape)), ())
