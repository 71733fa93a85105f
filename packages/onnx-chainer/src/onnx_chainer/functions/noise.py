"""Converters of chainer.functions.noise (inference semantics: ONNX runtimes do not drop)."""

from __future__ import annotations

import numpy as np

from onnx_chainer import mapping
from onnx_chainer.functions import _forms as forms
from onnx_chainer.functions._registry import support
from onnx_chainer.onnx_helper import GraphBuilder, make_node


@support("Dropout")
def convert_dropout(params):
    ratio = float(params.func.dropout_ratio)
    if params.opset_version >= 12:
        inputs = [params.input_names[0], forms.scalar(params, ratio, "ratio")]
        return (make_node("Dropout", inputs, params.output_names),)
    return (make_node("Dropout", params.input_names, params.output_names, ratio=ratio),)


@support("SimplifiedDropconnect", input_labels=("x", "W", "b"))
def convert_simplified_dropconnect(params):
    """With ``train=False`` (ratio 0) this is ``linear``; a drawn mask has no ONNX form."""
    func = params.func
    if func.ratio != 0:
        raise ValueError(
            f"SimplifiedDropconnect with ratio {func.ratio} drops weights with a random mask "
            "that ONNX cannot reproduce; export with train=False (or ratio=0)"
        )
    x, w, *bias = params.input_names
    gb = GraphBuilder()
    x = forms.reshape(gb, params, x, [forms.input_shape(params)[0], -1])
    x_dtype = forms.input_dtype(params)
    if forms.input_dtype(params, 1) != x_dtype:
        w = gb.op("Cast", [w], to=mapping.onnx_type(x_dtype))
    if not bias and params.opset_version < 11:
        out_size = forms.input_shape(params, 1)[0]
        bias = [forms.const(params, np.zeros(out_size), "bias", x_dtype)]
    gb.op_output_named("Gemm", [x, w, *bias], params.output_names, transB=1)
    return gb.nodes()
