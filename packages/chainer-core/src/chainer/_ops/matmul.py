"""Matrix product of variables (``@``), batched over leading axes with broadcasting."""

from __future__ import annotations

from chainer._ops import _util
from chainer._ops._util import force_array
from chainer.function_node import FunctionNode
from chainer.variable import Variable


def _swap_last(a):
    return a.swapaxes(-1, -2)


class MatMul(FunctionNode):
    """``op(a) @ op(b)`` where ``op`` transposes the last two axes when asked (ndim >= 2).

    Operands of different float dtypes are multiplied in their common dtype (NumPy's
    promotion), which is the output's dtype unless ``dtype`` names another.
    """

    def __init__(self, transa: bool = False, transb: bool = False, dtype=None) -> None:
        self.transa = transa
        self.transb = transb
        self.dtype = dtype

    def _check_arrays(self, in_data: tuple) -> None:
        if len(in_data) != 2:
            _util.fail("in_types.size() == 2", f"{len(in_data)} != 2")
        a, b = in_data
        if a.dtype.kind not in "fc":
            _util.fail("a.dtype.kind == f", f"{a.dtype.kind} != f")
        if b.dtype.kind not in "fc":
            _util.fail("b.dtype.kind == f", f"{b.dtype.kind} != f")
        if a.ndim < 2 or b.ndim < 2:
            _util.fail("a.ndim >= 2 and b.ndim >= 2", f"a.ndim={a.ndim}, b.ndim={b.ndim}")
        a_k = a.shape[-2] if self.transa else a.shape[-1]
        b_k = b.shape[-1] if self.transb else b.shape[-2]
        if a_k != b_k:
            _util.fail(
                "the contracted axes of a and b have the same length",
                f"{a_k} != {b_k} (a.shape={a.shape}, b.shape={b.shape})",
            )
        try:
            import numpy

            numpy.broadcast_shapes(a.shape[:-2], b.shape[:-2])
        except ValueError:
            _util.fail("batch axes are broadcastable", f"{a.shape[:-2]} vs {b.shape[:-2]}")

    def forward(self, inputs: tuple) -> tuple:
        self.retain_inputs((0, 1))
        a, b = inputs
        if self.transa:
            a = _swap_last(a)
        if self.transb:
            b = _swap_last(b)
        return (force_array(a @ b, self.dtype),)

    def forward_chainerx(self, inputs: tuple) -> tuple:
        a, b = inputs
        if self.transa:
            a = _swap_last(a)
        if self.transb:
            b = _swap_last(b)
        y = a @ b
        if self.dtype is not None and y.dtype != self.dtype:
            y = y.astype(self.dtype)
        return (y,)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        a, b = self.get_retained_inputs()
        gy = grad_outputs[0]
        ret = []
        for i in indexes:
            dtype = self.inputs[i].dtype
            if i == 0:
                # dL/d op(a) = gy @ op(b)^T ; undo op on a.
                if self.transa:
                    g = _matmul(b, gy, self.transb, True, dtype)
                else:
                    g = _matmul(gy, b, False, not self.transb, dtype)
            else:
                if self.transb:
                    g = _matmul(gy, a, True, self.transa, dtype)
                else:
                    g = _matmul(a, gy, not self.transa, False, dtype)
            ret.append(_sum_to(g, self.inputs[i].shape))
        return tuple(ret)


def _sum_to(g: Variable, shape: tuple) -> Variable:
    if g.shape == shape:
        return g
    from chainer._ops.array_ops import sum_to

    return sum_to(g, shape)


def _matmul(a, b, transa: bool, transb: bool, dtype=None) -> Variable:
    return MatMul(transa, transb, dtype).apply((a, b))[0]


def matmul(a, b, transa: bool = False, transb: bool = False) -> Variable:
    """Matrix product; 1-D operands are treated as row (``a``) / column (``b``) vectors."""
    from chainer._ops.array_ops import reshape

    a_1d = a.ndim == 1
    b_1d = b.ndim == 1
    if a_1d:
        a = reshape(a, (1, a.shape[0]))
    if b_1d:
        b = reshape(b, (b.shape[0], 1))
    y = _matmul(a, b, transa and not a_1d, transb and not b_1d)
    if a_1d or b_1d:
        shape = y.shape
        if a_1d:
            shape = shape[:-2] + shape[-1:]
        if b_1d:
            shape = shape[:-1]
        y = reshape(y, shape)
    return y


def _matmul_op(self, rhs):
    other = rhs if isinstance(rhs, Variable) else Variable(rhs, requires_grad=False)
    return matmul(self, other)


def _rmatmul_op(self, lhs):
    other = lhs if isinstance(lhs, Variable) else Variable(lhs, requires_grad=False)
    return matmul(other, self)


OPERATORS = {"__matmul__": _matmul_op, "__rmatmul__": _rmatmul_op}
