"""Importers of gathering and scattering: Gather, GatherND, GatherElements, ScatterND, TopK,
Trilu (differentiable w.r.t. the data through ``F.get_item``/``F.scatter_add``)."""

from __future__ import annotations

import numpy as np

import chainer.functions as F
from chainer.backend import get_array_module
from onnx_chainer.importer._registry import NodeContext, importer
from onnx_chainer.importer.math import is_data, raw


def _normalized_indices(ctx: NodeContext, index: int, size: int):
    indices = raw(ctx.input(index))
    xp = get_array_module(indices)
    return xp.where(indices < 0, indices + size, indices).astype(np.int64)


@importer("Gather")
def gather(ctx: NodeContext):
    x = ctx.input(0)
    axis = ctx.axis(ctx.attr("axis", 0, "int"), x.ndim)
    indices = _normalized_indices(ctx, 1, x.shape[axis])
    if not is_data(x):
        return get_array_module(raw(x)).take(raw(x), indices, axis)
    if indices.ndim == 0:
        return F.get_item(x, (slice(None),) * axis + (int(indices),))
    return F.get_item(x, (slice(None),) * axis + (indices,))


@importer("GatherND", min_opset=11)
def gather_nd(ctx: NodeContext):
    if ctx.attr("batch_dims", 0, "int"):
        raise ctx.error("batch_dims other than 0 is not supported", unsupported=True)
    x = ctx.input(0)
    indices = raw(ctx.input(1))
    depth = indices.shape[-1]
    dims = x.shape[:depth]
    index = tuple(
        np.where(indices[..., i] < 0, indices[..., i] + dims[i], indices[..., i])
        for i in range(depth)
    )
    return F.get_item(x, index)


def _along_axis(indices, axis: int) -> tuple:
    """Index arrays picking ``indices`` along ``axis`` and the identity along other axes."""
    xp = get_array_module(indices)
    grid = list(xp.indices(indices.shape, sparse=True))
    grid[axis] = indices
    return tuple(grid)


@importer("GatherElements", min_opset=11)
def gather_elements(ctx: NodeContext):
    x = ctx.input(0)
    axis = ctx.axis(ctx.attr("axis", 0, "int"), x.ndim)
    indices = _normalized_indices(ctx, 1, x.shape[axis])
    if indices.ndim != x.ndim:
        raise ctx.error(f"indices of rank {indices.ndim} for data of rank {x.ndim}")
    return F.get_item(x, _along_axis(indices, axis))


def _scatter(ctx: NodeContext, data, index, updates):
    """``data`` with ``updates`` written (or added) at ``index``, differentiable w.r.t. both."""
    reduction = ctx.attr("reduction", "none", "str")
    if reduction == "add":
        return F.scatter_add(data, index, updates)
    if reduction != "none":
        raise ctx.error(f"reduction {reduction!r} is not supported", unsupported=True)
    xp = get_array_module(raw(data))
    keep = xp.ones(data.shape, bool)
    keep[index] = False
    zeros = xp.zeros(data.shape, data.dtype)
    return F.where(keep, data, F.scatter_add(zeros, index, updates))


@importer("ScatterElements", min_opset=11)
@importer("Scatter", min_opset=9, max_opset=10)
def scatter_elements(ctx: NodeContext):
    data, updates = ctx.input(0), ctx.input(2)
    axis = ctx.axis(ctx.attr("axis", 0, "int"), data.ndim)
    index = _along_axis(_normalized_indices(ctx, 1, data.shape[axis]), axis)
    return _scatter(ctx, data, index, updates)


@importer("ScatterND", min_opset=11)
def scatter_nd(ctx: NodeContext):
    data, updates = ctx.input(0), ctx.input(2)
    indices = raw(ctx.input(1))
    xp = get_array_module(indices)
    dims = data.shape[: indices.shape[-1]]
    index = tuple(
        xp.where(indices[..., i] < 0, indices[..., i] + d, indices[..., i])
        for i, d in enumerate(dims)
    )
    return _scatter(ctx, data, index, updates)


@importer("TopK", min_opset=10, static_inputs=(1,))
def top_k(ctx: NodeContext):
    x = ctx.input(0)
    axis = ctx.axis(ctx.attr("axis", -1, "int"), x.ndim)
    k = ctx.ints(1)[0]
    if not 0 <= k <= x.shape[axis]:
        raise ctx.error(f"k={k} is outside [0, {x.shape[axis]}] for axis {axis}")
    values = raw(x)
    xp = get_array_module(values)
    keys = -values if ctx.attr("largest", 1, "int") else values
    order = xp.argsort(keys, axis=axis, kind="stable")
    indices = xp.take(order, xp.arange(k), axis=axis).astype(np.int64)
    if not is_data(x):
        return xp.take_along_axis(values, indices, axis), indices
    return F.get_item(x, _along_axis(indices, axis)), indices


@importer("Trilu", min_opset=14, static_inputs=(1,))
def trilu(ctx: NodeContext):
    x = ctx.input(0)
    k = ctx.ints(1, [0])[0]
    xp = get_array_module(raw(x))
    ones = xp.ones(x.shape[-2:], bool)
    mask = xp.triu(ones, k) if ctx.attr("upper", 1, "int") else xp.tril(ones, k)
    mask = xp.broadcast_to(mask, x.shape)
    if not is_data(x):
        return xp.where(mask, raw(x), 0).astype(x.dtype)
    return F.where(mask, x, xp.zeros(x.shape, x.dtype))
