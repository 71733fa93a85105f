"""``spatial_transformer_sampler``: sample images at grid locations by bilinear interpolation.

It is composed of differentiable functions (indexing, arithmetic, ``stack``, ``where``), so
gradients of any order flow to both the images and the grid.
"""

from __future__ import annotations

import numpy

from chainer import backend, configuration
from chainer._ops.array_ops import reshape, sum, transpose
from chainer.functions.array.pad import pad
from chainer.functions.array.stack import stack
from chainer.functions.array.where import where
from chainer.utils import argument, type_check
from chainer.variable import Variable, as_variable

__all__ = ["spatial_transformer_sampler"]

_USE_CUDNN_REMOVED = (
    'The argument "use_cudnn" is not supported anymore. Use '
    "chainer.using_config('use_cudnn', value) context where value can be `always`, `never`, "
    "or `auto`."
)


class _CheckContext:
    """Names this function in the type errors it raises."""

    label = "SpatialTransformerSampler"


def _check_types(x, grid) -> None:
    in_types = type_check.get_types((x, grid), "in_types", False)
    type_check.argname(in_types, ("x", "grid"))
    x_type, grid_type = in_types
    with type_check.get_function_check_context(_CheckContext):
        type_check.expect(
            x_type.dtype.kind == "f",
            grid_type.dtype == x_type.dtype,
            x_type.ndim == 4,
            grid_type.ndim == 4,
            grid_type.shape[1] == 2,
            x_type.shape[0] == grid_type.shape[0],
        )


def _clamp(p: Variable, low: int, high: int) -> Variable:
    """``clip(p, low, high)`` whose gradient is zero where it clips."""
    data = p.array
    inside = (data >= low) & (data <= high)
    if bool(inside.all()):
        return p
    xp = backend.get_array_module(data)
    return where(inside, p, xp.clip(data, low, high))


def _pixel_positions(coordinate: Variable, size: int) -> Variable:
    """Map ``[-1, 1]`` onto the pixels ``1 .. size`` of the image padded by one pixel."""
    half = (size - 1) / 2
    return _clamp(coordinate * half + (half + 1), 0, size + 1)


def spatial_transformer_sampler(x, grid, **kwargs) -> Variable:
    """Sample images at the locations of a grid by bilinear interpolation.

    ``grid[:, 0]`` holds x (width) and ``grid[:, 1]`` y (height) coordinates normalized to
    ``[-1, 1]`` over the image (``-1`` is the centre of the first pixel, ``1`` of the last).
    Pixels outside the image read as zero, so locations up to one pixel outside blend with
    zero; beyond that the output is zero.

    Args:
        x: Images of shape ``(n, c, h, w)`` (float).
        grid: Sampling locations of shape ``(n, 2, out_h, out_w)``, dtype of ``x``; see
            :func:`spatial_transformer_grid`.

    Returns:
        A variable of shape ``(n, c, out_h, out_w)``.

    Example:
        >>> x = np.arange(4, dtype=np.float32).reshape(1, 1, 2, 2)
        >>> grid = np.zeros((1, 2, 1, 1), np.float32)  # the image centre
        >>> F.spatial_transformer_sampler(x, grid).array
        array([[[[1.5]]]], dtype=float32)
    """
    if kwargs:
        argument.check_unexpected_kwargs(kwargs, use_cudnn=_USE_CUDNN_REMOVED)
        argument.assert_kwargs_empty(kwargs)
    x = as_variable(x)
    grid = as_variable(grid)
    if configuration.config.type_check:
        _check_types(x.array, grid.array)
    xp = backend.get_array_module(x.array)
    n, c, h, w = x.shape
    out_h, out_w = grid.shape[2:]
    q = out_h * out_w

    u = _pixel_positions(reshape(grid[:, 0], (n, q)), w)
    v = _pixel_positions(reshape(grid[:, 1], (n, q)), h)
    # The top-left corner of the 2x2 pixels around each location, kept inside the padding.
    u0 = xp.minimum(xp.floor(u.array), w)
    v0 = xp.minimum(xp.floor(v.array), h)
    # (Variables on the left: a ChainerX array does not defer to a Variable operand.)
    wu0, wu1 = u - u0, as_variable(u0 + 1) - u
    wv0, wv1 = v - v0, as_variable(v0 + 1) - v
    weights = stack((wv1 * wu1, wv1 * wu0, wv0 * wu1, wv0 * wu0), axis=1)  # (n, 4, q)

    padded_w = w + 2
    top_left = v0.astype(numpy.intp) * padded_w + u0.astype(numpy.intp)
    offsets = xp.asarray([0, 1, padded_w, padded_w + 1], dtype=numpy.intp)
    corners = top_left[:, None, :] + offsets[None, :, None]  # (n, 4, q)
    padded = pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)), "constant")
    flat = reshape(padded, (n, c, (h + 2) * padded_w))
    batch = xp.arange(n).reshape(n, 1, 1)
    pixels = flat[batch, :, corners]  # (n, 4, q, c): the advanced axes come first
    y = sum(pixels * reshape(weights, (n, 4, q, 1)), axis=1)
    return reshape(transpose(y, (0, 2, 1)), (n, c, out_h, out_w))
