"""Shape and reduction ops that ``Variable`` methods need: reshape, transpose, broadcast,
sum, sum_to, mean, cast, copy, identity, squeeze, expand_dims."""

from __future__ import annotations

import numpy

from chainer._ops import _util
from chainer._ops._util import force_array
from chainer.configuration import config
from chainer.function_node import Fallback, FunctionNode
from chainer.variable import Variable, _new_variable, as_variable

_INTEGERS = (int, numpy.integer)
_CHAINERX_DTYPES = frozenset(
    numpy.dtype(t)
    for t in ("bool", "int8", "int16", "int32", "int64", "uint8", "float16", "float32", "float64")
)


def _shape_text(shape) -> str:
    return str(tuple(shape))


class Reshape(FunctionNode):
    def __init__(self, shape: tuple) -> None:
        self.shape = shape

    def _check_arrays(self, in_data: tuple) -> None:
        size = in_data[0].size
        known = 1
        unknown = 0
        for n in self.shape:
            if n == -1:
                unknown += 1
            else:
                known *= n
        ok = (known == size) if unknown == 0 else (unknown == 1 and known and size % known == 0)
        if not ok:
            _util.fail(
                f"x.size == prod({_shape_text(self.shape)})",
                f"cannot reshape an array of shape {in_data[0].shape} to {self.shape}",
            )

    def forward(self, inputs: tuple) -> tuple:
        return (inputs[0].reshape(self.shape),)

    def forward_chainerx(self, inputs: tuple) -> tuple:
        return (inputs[0].reshape(self.shape),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        return (reshape(grad_outputs[0], self.inputs[0].shape),)


def reshape(x, shape: tuple) -> Variable:
    """Reshape ``x`` (one dimension may be -1)."""
    shape = tuple(shape)
    if x.shape == shape:  # nothing to do: x itself, as in Chainer
        return as_variable(x)
    return Reshape(shape).apply((x,))[0]


class Transpose(FunctionNode):
    def __init__(self, axes) -> None:
        self.axes = axes

    def _check_arrays(self, in_data: tuple) -> None:
        if self.axes is not None:
            ndim = in_data[0].ndim
            normalized = sorted(a % ndim if -ndim <= a < ndim else a for a in self.axes)
            if normalized != list(range(ndim)):
                _util.fail(f"axes is a permutation of range({ndim})", f"axes={tuple(self.axes)}")

    def forward(self, inputs: tuple) -> tuple:
        return (inputs[0].transpose(self.axes),)

    def forward_chainerx(self, inputs: tuple) -> tuple:
        import chainerx

        return (chainerx.transpose(inputs[0], self.axes),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        if self.axes is None:
            return (transpose(grad_outputs[0], None),)
        ndim = len(self.axes)
        inverse = tuple(numpy.argsort([a % ndim for a in self.axes]).tolist())
        return (transpose(grad_outputs[0], inverse),)


def transpose(x, axes=None) -> Variable:
    """Permute the axes of ``x`` (reverse them when ``axes`` is None)."""
    return Transpose(None if axes is None else tuple(axes)).apply((x,))[0]


class BroadcastTo(FunctionNode):
    def __init__(self, shape: tuple) -> None:
        self.shape = shape

    def _check_arrays(self, in_data: tuple) -> None:
        try:
            numpy.broadcast_shapes(in_data[0].shape, self.shape)
            ok = numpy.broadcast_shapes(in_data[0].shape, self.shape) == self.shape
        except ValueError:
            ok = False
        if not ok:
            _util.fail(f"x.shape can be broadcast to {self.shape}", f"x.shape={in_data[0].shape}")

    def forward(self, inputs: tuple) -> tuple:
        xp = _xp(inputs[0])
        return (xp.broadcast_to(inputs[0], self.shape),)

    def forward_chainerx(self, inputs: tuple) -> tuple:
        import chainerx

        return (chainerx.broadcast_to(inputs[0], self.shape),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        return (sum_to(grad_outputs[0], self.inputs[0].shape),)


def broadcast_to(x, shape) -> Variable:
    """Broadcast ``x`` to ``shape`` (NumPy rules)."""
    shape = tuple(shape)
    if x.shape == shape:  # nothing to do: x itself, as in Chainer
        return as_variable(x)
    return BroadcastTo(shape).apply((x,))[0]


class SumTo(FunctionNode):
    def __init__(self, shape: tuple) -> None:
        self.shape = shape

    def _check_arrays(self, in_data: tuple) -> None:
        x_shape = in_data[0].shape
        lead = len(x_shape) - len(self.shape)
        ok = lead >= 0 and all(n == 1 or n == x_shape[i + lead] for i, n in enumerate(self.shape))
        if not ok:
            _util.fail(f"x.shape can be summed to {self.shape}", f"x.shape={x_shape}")

    def forward(self, inputs: tuple) -> tuple:
        return (_util.sum_to_array(inputs[0], self.shape),)

    forward_chainerx = forward  # sum and reshape, as ChainerX has them

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        return (broadcast_to(grad_outputs[0], self.inputs[0].shape),)


def sum_to(x, shape) -> Variable:
    """Sum ``x`` over broadcast axes so that the result has ``shape``."""
    shape = tuple(shape)
    if x.shape == shape:  # nothing to do: x itself, as in Chainer
        return as_variable(x)
    return SumTo(shape).apply((x,))[0]


def _normalize_axis(axis, ndim: int):
    if axis is None:
        return None
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    out = []
    for a in axes:
        if not -ndim <= a < ndim:
            _util.fail(f"-{ndim} <= axis < {ndim}", f"axis={a}")
        out.append(a % ndim)
    if len(set(out)) != len(out):
        _util.fail("axes are unique", f"axis={axis}")
    return tuple(sorted(out))


class Sum(FunctionNode):
    def __init__(self, axis=None, keepdims: bool = False) -> None:
        self.axis = axis
        self.keepdims = keepdims

    def _check_arrays(self, in_data: tuple) -> None:
        _normalize_axis(self.axis, in_data[0].ndim)

    def forward(self, inputs: tuple) -> tuple:
        x = inputs[0]
        axes = _normalize_axis(self.axis, x.ndim)
        self._axes = axes
        return (force_array(x.sum(axis=axes, keepdims=self.keepdims)),)

    def _static_forward(self):
        """``forward`` for a replayed static schedule (the axes are normalized already)."""
        axes, keepdims = self._axes, self.keepdims
        return lambda inputs: (force_array(inputs[0].sum(axis=axes, keepdims=keepdims)),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        gy = grad_outputs[0]
        in_shape = self.inputs[0].shape
        if not self.keepdims and self._axes is not None:
            kept = list(in_shape)
            for a in self._axes:
                kept[a] = 1
            gy = reshape(gy, tuple(kept))
        elif not self.keepdims:
            gy = reshape(gy, (1,) * len(in_shape))
        return (broadcast_to(gy, in_shape),)

    def _backward_fast(self, indexes: tuple, grad_outputs: tuple) -> tuple | None:
        gy = grad_outputs[0]
        g = gy._array
        in_shape = self.inputs[0].shape
        axes = self._axes
        if axes is None:
            kept: tuple = (1,) * len(in_shape)
            out_shape = kept if self.keepdims else ()
        else:
            kept = tuple([1 if i in axes else n for i, n in enumerate(in_shape)])
            out_shape = (
                kept
                if self.keepdims
                else tuple([n for i, n in enumerate(in_shape) if i not in axes])
            )
        if type(g) is not numpy.ndarray or g.shape != out_shape:
            return None  # backward reports a gradient of the wrong shape
        # backward's reshape and broadcast_to, each skipped when the shape is already right
        a = g if g.shape == kept else g.reshape(kept)
        if a.shape != in_shape:
            a = numpy.broadcast_to(a, in_shape)
        return (gy if a is g else _new_variable(a, gy._requires_grad),)


def _check_axis_argument(axis) -> None:
    if axis is None or isinstance(axis, _INTEGERS):
        return
    if isinstance(axis, tuple) and all(isinstance(a, _INTEGERS) for a in axis):
        if len(set(axis)) != len(axis):
            raise ValueError(f"duplicate value in axis: {axis}")
        return
    raise TypeError(f"axis must be None, an int or a tuple of ints, got {axis!r}")


def sum(x, axis=None, keepdims: bool = False) -> Variable:
    """Sum of elements over ``axis`` (all elements when None).

    Raises:
        TypeError: ``axis`` is not None, an int or a tuple of ints.
        ValueError: ``axis`` names an axis twice.
    """
    _check_axis_argument(axis)
    return Sum(axis, keepdims).apply((x,))[0]


def mean(x, axis=None, weights=None, keepdims: bool = False) -> Variable:
    """(Weighted) mean over ``axis``; ``weights`` is 1-D along a single int ``axis``, or has
    ``x``'s shape when ``axis`` is None."""
    _check_axis_argument(axis)
    x = x if isinstance(x, Variable) else Variable(x, requires_grad=False)
    if isinstance(axis, tuple) and x.ndim and len({a % x.ndim for a in axis}) != len(axis):
        raise ValueError(f"duplicate value in axis: {axis} (x.ndim={x.ndim})")
    if weights is None:
        axes = _normalize_axis(axis, x.ndim)
        count = x.size if axes is None else int(numpy.prod([x.shape[a] for a in axes]))
        if count == 0:
            raise ZeroDivisionError(f"mean over an empty selection of shape {x.shape}")
        return sum(x, axis, keepdims) * x.dtype.type(1.0 / count)
    w = weights if isinstance(weights, Variable) else Variable(weights, requires_grad=False)
    if axis is None:
        if w.shape != x.shape:
            raise ValueError(
                f"weights must have the shape of x {x.shape} when axis is None, got {w.shape}"
            )
        total = sum(x * w, None, keepdims)
        return total / broadcast_to(sum(w), total.shape)
    if not isinstance(axis, int):
        raise ValueError(f"weights need a single integer axis or None, got axis={axis!r}")
    a = axis % x.ndim
    if w.ndim != 1 or w.shape[0] != x.shape[a]:
        raise ValueError(
            f"weights must be 1-D of length {x.shape[a]} (x.shape[{axis}]), got {w.shape}"
        )
    shape = [1] * x.ndim
    shape[a] = w.shape[0]
    total = sum(x * broadcast_to(reshape(w, tuple(shape)), x.shape), a, keepdims)
    return total / broadcast_to(sum(w), total.shape)


class Cast(FunctionNode):
    def __init__(self, dtype) -> None:
        self.dtype = numpy.dtype(dtype)

    def forward(self, inputs: tuple) -> tuple:
        self._in_dtype = inputs[0].dtype
        return (inputs[0].astype(self.dtype, copy=False),)

    def forward_chainerx(self, inputs: tuple):
        x = inputs[0]
        if self.dtype not in _CHAINERX_DTYPES:
            return Fallback
        # A new array even for the same dtype: the output is a node of its own.
        return (x.astype(self.dtype) if x.dtype != self.dtype else x.view(),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        return (cast(grad_outputs[0], self._in_dtype),)


def cast(x, typ) -> Variable:
    """Cast ``x`` to dtype ``typ`` (gradients are cast back).

    A cast to ``x``'s own dtype still makes a graph node (so that two such casts of one
    variable get their own gradients), except when backprop is disabled: then ``x`` itself
    is returned.
    """
    if x.dtype == typ and not config.enable_backprop:
        return as_variable(x)
    return Cast(typ).apply((x,))[0]


class Copy(FunctionNode):
    """Copy to a device; the gradient goes back to the input's device."""

    def __init__(self, in_device, out_device) -> None:
        self.in_device = in_device
        self.out_device = out_device

    def forward(self, inputs: tuple) -> tuple:
        return (self.out_device.send(inputs[0]),)

    def forward_chainerx(self, inputs: tuple) -> tuple:
        # Between ChainerX devices the transfer is differentiable (``copy`` sends arrays in or
        # out of ChainerX without a node).
        x = inputs[0]
        y = self.out_device.send(x)
        return (x.view() if y is x else y,)  # a node of its own, as on NumPy

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        return (Copy(self.out_device, self.in_device).apply(grad_outputs)[0],)


def copy(x, dst) -> Variable:
    """Copy ``x`` to device ``dst`` (a device or spec; integers are CUDA ids, -1 is CPU)."""
    from chainer import backend

    if isinstance(dst, int) and not isinstance(dst, bool):
        dst = "@numpy" if dst < 0 else f"@cupy:{dst}"
    in_array = x._array if isinstance(x, Variable) else x
    in_device = backend.get_device_from_array(in_array)
    out_device = backend.get_device(dst)
    if _crosses_chainerx(in_device, out_device):
        if isinstance(x, Variable) and x.requires_grad:
            raise RuntimeError(
                f"copy of a variable that requires grad from {in_device} to {out_device}: "
                "gradients cannot travel between ChainerX and non-ChainerX devices; copy its "
                "array, or a variable with requires_grad=False"
            )
        return Variable(out_device.send(in_array), requires_grad=False)  # nothing to record
    return Copy(in_device, out_device).apply((x,))[0]


def _crosses_chainerx(in_device, out_device) -> bool:
    """Whether exactly one of the two devices is a ChainerX device."""
    from chainer.backends._chainerx import ChainerxDevice

    return isinstance(in_device, ChainerxDevice) != isinstance(out_device, ChainerxDevice)


class Identity(FunctionNode):
    """Pass inputs through unchanged (as new graph nodes)."""

    def forward(self, inputs: tuple) -> tuple:
        return inputs

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        return tuple([grad_outputs[i] for i in indexes])


def identity(*inputs):
    """Return the inputs as new variables (one variable if there is one input)."""
    ret = Identity().apply(inputs)
    return ret[0] if len(ret) == 1 else ret


def squeeze(x, axis=None) -> Variable:
    """Remove axes of length one (all of them when ``axis`` is None)."""
    shape = x.shape
    if axis is None:
        new_shape = tuple(n for n in shape if n != 1)
    else:
        axes = _normalize_axis(axis, len(shape))
        for a in axes:
            if shape[a] != 1:  # a ValueError, as numpy.squeeze's and Chainer's
                raise ValueError(
                    f"cannot squeeze axis {a} of length {shape[a]} (x.shape={shape}); "
                    "only axes of length 1 can be removed"
                )
        new_shape = tuple(n for i, n in enumerate(shape) if i not in axes)
    return reshape(x, new_shape)


def expand_dims(x, axis: int) -> Variable:
    """Insert an axis of length one at ``axis``."""
    shape = list(x.shape)
    ndim = len(shape) + 1
    if not -ndim <= axis < ndim:
        _raise_shape_error(f"-{ndim} <= axis < {ndim}", f"axis={axis}")
    shape.insert(axis % ndim, 1)
    return reshape(x, tuple(shape))


def _raise_shape_error(expect: str, actual: str):
    from chainer.utils import type_check

    raise type_check.InvalidType(expect, actual)


def _xp(array):
    if type(array) is numpy.ndarray:
        return numpy
    from chainer import backend

    return backend.get_array_module(array)
