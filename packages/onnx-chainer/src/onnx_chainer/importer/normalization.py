"""Importers of BatchNormalization, InstanceNormalization, LayerNormalization and LRN."""

from __future__ import annotations

import chainer
import chainer.functions as F
from onnx_chainer.importer._registry import NodeContext, importer


def _channel_shaped(value, ndim: int):
    return F.reshape(value, (1, -1) + (1,) * (ndim - 2))


@importer("BatchNormalization", static_inputs=(3, 4))
def batch_normalization(ctx: NodeContext):
    """The statistics in the model (inputs 3, 4) are used whatever ``chainer.config.train``."""
    x, gamma, beta, mean, var = (ctx.input(i) for i in range(5))
    eps = ctx.attr("epsilon", 1e-5, "float")
    if ctx.opset < 9 and not ctx.attr("spatial", 1, "int"):
        shape = (1,) + x.shape[1:]
        gamma, beta = F.reshape(gamma, shape), F.reshape(beta, shape)
        mean, var = mean.reshape(shape), var.reshape(shape)
        return (x - F.broadcast_to(mean, x.shape)) * F.broadcast_to(
            gamma / (var + eps) ** 0.5, x.shape
        ) + F.broadcast_to(beta, x.shape)
    if ctx.attr("training_mode", 0, "int"):
        return F.batch_normalization(x, gamma, beta, eps=eps)
    if isinstance(mean, chainer.Variable):
        mean = mean.array
    if isinstance(var, chainer.Variable):
        var = var.array
    return F.fixed_batch_normalization(x, gamma, beta, mean, var, eps=eps)


def _normalize(x, axes: tuple[int, ...], eps: float):
    mean = F.mean(x, axes, keepdims=True)
    centered = x - F.broadcast_to(mean, x.shape)
    var = F.mean(centered * centered, axes, keepdims=True)
    return centered / F.broadcast_to(F.sqrt(var + eps), x.shape)


@importer("InstanceNormalization")
def instance_normalization(ctx: NodeContext):
    x, scale, bias = ctx.input(0), ctx.input(1), ctx.input(2)
    y = _normalize(x, tuple(range(2, x.ndim)), ctx.attr("epsilon", 1e-5, "float"))
    scale = F.broadcast_to(_channel_shaped(scale, x.ndim), x.shape)
    return y * scale + F.broadcast_to(_channel_shaped(bias, x.ndim), x.shape)


@importer("LayerNormalization", min_opset=17)
def layer_normalization(ctx: NodeContext):
    x, scale, bias = ctx.input(0), ctx.input(1), ctx.input(2)
    axis = ctx.axis(ctx.attr("axis", -1, "int"), x.ndim)
    y = _normalize(x, tuple(range(axis, x.ndim)), ctx.attr("epsilon", 1e-5, "float"))
    y = y * F.broadcast_to(scale, x.shape)
    return y + F.broadcast_to(bias, x.shape) if bias is not None else y


@importer("RMSNormalization", min_opset=23)
def rms_normalization(ctx: NodeContext):
    x, scale = ctx.input(0), ctx.input(1)
    axes = tuple(range(ctx.axis(ctx.attr("axis", -1, "int"), x.ndim), x.ndim))
    mean_square = F.mean(x * x, axes, keepdims=True)
    y = x / F.broadcast_to(F.sqrt(mean_square + ctx.attr("epsilon", 1e-5, "float")), x.shape)
    return y * F.broadcast_to(scale, x.shape)


@importer("GroupNormalization", min_opset=18)
def group_normalization(ctx: NodeContext):
    """Scale and bias are per group before opset 21, per channel from it."""
    x, scale, bias = ctx.input(0), ctx.input(1), ctx.input(2)
    groups = ctx.attr("num_groups", None, "int")
    if not groups or x.shape[1] % groups:
        raise ctx.error(f"num_groups {groups} does not divide the {x.shape[1]} channels")
    grouped = F.reshape(x, (x.shape[0], groups, -1))
    y = F.reshape(_normalize(grouped, (2,), ctx.attr("epsilon", 1e-5, "float")), x.shape)
    if ctx.opset < 21:
        scale = F.repeat(scale, x.shape[1] // groups)
        bias = F.repeat(bias, x.shape[1] // groups)
    scale = F.broadcast_to(_channel_shaped(scale, x.ndim), x.shape)
    return y * scale + F.broadcast_to(_channel_shaped(bias, x.ndim), x.shape)


@importer("MeanVarianceNormalization", min_opset=9)
def mean_variance_normalization(ctx: NodeContext):
    x = ctx.input(0)
    axes = ctx.attr("axes", [0, 2, 3], "ints")
    return _normalize(x, tuple(sorted(ctx.axis(a, x.ndim) for a in axes)), 1e-9)


@importer("LpNormalization")
def lp_normalization(ctx: NodeContext):
    x = ctx.input(0)
    axis = ctx.axis(ctx.attr("axis", -1, "int"), x.ndim)
    p = ctx.attr("p", 2, "int")
    if p == 1:
        norm = F.sum(F.absolute(x), axis, keepdims=True)
    elif p == 2:
        norm = F.sqrt(F.sum(x * x, axis, keepdims=True))
    else:
        raise ctx.error(f"p={p} is not supported (1 or 2 is)", unsupported=True)
    return x / F.broadcast_to(norm, x.shape)


@importer("LRN")
def local_response_normalization(ctx: NodeContext):
    size = ctx.attr("size", None, "int")
    if size is None or size % 2 == 0:
        raise ctx.error(f"size {size} is not supported (an odd window is)", unsupported=True)
    alpha = ctx.attr("alpha", 1e-4, "float")
    return F.local_response_normalization(
        ctx.input(0),
        size,
        ctx.attr("bias", 1.0, "float"),
        alpha / size,
        ctx.attr("beta", 0.75, "float"),
    )
