"""Tensor dot product: a sum of products over chosen axes of two arrays."""

from __future__ import annotations

import numpy

from chainer import backend, utils
from chainer._ops.array_ops import transpose
from chainer.function_node import Fallback, FunctionNode
from chainer.utils import type_check
from chainer.variable import Variable


def _as_axis_list(axes, what: str) -> list:
    if isinstance(axes, (int, numpy.integer)):
        return [int(axes)]
    try:
        return [int(a) for a in axes]
    except TypeError:
        raise TypeError(f"{what} must be an int or a sequence of ints, got {axes!r}") from None


def _split_axes(axes, a_ndim: int, b_ndim: int) -> tuple:
    """The contracted axes ``(a_axes, b_axes)``, as non-negative ints, from ``axes``."""
    if isinstance(axes, (int, numpy.integer)) and not isinstance(axes, bool):
        n = int(axes)
        if not 0 <= n <= min(a_ndim, b_ndim):
            raise ValueError(
                f"axes={n} must lie in [0, min(a.ndim, b.ndim)] = [0, {min(a_ndim, b_ndim)}]"
            )
        return list(range(a_ndim - n, a_ndim)), list(range(n))
    if not isinstance(axes, (tuple, list)):
        raise TypeError(f"axes must be an int or a pair of axis lists, got {axes!r}")
    if len(axes) != 2:
        raise ValueError(f"axes must be a pair of axis lists, got {len(axes)} items: {axes!r}")
    a_axes = _as_axis_list(axes[0], "axes[0]")
    b_axes = _as_axis_list(axes[1], "axes[1]")
    if len(a_axes) != len(b_axes):
        raise ValueError(f"axes[0] and axes[1] must have the same length, got {axes!r}")
    for which, ax, ndim in (("a", a_axes, a_ndim), ("b", b_axes, b_ndim)):
        if any(not -ndim <= i < ndim for i in ax) or len({i % ndim for i in ax}) != len(ax):
            raise ValueError(f"invalid axes {ax} for {which} with ndim {ndim}")
    return [i % a_ndim for i in a_axes], [i % b_ndim for i in b_axes]


class TensorDot(FunctionNode):
    """``numpy.tensordot(a, b, axes)``; the gradients are tensor dots with ``gy``.

    Operands of different float dtypes give their common dtype, unless ``dtype`` names the
    output's dtype.
    """

    def __init__(self, axes=2, dtype=None) -> None:
        self.axes = axes
        self.dtype = dtype

    def check_type_forward(self, in_types) -> None:
        type_check.argname(in_types, ("a", "b"))
        a_type, b_type = in_types
        type_check.expect(a_type.dtype.kind == "f", b_type.dtype.kind == "f")
        a_shape = type_check.eval(a_type.shape)
        b_shape = type_check.eval(b_type.shape)
        a_axes, b_axes = _split_axes(self.axes, len(a_shape), len(b_shape))
        for i, j in zip(a_axes, b_axes):
            if a_shape[i] != b_shape[j]:  # a ValueError, as numpy.tensordot's and Chainer's
                raise ValueError(
                    f"shape mismatch: a.shape[{i}] == {a_shape[i]} but b.shape[{j}] == "
                    f"{b_shape[j]} (a.shape={a_shape}, b.shape={b_shape})"
                )

    def forward(self, inputs: tuple) -> tuple:
        self.retain_inputs((0, 1))
        a, b = inputs
        self.a_axes, self.b_axes = _split_axes(self.axes, a.ndim, b.ndim)
        if self.a_axes:
            xp = backend.get_array_module(a, b)
            y = xp.tensordot(a, b, axes=(self.a_axes, self.b_axes))
        else:  # the outer product (CuPy's tensordot refuses zero-dim inputs here)
            y = a.reshape(a.shape + (1,) * b.ndim) * b
        dtype = numpy.result_type(a.dtype, b.dtype) if self.dtype is None else self.dtype
        return (utils.force_array(y, dtype),)

    def forward_chainerx(self, inputs: tuple) -> tuple:
        """ChainerX has no tensordot: the contracted axes are moved together and flattened,
        and one matrix product contracts them (as ``numpy.tensordot`` computes it)."""
        import chainerx

        a, b = inputs
        if a.size == 0 or b.size == 0:  # -1 cannot be resolved in an empty reshape
            return Fallback
        a_axes, b_axes = _split_axes(self.axes, a.ndim, b.ndim)
        a_free = [i for i in range(a.ndim) if i not in a_axes]
        b_free = [j for j in range(b.ndim) if j not in b_axes]
        size = utils.size_of_shape([a.shape[i] for i in a_axes])
        a_matrix = a.transpose(a_free + a_axes).reshape(-1, size)
        b_matrix = b.transpose(b_axes + b_free).reshape(size, -1)
        y = chainerx.dot(a_matrix, b_matrix)
        shape = tuple(a.shape[i] for i in a_free) + tuple(b.shape[j] for j in b_free)
        dtype = y.dtype if self.dtype is None else numpy.dtype(self.dtype)
        return (y.reshape(shape).astype(dtype, copy=False),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        a, b = self.get_retained_inputs()
        gy = grad_outputs[0]
        a_axes, b_axes = self.a_axes, self.b_axes
        a_free = [i for i in range(a.ndim) if i not in a_axes]
        b_free = [j for j in range(b.ndim) if j not in b_axes]
        n_a_free = len(a_free)
        grads = []
        for i in indexes:
            if i == 0:
                g = _tensordot(gy, b, (list(range(n_a_free, gy.ndim)), b_free), a.dtype)
                # g's axes: a_free, then the contracted axes of b in b's order.
                order = a_free + [a_axes[b_axes.index(j)] for j in sorted(b_axes)]
            else:
                g = _tensordot(a, gy, (a_free, list(range(n_a_free))), b.dtype)
                order = [b_axes[a_axes.index(k)] for k in sorted(a_axes)] + b_free
            grads.append(_to_order(g, order))
        return tuple(grads)


def _tensordot(x, y, axes, dtype) -> Variable:
    return TensorDot(axes, dtype).apply((x, y))[0]


def _to_order(g: Variable, order: list) -> Variable:
    """Transpose ``g``, whose axis ``k`` is input axis ``order[k]``, into input order."""
    perm = tuple(numpy.argsort(order).tolist())
    return g if perm == tuple(range(len(perm))) else transpose(g, perm)


def tensordot(a, b, axes=2) -> Variable:
    """Tensor dot product of ``a`` and ``b`` over ``axes`` (as :func:`numpy.tensordot`).

    Args:
        a (:class:`~chainer.Variable` or :ref:`ndarray`): The first operand, of a
            floating-point dtype.
        b (:class:`~chainer.Variable` or :ref:`ndarray`): The second operand, of a
            floating-point dtype; the product has the common dtype of ``a`` and ``b``.
        axes (int or pair of sequences): An int ``n`` contracts the last ``n`` axes of ``a``
            with the first ``n`` of ``b``; a pair ``(a_axes, b_axes)`` names them.

    Returns:
        ~chainer.Variable: The product; its axes are the free axes of ``a``, then of ``b``.

    Example:
        >>> F.tensordot(np.ones((2, 3, 4)), np.ones((3, 4, 5))).shape
        (2, 5)
    """
    return TensorDot(axes).apply((a, b))[0]
