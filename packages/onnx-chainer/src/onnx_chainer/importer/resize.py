"""Importers of Resize and Upsample: separable nearest/linear sampling along each axis,
written with ``F.get_item`` so it is exact for every coordinate mode and differentiable."""

from __future__ import annotations

import numpy as np

import chainer.functions as F
from onnx_chainer.importer._registry import NodeContext, importer

_NEAREST = {
    "round_prefer_floor": lambda c: np.ceil(c - 0.5),
    "round_prefer_ceil": lambda c: np.floor(c + 0.5),
    "floor": np.floor,
    "ceil": np.ceil,
}


def _source_coordinates(mode: str, size: int, out: int, scale: float) -> np.ndarray:
    x = np.arange(out, dtype=np.float64)
    if mode == "half_pixel":
        return (x + 0.5) / scale - 0.5
    if mode == "half_pixel_symmetric":
        offset = size / 2 * (1 - out / (scale * size))
        return offset + (x + 0.5) / scale - 0.5
    if mode == "pytorch_half_pixel":
        return (x + 0.5) / scale - 0.5 if out > 1 else np.zeros(out)
    if mode == "align_corners":
        return x * (size - 1) / (out - 1) if out > 1 else np.zeros(out)
    return x / scale  # asymmetric


def _resample_axis(ctx: NodeContext, x, axis: int, out: int, scale: float, options: dict):
    size = x.shape[axis]
    coords = _source_coordinates(options["coordinates"], size, out, scale)
    head = (slice(None),) * axis
    if options["mode"] == "nearest":
        index = _NEAREST[options["nearest"]](coords).astype(np.int64).clip(0, size - 1)
        return F.get_item(x, head + (index,))
    coords = coords.clip(0, size - 1)
    low = np.floor(coords).astype(np.int64)
    high = np.minimum(low + 1, size - 1)
    weight = (coords - low).astype(x.dtype).reshape((-1,) + (1,) * (x.ndim - axis - 1))
    weight = F.broadcast_to(weight, x.shape[:axis] + weight.shape)
    return F.get_item(x, head + (low,)) * (1 - weight) + F.get_item(x, head + (high,)) * weight


def _resize(ctx: NodeContext, x, scales, sizes, options: dict):
    if options["mode"] not in ("nearest", "linear"):
        raise ctx.error(f"mode {options['mode']!r} is not supported", unsupported=True)
    if options["coordinates"] == "tf_crop_and_resize":
        raise ctx.error("tf_crop_and_resize is not supported", unsupported=True)
    if options["nearest"] not in _NEAREST:
        raise ctx.error(f"nearest_mode {options['nearest']!r} is not supported", unsupported=True)
    if sizes is None:
        if scales is None or len(scales) != x.ndim:
            raise ctx.error(f"scales {scales} do not match an input of shape {x.shape}")
        sizes = [int(np.floor(d * s)) for d, s in zip(x.shape, scales)]
    else:
        scales = [o / d for o, d in zip(sizes, x.shape)]
    ctx.check_size(sizes)
    for axis in range(x.ndim):
        if sizes[axis] != x.shape[axis] or scales[axis] != 1:
            x = _resample_axis(ctx, x, axis, sizes[axis], scales[axis], options)
    return x


def _options(ctx: NodeContext, coordinates: str, nearest: str) -> dict:
    mode = ctx.attr("mode", "nearest", "str")
    return {
        "mode": {"bilinear": "linear", "trilinear": "linear"}.get(mode, mode),
        "coordinates": coordinates,
        "nearest": nearest,
    }


@importer("Upsample", max_opset=9, static_inputs=(1,))
def upsample(ctx: NodeContext):
    x = ctx.input(0)
    scales = ctx.attr("scales", None, "floats") if ctx.opset < 9 else ctx.const(1).tolist()
    return _resize(ctx, x, scales, None, _options(ctx, "asymmetric", "floor"))


@importer("Resize", min_opset=10, static_inputs=(1, 2, 3))
def resize(ctx: NodeContext):
    x = ctx.input(0)
    if ctx.opset < 11:
        return _resize(ctx, x, ctx.const(1).tolist(), None, _options(ctx, "asymmetric", "floor"))
    if ctx.attr("antialias", 0, "int"):
        raise ctx.error("antialias=1 is not supported", unsupported=True)
    if ctx.attr("keep_aspect_ratio_policy", "stretch", "str") != "stretch":
        raise ctx.error("keep_aspect_ratio_policy other than stretch", unsupported=True)
    scales = ctx.const(2)
    sizes = ctx.const(3)
    scales = scales.tolist() if scales is not None and scales.size else None
    sizes = [int(s) for s in sizes.reshape(-1)] if sizes is not None and sizes.size else None
    axes = ctx.attr("axes", None, "ints")
    if axes is not None:  # opset 18: scales/sizes of some axes only
        axes = [ctx.axis(a, x.ndim) for a in axes]
        full_scales, full_sizes = [1.0] * x.ndim, list(x.shape)
        for i, axis in enumerate(axes):
            if scales is not None:
                full_scales[axis] = scales[i]
            if sizes is not None:
                full_sizes[axis] = sizes[i]
        scales = full_scales if scales is not None else None
        sizes = full_sizes if sizes is not None else None
    options = _options(
        ctx,
        ctx.attr("coordinate_transformation_mode", "half_pixel", "str"),
        ctx.attr("nearest_mode", "round_prefer_floor", "str"),
    )
    return _resize(ctx, x, scales, sizes, options)
