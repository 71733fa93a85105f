"""Importers of activations: Relu, LeakyRelu, Sigmoid, Tanh, Softmax, Gelu, ..."""

from __future__ import annotations

import math

import chainer.functions as F
from onnx_chainer.importer._registry import NodeContext, importer

_ELEMENTWISE = {"Relu": F.relu, "Sigmoid": F.sigmoid, "Tanh": F.tanh, "Softplus": F.softplus}


@importer(*_ELEMENTWISE)
def elementwise(ctx: NodeContext):
    return _ELEMENTWISE[ctx.op_type](ctx.input(0))


@importer("LeakyRelu", "Elu")
def with_alpha(ctx: NodeContext):
    if ctx.op_type == "LeakyRelu":
        return F.leaky_relu(ctx.input(0), ctx.attr("alpha", 0.01, "float"))
    return F.elu(ctx.input(0), ctx.attr("alpha", 1.0, "float"))


@importer("Selu")
def selu(ctx: NodeContext):
    alpha = ctx.attr("alpha", 1.67326319217681884765625, "float")
    gamma = ctx.attr("gamma", 1.05070102214813232421875, "float")
    return F.selu(ctx.input(0), alpha, gamma)


@importer("Swish", min_opset=24)
def swish(ctx: NodeContext):
    x = ctx.input(0)
    return x * F.sigmoid(ctx.attr("alpha", 1.0, "float") * x)


@importer("Mish", min_opset=18)
def mish(ctx: NodeContext):
    x = ctx.input(0)
    return x * F.tanh(F.softplus(x))


@importer("Celu", min_opset=12)
def celu(ctx: NodeContext):
    x = ctx.input(0)
    alpha = ctx.attr("alpha", 1.0, "float")
    return F.relu(x) + alpha * (F.exp(-F.relu(-x) / alpha) - 1)


@importer("ThresholdedRelu", min_opset=10)
def thresholded_relu(ctx: NodeContext):
    x = ctx.input(0)
    above = x.array > ctx.attr("alpha", 1.0, "float")
    return F.where(above, x, x.xp.zeros(x.shape, x.dtype))


@importer("Shrink", min_opset=9)
def shrink(ctx: NodeContext):
    x = ctx.input(0)
    lambd, bias = ctx.attr("lambd", 0.5, "float"), ctx.attr("bias", 0.0, "float")
    zeros = x.xp.zeros(x.shape, x.dtype)
    return F.where(x.array < -lambd, x + bias, F.where(x.array > lambd, x - bias, zeros))


@importer("Softsign")
def softsign(ctx: NodeContext):
    x = ctx.input(0)
    return x / (1 + F.absolute(x))


@importer("HardSigmoid")
def hard_sigmoid(ctx: NodeContext):
    alpha = ctx.attr("alpha", 0.2, "float")
    beta = ctx.attr("beta", 0.5, "float")
    return F.clip(ctx.input(0) * alpha + beta, 0.0, 1.0)


@importer("HardSwish", min_opset=14)
def hard_swish(ctx: NodeContext):
    x = ctx.input(0)
    return x * F.clip(x / 6 + 0.5, 0.0, 1.0)


@importer("PRelu")
def prelu(ctx: NodeContext):
    x, slope = ctx.input(0), ctx.input(1)
    slope = F.broadcast_to(slope, x.shape) if slope.shape != x.shape else slope
    return F.relu(x) - slope * F.relu(-x)


@importer("Gelu", min_opset=20)
def gelu(ctx: NodeContext):
    x = ctx.input(0)
    if ctx.attr("approximate", "none", "str") == "tanh":
        return 0.5 * x * (1 + F.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x**3)))
    return 0.5 * x * (1 + F.erf(x * (1 / math.sqrt(2))))


def _coerced_2d(ctx: NodeContext, function):
    """Softmax/LogSoftmax before opset 13: over all axes from ``axis`` on, as one."""
    x = ctx.input(0)
    axis = ctx.axis(ctx.attr("axis", 1, "int"), x.ndim)
    flat = F.reshape(x, (math.prod(x.shape[:axis]), math.prod(x.shape[axis:])))
    return F.reshape(function(flat, axis=1), x.shape)


def _softmax_like(ctx: NodeContext, function):
    if ctx.opset < 13:
        return _coerced_2d(ctx, function)
    x = ctx.input(0)
    return function(x, axis=ctx.axis(ctx.attr("axis", -1, "int"), x.ndim))


@importer("Hardmax")
def hardmax(ctx: NodeContext):
    """One-hot of the first maximum (no gradient), over flattened axes before opset 13."""
    x = ctx.input(0)
    values = x.array
    xp = x.xp
    if ctx.opset < 13:
        axis = ctx.axis(ctx.attr("axis", 1, "int"), x.ndim)
        flat = values.reshape(math.prod(x.shape[:axis]), -1)
        hot = xp.arange(flat.shape[1]) == flat.argmax(axis=1)[:, None]
        return hot.astype(x.dtype).reshape(x.shape)
    axis = ctx.axis(ctx.attr("axis", -1, "int"), x.ndim)
    first = xp.expand_dims(values.argmax(axis=axis), axis)
    positions = xp.arange(x.shape[axis]).reshape((-1,) + (1,) * (x.ndim - axis - 1))
    return (positions == first).astype(x.dtype)


@importer("Softmax")
def softmax(ctx: NodeContext):
    return _softmax_like(ctx, F.softmax)


@importer("LogSoftmax")
def log_softmax(ctx: NodeContext):
    return _softmax_like(ctx, F.log_softmax)
