"""Converters of chainer.functions.pooling."""

from __future__ import annotations

import warnings

import numpy as np

from onnx_chainer import mapping
from onnx_chainer.functions import _forms as forms
from onnx_chainer.functions._registry import support
from onnx_chainer.onnx_helper import GraphBuilder, make_node


def _window(params):
    func = params.func
    ndim = len(forms.input_shape(params)) - 2

    def as_list(value):
        return (
            [int(value)] * ndim
            if isinstance(value, (int, np.integer))
            else [int(v) for v in value]
        )

    return as_list(func.ksize), as_list(func.stride), as_list(func.pad)


@support("MaxPoolingND")
def convert_max_pooling(params):
    ksize, stride, pad = _window(params)
    end = list(pad)
    if params.func.cover_all:
        end = [p + s - 1 for p, s in zip(pad, stride)]
    return (
        make_node(
            "MaxPool",
            params.input_names,
            params.output_names,
            kernel_shape=ksize,
            strides=stride,
            pads=pad + end,
        ),
    )


@support("AveragePooling2D", "AveragePoolingND")
def convert_average_pooling(params):
    func = params.func
    if getattr(func, "cover_all", False):
        raise ValueError("AveragePooling with cover_all=True has no ONNX form")
    ksize, stride, pad = _window(params)
    include_pad = 0 if getattr(func, "pad_value", 0) is None else 1
    return (
        make_node(
            "AveragePool",
            params.input_names,
            params.output_names,
            kernel_shape=ksize,
            strides=stride,
            pads=pad + pad,
            count_include_pad=include_pad,
        ),
    )


def _upsample(gb, params, x, scales, out):
    scales = np.asarray(scales, np.float32)
    if params.opset_version >= 11:
        attrs = {"coordinate_transformation_mode": "asymmetric", "nearest_mode": "floor"}
        name = forms.const(params, scales, "scales")
        return forms.emit(
            gb, "Resize", [x, forms.resize_roi(params), name], out, mode="nearest", **attrs
        )
    if params.opset_version == 10:
        return forms.emit(
            gb, "Resize", [x, forms.const(params, scales, "scales")], out, mode="nearest"
        )
    if params.opset_version == 9:
        return forms.emit(
            gb, "Upsample", [x, forms.const(params, scales, "scales")], out, mode="nearest"
        )
    return forms.emit(gb, "Upsample", [x], out, mode="nearest", scales=[float(s) for s in scales])


@support("Unpooling2D", "UnpoolingND")
def convert_unpooling(params):
    ksize, stride, pad = _window(params)
    if ksize != stride or any(pad):
        raise ValueError(
            f"Unpooling with ksize {ksize} != stride {stride} or pad {pad} sums overlapping "
            "windows, which has no ONNX form; use ksize == stride and pad 0"
        )
    shape = forms.input_shape(params)
    out_shape = tuple(params.func.outputs[0]().shape)
    gb = GraphBuilder()
    x = params.input_names[0]
    full = [d * s for d, s in zip(shape[2:], stride)]
    if list(out_shape[2:]) == full:
        _upsample(gb, params, x, [1, 1, *stride], params.output_names[0])
        return gb.nodes()
    if any(o > f for o, f in zip(out_shape[2:], full)):
        raise ValueError(
            f"Unpooling to outsize {out_shape[2:]} larger than {full} has no ONNX form"
        )
    up = _upsample(gb, params, x, [1, 1, *stride], None)
    axes = list(range(2, len(shape)))
    forms.slice_(
        gb, params, up, [0] * len(axes), list(out_shape[2:]), axes, None, params.output_names[0]
    )
    return gb.nodes()


# onnxruntime implements MaxRoiPool up to its opset-21 version.
@support("ROIPooling2D", max_opset=21)
def convert_roi_pooling_2d(params):
    warnings.warn(
        "ROIPooling2D: ONNX MaxRoiPool rounds ROI corners as Chainer does, but runtimes may "
        "differ from Chainer for ROIs over negative values (empty bins)",
        UserWarning,
        stacklevel=2,
    )
    outsize = params.func.outsize
    return (
        make_node(
            "MaxRoiPool",
            params.input_names,
            params.output_names,
            pooled_shape=[int(o) for o in outsize],
            spatial_scale=float(params.func.spatial_scale),
        ),
    )


# onnxruntime implements RoiAlign up to its opset-16 version (no kernel for RoiAlign-22).
@support(
    "ROIAverageAlign2D", min_opset=10, max_opset=21, input_labels=("x", "rois", "roi_indices")
)
def convert_roi_average_align_2d(params):
    """``RoiAlign`` (average): Chainer's ROIs are (y1, x1, y2, x2), ONNX's (x1, y1, x2, y2)."""
    func = params.func
    ratio = func.sampling_ratio
    ratios = {0} if ratio is None else set(ratio if isinstance(ratio, tuple) else (ratio,))
    if len(ratios) != 1:
        raise ValueError(f"ROIAverageAlign2D: ONNX takes one sampling_ratio, got {ratio!r}")
    x, rois, indices = params.input_names
    gb = GraphBuilder()
    xy_rois = gb.op("Gather", [rois, forms.ints(params, [1, 0, 3, 2], "xy_order")], axis=1)
    batch = gb.op("Cast", [indices], to=mapping.onnx_type(np.int64))
    attrs = {}
    if params.opset_version >= 16:
        attrs["coordinate_transformation_mode"] = "output_half_pixel"  # no half-pixel shift
    out_h, out_w = func.outsize
    gb.op_output_named(
        "RoiAlign",
        [x, xy_rois, batch],
        params.output_names,
        mode="avg",
        output_height=int(out_h),
        output_width=int(out_w),
        sampling_ratio=int(ratios.pop()),
        spatial_scale=float(func.spatial_scale),
        **attrs,
    )
    return gb.nodes()


def _pooling_of(params, indexes):
    """The traced ``MaxPoolingND`` node that returned ``indexes``, or ``None``."""
    for func in params.context.traced_functions:
        if type(func).__name__ == "MaxPoolingND" and func.indexes is indexes:
            return func
    return None


@support("Upsampling2D", min_opset=9)
def convert_upsampling_2d(params):
    """``MaxUnpool`` with the indices of a ``MaxPool`` re-run on the pooling's input.

    Chainer's ``indexes`` are taps within each window, computed from the traced input; ONNX
    needs them from the graph, so the upsampling must undo a ``max_pooling_2d(...,
    return_indices=True)`` of the same forward pass, with the same windows, back to the
    pooling's input shape, and windows must not overlap (Chainer sums taps that meet, ONNX
    keeps one).
    """
    func = params.func
    pool = _pooling_of(params, func.indexes)
    if pool is None:
        raise ValueError(
            "Upsampling2D: its indexes must be those returned by max_pooling_2d(..., "
            "return_indices=True) in the exported forward pass; ONNX MaxUnpool takes indices "
            "computed in the graph, not constants"
        )
    pool_in = pool.inputs[0]
    out_shape = tuple(func.outputs[0]().shape)
    geometry = (tuple(func.ksize), tuple(func.stride), tuple(func.pad), bool(func.cover_all))
    pool_geometry = (
        tuple(pool.ksize),
        tuple(pool.stride),
        tuple(pool.pad),
        bool(pool.cover_all),
    )
    overlapping = any(s < k for s, k in zip(func.stride, func.ksize))
    if geometry != pool_geometry or out_shape != tuple(pool_in.shape) or overlapping:
        raise ValueError(
            f"Upsampling2D (ksize, stride, pad, cover_all) {geometry} to {out_shape} has an "
            f"ONNX form only as the inverse of its max pooling {pool_geometry} of "
            f"{tuple(pool_in.shape)}, with stride >= ksize"
        )
    if not params.context.has_name(pool_in):
        raise ValueError("Upsampling2D: the input of its max pooling is not in the exported graph")
    ksize, stride, pad = (list(v) for v in geometry[:3])
    end = [p + s - 1 for p, s in zip(pad, stride)] if func.cover_all else pad
    gb = GraphBuilder()
    name = params.context.current_name
    pooled, indices = f"{name}_pooled", f"{name}_indices"
    gb.op_output_named(
        "MaxPool",
        [params.context.get_name(pool_in)],
        [pooled, indices],
        kernel_shape=ksize,
        strides=stride,
        pads=pad + end,
    )
    shape = forms.ints(params, out_shape, "output_shape")
    gb.op_output_named(
        "MaxUnpool",
        [params.input_names[0], indices, shape],
        params.output_names,
        kernel_shape=ksize,
        strides=stride,
        pads=pad + end,
    )
    return gb.nodes()
