"""Converters of chainer.functions.activation."""

from __future__ import annotations

from onnx_chainer.functions import _forms as forms
from onnx_chainer.functions._registry import function_label, support
from onnx_chainer.onnx_helper import GraphBuilder, make_node

_SIMPLE = {"ReLU": "Relu", "Sigmoid": "Sigmoid", "Tanh": "Tanh"}


@support(*_SIMPLE)
def convert_simple_activation(params):
    op = _SIMPLE[function_label(params.func)]
    return (make_node(op, params.input_names, params.output_names),)


@support("ClippedReLU")
def convert_clipped_relu(params):
    gb = GraphBuilder()
    forms.clip(gb, params, params.input_names[0], 0.0, params.func.cap, params.output_names[0])
    return gb.nodes()


@support("ELU")
def convert_elu(params):
    return (make_node("Elu", params.input_names, params.output_names, alpha=params.func.alpha),)


@support("HardSigmoid")
def convert_hard_sigmoid(params):
    return (
        make_node("HardSigmoid", params.input_names, params.output_names, alpha=0.2, beta=0.5),
    )


@support("LeakyReLU")
def convert_leaky_relu(params):
    slope = float(params.func.slope)
    return (make_node("LeakyRelu", params.input_names, params.output_names, alpha=slope),)


@support("Softmax", "LogSoftmax")
def convert_softmax(params):
    op = "Softmax" if function_label(params.func) == "Softmax" else "LogSoftmax"
    gb = GraphBuilder()
    ndim = len(forms.input_shape(params))
    forms.softmax_like(
        gb, params, op, params.input_names[0], params.func.axis, ndim, params.output_names[0]
    )
    return gb.nodes()


@support("PReLU")
def convert_prelu(params):
    x, w = params.input_names
    ndim = len(forms.input_shape(params))
    slope, nodes = forms.broadcastable(params, w, forms.input_shape(params, 1), ndim)
    return [*nodes, make_node("PRelu", [x, slope], params.output_names)]


@support("Softplus")
def convert_softplus(params):
    beta = float(params.func.beta)
    if beta == 1.0:
        return (make_node("Softplus", params.input_names, params.output_names),)
    gb = GraphBuilder()
    b = forms.scalar(params, beta, "beta")
    scaled = gb.op("Mul", [params.input_names[0], b])
    soft = gb.op("Softplus", [scaled])
    gb.op_output_named("Div", [soft, b], params.output_names)
    return gb.nodes()


@support("Swish")
def convert_swish(params):
    x, beta = params.input_names
    ndim = len(forms.input_shape(params))
    b, nodes = forms.broadcastable(params, beta, forms.input_shape(params, 1), ndim)
    gb = GraphBuilder()
    gate = gb.op("Sigmoid", [gb.op("Mul", [x, b])])
    gb.op_output_named("Mul", [x, gate], params.output_names)
    return [*nodes, *gb.nodes()]


@support("CReLU")
def convert_crelu(params):
    x = params.input_names[0]
    gb = GraphBuilder()
    pos = gb.op("Relu", [x])
    neg = gb.op("Relu", [gb.op("Neg", [x])])
    axis = params.func.axis % len(forms.input_shape(params))
    gb.op_output_named("Concat", [pos, neg], params.output_names, axis=axis)
    return gb.nodes()


@support("RReLU")
def convert_rrelu(params):
    """The slopes Chainer used (random in training, their mean in test mode) become a tensor."""
    slopes = params.context.add_param(params.func.r, "r")
    return (make_node("PRelu", [params.input_names[0], slopes], params.output_names),)
