"""Converters of chainer.functions.connection."""

from __future__ import annotations

import numpy as np

from onnx_chainer.functions import _forms as forms
from onnx_chainer.functions._registry import support
from onnx_chainer.onnx_helper import GraphBuilder, make_node


def _tuple(value, ndim: int) -> list[int]:
    if isinstance(value, (int, np.integer)):
        return [int(value)] * ndim
    return [int(v) for v in value]


def _window(params):
    """(kernel, stride, pad, dilate, groups) of a (de)convolution, one entry per spatial axis."""
    func = params.func
    kernel = list(forms.input_shape(params, 1)[2:])
    ndim = len(kernel)
    stride, pad = _tuple(func.stride, ndim), _tuple(func.pad, ndim)
    dilate = _tuple(getattr(func, "dilate", 1), ndim)
    return kernel, stride, pad, dilate, int(getattr(func, "groups", 1))


@support("Convolution2DFunction", "ConvolutionND", "DilatedConvolution2DFunction")
def convert_convolution(params):
    kernel, stride, pad, dilate, groups = _window(params)
    end_pad = list(pad)
    if getattr(params.func, "cover_all", False):
        # Chainer's cover_all adds up to stride - 1 zeros at the end of each spatial axis.
        end_pad = [p + s - 1 for p, s in zip(pad, stride)]
    attrs = {"kernel_shape": kernel, "strides": stride, "dilations": dilate, "group": groups}
    return (
        make_node("Conv", params.input_names, params.output_names, pads=pad + end_pad, **attrs),
    )


@support("Deconvolution2DFunction", "DeconvolutionND")
def convert_deconvolution(params):
    kernel, stride, pad, dilate, groups = _window(params)
    in_shape = forms.input_shape(params)
    out_shape = tuple(params.func.outputs[0]().shape)[2:]
    natural = [
        s * (i - 1) + (k - 1) * d + 1 - 2 * p
        for s, i, k, d, p in zip(stride, in_shape[2:], kernel, dilate, pad)
    ]
    extra = [o - n for o, n in zip(out_shape, natural)]
    attrs = {"kernel_shape": kernel, "strides": stride, "dilations": dilate, "group": groups}
    if any(extra):
        attrs["output_padding"] = extra
    return (
        make_node(
            "ConvTranspose", params.input_names, params.output_names, pads=pad + pad, **attrs
        ),
    )


@support("LinearFunction")
def convert_linear(params):
    names = list(params.input_names)
    if len(names) == 2 and params.opset_version < 11:
        out_size = forms.input_shape(params, 1)[0]
        names.append(forms.const(params, np.zeros(out_size), "bias", forms.input_dtype(params)))
    return (make_node("Gemm", names, params.output_names, transB=1),)


@support("EmbedIDFunction", input_labels=("x", "W"))
def convert_embed_id(params):
    x, w = params.input_names
    ignore = params.func.ignore_label
    if ignore is None:
        return (make_node("Gather", [w, x], params.output_names, axis=0),)
    if params.opset_version < 9:
        raise ValueError(
            f"EmbedID with ignore_label is supported from opset 9, you asked for "
            f"{params.opset_version}"
        )
    gb = GraphBuilder()
    label = forms.scalar(params, ignore, "ignore_label")
    ignored = gb.op("Equal", [x, label])
    safe = gb.op("Where", [ignored, forms.scalar(params, 0, "zero"), x])
    rows = gb.op("Gather", [w, safe], axis=0)
    mask = forms.unsqueeze(gb, params, ignored, [len(forms.input_shape(params))])
    zero = forms.const(params, 0, "zero_value", forms.input_dtype(params, 1))
    gb.op_output_named("Where", [mask, zero, rows], params.output_names)
    return gb.nodes()
