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


@importer("Softmax")
def softmax(ctx: NodeContext):
    return _softmax_like(ctx, F.softmax)


@importer("LogSoftmax")
def log_softmax(ctx: NodeContext):
    return _softmax_like(ctx, F.log_softmax)
