"""Converters of chainer.functions.normalization."""

from __future__ import annotations

from onnx_chainer.functions import _forms as forms
from onnx_chainer.functions._registry import support
from onnx_chainer.onnx_helper import GraphBuilder, make_node

_BN_LABELS = ("x", "gamma", "beta", "avg_mean", "avg_var")


def _reduced_axes(params) -> tuple[int, ...]:
    axes = params.func.axes if getattr(params.func, "axes", None) is not None else None
    ndim = len(forms.input_shape(params))
    return tuple(a % ndim for a in axes) if axes is not None else (0, *range(2, ndim))


def _is_channel_layout(params, axes) -> bool:
    ndim = len(forms.input_shape(params))
    return ndim >= 2 and axes == (0, *range(2, ndim)) and len(forms.input_shape(params, 1)) == 1


def _broadcast_params(gb, params, names, axes):
    shape = forms.input_shape(params)
    kept = [1 if i in axes else d for i, d in enumerate(shape)]
    return [forms.reshape(gb, params, n, kept) for n in names]


def _normalize(gb, params, x, mean, var, gamma, beta, eps, out):
    denominator = gb.op("Sqrt", [gb.op("Add", [var, forms.scalar(params, eps, "eps")])])
    normalized = gb.op("Div", [gb.op("Sub", [x, mean]), denominator])
    gb.op_output_named("Add", [gb.op("Mul", [normalized, gamma]), beta], [out])


@support("BatchNormalization", input_labels=_BN_LABELS[:3])
def convert_batch_normalization(params):
    """Batch statistics are computed in the graph, so the export is valid for every batch."""
    x, gamma, beta = params.input_names
    axes = _reduced_axes(params)
    gb = GraphBuilder()
    mean = forms.reduce(gb, params, "ReduceMean", x, list(axes), True)
    centered = gb.op("Sub", [x, mean])
    var = forms.reduce(
        gb, params, "ReduceMean", gb.op("Mul", [centered, centered]), list(axes), True
    )
    gamma_b, beta_b = _broadcast_params(gb, params, [gamma, beta], axes)
    _normalize(gb, params, x, mean, var, gamma_b, beta_b, params.func.eps, params.output_names[0])
    return gb.nodes()


@support("FixedBatchNormalization", input_labels=_BN_LABELS)
def convert_fixed_batch_normalization(params):
    x, gamma, beta, mean, var = params.input_names
    axes = _reduced_axes(params)
    eps = float(params.func.eps)
    if _is_channel_layout(params, axes):
        attrs = {"epsilon": eps}
        return (
            make_node(
                "BatchNormalization", [x, gamma, beta, mean, var], params.output_names, **attrs
            ),
        )
    gb = GraphBuilder()
    gamma_b, beta_b, mean_b, var_b = _broadcast_params(gb, params, [gamma, beta, mean, var], axes)
    _normalize(gb, params, x, mean_b, var_b, gamma_b, beta_b, eps, params.output_names[0])
    return gb.nodes()


@support("LocalResponseNormalization")
def convert_local_response_normalization(params):
    func = params.func
    size = 2 * func.half + 1
    return (
        make_node(
            "LRN",
            params.input_names,
            params.output_names,
            alpha=float(func.alpha) * size,
            beta=float(func.beta),
            bias=float(func.k),
            size=size,
        ),
    )


@support("NormalizeL2")
def convert_normalize_l2(params):
    func = params.func
    x = params.input_names[0]
    gb = GraphBuilder()
    axis = func.axis if isinstance(func.axis, (tuple, list)) else [func.axis]
    squares = forms.reduce(gb, params, "ReduceSumSquare", x, list(axis), True)
    norm = gb.op("Add", [gb.op("Sqrt", [squares]), forms.scalar(params, func.eps, "eps")])
    gb.op_output_named("Div", [x, norm], params.output_names)
    return gb.nodes()
