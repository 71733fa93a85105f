"""Products of a sparse (COO) matrix and a dense one, batched or not."""

from __future__ import annotations

import numpy

from chainer import backend, utils
from chainer._ops.get_item import get_item
from chainer._ops.matmul import MatMul
from chainer.function_node import FunctionNode
from chainer.utils import type_check
from chainer.utils.sparse import CooMatrix
from chainer.variable import Variable


class CooMatMul(FunctionNode):
    """``op(A) @ op(B)`` for a sparse ``A`` (its entries are input 0) and a dense ``B``.

    ``op`` transposes when ``transa`` / ``transb`` say so, and the product is transposed when
    ``transc`` does. ``A``'s indices are constants; its padding entries (index -1) are ignored
    and get a zero gradient. The output has ``dtype``, by default the common dtype of the
    entries and ``B``.
    """

    def __init__(
        self,
        sp_row,
        sp_col,
        sp_shape: tuple,
        sp_order: str | None = "other",
        transa: bool = False,
        transb: bool = False,
        transc: bool = False,
        dtype=None,
    ) -> None:
        self.sp_row = sp_row
        self.sp_col = sp_col
        self.sp_shape = tuple(sp_shape)
        self.sp_order = sp_order
        self.transa = transa
        self.transb = transb
        self.transc = transc
        self.dtype = dtype

    def check_type_forward(self, in_types) -> None:
        type_check.argname(in_types, ("sp", "dn"))
        sp, dn = in_types
        type_check.expect(
            sp.dtype.kind == "f",
            dn.dtype.kind == "f",
            sp.ndim >= 1,
            sp.ndim <= 2,
            dn.ndim == sp.ndim + 1,
        )
        inner = self.sp_shape[-2] if self.transa else self.sp_shape[-1]
        type_check.expect(dn.shape[-1 if self.transb else -2] == inner)
        if type_check.eval(sp.ndim) == 2:
            type_check.expect(sp.shape[0] == dn.shape[0])

    def forward(self, inputs: tuple) -> tuple:
        self.retain_inputs((0, 1))
        data, dense = inputs
        xp = backend.get_array_module(data, dense)
        a = CooMatrix(
            data, self.sp_row, self.sp_col, self.sp_shape[-2:], order=self.sp_order
        ).to_dense()
        if self.transa:
            a = a.swapaxes(-1, -2)
        if self.transb:
            dense = dense.swapaxes(-1, -2)
        c = xp.matmul(a, dense)
        if self.transc:
            c = c.swapaxes(-1, -2)
        dtype = numpy.result_type(data.dtype, dense.dtype) if self.dtype is None else self.dtype
        return (utils.force_array(c, dtype),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        data, dense = self.get_retained_inputs()
        gy = grad_outputs[0]
        grads = []
        for i in indexes:
            if i == 0:
                grads.append(self._grad_entries(data, dense, gy))
            else:
                # gB = op(A)^T @ op_c(gy), transposed back when B was.
                node = CooMatMul(
                    self.sp_row,
                    self.sp_col,
                    self.sp_shape,
                    self.sp_order,
                    not self.transa,
                    self.transc,
                    self.transb,
                    dense.dtype,
                )
                grads.append(node.apply((data, gy))[0])
        return tuple(grads)

    def _grad_entries(self, data: Variable, dense: Variable, gy: Variable) -> Variable:
        """The dense gradient of ``A``, read at the entries' positions."""
        if self.transa:  # gA = op(B) @ op_c(gy)^T
            node = MatMul(self.transb, not self.transc, data.dtype)
            g_dense = node.apply((dense, gy))[0]
        else:  # gA = op_c(gy) @ op(B)^T
            node = MatMul(self.transc, not self.transb, data.dtype)
            g_dense = node.apply((gy, dense))[0]
        xp = backend.get_array_module(data.array)
        valid = (self.sp_row >= 0) & (self.sp_col >= 0)
        row = xp.where(valid, self.sp_row, 0)
        col = xp.where(valid, self.sp_col, 0)
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
        node = CooMatMul(a.row, a.col, a.shape, a.order, transa, transb, False)
        return node.apply((a.data, b))[0]
    if b_sparse and not a_sparse:
        # op(a) @ op(B) == (op(B)^T @ op(a)^T)^T
        node = CooMatMul(b.row, b.col, b.shape, b.order, not transb, not transa, True)
        return node.apply((b.data, a))[0]
    raise ValueError(
        "sparse_matmul needs exactly one CooMatrix operand, got "
        f"a: {type(a).__name__}, b: {type(b).__name__}"
    )
