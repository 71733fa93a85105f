"""DeCov: a penalty on the off-diagonal covariance of hidden activations."""

from __future__ import annotations

from chainer import backend
from chainer._ops import matmul
from chainer.function_node import FunctionNode
from chainer.functions.loss import _checks, _covariance
from chainer.utils import type_check
from chainer.variable import Variable


class DeCov(FunctionNode):
    """Off-diagonal covariance of the columns of ``h``, or half its squared sum."""

    def __init__(self, reduce: str = "half_squared_sum") -> None:
        _checks.check_reduce(reduce, _covariance.REDUCTIONS)
        self.reduce = reduce

    def check_type_forward(self, in_types) -> None:
        type_check.argname(in_types, ("h",))
        h_type = in_types[0]
        type_check.expect(h_type.dtype.kind == "f", h_type.ndim == 2)

    def forward(self, inputs: tuple) -> tuple:
        self.retain_inputs((0,))
        h = inputs[0]
        xp = backend.get_array_module(h)
        centered = _covariance.center_array(h)
        covariance = centered.T.dot(centered)
        xp.fill_diagonal(covariance, 0)
        covariance /= max(len(h), 1)
        self._off_diagonal = 1 - xp.eye(h.shape[1], dtype=h.dtype)
        if self.reduce == "half_squared_sum":
            return (_covariance.half_squared_sum(xp, covariance),)
        return (covariance,)

    def forward_chainerx(self, inputs: tuple) -> tuple:
        return _covariance.chainerx_covariance(inputs[0], inputs[0], self.reduce, True)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        h = self.get_retained_inputs()[0]
        n = h.shape[0]
        centered = _covariance.center_rows(h)
        off_diagonal = Variable(self._off_diagonal, requires_grad=False)
        gy = grad_outputs[0]
        if self.reduce == "half_squared_sum":  # d(sum(C^2) / 2) / dC = C
            covariance = matmul.matmul(centered, centered, transa=True) * (1.0 / max(n, 1))
            g_cov = covariance * off_diagonal * gy
        else:
            g_cov = gy * off_diagonal
        # h enters C = h_c^T h_c / n twice: once on each side.
        g_left, g_right = _covariance.gram_grad(centered, centered, g_cov, n)
        return (_covariance.center_rows(g_left + g_right),)


def decov(h, reduce: str = "half_squared_sum") -> Variable:
    """DeCov loss: penalise correlated hidden units.

    With the columns of ``h`` centred and ``C = h^T h / N``, the loss is half the squared sum
    of the off-diagonal entries of ``C`` (Cogswell et al., 2016).

    Args:
        h: Hidden activations of shape ``(N, M)``, float.
        reduce: ``'half_squared_sum'`` for the scalar loss, ``'no'`` for the ``(M, M)``
            covariance with its diagonal zeroed.

    Returns:
        A scalar variable or one of shape ``(M, M)``, with the dtype of ``h``.

    Example:
        >>> h = numpy.array([[1.0, 1.0], [-1.0, -1.0]], numpy.float32)
        >>> F.decov(h).array
        array(1., dtype=float32)
    """
    return DeCov(reduce).apply((h,))[0]
