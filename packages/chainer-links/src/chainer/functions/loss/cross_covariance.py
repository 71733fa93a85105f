"""Cross-covariance penalty between two sets of activations."""

from __future__ import annotations

from chainer import backend
from chainer._ops import matmul
from chainer.function_node import FunctionNode
from chainer.functions.loss import _checks, _covariance
from chainer.utils import type_check
from chainer.variable import Variable


class CrossCovariance(FunctionNode):
    """Cross-covariance ``C = y_c^T z_c / N`` of column-centred ``y`` and ``z``."""

    def __init__(self, reduce: str = "half_squared_sum") -> None:
        _checks.check_reduce(reduce, _covariance.REDUCTIONS)
        self.reduce = reduce

    def check_type_forward(self, in_types) -> None:
        type_check.argname(in_types, ("y", "z"))
        y_type, z_type = in_types
        type_check.expect(
            y_type.dtype.kind == "f",
            y_type.dtype == z_type.dtype,
            y_type.ndim == 2,
            z_type.ndim == 2,
            y_type.shape[0] == z_type.shape[0],
        )

    def forward(self, inputs: tuple) -> tuple:
        self.retain_inputs((0, 1))
        y, z = inputs
        xp = backend.get_array_module(y)
        covariance = _covariance.center_array(y).T.dot(_covariance.center_array(z))
        covariance /= max(len(y), 1)
        if self.reduce == "half_squared_sum":
            return (_covariance.half_squared_sum(xp, covariance),)
        return (covariance,)

    def forward_chainerx(self, inputs: tuple) -> tuple:
        return _covariance.chainerx_covariance(*inputs, self.reduce)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        y, z = self.get_retained_inputs()
        n = y.shape[0]
        y_c = _covariance.center_rows(y)
        z_c = _covariance.center_rows(z)
        gy = grad_outputs[0]
        if self.reduce == "half_squared_sum":  # d(sum(C^2) / 2) / dC = C
            g_cov = matmul.matmul(y_c, z_c, transa=True) * (gy * (1.0 / max(n, 1)))
        else:
            g_cov = gy
        g_y, g_z = _covariance.gram_grad(y_c, z_c, g_cov, n)
        grads = (g_y, g_z)
        return tuple([_covariance.center_rows(grads[i]) for i in indexes])


def cross_covariance(y, z, reduce: str = "half_squared_sum") -> Variable:
    """Cross-covariance penalty between ``y`` and ``z`` (Cheung et al., 2015).

    With the columns of both inputs centred and ``C = y^T z / N``, the loss is half the
    squared sum of the entries of ``C``: it decorrelates the two representations.

    Args:
        y: Activations of shape ``(N, M)``, float.
        z: Activations of shape ``(N, K)``, of the dtype of ``y``.
        reduce: ``'half_squared_sum'`` for the scalar loss, ``'no'`` for the ``(M, K)``
            cross-covariance matrix.

    Returns:
        A scalar variable or one of shape ``(M, K)``, with the dtype of ``y``.

    Example:
        >>> y = numpy.array([[1.0], [-1.0]], numpy.float32)
        >>> z = numpy.array([[2.0], [-2.0]], numpy.float32)
        >>> F.cross_covariance(y, z).array
        array(2., dtype=float32)
    """
    return CrossCovariance(reduce).apply((y, z))[0]
