"""Importers of reductions: ReduceSum, ReduceMean, ReduceMax, ..., ReduceLogSumExp."""

from __future__ import annotations

import numpy as np

import chainer.functions as F
from chainer.backend import get_array_module
from onnx_chainer.importer._registry import NodeContext, importer
from onnx_chainer.importer.math import is_data, raw


def _logsumexp(x, axis, keepdims):
    out = F.logsumexp(x, axis)
    if keepdims:
        out = F.reshape(out, tuple(1 if i in axis else d for i, d in enumerate(x.shape)))
    return out


_REDUCTIONS = {
    "ReduceSum": (lambda x, a, k: F.sum(x, a, keepdims=k), np.sum, 13),
    "ReduceMean": (lambda x, a, k: F.mean(x, a, keepdims=k), np.mean, 18),
    "ReduceMax": (lambda x, a, k: F.max(x, a, keepdims=k), np.max, 18),
    "ReduceMin": (lambda x, a, k: F.min(x, a, keepdims=k), np.min, 18),
    "ReduceProd": (lambda x, a, k: F.prod(x, a, keepdims=k), np.prod, 18),
    "ReduceL1": (lambda x, a, k: F.sum(F.absolute(x), a, keepdims=k), None, 18),
    "ReduceL2": (lambda x, a, k: F.sqrt(F.sum(x * x, a, keepdims=k)), None, 18),
    "ReduceSumSquare": (lambda x, a, k: F.sum(x * x, a, keepdims=k), None, 18),
    "ReduceLogSum": (lambda x, a, k: F.log(F.sum(x, a, keepdims=k)), None, 18),
    "ReduceLogSumExp": (_logsumexp, None, 18),
}


_ELEMENTWISE_PART = {
    "ReduceL1": F.absolute,
    "ReduceL2": F.absolute,
    "ReduceSumSquare": lambda x: x * x,
    "ReduceLogSum": F.log,
}


@importer(*_REDUCTIONS, static_inputs=(1,))
def reduce(ctx: NodeContext):
    x = ctx.input(0)
    function, on_arrays, axes_input_since = _REDUCTIONS[ctx.op_type]
    if ctx.opset < axes_input_since:
        axes = ctx.attr("axes", None, "ints")
    else:
        axes = ctx.ints(1)
    if not axes:
        if ctx.attr("noop_with_empty_axes", 0, "int"):
            # No reduction, but the elementwise part still applies (as in onnxruntime).
            return _ELEMENTWISE_PART.get(ctx.op_type, lambda v: v)(x)
        axes = list(range(x.ndim))
    axes = tuple(sorted({ctx.axis(a, x.ndim) for a in axes}))
    keepdims = bool(ctx.attr("keepdims", 1, "int"))
    if not is_data(x):
        if on_arrays is None:
            raise ctx.error(f"input of dtype {x.dtype} is not supported", unsupported=True)
        xp = get_array_module(raw(x))
        return xp.asarray(on_arrays(raw(x), axis=axes, keepdims=keepdims)).astype(x.dtype)
    return function(x, axes, keepdims)
