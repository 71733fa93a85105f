"""Linear (affine) transformation ``y = x W^T + b``, one GEMM per direction."""

from __future__ import annotations

import functools

import numpy

from chainer._ops._util import force_array
from chainer._ops.array_ops import reshape
from chainer._ops.array_ops import sum as _sum
from chainer.function_node import Fallback, FunctionNode
from chainer.functions.connection._checks import (
    expect_bias,
    expect_count,
    expect_float,
    expect_ndim,
    fail,
)
from chainer.utils.array import size_of_shape
from chainer.variable import Variable, _new_variable


def _dot(a, b, dtype):
    # xp.dot on 2-D (possibly transposed) views is a single BLAS call without copies.
    y = a.dot(b)
    return y if y.dtype == dtype else y.astype(dtype)


class LinearFunction(FunctionNode):
    """``y = x W^T (+ b)`` for ``x`` ``(n, in)``, ``W`` ``(out, in)``, ``b`` ``(out,)``."""

    def _check_arrays(self, in_data: tuple) -> None:
        if len(in_data) == 3:  # the common case, all rules below at once
            x, W, b = in_data
            if (
                x.dtype.kind == "f"
                and W.dtype.kind == "f"
                and x.ndim == 2
                and W.ndim == 2
                and x.shape[1] == W.shape[1]
                and b.dtype == x.dtype
                and b.ndim == 1
                and b.shape[0] == W.shape[0]
            ):
                return
        expect_count(in_data, 2, 3)
        x, W = in_data[0], in_data[1]
        expect_float(x, "x")
        expect_float(W, "W")
        expect_ndim(x, 2, "x")
        expect_ndim(W, 2, "W")
        if x.shape[1] != W.shape[1]:
            fail(
                "x.shape[1] == W.shape[1]",
                f"{x.shape[1]} != {W.shape[1]} (x.shape={x.shape}, W.shape={W.shape})",
            )
        if len(in_data) == 3:
            expect_bias(in_data[2], x, W.shape[0], "W.shape[0]")

    def forward(self, inputs: tuple) -> tuple:
        self._input_indexes_to_retain = (0, 1)  # retain_inputs, without the call
        x = inputs[0]
        y = x.dot(inputs[1].T)  # one BLAS call (see _dot), then the bias added in place
        if y.dtype != x.dtype:
            y = y.astype(x.dtype)
        if len(inputs) == 3:
            if len(y) == 1:  # one row: the same sums without broadcasting (cheaper in NumPy)
                row = y[0]
                row += inputs[2]
            else:
                y += inputs[2]
        return (y,)

    def forward_chainerx(self, inputs: tuple):
        # chainerx.linear promotes mixed dtypes; Chainer keeps x's dtype: NumPy does those.
        if any(a.dtype != inputs[0].dtype for a in inputs[1:]):
            return Fallback
        import chainerx

        return (chainerx.linear(*inputs),)

    def _static_kernel(self, inputs: tuple, outputs: tuple):
        """For a static schedule: ``forward`` written into ``outputs`` (NumPy, one dtype)."""
        x, W = inputs[0], inputs[1]
        (y,) = outputs
        arrays = (*inputs, y)
        if any(type(a) is not numpy.ndarray or a.dtype != x.dtype for a in arrays):
            return None
        if not y.flags.c_contiguous or any(numpy.may_share_memory(y, a) for a in inputs):
            return None
        W_T = W.T
        if len(inputs) == 2:
            return functools.partial(numpy.dot, x, W_T, out=y)
        b = inputs[2]

        def kernel() -> None:
            numpy.add(numpy.dot(x, W_T, out=y), b, out=y)

        return kernel

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        x, W = self.get_retained_inputs()
        gy = grad_outputs[0]
        ret = []
        if 0 in indexes:
            ret.append(LinearGradData().apply((W, gy))[0])
        if 1 in indexes:
            ret.append(LinearGradWeight(W.dtype).apply((x, gy))[0])
        if 2 in indexes:
            ret.append(_sum(gy, axis=0))
        return tuple(ret)

    def _backward_fast(self, indexes: tuple, grad_outputs: tuple) -> tuple | None:
        """``backward`` on NumPy arrays: the forwards of its three gradient nodes."""
        gy = grad_outputs[0]
        g = gy._array
        x_node, w_node = self.inputs[0], self.inputs[1]
        x, W = x_node.data, w_node.data
        if (
            type(g) is not numpy.ndarray
            or type(x) is not numpy.ndarray
            or type(W) is not numpy.ndarray
            or g.shape != (x.shape[0], W.shape[0])
        ):
            return None  # CuPy, or a gradient of the wrong shape (backward reports it)
        gy_requires_grad = gy._requires_grad
        ret = []
        for i in indexes:
            if i == 0:  # LinearGradData
                gx = _dot(g, W, g.dtype)
                ret.append(_new_variable(gx, gy_requires_grad or w_node._requires_grad))
            elif i == 1:  # LinearGradWeight
                gW = _dot(g.T, x, W.dtype)
                ret.append(_new_variable(gW, gy_requires_grad or x_node._requires_grad))
            else:  # sum over the batch axis
                ret.append(_new_variable(force_array(g.sum(axis=(0,))), gy_requires_grad))
        return tuple(ret)


class LinearGradData(FunctionNode):
    """``gx = gy W`` from ``(W, gy)``: the input gradient of :class:`LinearFunction`."""

    def forward(self, inputs: tuple) -> tuple:
        self.retain_inputs((0, 1))
        W, gy = inputs
        return (_dot(gy, W, gy.dtype),)

    def _static_forward(self):
        """``forward`` for a replayed static schedule (``retain_inputs`` ran already)."""
        return lambda inputs: (_dot(inputs[1], inputs[0], inputs[1].dtype),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        W, gy = self.get_retained_inputs()
        ggx = grad_outputs[0]
        ret = []
        if 0 in indexes:
            ret.append(LinearGradWeight(W.dtype).apply((ggx, gy))[0])
        if 1 in indexes:
            ret.append(LinearFunction().apply((ggx, W))[0])
        return tuple(ret)


class LinearGradWeight(FunctionNode):
    """``gW = gy^T x`` from ``(x, gy)``: the weight gradient of :class:`LinearFunction`."""

    def __init__(self, w_dtype) -> None:
        self._w_dtype = numpy.dtype(w_dtype)

    def forward(self, inputs: tuple) -> tuple:
        self.retain_inputs((0, 1))
        x, gy = inputs
        return (_dot(gy.T, x, self._w_dtype),)

    def _static_forward(self):
        """``forward`` for a replayed static schedule (``retain_inputs`` ran already)."""
        w_dtype = self._w_dtype
        return lambda inputs: (_dot(inputs[1].T, inputs[0], w_dtype),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        x, gy = self.get_retained_inputs()
        ggW = grad_outputs[0]
        ret = []
        if 0 in indexes:
            ret.append(LinearGradData().apply((ggW, gy))[0])
        if 1 in indexes:
            ret.append(LinearFunction().apply((x, ggW))[0])
        return tuple(ret)


def linear(x, W, b=None, n_batch_axes: int = 1) -> Variable:
    """Linear function, or affine transformation: ``y = x W^T + b``.

    The leading ``n_batch_axes`` axes of ``x`` are batch axes; the remaining ones are flattened
    into the input features.

    Args:
        x: Input of shape ``(s_1, ..., s_B, d_1, ..., d_K)`` with ``B = n_batch_axes`` and
            ``d_1 * ... * d_K == W.shape[1]`` (float).
        W: Weight of shape ``(out, in)``.
        b: Optional bias of shape ``(out,)``, dtype of ``x``.
        n_batch_axes: Number of batch axes of ``x`` (at least 1).

    Returns:
        A variable of shape ``(s_1, ..., s_B, out)`` and the dtype of ``x``.

    Raises:
        ValueError: ``n_batch_axes`` is not positive.
        InvalidType: Wrong dtypes, or feature sizes that do not match ``W``.

    Example:
        >>> x = np.random.uniform(0, 1, (3, 4)).astype(np.float32)
        >>> W = np.random.uniform(0, 1, (5, 4)).astype(np.float32)
        >>> F.linear(x, W, np.zeros(5, np.float32)).shape
        (3, 5)
        >>> F.linear(np.ones((2, 3, 4), np.float32), W, n_batch_axes=2).shape
        (2, 3, 5)
    """
    if n_batch_axes <= 0:
        raise ValueError(f"n_batch_axes must be a positive int, got {n_batch_axes!r}")
    ndim = x.ndim
    if ndim <= n_batch_axes:
        raise ValueError(
            f"x must have more than n_batch_axes={n_batch_axes} axes, got shape {x.shape}"
        )
    if ndim == 2:  # already (batch, features): nothing to flatten
        return LinearFunction().apply((x, W) if b is None else (x, W, b))[0]
    batch_shape = x.shape[:n_batch_axes]
    # Explicit sizes (no -1): a batch may be empty.
    x = reshape(x, (size_of_shape(batch_shape), size_of_shape(x.shape[n_batch_axes:])))
    y = LinearFunction().apply((x, W) if b is None else (x, W, b))[0]
    if n_batch_axes > 1:
        y = reshape(y, (*batch_shape, y.shape[1]))
    return y
