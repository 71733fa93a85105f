"""Converters of chainer.functions.array."""

from __future__ import annotations

import numpy as np

import chainer
from onnx_chainer import mapping
from onnx_chainer.functions import _forms as forms
from onnx_chainer.functions._getitem import convert_get_item  # noqa: F401 - registers GetItem
from onnx_chainer.functions._registry import support
from onnx_chainer.onnx_helper import GraphBuilder, make_node


def _output_shape(params, index: int = 0):
    node = params.func.outputs[index]()
    return tuple(node.shape) if node is not None else None


@support("Cast")
def convert_cast(params):
    to = mapping.onnx_type(params.func.dtype)
    return (make_node("Cast", params.input_names, params.output_names, to=to),)


@support("Copy", "Identity")
def convert_identity(params):
    return [
        make_node("Identity", [x], [y]) for x, y in zip(params.input_names, params.output_names)
    ]


@support("Shape")
def convert_shape(params):
    return (make_node("Shape", params.input_names[:1], params.output_names),)


@support("Concat")
def convert_concat(params):
    axis = params.func.axis % len(forms.input_shape(params))
    return (make_node("Concat", params.input_names, params.output_names, axis=axis),)


@support("Depth2Space")
def convert_depth2space(params):
    r = params.func.r
    return (make_node("DepthToSpace", params.input_names, params.output_names, blocksize=r),)


@support("Space2Depth")
def convert_space2depth(params):
    r = params.func.r
    return (make_node("SpaceToDepth", params.input_names, params.output_names, blocksize=r),)


@support("Reshape")
def convert_reshape(params):
    if len(params.input_names) == 2:  # dynamic shape given as a second input
        return (make_node("Reshape", params.input_names, params.output_names),)
    shape = forms.ints(params, params.func.shape, "shape")
    return (make_node("Reshape", [params.input_names[0], shape], params.output_names),)


@support("Transpose")
def convert_transpose(params):
    axes = params.func.axes
    ndim = len(forms.input_shape(params))
    perm = list(reversed(range(ndim))) if axes is None else [a % ndim for a in axes]
    return (make_node("Transpose", params.input_names, params.output_names, perm=perm),)


@support("Tile")
def convert_tile(params):
    reps = params.func.reps
    reps = (reps,) if isinstance(reps, (int, np.integer)) else tuple(reps)
    shape = forms.input_shape(params)
    gb = GraphBuilder()
    x = params.input_names[0]
    if len(reps) > len(shape):
        shape = (1,) * (len(reps) - len(shape)) + shape
        x = forms.reshape(gb, params, x, shape)
    reps = (1,) * (len(shape) - len(reps)) + reps
    gb.op_output_named("Tile", [x, forms.ints(params, reps, "repeats")], params.output_names)
    return gb.nodes()


@support("Repeat")
def convert_repeat(params):
    func, shape = params.func, forms.input_shape(params)
    gb = GraphBuilder()
    x, axis = params.input_names[0], func.axis
    if axis is None:
        x, axis, length = forms.reshape(gb, params, x, [-1]), 0, int(np.prod(shape))
    else:
        axis = axis % len(shape)
        length = shape[axis]
    repeats = np.broadcast_to(np.asarray(func.repeats), (length,))
    index = forms.ints(params, np.repeat(np.arange(length), repeats), "indices")
    gb.op_output_named("Gather", [x, index], params.output_names, axis=axis)
    return gb.nodes()


def _pad_pairs(pad_width, ndim):
    width = np.asarray(pad_width, dtype=np.int64)
    return np.broadcast_to(
        width.reshape(-1, 2) if width.ndim == 2 else width.reshape(-1, 1), (ndim, 2)
    )


@support("Pad")
def convert_pad(params):
    func = params.func
    mode = {"constant": "constant", "reflect": "reflect", "edge": "edge"}.get(func.mode)
    if mode is None:
        raise ValueError(
            f"Pad: mode {func.mode!r} has no ONNX form; expected constant, reflect or edge"
        )
    ndim = len(forms.input_shape(params))
    pairs = _pad_pairs(func.pad_width, ndim)
    pads = [int(p) for p in pairs[:, 0]] + [int(p) for p in pairs[:, 1]]
    value = func.keywords.get("constant_values", 0)
    if np.ndim(value) != 0:
        raise ValueError(f"Pad: only a scalar constant_values has an ONNX form, got {value!r}")
    gb = GraphBuilder()
    forms.pad(gb, params, params.input_names[0], pads, mode, value, params.output_names[0])
    return gb.nodes()


@support("SplitAxis")
def convert_split_axis(params):
    func = params.func
    shape = forms.input_shape(params)
    axis = func.axis % len(shape)
    length = shape[axis]
    if func.indices is not None:
        bounds = [0] + [min(int(i), length) for i in func.indices] + [length]
        sizes = [b - a for a, b in zip(bounds[:-1], bounds[1:])]
    else:
        sizes = [length // func.sections] * func.sections
    gb = GraphBuilder()
    forms.split(gb, params, params.input_names[0], sizes, axis, params.output_names)
    return gb.nodes()


@support("Separate")
def convert_separate(params):
    shape = forms.input_shape(params)
    axis = params.func.axis % len(shape)
    gb = GraphBuilder()
    if shape[axis] > 1:
        pieces = _split_equal(gb, params, shape[axis], axis)
    else:
        pieces = [params.input_names[0]]
    for piece, out in zip(pieces, params.output_names):
        forms.squeeze(gb, params, piece, [axis], out)
    return gb.nodes()


def _split_equal(gb, params, count, axis):
    outs = [f"{params.context.current_name}_piece_{i}" for i in range(count)]
    forms.split(gb, params, params.input_names[0], [1] * count, axis, outs)
    return outs


@support("Stack")
def convert_stack(params):
    ndim = len(forms.input_shape(params)) + 1
    axis = params.func.axis % ndim
    gb = GraphBuilder()
    parts = [forms.unsqueeze(gb, params, x, [axis]) for x in params.input_names]
    gb.op_output_named("Concat", parts, params.output_names, axis=axis)
    return gb.nodes()


@support("Where", min_opset=9)
def convert_where(params):
    condition = params.context.get_name(params.func.condition)
    return (make_node("Where", [condition, *params.input_names], params.output_names),)


@support("Flip", min_opset=10)
def convert_flip(params):
    shape = forms.input_shape(params)
    axis = params.func.axis % len(shape)
    gb = GraphBuilder()
    big = np.iinfo(np.int64).max
    forms.slice_(
        gb, params, params.input_names[0], [-1], [-big], [axis], [-1], params.output_names[0]
    )
    return gb.nodes()


@support("Permutate")
def convert_permutate(params):
    func = params.func
    # The permutation is an attribute of the node (as in v7): a graph input when it was passed
    # to the model as one, otherwise an initializer.
    (x,) = params.input_names
    indices = params.context.get_name(func.indices)
    gb = GraphBuilder()
    if func.inv:
        if params.opset_version < 9:
            raise ValueError(
                f"Permutate with inv=True is supported from opset 9, you asked for "
                f"{params.opset_version}"
            )
        length = len(func.indices)
        zeros = forms.const(params, np.zeros(length, np.int64), "zeros")
        positions = forms.const(params, np.arange(length, dtype=np.int64), "range")
        index64 = gb.op("Cast", [indices], to=mapping.onnx_type(np.int64))
        op = "ScatterElements" if params.opset_version >= 11 else "Scatter"
        indices = gb.op(op, [zeros, index64, positions])
    gb.op_output_named("Gather", [x, indices], params.output_names, axis=func.axis)
    return gb.nodes()


@support("SelectItem", min_opset=9)
def convert_select_item(params):
    x, t = params.input_names
    depth = forms.input_shape(params)[1]
    gb = GraphBuilder()
    onehot = forms.one_hot(gb, params, t, depth, forms.input_dtype(params))
    picked = gb.op("Mul", [x, onehot])
    forms.reduce(gb, params, "ReduceSum", picked, [1], False, params.output_names[0])
    return gb.nodes()


@support("TransposeSequence")
def convert_transpose_sequence(params):
    lengths = [forms.input_shape(params, i)[0] for i in range(len(params.input_names))]
    gb = GraphBuilder()
    for t, out in enumerate(params.output_names):
        rows = [
            forms.slice_(gb, params, x, [t], [t + 1], [0])
            for x, length in zip(params.input_names, lengths)
            if length > t
        ]
        if len(rows) == 1:
            forms.emit(gb, "Identity", rows, out)
        else:
            forms.emit(gb, "Concat", rows, out, axis=0)
    return gb.nodes()


def _scale(size: int, out: int) -> np.float32:
    """The float32 scale with ``floor(size * scale) == out`` (``out / size`` may round down)."""
    scale = np.float32(out / size)
    while np.floor(size * np.float64(scale)) < out:
        scale = np.nextafter(scale, np.float32(np.inf))
    return scale


@support("ResizeImages")
def convert_resize_images(params):
    import warnings

    func = params.func
    n, c, h, w = forms.input_shape(params)
    out_h, out_w = func.out_H, func.out_W
    mode = "linear" if func.mode == "bilinear" else "nearest"
    gb = GraphBuilder()
    x = params.input_names[0]
    scales = np.array([1, 1, _scale(h, out_h), _scale(w, out_w)], np.float32)
    if params.opset_version >= 11:
        attrs = {"mode": mode}
        if mode == "linear":
            attrs["coordinate_transformation_mode"] = (
                "align_corners" if func.align_corners else "half_pixel"
            )
        else:
            attrs.update(coordinate_transformation_mode="asymmetric", nearest_mode="floor")
        sizes = forms.ints(params, [n, c, out_h, out_w], "sizes")
        gb.op_output_named(
            "Resize",
            [x, forms.resize_roi(params), forms.resize_roi(params, "scales"), sizes],
            params.output_names,
            **attrs,
        )
        return gb.nodes()
    if mode == "linear":
        warnings.warn(
            f"ResizeImages: before opset 11 ONNX resizes bilinearly without align_corners; the "
            f"exported values differ from Chainer's (opset {params.opset_version}). Export with "
            "opset 11 or newer for an exact match.",
            UserWarning,
            stacklevel=2,
        )
    if params.opset_version >= 10:
        gb.op_output_named(
            "Resize", [x, forms.const(params, scales, "scales")], params.output_names, mode=mode
        )
    elif params.opset_version == 9:
        gb.op_output_named(
            "Upsample", [x, forms.const(params, scales, "scales")], params.output_names, mode=mode
        )
    else:
        gb.op_output_named(
            "Upsample", [x], params.output_names, mode=mode, scales=[float(s) for s in scales]
        )
    return gb.nodes()


@support("Im2Col")
def convert_im2col(params):
    """A grouped ``Conv`` whose one-hot kernels copy each tap of the window to a channel."""
    g = params.func.geometry
    channels = forms.input_shape(params)[1]
    taps = g.kh * g.kw
    kernel = np.zeros((channels * taps, 1, g.kh, g.kw), forms.input_dtype(params))
    for tap in range(taps):
        kernel[tap::taps, 0, tap // g.kw, tap % g.kw] = 1
    # cover_all adds stride - 1 zero rows/columns at the end, as Chainer's im2col does.
    end = (g.ph + g.sy - 1, g.pw + g.sx - 1) if g.cover_all else (g.ph, g.pw)
    weight = params.context.add_param(kernel, "W")
    return (
        make_node(
            "Conv",
            [params.input_names[0], weight],
            params.output_names,
            kernel_shape=[g.kh, g.kw],
            strides=[g.sy, g.sx],
            pads=[g.ph, g.pw, *end],
            dilations=[g.dy, g.dx],
            group=channels,
        ),
    )


@support("ScatterAdd", min_opset=9, input_labels=("a", "b"))
def convert_scatter_add(params):
    """``a + scatter(b)`` over ``a`` flattened, with the selected positions as constants.

    Repeated positions accumulate only with ``ScatterND(reduction='add')`` (opset 16); before,
    the positions must be distinct.
    """
    a_shape = forms.input_shape(params)
    positions = np.arange(int(np.prod(a_shape)), dtype=np.int64).reshape(a_shape)
    host = chainer.backend.CpuDevice()
    slices = tuple(host.send(s) if hasattr(s, "shape") else s for s in params.func.slices)
    positions = positions[slices].reshape(-1)
    opset = params.opset_version
    if opset < 16 and len(np.unique(positions)) != len(positions):
        raise ValueError(
            "ScatterAdd: slices that select an element more than once need ScatterND with "
            f"reduction='add': supported from opset 16, you asked for {opset}"
        )
    a, b = params.input_names
    gb = GraphBuilder()
    a_flat = forms.reshape(gb, params, a, [-1])
    b_flat = forms.reshape(gb, params, b, [-1])
    if opset >= 16:
        index = forms.ints(params, positions.reshape(-1, 1), "positions")
        summed = gb.op("ScatterND", [a_flat, index, b_flat], reduction="add")
    else:
        size = int(np.prod(a_shape))
        zeros = forms.const(params, np.zeros(size, forms.input_dtype(params)), "zeros")
        if opset >= 11:
            index = forms.ints(params, positions.reshape(-1, 1), "positions")
            scattered = gb.op("ScatterND", [zeros, index, b_flat])
        else:
            index = forms.ints(params, positions, "positions")
            scattered = gb.op("Scatter", [zeros, index, b_flat], axis=0)
        summed = gb.op("Add", [a_flat, scattered])
    forms.reshape(gb, params, summed, a_shape, params.output_names[0])
    return gb.nodes()


@support("SpatialTransformerGrid")
def convert_spatial_transformer_grid(params):
    """``theta @ points``: the points ``(x, y, 1)`` of the ``[-1, 1]`` output grid."""
    h, w = params.func.output_shape
    dtype = forms.input_dtype(params)
    ys, xs = np.meshgrid(
        np.linspace(-1, 1, h, dtype=dtype), np.linspace(-1, 1, w, dtype=dtype), indexing="ij"
    )
    points = np.stack([xs.ravel(), ys.ravel(), np.ones(h * w, dtype)])
    gb = GraphBuilder()
    grid = gb.op("MatMul", [params.input_names[0], forms.const(params, points, "points")])
    batch = forms.input_shape(params)[0]
    forms.reshape(gb, params, grid, [batch, 2, h, w], params.output_names[0])
    return gb.nodes()
