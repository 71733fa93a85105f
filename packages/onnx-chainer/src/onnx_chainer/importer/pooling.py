"""Importers of pooling: MaxPool (with its Indices), MaxUnpool, AveragePool, their global forms,
MaxRoiPool, RoiAlign."""

from __future__ import annotations

import numpy as np

import chainer.functions as F
from chainer.backend import cuda, get_array_module
from onnx_chainer.importer._registry import NodeContext, importer
from onnx_chainer.importer.connection import pad_spatial, window


def _pool_window(ctx: NodeContext, x):
    kernel = ctx.attr("kernel_shape", None, "ints")
    if not kernel or len(kernel) != x.ndim - 2:
        raise ctx.error(f"kernel_shape {kernel} does not fit an input of shape {x.shape}")
    strides, dilations, pads = window(ctx, x, kernel)
    if any(d != 1 for d in dilations):
        raise ctx.error(f"dilations {dilations} are not supported", unsupported=True)
    return kernel, strides, pads


def _ceil_extra(x, kernel, strides, pads):
    """End padding that makes a floor-mode pooling give the ceil-mode output size."""
    extra = []
    for i, (k, s, (b, e)) in enumerate(zip(kernel, strides, pads)):
        size = x.shape[2 + i] + b + e
        out = -(-(size - k) // s) + 1
        if (out - 1) * s >= x.shape[2 + i] + b:  # the last window must start inside
            out -= 1
        extra.append(max((out - 1) * s + k - size, 0))
    return extra


@importer("MaxPool")
def max_pool(ctx: NodeContext):
    x = ctx.input(0)
    if ctx.attr("storage_order", 0, "int"):
        raise ctx.error("storage_order=1 is not supported", unsupported=True)
    kernel, strides, pads = _pool_window(ctx, x)
    if ctx.attr("ceil_mode", 0, "int"):
        extra = _ceil_extra(x, kernel, strides, pads)
        pads = [(b, e + extra_i) for (b, e), extra_i in zip(pads, extra)]
    padded, pad = pad_spatial(x, pads, value=-np.inf)
    y = F.max_pooling_nd(padded, kernel, strides, pad, cover_all=False)
    if ctx.num_outputs < 2:
        return y
    return y, _argmax_indices(x.array, kernel, strides, pads)


def _argmax_indices(x, kernel, strides, pads):
    """MaxPool's ``Indices``: the flat (N, C, *spatial) index of each window's first maximum."""
    xp = get_array_module(x)
    host = cuda.to_cpu(x)
    spatial = len(kernel)
    widths = [(0, 0), (0, 0)] + [tuple(p) for p in pads]
    padded = np.pad(host, widths, constant_values=-np.inf)
    windows = np.lib.stride_tricks.sliding_window_view(
        padded, kernel, axis=tuple(range(2, 2 + spatial))
    )
    windows = windows[(slice(None), slice(None)) + tuple(slice(None, None, s) for s in strides)]
    out_shape = windows.shape[: 2 + spatial]
    best = windows.reshape(out_shape + (-1,)).argmax(axis=-1)
    offsets = np.unravel_index(best, tuple(kernel))
    flat = np.zeros(out_shape, np.int64)
    grid = np.indices(out_shape, sparse=True)
    flat += grid[0] * host.shape[1] + grid[1]
    for axis in range(spatial):
        position = grid[2 + axis] * strides[axis] + offsets[axis] - pads[axis][0]
        flat = flat * host.shape[2 + axis] + position
    return xp.asarray(flat)


@importer("MaxUnpool", min_opset=9, static_inputs=(2,))
def max_unpool(ctx: NodeContext):
    """Writes each value at its flat index; values sharing an index are averaged."""
    x = ctx.input(0)
    indices = ctx.array(1).reshape(-1).astype(np.int64)
    kernel = ctx.attr("kernel_shape", None, "ints")
    n = len(kernel or [])
    if not kernel or n != x.ndim - 2:
        raise ctx.error(f"kernel_shape {kernel} does not fit an input of shape {x.shape}")
    strides = ctx.attr("strides", [1] * n, "ints")
    pads = ctx.attr("pads", [0] * (2 * n), "ints")
    shape = ctx.ints(2)
    if shape is None:
        spatial = [
            (d - 1) * s + k - b - e
            for d, s, k, b, e in zip(x.shape[2:], strides, kernel, pads[:n], pads[n:])
        ]
        shape = list(x.shape[:2]) + spatial
    shape = ctx.check_size(shape)
    size = int(np.prod(shape))
    xp = get_array_module(indices)
    if indices.size != x.size or (
        indices.size and not 0 <= int(indices.min()) <= int(indices.max()) < size
    ):
        raise ctx.error(f"indices do not address an output of shape {shape}")
    counts = xp.maximum(xp.bincount(indices, minlength=size), 1).astype(x.dtype)
    total = F.scatter_add(xp.zeros(size, x.dtype), indices, F.reshape(x, (-1,)))
    return F.reshape(total / counts, shape)


@importer("AveragePool")
def average_pool(ctx: NodeContext):
    x = ctx.input(0)
    kernel, strides, pads = _pool_window(ctx, x)
    include_pad = ctx.attr("count_include_pad", 0, "int")
    if ctx.attr("ceil_mode", 0, "int"):
        extra = _ceil_extra(x, kernel, strides, pads)
        if any(extra) and include_pad:
            raise ctx.error("ceil_mode with count_include_pad is not supported", unsupported=True)
        pads = [(b, e + extra_i) for (b, e), extra_i in zip(pads, extra)]
    if include_pad:
        x, pad = pad_spatial(x, pads)
        return F.average_pooling_nd(x, kernel, strides, pad, pad_value=0)
    if all(b == e for b, e in pads):
        return F.average_pooling_nd(x, kernel, strides, [b for b, _ in pads], pad_value=None)
    # Uneven pads that do not count: sum over the window / number of real elements in it.
    ones = np.ones((1, 1) + x.shape[2:], x.dtype)
    padded, _ = pad_spatial(x, pads)
    counts, _ = pad_spatial(ones, pads)
    total = F.average_pooling_nd(padded, kernel, strides, 0, pad_value=0)
    share = F.average_pooling_nd(counts, kernel, strides, 0, pad_value=0).array
    return total / F.broadcast_to(share, total.shape)


@importer("GlobalAveragePool")
def global_average_pool(ctx: NodeContext):
    x = ctx.input(0)
    return F.mean(x, tuple(range(2, x.ndim)), keepdims=True)


@importer("GlobalMaxPool")
def global_max_pool(ctx: NodeContext):
    x = ctx.input(0)
    return F.max(x, tuple(range(2, x.ndim)), keepdims=True)


@importer("MaxRoiPool")
def max_roi_pool(ctx: NodeContext):
    out_h, out_w = ctx.attr("pooled_shape", None, "ints")
    scale = ctx.attr("spatial_scale", 1.0, "float")
    return F.roi_pooling_2d(ctx.input(0), ctx.array(1), out_h, out_w, scale)


@importer("RoiAlign", min_opset=10)
def roi_align(ctx: NodeContext):
    if ctx.attr("mode", "avg", "str") != "avg":
        raise ctx.error("only mode='avg' is supported", unsupported=True)
    scale = ctx.attr("spatial_scale", 1.0, "float")
    rois = ctx.array(1)[:, [1, 0, 3, 2]]  # ONNX (x1, y1, x2, y2) -> Chainer (y1, x1, y2, x2)
    default_mode = "output_half_pixel" if ctx.opset < 16 else "half_pixel"
    if ctx.attr("coordinate_transformation_mode", default_mode, "str") == "half_pixel":
        rois = rois - 0.5 / scale
    ratio = ctx.attr("sampling_ratio", 0, "int")
    outsize = (ctx.attr("output_height", 1, "int"), ctx.attr("output_width", 1, "int"))
    return F.roi_average_align_2d(
        ctx.input(0), rois, ctx.array(2).astype(np.int32), outsize, scale, ratio or None
    )
