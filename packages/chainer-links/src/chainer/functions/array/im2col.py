"""``im2col``: extract the patches a 2-D convolution filter sees, as channels."""

from __future__ import annotations

import numpy

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.utils import conv, type_check
from chainer.utils.conv_nd import as_tuple
from chainer.variable import Variable

__all__ = ["Im2Col", "Im2ColGrad", "im2col"]


class _Geometry:
    """Kernel size, stride, padding, dilation and ``cover_all`` of the patches."""

    def __init__(self, ksize, stride, pad, cover_all: bool, dilate) -> None:
        self.kh, self.kw = as_tuple(ksize, 2)
        self.sy, self.sx = as_tuple(stride, 2)
        self.ph, self.pw = as_tuple(pad, 2)
        self.dy, self.dx = as_tuple(dilate, 2)
        self.cover_all = bool(cover_all)
        for name, values in (
            ("ksize", (self.kh, self.kw)),
            ("stride", (self.sy, self.sx)),
            ("dilate", (self.dy, self.dx)),
        ):
            if min(values) <= 0:
                raise ValueError(f"{name} must be positive, got {values}")
        if min(self.ph, self.pw) < 0:
            raise ValueError(f"pad must be non-negative, got {(self.ph, self.pw)}")

    def arguments(self) -> tuple:
        """``(ksize, stride, pad, cover_all, dilate)`` to rebuild this geometry."""
        return (
            (self.kh, self.kw),
            (self.sy, self.sx),
            (self.ph, self.pw),
            self.cover_all,
            (self.dy, self.dx),
        )

    def columns(self, x):
        """``(n, c, h, w) -> (n, c, kh, kw, out_h, out_w)``."""
        args = (x, self.kh, self.kw, self.sy, self.sx, self.ph, self.pw)
        options = {"cover_all": self.cover_all, "dy": self.dy, "dx": self.dx}
        if type(x) is numpy.ndarray:
            return conv.im2col_cpu(*args, **options)
        return conv.im2col_gpu(*args, **options)

    def image(self, col, h: int, w: int):
        """The adjoint of :meth:`columns`: add the columns back onto ``(n, c, h, w)``."""
        args = (col, self.sy, self.sx, self.ph, self.pw, h, w, self.dy, self.dx)
        if type(col) is numpy.ndarray:
            return conv.col2im_cpu(*args)
        return conv.col2im_gpu(*args)


class Im2Col(FunctionNode):
    """``(n, c, h, w) -> (n, c * kh * kw, out_h, out_w)``: the patches as channels."""

    def __init__(self, ksize, stride=1, pad=0, cover_all: bool = False, dilate=1) -> None:
        self.geometry = _Geometry(ksize, stride, pad, cover_all, dilate)

    def check_type_forward(self, in_types) -> None:
        type_check.argname(in_types, ("x",))
        x_type = in_types[0]
        type_check.expect(x_type.dtype.kind == "f", x_type.ndim == 4)

    def forward(self, inputs: tuple) -> tuple:
        col = self.geometry.columns(inputs[0])
        n, c, kh, kw, out_h, out_w = col.shape
        return (col.reshape(n, c * kh * kw, out_h, out_w),)

    def forward_chainerx(self, inputs: tuple) -> tuple:
        import chainerx

        # The columns of the pixel positions (the padding is one more position, holding 0)
        # name the pixel each column entry copies: a gather that ChainerX differentiates.
        x = inputs[0]
        n, c, h, w = x.shape
        g = self.geometry
        positions = numpy.arange(h * w).reshape(1, 1, h, w)
        sources = conv.im2col_cpu(
            positions, g.kh, g.kw, g.sy, g.sx, g.ph, g.pw, h * w, g.cover_all, g.dy, g.dx
        )
        *_, out_h, out_w = sources.shape
        zero = chainerx.zeros((n, c, 1), x.dtype, x.device)
        flat = chainerx.concatenate([x.reshape(n, c, h * w), zero], axis=2)
        col = flat[:, :, sources.ravel()]
        return (col.reshape(n, c * g.kh * g.kw, out_h, out_w),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        grad = Im2ColGrad(*self.geometry.arguments(), self.inputs[0].shape)
        return grad.apply(grad_outputs)


class Im2ColGrad(FunctionNode):
    """Add patch gradients back onto the image (col2im); the adjoint of :class:`Im2Col`."""

    def __init__(self, ksize, stride, pad, cover_all: bool, dilate, in_shape: tuple) -> None:
        self.geometry = _Geometry(ksize, stride, pad, cover_all, dilate)
        self.in_shape = in_shape

    def forward(self, inputs: tuple) -> tuple:
        gy = inputs[0]
        g = self.geometry
        n, c, h, w = self.in_shape
        col = gy.reshape(n, c, g.kh, g.kw, gy.shape[2], gy.shape[3])
        xp = backend.get_array_module(gy)
        return (xp.ascontiguousarray(g.image(col, h, w)),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        return Im2Col(*self.geometry.arguments()).apply(grad_outputs)


def im2col(x, ksize, stride=1, pad=0, cover_all: bool = False, dilate=1) -> Variable:
    """Extract the patches of an image batch that a convolution filter sees.

    Output channel ``(k * kh + i) * kw + j`` at ``(y, x)`` is input channel ``k`` at pixel
    ``(y * sy + i * dy - ph, x * sx + j * dx - pw)`` (zero outside the image).

    Args:
        x: Input variable of shape ``(n, c, h, w)`` (float).
        ksize: Filter size ``kh, kw``: an int for both or a pair.
        stride: Stride ``sy, sx``: an int or a pair.
        pad: Zero padding ``ph, pw`` on each side: an int or a pair.
        cover_all: Add windows so that every pixel is covered even when the stride does not
            divide the padded size.
        dilate: Dilation ``dy, dx`` of the filter: an int or a pair.

    Returns:
        A variable of shape ``(n, c * kh * kw, out_h, out_w)``.

    Example:
        >>> x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
        >>> F.im2col(x, 2).shape
        (1, 4, 3, 3)
        >>> F.im2col(x, 3, stride=1, pad=1).shape
        (1, 9, 4, 4)
    """
    return Im2Col(ksize, stride, pad, cover_all, dilate).apply((x,))[0]
