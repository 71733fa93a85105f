"""Rectified linear unit: ``max(x, 0)``."""

from __future__ import annotations

import functools

import numpy

from chainer import backend
from chainer._ops._util import force_array
from chainer.function_node import FunctionNode
from chainer.functions import _scratch
from chainer.functions.activation import _fast_checks
from chainer.variable import Variable, _new_variable

_get_array_module = backend.get_array_module


def _read_only_zero(dtype) -> numpy.ndarray:
    zero = numpy.zeros((), dtype)
    zero.flags.writeable = False
    return zero


# A 0-d zero per native float dtype: ``numpy.maximum(x, zero)`` runs the same ufunc loop as
# ``numpy.maximum(x, 0, dtype=x.dtype)`` without converting the Python 0 at every call.
_ZEROS = {
    numpy.dtype(t): _read_only_zero(t) for t in (numpy.float16, numpy.float32, numpy.float64)
}


# From this many elements a zeros array of x's shape beats the 0-d zero: NumPy runs its
# contiguous loop instead of the much slower one for an operand broadcast along the innermost
# axis (737,280 float32: 75 us against 220). Same bits either way.
_ZEROS_ARRAY_MIN_SIZE = 2048
_ZEROS_ARRAY_MAX_BYTES = 16 << 20
_zeros_buffers: dict = {}


def _zeros_shaped_like(x) -> numpy.ndarray | None:
    """Read-only zeros of ``x``'s shape and dtype: a view of one buffer kept per dtype.

    None when ``x`` is larger than the buffer may grow (16 MiB).
    """
    size = x.size
    if size * x.itemsize > _ZEROS_ARRAY_MAX_BYTES:
        return None
    buffer = _zeros_buffers.get(x.dtype)
    if buffer is None or buffer.size < size:
        buffer = numpy.zeros(size, x.dtype)
        buffer.flags.writeable = False
        _zeros_buffers[x.dtype] = buffer
    return buffer[:size].reshape(x.shape)


# From this many elements, backward writes the mask ``y > 0`` into a scratch buffer rather
# than a fresh array: the same mask and product, in cache (LeNet's first ReLU, 737,280
# elements, in a training step: 0.36 to 0.33 ms; at 32,000 elements it cost 5 us more).
_SCRATCH_MASK_MIN_SIZE = 1 << 16


class ReLU(FunctionNode):
    """``max(x, 0)``; it keeps its output, whose sign is all that backward needs."""

    is_elementwise = True
    _check_arrays = staticmethod(_fast_checks.check_float_input)

    def forward(self, inputs: tuple) -> tuple:
        x = inputs[0]
        self._output_indexes_to_retain = (0,)  # retain_outputs, without the call
        if type(x) is numpy.ndarray and x.ndim:  # (a 0-d x would give a NumPy scalar)
            zero = _ZEROS.get(x.dtype)
            if zero is not None:
                if x.size >= _ZEROS_ARRAY_MIN_SIZE and x.flags.c_contiguous:
                    zeros = _zeros_shaped_like(x)
                    if zeros is not None:
                        zero = zeros
                return (numpy.maximum(x, zero),)
        return (force_array(_get_array_module(x).maximum(x, 0, dtype=x.dtype)),)

    def forward_chainerx(self, inputs: tuple) -> tuple:
        import chainerx

        return (chainerx.relu(inputs[0]),)

    def _static_kernel(self, inputs: tuple, outputs: tuple):
        """For a static schedule: ``forward`` written into ``outputs`` (NumPy arrays)."""
        x, y = inputs[0], outputs[0]
        if type(x) is not numpy.ndarray or type(y) is not numpy.ndarray or x.dtype != y.dtype:
            return None
        if numpy.may_share_memory(x, y):
            return None
        return functools.partial(numpy.maximum, x, 0, out=y, dtype=x.dtype)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        return ReLUGrad2(self.output_data[0]).apply(grad_outputs)

    def _backward_fast(self, indexes: tuple, grad_outputs: tuple) -> tuple | None:
        """``backward`` on NumPy arrays: the forward of :class:`ReLUGrad2`."""
        gy = grad_outputs[0]
        g = gy._array
        y = self._retained_output_data[0]
        if type(g) is not numpy.ndarray or type(y) is not numpy.ndarray or g.shape != y.shape:
            return None
        zero = _ZEROS.get(y.dtype)
        if zero is None or y.size < _SCRATCH_MASK_MIN_SIZE:
            return (_new_variable(force_array(g * (y > 0)), gy._requires_grad),)
        mask = numpy.greater(y, zero, out=_scratch.empty("relu-mask", y.shape, numpy.bool_))
        return (_new_variable(numpy.multiply(g, mask), gy._requires_grad),)


class ReLUGrad2(FunctionNode):
    """Gradient of ReLU from its output ``y``: ``gy`` where ``y > 0``, zero elsewhere.

    It holds ``y`` itself and takes the sign when it runs, so that a replayed static
    schedule (``chainer.static_graph``), which refreshes ``y`` in place, stays correct.
    """

    is_elementwise = True

    def __init__(self, y) -> None:
        self.y = y

    def forward(self, inputs: tuple) -> tuple:
        return (force_array(inputs[0] * (self.y > 0)),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        return ReLUGrad2(self.y).apply(grad_outputs)


def relu(x) -> Variable:
    """Rectified Linear Unit: :math:`f(x) = \\max(0, x)`.

    Args:
        x: Input variable or array of floating-point dtype, of any shape.

    Returns:
        A variable of the shape and dtype of ``x``.

    Example:
        >>> x = numpy.array([[-1, 0], [2, -3]], numpy.float32)
        >>> F.relu(x).array
        array([[0., 0.],
               [2., 0.]], dtype=float32)
    """
    return ReLU().apply((x,))[0]
