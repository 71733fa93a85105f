"""Products of a sparse (COO) matrix and a dense one, batched or not."""

from __future__ import annotations

from chainer import backend, utils
from chainer._ops.array_ops import transpose
from chainer._ops.get_item import get_item
from chainer._ops.matmul import matmul
from chainer.function_node import FunctionNode
from chainer.utils import type_check
from chainer.utils.sparse import CooMatrix
from chainer.variable import Variable


def _swap_last(x: Variable) -> Variable:
    axes = list(range(x.ndim))
    axes[-2:] = axes[-1], axes[-2]
    return transpose(x, axes)


class CooMatDenseMatMul(FunctionNode):
    """``op(A) @ op(B)`` for a sparse ``A`` (its entries are input 0) and a dense ``B``.

    ``op`` transposes when ``transa`` / ``transb`` say so. ``A``'s indices are constants; its
    padding entries (index -1) are ignored and get a zero gradient.
    """

    def __init__(self, row, col, shape: tuple, order, transa: bool, transb: bool) -> None:
        self.row = row
        self.col = col
        self.shape = tuple(shape)
        self.order = order
        self.transa = transa
        self.transb = transb

    def check_type_forward(self, in_types) -> None:
        type_check.argname(in_types, ("sp", "dn"))
        sp, dn = in_types
        type_check.expect(
            sp.dtype.kind == "f",
            sp.dtype == dn.dtype,
            sp.ndim >= 1,
            sp.ndim <= 2,
            dn.ndim == sp.ndim + 1,
        )
        inner = self.shape[0] if self.transa else self.shape[1]
        type_check.expect(dn.shape[-1 if self.transb else -2] == inner)
        if type_check.eval(sp.ndim) == 2:
            type_check.expect(sp.shape[0] == dn.shape[0])

    def forward(self, inputs: tuple) -> tuple:
        self.retain_inputs((0, 1))
        data, dense = inputs
        xp = backend.get_array_module(data, dense)
        a = CooMatrix(data, self.row, self.col, self.shape, order=self.order).to_dense()
        if self.transa:
            a = a.swapaxes(-1, -2)
        if self.transb:
            dense = dense.swapaxes(-1, -2)
        return (utils.force_array(xp.matmul(a, dense), data.dtype),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        data, dense = self.get_retained_inputs()
        gy = grad_outputs[0]
        grads = []
        for i in indexes:
            if i == 0:
                grads.append(self._grad_entries(data, dense, gy))
            else:
                # op(A)^T @ gy, transposed back when B was.
                g = CooMatDenseMatMul(
                    self.row, self.col, self.shape, self.order, not self.transa, False
                ).apply((data, gy))[0]
                grads.append(_swap_last(g) if self.transb else g)
        return tuple(grads)

    def _grad_entries(self, data: Variable, dense: Variable, gy: Variable) -> Variable:
        """The dense gradient of ``A``, read at the entries' positions."""
        if self.transa:  # gA = op(B) @ gy^T
            g_dense = matmul(dense, gy, transa=self.transb, transb=True)
        else:  # gA = gy @ op(B)^T
            g_dense = matmul(gy, dense, transb=not self.transb)
        xp = backend.get_array_module(data.array)
        valid = (self.row >= 0) & (self.col >= 0)
        row = xp.where(valid, self.row, 0)
        col = xp.where(valid, self.col, 0)
        if data.ndim == 2:
            batch = xp.broadcast_to(xp.arange(data.shape[0])[:, None], row.shape)
            index = (batch, row, col)
        else:
            index = (row, col)
        return get_item(g_dense, index) * valid.astype(data.dtype)


def sparse_matmul(a, b, transa: bool = False, transb: bool = False) -> Variable:
    """Matrix product of a sparse matrix and a dense one (either may be the sparse one).

    Args:
        a (:class:`~chainer.Variable`, :ref:`ndarray` or :class:`~chainer.utils.CooMatrix`):
            The left operand: ``(M, K)`` or a batch ``(B, M, K)``.
        b (:class:`~chainer.Variable`, :ref:`ndarray` or :class:`~chainer.utils.CooMatrix`):
            The right operand: ``(K, N)`` or a batch ``(B, K, N)``. Exactly one of ``a`` and
            ``b`` is a ``CooMatrix``; the gradient flows to its ``data`` and to the dense one.
        transa (bool): Transpose each matrix of ``a`` first.
        transb (bool): Transpose each matrix of ``b`` first.

    Returns:
        ~chainer.Variable: The dense product, ``(M, N)`` or ``(B, M, N)``.

    Raises:
        ValueError: When neither or both operands are sparse.

    Example:
        >>> a = chainer.utils.to_coo(np.array([[0.0, 2.0], [1.0, 0.0]]))
        >>> F.sparse_matmul(a, np.array([[1.0], [3.0]])).array
        array([[6.],
               [1.]])
    """
    a_sparse = isinstance(a, CooMatrix)
    b_sparse = isinstance(b, CooMatrix)
    if a_sparse and not b_sparse:
        node = CooMatDenseMatMul(a.row, a.col, a.shape, a.order, transa, transb)
        return node.apply((a.data, b))[0]
    if b_sparse and not a_sparse:
        # op(a) @ op(B) == (op(B)^T @ op(a)^T)^T
        node = CooMatDenseMatMul(b.row, b.col, b.shape, b.order, not transb, not transa)
        return _swap_last(node.apply((b.data, a))[0])
    raise ValueError(
        "sparse_matmul needs exactly one CooMatrix operand, got "
        f"a: {type(a).__name__}, b: {type(b).__name__}"
    )
