"""Converters of chainer.functions.noise (inference semantics: ONNX runtimes do not drop)."""

from __future__ import annotations

from onnx_chainer.functions import _forms as forms
from onnx_chainer.functions._registry import support
from onnx_chainer.onnx_helper import make_node


@support("Dropout")
def convert_dropout(params):
    ratio = float(params.func.dropout_ratio)
    if params.opset_version >= 12:
        inputs = [params.input_names[0], forms.scalar(params, ratio, "ratio")]
        return (make_node("Dropout", inputs, params.output_names),)
    return (make_node("Dropout", params.input_names, params.output_names, ratio=ratio),)
