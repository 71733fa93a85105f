"""Importers of shape ops: Reshape, Transpose, Concat, Split, Slice, Squeeze, Expand, Pad, Cast,
Shape (computed on the host, so Shape-based subgraphs fold to constants), Constant, ..."""

from __future__ import annotations

import math

import numpy as np

import chainer
import chainer.functions as F
from chainer.backend import get_array_module
from onnx_chainer.importer._registry import NodeContext, importer
from onnx_chainer.importer.math import is_data, raw
from onnx_chainer.mapping import TENSOR_TYPE_TO_NP_TYPE


def _axes(ctx: NodeContext, input_index: int, since: int, ndim: int) -> list[int] | None:
    """Axes given as attribute before opset ``since``, as input ``input_index`` from it."""
    axes = ctx.attr("axes", None, "ints") if ctx.opset < since else ctx.ints(input_index)
    return None if axes is None else [ctx.axis(a, ndim) for a in axes]


@importer("Reshape", static_inputs=(1,))
def reshape(ctx: NodeContext):
    x = ctx.input(0)
    shape = ctx.ints(1)
    if not ctx.attr("allowzero", 0, "int"):
        shape = [x.shape[i] if d == 0 else d for i, d in enumerate(shape)]
    if shape.count(-1) > 1:
        raise ctx.error(f"shape {shape} has more than one -1")
    return F.reshape(x, tuple(shape))


@importer("Flatten")
def flatten(ctx: NodeContext):
    x = ctx.input(0)
    axis = ctx.attr("axis", 1, "int")
    axis = axis if axis == x.ndim else ctx.axis(axis, x.ndim)
    return F.reshape(x, (math.prod(x.shape[:axis]), math.prod(x.shape[axis:])))


@importer("Transpose")
def transpose(ctx: NodeContext):
    x = ctx.input(0)
    perm = ctx.attr("perm", list(range(x.ndim))[::-1], "ints")
    if sorted(perm) != list(range(x.ndim)):
        raise ctx.error(f"perm {perm} is not a permutation of the {x.ndim} axes")
    return F.transpose(x, perm)


@importer("Concat")
def concat(ctx: NodeContext):
    values = [v for v in ctx.inputs if v is not None]
    axis = ctx.axis(ctx.attr("axis", None, "int"), values[0].ndim)
    if not any(is_data(v) for v in values):
        return get_array_module(raw(values[0])).concatenate([raw(v) for v in values], axis)
    return F.concat(values, axis)


@importer("Split", static_inputs=(1,))
def split(ctx: NodeContext):
    x = ctx.input(0)
    axis = ctx.axis(ctx.attr("axis", 0, "int"), x.ndim)
    sizes = ctx.attr("split", None, "ints") if ctx.opset < 13 else ctx.ints(1)
    if sizes is None:
        count = ctx.attr("num_outputs", ctx.num_outputs, "int")
        chunk = -(-x.shape[axis] // count)
        sizes = [min(chunk, x.shape[axis] - i * chunk) for i in range(count)]
    if sum(sizes) != x.shape[axis] or any(s < 0 for s in sizes):
        raise ctx.error(f"split sizes {sizes} do not add up to axis {axis} of shape {x.shape}")
    bounds = np.cumsum(sizes)[:-1].tolist()
    return tuple(F.split_axis(x, bounds, axis, force_tuple=True))


@importer("Slice", static_inputs=(1, 2, 3, 4))
def slice_(ctx: NodeContext):
    x = ctx.input(0)
    if ctx.opset < 10:
        starts, ends = ctx.attr("starts", [], "ints"), ctx.attr("ends", [], "ints")
        axes, steps = ctx.attr("axes", None, "ints"), None
    else:
        starts, ends, axes, steps = ctx.ints(1), ctx.ints(2), ctx.ints(3), ctx.ints(4)
    axes = list(range(len(starts))) if axes is None else [ctx.axis(a, x.ndim) for a in axes]
    steps = steps or [1] * len(starts)
    if not len(starts) == len(ends) == len(axes) == len(steps) or 0 in steps:
        raise ctx.error(f"starts {starts}, ends {ends}, axes {axes}, steps {steps} disagree")
    index = [slice(None)] * x.ndim
    for start, end, axis, step in zip(starts, ends, axes, steps):
        index[axis] = slice(start, end, step)
    return F.get_item(x, tuple(index))


@importer("Squeeze", static_inputs=(1,))
def squeeze(ctx: NodeContext):
    x = ctx.input(0)
    axes = _axes(ctx, 1, 13, x.ndim)
    if axes is None:
        axes = [i for i, d in enumerate(x.shape) if d == 1]
    if any(x.shape[a] != 1 for a in axes):
        raise ctx.error(f"cannot squeeze axes {axes} of shape {x.shape}")
    shape = tuple(d for i, d in enumerate(x.shape) if i not in axes)
    return F.reshape(x, shape)


@importer("Unsqueeze", static_inputs=(1,))
def unsqueeze(ctx: NodeContext):
    x = ctx.input(0)
    ndim = x.ndim + len(ctx.attr("axes", [], "ints") if ctx.opset < 13 else ctx.ints(1))
    axes = sorted(_axes(ctx, 1, 13, ndim))
    shape = list(x.shape)
    for axis in axes:
        shape.insert(axis, 1)
    return F.reshape(x, tuple(shape))


@importer("Expand", min_opset=8, static_inputs=(1,))
def expand(ctx: NodeContext):
    x = ctx.input(0)
    shape = ctx.check_size(np.broadcast_shapes(x.shape, tuple(ctx.ints(1))))
    if not is_data(x):
        return get_array_module(raw(x)).broadcast_to(raw(x), shape).copy()
    return F.broadcast_to(x, shape)


@importer("Tile", static_inputs=(1,))
def tile(ctx: NodeContext):
    x = ctx.input(0)
    repeats = ctx.ints(1)
    ctx.check_size([d * r for d, r in zip(x.shape, repeats)])
    return F.tile(x, tuple(repeats))


_PAD_MODES = {"constant": "constant", "reflect": "reflect", "edge": "edge", "wrap": "wrap"}


@importer("Pad", static_inputs=(1, 2, 3))
def pad(ctx: NodeContext):
    x = ctx.input(0)
    mode = ctx.attr("mode", "constant", "str")
    if mode not in _PAD_MODES:
        raise ctx.error(f"mode {mode!r} is not one of {sorted(_PAD_MODES)}", unsupported=True)
    if ctx.opset < 11:
        pads, value = ctx.attr("pads", None, "ints"), ctx.attr("value", 0.0, "float")
        axes = list(range(x.ndim))
    else:
        pads = ctx.ints(1)
        value_array = ctx.const(2)
        value = 0 if value_array is None or value_array.size == 0 else value_array.reshape(-1)[0]
        axes = _axes(ctx, 3, 18, x.ndim) or list(range(x.ndim))
    if pads is None or len(pads) != 2 * len(axes):
        raise ctx.error(f"pads {pads} must hold a begin and an end for each of axes {axes}")
    widths = [[0, 0] for _ in range(x.ndim)]
    for i, axis in enumerate(axes):
        widths[axis] = [pads[i], pads[i + len(axes)]]
    grow = [[max(b, 0), max(e, 0)] for b, e in widths]
    ctx.check_size([d + b + e for d, (b, e) in zip(x.shape, grow)])
    if any(b or e for b, e in grow):
        keywords = {"constant_values": value} if mode == "constant" else {}
        x = F.pad(x, grow, _PAD_MODES[mode], **keywords)
    if any(b < 0 or e < 0 for b, e in widths):  # negative pads crop
        crop = tuple(slice(-min(b, 0), d + min(e, 0)) for (b, e), d in zip(widths, x.shape))
        x = F.get_item(x, crop)
    return x


@importer("Dropout", static_inputs=(1, 2))
def dropout(ctx: NodeContext):
    """Inference identity; in Chainer's train mode (``chainer.config.train``) a real dropout."""
    x = ctx.input(0)
    ratio = ctx.attr("ratio", 0.5, "float") if ctx.opset < 12 else float(ctx.const(1, 0.5))
    mask = get_array_module(raw(x)).ones(x.shape, bool)
    if is_data(x) and chainer.config.train and ratio > 0:
        return F.dropout(x, ratio), mask
    return x, mask


def _onnx_dtype(ctx: NodeContext, code: int) -> np.dtype:
    dtype = TENSOR_TYPE_TO_NP_TYPE.get(code)
    if dtype is None:
        raise ctx.error(f"cast to ONNX element type {code} is not supported", unsupported=True)
    return dtype


def _cast(x, dtype):
    if is_data(x) and np.dtype(dtype).kind == "f":
        return F.cast(x, dtype)
    return raw(x).astype(dtype)


@importer("Cast")
def cast(ctx: NodeContext):
    return _cast(ctx.input(0), _onnx_dtype(ctx, ctx.attr("to", None, "int")))


@importer("CastLike", min_opset=15)
def cast_like(ctx: NodeContext):
    return _cast(ctx.input(0), ctx.input(1).dtype)


@importer("Shape")
def shape(ctx: NodeContext):
    dims = ctx.input(0).shape
    start, end = ctx.attr("start", 0, "int"), ctx.attr("end", len(dims), "int")
    return np.array(dims[start:end], dtype=np.int64)


@importer("Size")
def size(ctx: NodeContext):
    return np.array(ctx.input(0).size, dtype=np.int64)


@importer("Constant")
def constant(ctx: NodeContext):
    for name, dtype in (("value_float", np.float32), ("value_floats", np.float32)):
        if name in ctx.attributes:
            return np.array(ctx.attr(name, None, name[6:]), dtype)
    for name in ("value_int", "value_ints"):
        if name in ctx.attributes:
            return np.array(ctx.attr(name, None, name[6:]), np.int64)
    if "value" in ctx.attributes:
        return ctx.attr("value", None, "tensor").copy()
    raise ctx.error(f"attributes {sorted(ctx.attributes)} are not supported", unsupported=True)


@importer("ConstantOfShape", min_opset=9, static_inputs=(0,))
def constant_of_shape(ctx: NodeContext):
    shape = ctx.check_size(ctx.ints(0))
    value = ctx.attr("value", np.zeros(1, np.float32), "tensor")
    return np.full(shape, value.reshape(-1)[0], value.dtype)


@importer("Range", min_opset=11, static_inputs=(0, 1, 2))
def range_(ctx: NodeContext):
    start, limit, delta = (ctx.const(i).reshape(()) for i in range(3))
    if delta == 0:
        raise ctx.error("delta must not be 0")
    count = max(int(np.ceil((limit - start) / delta)), 0)
    ctx.check_size([count])
    return (start + np.arange(count) * delta).astype(start.dtype)


def _depth_space(x, shape, perm, out_shape):
    return F.reshape(F.transpose(F.reshape(x, shape), perm), out_shape)


@importer("DepthToSpace")
def depth_to_space(ctx: NodeContext):
    x = ctx.input(0)
    b, c, h, w = x.shape
    r = ctx.attr("blocksize", None, "int")
    out = (b, c // (r * r), h * r, w * r)
    if ctx.attr("mode", "DCR", "str") == "CRD":
        return _depth_space(x, (b, c // (r * r), r, r, h, w), (0, 1, 4, 2, 5, 3), out)
    return _depth_space(x, (b, r, r, c // (r * r), h, w), (0, 3, 4, 1, 5, 2), out)


@importer("SpaceToDepth")
def space_to_depth(ctx: NodeContext):
    x = ctx.input(0)
    b, c, h, w = x.shape
    r = ctx.attr("blocksize", None, "int")
    shape = (b, c, h // r, r, w // r, r)
    return _depth_space(x, shape, (0, 3, 5, 1, 2, 4), (b, c * r * r, h // r, w // r))
