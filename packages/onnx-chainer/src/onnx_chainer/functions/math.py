"""Converters of chainer.functions.math (and the operators of Variable)."""

from __future__ import annotations

import numpy as np

import chainer
from onnx_chainer import mapping
from onnx_chainer.functions import _forms as forms
from onnx_chainer.functions._registry import function_label as _label
from onnx_chainer.functions._registry import support
from onnx_chainer.onnx_helper import GraphBuilder, make_node

_UNARY = {
    "Neg": "Neg",
    "Absolute": "Abs",
    "Exp": "Exp",
    "Log": "Log",
    "Sqrt": "Sqrt",
    "Sin": "Sin",
    "Cos": "Cos",
    "Tan": "Tan",
    "Arcsin": "Asin",
    "Arccos": "Acos",
    "Arctan": "Atan",
    "Floor": "Floor",
    "Ceil": "Ceil",
}
_UNARY_9 = {"Sinh": "Sinh", "Cosh": "Cosh", "Sign": "Sign", "Erf": "Erf", "Arctanh": "Atanh"}


def _unary(params):
    name = _label(params.func)
    op = _UNARY.get(name) or _UNARY_9.get(name) or params.func.custom_function_node_name
    return (make_node(op, params.input_names, params.output_names),)


support(*[k for k in _UNARY if k not in ("Floor", "Ceil")])(_unary)
support("Sinh", "Cosh", "Erf", "Arctanh", min_opset=9)(_unary)


def _wrapped_unary(params):
    return (
        make_node(params.func.custom_function_node_name, params.input_names, params.output_names),
    )


support("Floor", "Ceil")(_wrapped_unary)
support("Sign", min_opset=9)(_wrapped_unary)


@support("Add", "Sub", "Mul", "Div", "PowVarVar")
def convert_binary(params):
    op = {"PowVarVar": "Pow"}.get(_label(params.func), _label(params.func))
    names = params.input_names
    if len(names) == 2:
        return (make_node(op, names, params.output_names),)
    gb = GraphBuilder()
    acc = names[0]
    for i, name in enumerate(names[1:]):
        out = params.output_names[0] if i == len(names) - 2 else None
        acc = forms.emit(gb, op, [acc, name], out)
    return gb.nodes()


_CONSTANT_OPS = {
    "AddConstant": ("Add", False),
    "SubFromConstant": ("Sub", True),
    "MulConstant": ("Mul", False),
    "DivFromConstant": ("Div", True),
    "PowVarConst": ("Pow", False),
    "PowConstVar": ("Pow", True),
}


@support(*_CONSTANT_OPS)
def convert_constant_op(params):
    op, constant_first = _CONSTANT_OPS[_label(params.func)]
    value = forms.scalar(params, params.func.value, "value")
    x = params.input_names[0]
    inputs = [value, x] if constant_first else [x, value]
    return (make_node(op, inputs, params.output_names),)


@support("Square")
def convert_square(params):
    x = params.input_names[0]
    return (make_node("Mul", [x, x], params.output_names),)


@support("Log1p", "Expm1", "Log10", "Log2")
def convert_log_exp_variants(params):
    x = params.input_names[0]
    gb = GraphBuilder()
    name = _label(params.func)
    if name == "Log1p":
        gb.op_output_named(
            "Log", [gb.op("Add", [x, forms.scalar(params, 1, "one")])], params.output_names
        )
    elif name == "Expm1":
        gb.op_output_named(
            "Sub", [gb.op("Exp", [x]), forms.scalar(params, 1, "one")], params.output_names
        )
    else:
        base = forms.scalar(params, np.log(10.0 if name == "Log10" else 2.0), "log_base")
        gb.op_output_named("Div", [gb.op("Log", [x]), base], params.output_names)
    return gb.nodes()


@support("MatMul")
def convert_matmul(params):
    gb = GraphBuilder()
    names = []
    for i, flag in enumerate((params.func.transa, params.func.transb)):
        name, ndim = params.input_names[i], len(forms.input_shape(params, i))
        if flag and ndim >= 2:
            perm = list(range(ndim))
            perm[-1], perm[-2] = perm[-2], perm[-1]
            name = gb.op("Transpose", [name], perm=perm)
        names.append(name)
    gb.op_output_named("MatMul", names, params.output_names)
    return gb.nodes()


@support("Maximum", "Minimum")
def convert_maximum(params):
    op = "Max" if _label(params.func) == "Maximum" else "Min"
    return (make_node(op, params.input_names, params.output_names),)


@support("Clip")
def convert_clip(params):
    gb = GraphBuilder()
    forms.clip(
        gb,
        params,
        params.input_names[0],
        params.func.x_min,
        params.func.x_max,
        params.output_names[0],
    )
    return gb.nodes()


_REDUCTIONS = {"Sum": "ReduceSum", "Max": "ReduceMax", "Min": "ReduceMin", "Prod": "ReduceProd"}


@support(*_REDUCTIONS)
def convert_reduction(params):
    gb = GraphBuilder()
    func = params.func
    forms.reduce(
        gb,
        params,
        _REDUCTIONS[type(func).__name__],
        params.input_names[0],
        func.axis,
        func.keepdims,
        params.output_names[0],
    )
    return gb.nodes()


@support("LogSumExp")
def convert_logsumexp(params):
    gb = GraphBuilder()
    forms.reduce(
        gb,
        params,
        "ReduceLogSumExp",
        params.input_names[0],
        params.func.axis,
        False,
        params.output_names[0],
    )
    return gb.nodes()


@support("BatchL2NormSquared")
def convert_batch_l2_norm_squared(params):
    gb = GraphBuilder()
    axes = list(range(1, len(forms.input_shape(params))))
    forms.reduce(
        gb, params, "ReduceSumSquare", params.input_names[0], axes, False, params.output_names[0]
    )
    return gb.nodes()


@support("ArgMax", "ArgMin")
def convert_argmax(params):
    op = _label(params.func)
    gb = GraphBuilder()
    x, axis = params.input_names[0], params.func.axis
    if axis is None:
        x = forms.reshape(gb, params, x, [-1])
        axis = 0
    index = gb.op(op, [x], axis=int(axis), keepdims=0)
    gb.op_output_named("Cast", [index], params.output_names, to=mapping.onnx_type(np.int32))
    return gb.nodes()


@support("LinearInterpolate")
def convert_linear_interpolate(params):
    p, x, y = params.input_names
    gb = GraphBuilder()
    one_minus_p = gb.op("Sub", [forms.scalar(params, 1, "one"), p])
    gb.op_output_named(
        "Add", [gb.op("Mul", [p, x]), gb.op("Mul", [one_minus_p, y])], params.output_names
    )
    return gb.nodes()


@support("BroadcastTo", min_opset=8)
def convert_broadcast_to(params):
    shape = forms.ints(params, params.func.shape, "shape")
    return (make_node("Expand", [params.input_names[0], shape], params.output_names),)


@support("Broadcast", min_opset=8)
def convert_broadcast(params):
    shape = [ref().shape for ref in params.func.outputs if ref() is not None][0]
    target = forms.ints(params, shape, "shape")
    return [
        make_node("Expand", [x, target], [y])
        for x, y in zip(params.input_names, params.output_names)
    ]


@support("Cumsum", min_opset=11)
def convert_cumsum(params):
    axis = params.func.axis
    gb = GraphBuilder()
    x = params.input_names[0]
    if axis is None:
        x, axis = forms.reshape(gb, params, x, [-1]), 0
    gb.op_output_named("CumSum", [x, forms.ints(params, [int(axis)], "axis")], params.output_names)
    return gb.nodes()


@support("Cumprod")
def convert_cumprod(params):
    """Running products, one ``Mul`` per step along the (static) axis."""
    axis = params.func.axis
    gb = GraphBuilder()
    x = params.input_names[0]
    shape = forms.input_shape(params)
    if axis is None:
        x, axis, shape = forms.reshape(gb, params, x, [-1]), 0, (int(np.prod(shape)),)
    axis = int(axis) % len(shape)
    if shape[axis] <= 1:
        forms.emit(gb, "Identity", [x], params.output_names[0])
        return gb.nodes()
    products = [forms.slice_(gb, params, x, [0], [1], [axis])]
    for k in range(1, shape[axis]):
        step = forms.slice_(gb, params, x, [k], [k + 1], [axis])
        products.append(gb.op("Mul", [products[-1], step]))
    gb.op_output_named("Concat", products, params.output_names, axis=axis)
    return gb.nodes()


# DFT: opset 17 (the axis an attribute; an input from opset 20).
@support("FFT", min_opset=17, input_labels=("real", "imag"))
def convert_fft(params):
    """``fft``/``ifft`` over the last axis, as ``DFT`` of ``[..., n, 2]`` complex pairs."""
    real, imag = params.input_names
    shape = forms.input_shape(params)
    gb = GraphBuilder()
    if len(shape) == 1:  # DFT's first axis is a batch axis
        real, imag = (forms.reshape(gb, params, v, [1, shape[0]]) for v in (real, imag))
    ndim = max(len(shape), 2)
    pairs = [forms.unsqueeze(gb, params, v, [ndim]) for v in (real, imag)]
    signal = gb.op("Concat", pairs, axis=ndim)
    inverse = int(params.func._method == "ifft")
    if params.opset_version >= 20:
        axis = forms.const(params, ndim - 1, "axis", np.int64)
        spectrum = gb.op("DFT", [signal, "", axis], inverse=inverse)
    else:
        spectrum = gb.op("DFT", [signal], axis=ndim - 1, inverse=inverse)
    parts = [f"{params.context.current_name}_{part}" for part in ("real", "imag")]
    forms.split(gb, params, spectrum, [1, 1], ndim, parts)
    for part, out in zip(parts, params.output_names):
        forms.reshape(gb, params, part, shape, out)
    return gb.nodes()


@support("EinSum", min_opset=12)
def convert_einsum(params):
    equation = ",".join(params.func.in_terms) + "->" + params.func.out_term
    return (make_node("Einsum", params.input_names, params.output_names, equation=equation),)


@support("Fmod", min_opset=10)
def convert_fmod(params):
    return (make_node("Mod", params.input_names, params.output_names, fmod=1),)


@support("Erfc", min_opset=9)
def convert_erfc(params):
    gb = GraphBuilder()
    erf = gb.op("Erf", params.input_names)
    gb.op_output_named("Sub", [forms.scalar(params, 1, "one"), erf], params.output_names)
    return gb.nodes()


@support("FloorDivide")
def convert_floor_divide(params):
    if forms.input_dtype(params).kind != "f":
        raise ValueError("FloorDivide of integers has no exact ONNX form (Div truncates)")
    gb = GraphBuilder()
    gb.op_output_named("Floor", [gb.op("Div", params.input_names)], params.output_names)
    return gb.nodes()


@support("TensorDot", min_opset=12)
def convert_tensordot(params):
    letters = iter("abcdefghijklmnopqrstuvwxyz")
    a_ndim, b_ndim = len(forms.input_shape(params, 0)), len(forms.input_shape(params, 1))
    a_terms = [next(letters) for _ in range(a_ndim)]
    b_terms = [next(letters) for _ in range(b_ndim)]
    for a_axis, b_axis in zip(params.func.a_axes, params.func.b_axes):
        b_terms[b_axis % b_ndim] = a_terms[a_axis % a_ndim]
    summed = set(a_terms) & set(b_terms)
    out = [t for t in a_terms if t not in summed] + [t for t in b_terms if t not in summed]
    equation = f"{''.join(a_terms)},{''.join(b_terms)}->{''.join(out)}"
    return (make_node("Einsum", params.input_names, params.output_names, equation=equation),)


@support("SumTo")
def convert_sum_to(params):
    shape = forms.input_shape(params)
    target = tuple(params.func.shape)
    lead = len(shape) - len(target)
    axes = list(range(lead)) + [
        lead + i for i, d in enumerate(target) if d == 1 and shape[lead + i] != 1
    ]
    gb = GraphBuilder()
    summed = forms.reduce(gb, params, "ReduceSum", params.input_names[0], axes, True)
    forms.reshape(gb, params, summed, target, params.output_names[0])
    return gb.nodes()


@support("BatchDet", min_opset=11)
def convert_batch_det(params):
    return (make_node("Det", params.input_names, params.output_names),)


@support("Ndtr", min_opset=9)
def convert_ndtr(params):
    """The standard normal CDF, ``(1 + erf(x / sqrt(2))) / 2``."""
    gb = GraphBuilder()
    scaled = gb.op("Mul", [params.input_names[0], forms.scalar(params, 0.5**0.5, "rsqrt2")])
    shifted = gb.op("Add", [gb.op("Erf", [scaled]), forms.scalar(params, 1, "one")])
    gb.op_output_named("Mul", [shifted, forms.scalar(params, 0.5, "half")], params.output_names)
    return gb.nodes()


@support("Arctan2", min_opset=11)  # Equal on floats
def convert_arctan2(params):
    """``atan(y / x)`` moved to the right quadrant (``+-pi`` when ``x < 0``, ``+-pi/2`` at 0)."""
    y, x = params.input_names
    gb = GraphBuilder()
    zero = forms.scalar(params, 0, "zero")
    pi = forms.scalar(params, np.pi, "pi")
    base = gb.op("Atan", [gb.op("Div", [y, x])])
    y_sign = gb.op(
        "Where",
        [
            gb.op("Less", [y, zero]),
            forms.scalar(params, -1, "minus"),
            forms.scalar(params, 1, "plus"),
        ],
    )
    shifted = gb.op("Add", [base, gb.op("Mul", [y_sign, pi])])
    quadrant = gb.op("Where", [gb.op("Less", [x, zero]), shifted, base])
    on_axis = gb.op("Mul", [y_sign, forms.scalar(params, np.pi / 2, "half_pi")])
    gb.op_output_named(
        "Where", [gb.op("Equal", [x, zero]), on_axis, quadrant], params.output_names
    )
    return gb.nodes()


@support("CooMatMul", min_opset=11, input_labels=("sp", "dn"))
def convert_coo_matmul(params):
    """``sparse_matmul``: ``A`` made dense by ``ScatterND`` of its entries, then ``MatMul``.

    ``A``'s indices are constants; entries at one position add up (``reduction='add'``, opset
    16); before, positions must be distinct.
    """
    func = params.func
    data, dense = params.input_names
    rows, cols = func.sp_shape[-2:]
    row, col = (
        np.asarray(chainer.backend.CpuDevice().send(a)) for a in (func.sp_row, func.sp_col)
    )
    batched = row.ndim == 2
    row2, col2 = np.atleast_2d(row), np.atleast_2d(col)
    batch = np.arange(len(row2))[:, None] * (rows * cols)
    flat_positions = (batch + row2 * cols + col2).reshape(-1)
    kept = ((row2 >= 0) & (col2 >= 0)).reshape(-1)
    positions = flat_positions[kept]
    opset = params.opset_version
    repeated = len(np.unique(positions)) != len(positions)
    if repeated and opset < 16:
        raise ValueError(
            "CooMatMul: entries at the same position need ScatterND with reduction='add': "
            f"supported from opset 16, you asked for {opset}"
        )
    gb = GraphBuilder()
    entries = forms.reshape(gb, params, data, [-1])
    if not kept.all():
        entries = gb.op("Gather", [entries, forms.ints(params, np.flatnonzero(kept), "kept")])
    zeros = forms.const(
        params, np.zeros(len(row2) * rows * cols), "zeros", forms.input_dtype(params)
    )
    attrs = {"reduction": "add"} if repeated else {}
    index = forms.ints(params, positions.reshape(-1, 1), "positions")
    a = gb.op("ScatterND", [zeros, index, entries], **attrs)
    a = forms.reshape(gb, params, a, [len(row2), rows, cols] if batched else [rows, cols])
    ndim = 3 if batched else 2
    last_two = [*range(ndim - 2), ndim - 1, ndim - 2]
    common = np.result_type(forms.input_dtype(params), forms.input_dtype(params, 1))
    if forms.input_dtype(params) != common:
        a = gb.op("Cast", [a], to=mapping.onnx_type(common))
    if forms.input_dtype(params, 1) != common:
        dense = gb.op("Cast", [dense], to=mapping.onnx_type(common))
    if func.transa:
        a = gb.op("Transpose", [a], perm=last_two)
    if func.transb:
        dense = gb.op("Transpose", [dense], perm=last_two)
    c = gb.op("MatMul", [a, dense])
    if func.transc:
        c = gb.op("Transpose", [c], perm=last_two)
    out_dtype = np.dtype(func.outputs[0]().dtype)
    if out_dtype != common:
        c = gb.op("Cast", [c], to=mapping.onnx_type(out_dtype))
    forms.emit(gb, "Identity", [c], params.output_names[0])
    return gb.nodes()
