"""Importers of comparisons, logic, Where, ArgMax/ArgMin and OneHot (no gradient but Where's)."""

from __future__ import annotations

import numpy as np

import chainer.functions as F
from chainer.backend import get_array_module
from onnx_chainer.importer._registry import NodeContext, importer
from onnx_chainer.importer.math import broadcast, is_data, raw

_ON_ARRAYS = {
    "Equal": np.equal,
    "Less": np.less,
    "Greater": np.greater,
    "LessOrEqual": np.less_equal,
    "GreaterOrEqual": np.greater_equal,
    "And": np.logical_and,
    "Or": np.logical_or,
    "Xor": np.logical_xor,
}


@importer(*_ON_ARRAYS)
def compare(ctx: NodeContext):
    a, b = raw(ctx.input(0)), raw(ctx.input(1))
    return get_array_module(a).asarray(_ON_ARRAYS[ctx.op_type](a, b))


@importer("Not")
def logical_not(ctx: NodeContext):
    x = raw(ctx.input(0))
    return get_array_module(x).logical_not(x)


@importer("IsNaN", min_opset=9)
def is_nan(ctx: NodeContext):
    x = raw(ctx.input(0))
    return get_array_module(x).isnan(x)


@importer("IsInf", min_opset=10)
def is_inf(ctx: NodeContext):
    x = raw(ctx.input(0))
    xp = get_array_module(x)
    positive, negative = (
        ctx.attr("detect_positive", 1, "int"),
        ctx.attr("detect_negative", 1, "int"),
    )
    return xp.isinf(x) & (((x > 0) & bool(positive)) | ((x < 0) & bool(negative)))


@importer("Where", min_opset=9)
def where(ctx: NodeContext):
    condition, x, y = ctx.input(0), ctx.input(1), ctx.input(2)
    if not (is_data(x) or is_data(y)):
        return get_array_module(raw(x)).where(raw(condition), raw(x), raw(y))
    condition = raw(condition)
    x, y = broadcast(x, y, shape=condition.shape)
    xp = get_array_module(condition)
    return F.where(xp.broadcast_to(condition, x.shape).astype(bool), x, y)


@importer("ArgMax", "ArgMin")
def arg_extremum(ctx: NodeContext):
    x = raw(ctx.input(0))
    xp = get_array_module(x)
    axis = ctx.axis(ctx.attr("axis", 0, "int"), x.ndim)
    pick = xp.argmax if ctx.op_type == "ArgMax" else xp.argmin
    if ctx.attr("select_last_index", 0, "int"):
        flipped = xp.flip(x, axis)
        index = x.shape[axis] - 1 - pick(flipped, axis=axis)
    else:
        index = pick(x, axis=axis)
    index = index.astype(np.int64)
    return xp.expand_dims(index, axis) if ctx.attr("keepdims", 1, "int") else index


@importer("OneHot", min_opset=9, static_inputs=(1, 2))
def one_hot(ctx: NodeContext):
    indices = raw(ctx.input(0))
    xp = get_array_module(indices)
    depth = int(ctx.const(1).reshape(-1)[0])
    off, on = ctx.const(2).reshape(-1)[:2]
    ctx.check_size(indices.shape + (depth,))
    axis = ctx.axis(ctx.attr("axis", -1, "int"), indices.ndim + 1)
    indices = xp.where(indices < 0, indices + depth, indices)
    hot = indices[..., None] == xp.arange(depth)
    out = xp.where(hot, xp.asarray(on), xp.asarray(off)).astype(ctx.const(2).dtype)
    return xp.moveaxis(out, -1, axis)


@importer("NonZero", min_opset=9)
def non_zero(ctx: NodeContext):
    x = raw(ctx.input(0))
    xp = get_array_module(x)
    return xp.stack(xp.nonzero(x)).astype(np.int64) if x.ndim else xp.zeros((0, 0), np.int64)
