"""Importers of arithmetic: elementwise unary/binary ops, MatMul, Clip, CumSum, Einsum, Det."""

from __future__ import annotations

import functools

import numpy as np

import chainer
import chainer.functions as F
from chainer.backend import get_array_module
from onnx_chainer.importer._registry import NodeContext, importer


def is_data(value) -> bool:
    """Whether ``value`` is floating point (runs through Chainer; the rest runs on arrays)."""
    return value is not None and value.dtype.kind == "f"


def raw(value):
    return value.array if isinstance(value, chainer.Variable) else value


def broadcast(*values, shape: tuple[int, ...] = ()):
    """``values`` as Variables broadcast to their common (NumPy rule) shape and ``shape``."""
    shape = np.broadcast_shapes(shape, *(v.shape for v in values))
    return tuple(
        chainer.as_variable(v) if v.shape == shape else F.broadcast_to(v, shape) for v in values
    )


_UNARY = {
    "Abs": (F.absolute, np.abs),
    "Neg": (lambda x: -x, np.negative),
    "Exp": (F.exp, None),
    "Log": (F.log, None),
    "Sqrt": (F.sqrt, None),
    "Sin": (F.sin, None),
    "Cos": (F.cos, None),
    "Tan": (F.tan, None),
    "Asin": (F.arcsin, None),
    "Acos": (F.arccos, None),
    "Atan": (F.arctan, None),
    "Sinh": (F.sinh, None),
    "Cosh": (F.cosh, None),
    "Atanh": (F.arctanh, None),
    "Erf": (F.erf, None),
    "Reciprocal": (lambda x: 1 / x, None),
    "Floor": (F.floor, np.floor),
    "Ceil": (F.ceil, np.ceil),
    "Sign": (F.sign, np.sign),
    "Round": (None, np.round),
    "Identity": (F.identity, np.array),
}


def _unary(ctx: NodeContext):
    function, on_arrays = _UNARY[ctx.op_type]
    x = ctx.input(0)
    if is_data(x) and function is not None:
        return function(x)
    if on_arrays is None:
        raise ctx.error(f"input of dtype {x.dtype} is not supported", unsupported=True)
    xp = get_array_module(raw(x))
    return xp.asarray(on_arrays(raw(x)))


for _op in _UNARY:
    importer(_op)(_unary)


def _truncated_divide(a, b):
    xp = get_array_module(a)
    quotient = xp.abs(a) // xp.abs(b)
    return (quotient * xp.sign(a) * xp.sign(b)).astype(xp.result_type(a, b))


_BINARY = {
    "Add": (lambda a, b: a + b, np.add),
    "Sub": (lambda a, b: a - b, np.subtract),
    "Mul": (lambda a, b: a * b, np.multiply),
    "Div": (lambda a, b: a / b, _truncated_divide),
}


@importer("Add", "Sub", "Mul", "Div")
def binary(ctx: NodeContext):
    a, b = ctx.input(0), ctx.input(1)
    function, on_arrays = _BINARY[ctx.op_type]
    if not (is_data(a) or is_data(b)):
        return on_arrays(raw(a), raw(b))
    return function(*broadcast(a, b))


@importer("Pow", static_inputs=(1,))
def power(ctx: NodeContext):
    """An exponent held in the model is a constant (``x ** 2``), not a trainable parameter."""
    a, b = ctx.input(0), ctx.input(1)
    if not (is_data(a) or is_data(b)):
        return np.power(raw(a), raw(b))
    if not isinstance(b, chainer.Variable) and b.size == 1:
        return a ** float(raw(b).reshape(()))
    base, exponent = broadcast(a, F.cast(b, a.dtype) if b.dtype != a.dtype else b)
    return base**exponent


@importer("Mod", min_opset=10)
def mod(ctx: NodeContext):
    a, b = ctx.input(0), ctx.input(1)
    if ctx.attr("fmod", 0, "int"):
        if is_data(a) or is_data(b):
            return F.fmod(*broadcast(a, b))
        return get_array_module(raw(a)).fmod(raw(a), raw(b))
    if is_data(a) or is_data(b):
        raise ctx.error("floating-point Mod needs fmod=1")
    return get_array_module(raw(a)).mod(raw(a), raw(b))


_VARIADIC = {"Max": F.maximum, "Min": F.minimum, "Sum": lambda a, b: a + b, "Mean": None}
_VARIADIC_ON_ARRAYS = {"Max": np.maximum, "Min": np.minimum, "Sum": np.add, "Mean": np.add}


@importer(*_VARIADIC)
def variadic(ctx: NodeContext):
    values = [v for v in ctx.inputs if v is not None]
    if not any(is_data(v) for v in values):
        result = functools.reduce(_VARIADIC_ON_ARRAYS[ctx.op_type], [raw(v) for v in values])
        return result // len(values) if ctx.op_type == "Mean" else result
    values = broadcast(*values)
    combine = _VARIADIC[ctx.op_type] or (lambda a, b: a + b)
    result = functools.reduce(combine, values)
    return result / len(values) if ctx.op_type == "Mean" else result


@importer("Clip", static_inputs=(1, 2))
def clip(ctx: NodeContext):
    x = ctx.input(0)
    if ctx.opset < 11:
        low, high = ctx.attr("min", -np.inf, "float"), ctx.attr("max", np.inf, "float")
    else:
        low = float(ctx.const(1).reshape(())) if ctx.input(1) is not None else -np.inf
        high = float(ctx.const(2).reshape(())) if ctx.input(2) is not None else np.inf
    if not is_data(x):
        return get_array_module(raw(x)).clip(raw(x), low, high).astype(x.dtype)
    # F.clip refuses an infinite bound: one-sided clips go through maximum/minimum.
    if np.isfinite(low) and np.isfinite(high):
        return F.clip(x, low, high)
    if np.isfinite(low):
        x = F.maximum(x, np.full(x.shape, low, x.dtype))
    if np.isfinite(high):
        x = F.minimum(x, np.full(x.shape, high, x.dtype))
    return x


@importer("MatMul")
def matmul(ctx: NodeContext):
    a, b = ctx.input(0), ctx.input(1)
    if not (is_data(a) or is_data(b)):
        return get_array_module(raw(a)).matmul(raw(a), raw(b))
    squeeze_a, squeeze_b = a.ndim == 1, b.ndim == 1
    if squeeze_a:
        a = F.expand_dims(a, 0)
    if squeeze_b:
        b = F.expand_dims(b, 1)
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    if a.ndim > 2 or b.ndim > 2:
        a = F.broadcast_to(a, batch + a.shape[-2:]) if a.shape[:-2] != batch else a
        b = F.broadcast_to(b, batch + b.shape[-2:]) if b.shape[:-2] != batch else b
    if len(batch) > 1:
        flat_a = F.reshape(a, (-1,) + a.shape[-2:])
        flat_b = F.reshape(b, (-1,) + b.shape[-2:])
        out = F.matmul(flat_a, flat_b)
        out = F.reshape(out, batch + out.shape[-2:])
    else:
        out = F.matmul(a, b)
    if squeeze_a:
        out = F.squeeze(out, -2)
    if squeeze_b:
        out = F.squeeze(out, -1)
    return out


@importer("CumSum", min_opset=11, static_inputs=(1,))
def cumsum(ctx: NodeContext):
    x = ctx.input(0)
    axis = ctx.axis(ctx.ints(1)[0], x.ndim)
    if ctx.attr("reverse", 0, "int"):
        x = F.flip(x, axis)
    out = F.cumsum(x, axis)
    if ctx.attr("exclusive", 0, "int"):
        out = out - x
    return F.flip(out, axis) if ctx.attr("reverse", 0, "int") else out


@importer("Einsum", min_opset=12)
def einsum(ctx: NodeContext):
    equation = ctx.attr("equation", None, "str")
    if equation is None:
        raise ctx.error("the 'equation' attribute is missing")
    return F.einsum(equation.replace(" ", ""), *ctx.inputs)


@importer("Det", min_opset=11)
def det(ctx: NodeContext):
    x = ctx.input(0)
    if x.ndim == 2:
        return F.reshape(F.batch_det(F.expand_dims(x, 0)), ())
    flat = F.reshape(x, (-1,) + x.shape[-2:])
    return F.reshape(F.batch_det(flat), x.shape[:-2])


def _dft_matrices(size: int, outputs: int, inverse: bool, dtype):
    """cos and sin of the DFT's angles, (size, outputs)."""
    n = np.arange(size)[:, None]
    k = np.arange(outputs)[None, :]
    angle = 2 * np.pi * n * k / size
    return np.cos(angle).astype(dtype), np.sin(angle).astype(dtype)


@importer("DFT", min_opset=17, static_inputs=(1, 2))
def dft(ctx: NodeContext):
    """As matrix products with cos/sin tables, so it backpropagates."""
    x = ctx.input(0)
    if ctx.opset < 20:
        axis = ctx.attr("axis", 1, "int")
    else:
        axis = ctx.ints(2, [-2])[0]
    axis = ctx.axis(axis, x.ndim)  # counted on the input, whose last axis is real/imaginary
    if axis == x.ndim - 1:
        raise ctx.error(f"axis {axis} is the real/imaginary axis of a {x.ndim}-d input")
    inverse = bool(ctx.attr("inverse", 0, "int"))
    onesided = bool(ctx.attr("onesided", 0, "int"))
    if x.shape[-1] == 1:
        real, imag = F.squeeze(x, -1), None
    elif x.shape[-1] == 2:
        real, imag = (F.squeeze(p, -1) for p in F.split_axis(x, 2, -1))
    else:
        raise ctx.error(f"the last axis must hold 1 (real) or 2 (complex) values, got {x.shape}")
    length = ctx.ints(1, [x.shape[axis]])[0] if ctx.input(1) is not None else x.shape[axis]
    if ctx.input(1) is not None and ctx.const(1).size == 0:
        length = x.shape[axis]
    real = _fit_length(real, axis, length)
    imag = None if imag is None else _fit_length(imag, axis, length)
    outputs = length // 2 + 1 if onesided else length
    cos, sin = _dft_matrices(length, outputs, inverse, x.dtype)
    sign = 1.0 if inverse else -1.0
    real = F.moveaxis(real, axis, -1)
    out_real = F.matmul(real, cos)
    out_imag = sign * F.matmul(real, sin)
    if imag is not None:
        imag = F.moveaxis(imag, axis, -1)
        out_real = out_real - sign * F.matmul(imag, sin)
        out_imag = out_imag + F.matmul(imag, cos)
    if inverse:
        out_real, out_imag = out_real / length, out_imag / length
    out = F.stack([out_real, out_imag], axis=-1)
    return F.moveaxis(out, x.ndim - 2, axis)


def _fit_length(x, axis: int, length: int):
    """``x`` cut or zero-padded along ``axis`` to ``length``."""
    size = x.shape[axis]
    if length < size:
        return F.get_item(x, (slice(None),) * axis + (slice(0, length),))
    if length > size:
        widths = [(0, 0)] * x.ndim
        widths[axis] = (0, length - size)
        return F.pad(x, widths, "constant")
    return x
