"""``resize_images``: resize image batches by bilinear or nearest-neighbour interpolation.

Both modes are separable: the output is ``R @ x @ C.T`` for every image and channel, where the
interpolation matrices ``R`` (rows) and ``C`` (columns) hold the weights of the source pixels.
The gradient is ``R.T @ gy @ C``, which is how the two nodes below mirror each other.
"""

from __future__ import annotations

import numpy

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.utils import type_check
from chainer.variable import Variable

__all__ = ["ResizeImages", "ResizeImagesGrad", "resize_images"]

_MODES = ("bilinear", "nearest")


def _interpolation_matrix(out_size: int, in_size: int, mode: str, align_corners: bool):
    """The ``(out_size, in_size)`` float64 weights of each output pixel's sources."""
    weights = numpy.zeros((out_size, in_size))
    rows = numpy.arange(out_size)
    if mode == "nearest":
        source = numpy.floor(rows * (in_size / out_size)).astype(numpy.intp)
        weights[rows, numpy.minimum(source, in_size - 1)] = 1
        return weights
    if align_corners:
        # The corner pixels of input and output coincide.
        position = numpy.linspace(0, in_size - 1, out_size)
    else:
        # Pixels are areas: output pixel centres are mapped onto the input's.
        position = numpy.maximum((rows + 0.5) * (in_size / out_size) - 0.5, 0)
    low = numpy.floor(position).astype(numpy.intp)
    frac = position - low
    high = numpy.minimum(low + 1, in_size - 1)
    numpy.add.at(weights, (rows, low), 1 - frac)
    numpy.add.at(weights, (rows, high), frac)
    return weights


def _resample(x, rows, cols):
    """``rows @ x @ cols.T`` over the last two axes, computed at least in float32."""
    dtype = x.dtype
    if dtype == numpy.float16:
        x = x.astype(numpy.float32)
    y = rows @ x @ cols.T
    return y.astype(dtype, copy=False)


class ResizeImages(FunctionNode):
    """``(n, c, h, w) -> (n, c, out_h, out_w)`` by interpolation."""

    def __init__(self, output_shape, mode: str = "bilinear", align_corners: bool = True) -> None:
        if len(output_shape) != 2 or not all(
            isinstance(n, (int, numpy.integer)) and n > 0 for n in output_shape
        ):
            raise ValueError(f"output_shape must be two positive ints, got {output_shape!r}")
        if mode not in _MODES:
            raise ValueError(f"mode must be one of {_MODES}, got {mode!r}")
        self.out_H, self.out_W = (int(n) for n in output_shape)
        self.mode = mode
        self.align_corners = align_corners

    def check_type_forward(self, in_types) -> None:
        type_check.argname(in_types, ("x",))
        x_type = in_types[0]
        type_check.expect(x_type.dtype.kind == "f", x_type.ndim == 4)

    def forward(self, inputs: tuple) -> tuple:
        x = inputs[0]
        xp = backend.get_array_module(x)
        self._rows, self._cols = (xp.asarray(m) for m in self._matrices(x))
        return (_resample(x, self._rows, self._cols),)

    def forward_chainerx(self, inputs: tuple) -> tuple:
        import chainerx

        # The same matrices, then matmuls that ChainerX differentiates.
        x = inputs[0]
        rows, cols = (chainerx.asarray(m, device=x.device) for m in self._matrices(x))
        return (_resample(x, rows, cols),)

    def _matrices(self, x) -> tuple:
        """The NumPy interpolation matrices of rows and columns, in the computing dtype."""
        h, w = x.shape[2:]
        compute = numpy.float32 if x.dtype == numpy.float16 else x.dtype
        return tuple(
            _interpolation_matrix(out, size, self.mode, self.align_corners).astype(compute)
            for out, size in ((self.out_H, h), (self.out_W, w))
        )

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        grad = ResizeImagesGrad(self, self._rows, self._cols)
        return grad.apply(grad_outputs)


class ResizeImagesGrad(FunctionNode):
    """Spread output gradients back onto the source pixels (the adjoint of the resize)."""

    def __init__(self, resize: ResizeImages, rows, cols) -> None:
        self.output_shape = (resize.out_H, resize.out_W)
        self.mode = resize.mode
        self.align_corners = resize.align_corners
        self._rows = rows
        self._cols = cols

    def forward(self, inputs: tuple) -> tuple:
        return (_resample(inputs[0], self._rows.T, self._cols.T),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        resize = ResizeImages(self.output_shape, self.mode, self.align_corners)
        return resize.apply(grad_outputs)


def resize_images(
    x, output_shape, *, mode: str = "bilinear", align_corners: bool = True
) -> Variable:
    """Resize images to the given shape.

    With ``mode='bilinear'`` each output pixel is the bilinear interpolation of the four
    nearest input pixels; with ``align_corners=True`` the corner pixels of input and output
    are aligned (output pixel ``i`` samples position ``i * (h - 1) / (out_h - 1)``), otherwise
    pixel centres are (position ``(i + 0.5) * h / out_h - 0.5``, clamped at 0). With
    ``mode='nearest'`` output pixel ``i`` copies input pixel ``floor(i * h / out_h)``.

    Args:
        x: Input variable of shape ``(n, c, h, w)`` (float).
        output_shape: ``(out_h, out_w)``, positive ints.
        mode: ``'bilinear'`` or ``'nearest'``.
        align_corners: See above (bilinear mode only).

    Returns:
        A variable of shape ``(n, c, out_h, out_w)``.

    Example:
        >>> x = np.array([[[[0, 1], [2, 3]]]], np.float32)
        >>> F.resize_images(x, (3, 3)).array
        array([[[[0. , 0.5, 1. ],
                 [1. , 1.5, 2. ],
                 [2. , 2.5, 3. ]]]], dtype=float32)
    """
    return ResizeImages(output_shape, mode, align_corners).apply((x,))[0]
