"""Upsampling with the indexes of a max pooling: each value goes back where its maximum was."""

from __future__ import annotations

import numpy

from chainer import backend
from chainer.function_node import Fallback, FunctionNode
from chainer.functions.pooling import _windows
from chainer.functions.pooling._windows import Window, WindowGather
from chainer.utils import type_check
from chainer.variable import Variable


class Upsampling2D(FunctionNode):
    """Put every pixel at the tap ``indexes`` names in its pooling window; zeros elsewhere."""

    def __init__(
        self, indexes, ksize, stride=None, pad=0, outsize=None, cover_all: bool = True
    ) -> None:
        if isinstance(indexes, Variable) or not hasattr(indexes, "dtype"):
            raise TypeError(
                "indexes must be the integer array returned by max_pooling_2d(..., "
                f"return_indices=True), got {type(indexes).__name__}"
            )
        if indexes.dtype.kind not in "iu":
            raise TypeError(f"indexes must be an integer array, got dtype {indexes.dtype}")
        self.indexes = indexes
        self.ksize, self.stride, self.pad = Window.parse(2, ksize, stride, pad)
        self.outsize = outsize
        self.cover_all = cover_all
        self.win = None

    def check_type_forward(self, in_types) -> None:
        _windows.check_unpooling(
            in_types, 2, self.ksize, self.stride, self.pad, self.cover_all, self.outsize
        )
        shape = type_check.eval(in_types[0].shape)
        if self.indexes.shape != shape:
            raise type_check.InvalidType(
                "indexes.shape == x.shape", f"indexes.shape={self.indexes.shape}, x.shape={shape}"
            )
        k = int(numpy.prod(self.ksize))
        if self.indexes.size and not (0 <= int(self.indexes.min()) <= int(self.indexes.max()) < k):
            raise type_check.InvalidType(
                f"0 <= indexes < {k} (flat taps of a {self.ksize} window)",
                f"indexes in [{int(self.indexes.min())}, {int(self.indexes.max())}]",
            )

    def forward(self, inputs: tuple) -> tuple:
        x = inputs[0]
        # v7 takes the indexes on any device: they follow the input (NumPy ones onto a GPU).
        self.indexes = backend.get_device_from_array(x).send(self.indexes)
        self.win = Window.into_image(
            x.shape[2:], self.ksize, self.stride, self.pad, self.cover_all, self.outsize
        )
        return (_windows.window_scatter(x, self.indexes, self.win),)

    def forward_chainerx(self, inputs: tuple):
        x = inputs[0]
        dims = Window.into_image(
            x.shape[2:], self.ksize, self.stride, self.pad, self.cover_all, self.outsize
        ).dims
        if x.size == 0 or 0 in dims:
            return Fallback  # chainerx.conv_transpose makes no empty outputs
        import chainerx

        # Channel t of `spread` holds the pixels whose maximum was at tap t; a transposed
        # convolution with the one-hot kernel of each tap puts them there (overlaps add up).
        n, c, h, w = x.shape
        taps = self.ksize[0] * self.ksize[1]
        indexes = chainerx.asarray(self.indexes, device=x.device).reshape(n * c, 1, h, w)
        each_tap = chainerx.arange(taps, dtype=indexes.dtype, device=x.device)
        chosen = (indexes == each_tap.reshape(1, taps, 1, 1)).astype(x.dtype)
        spread = x.reshape(n * c, 1, h, w) * chosen
        one_hot = chainerx.eye(taps, dtype=x.dtype, device=x.device).reshape(taps, 1, *self.ksize)
        y = chainerx.conv_transpose(spread, one_hot, None, self.stride, self.pad, dims)
        return (y.reshape(n, c, *dims),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        return WindowGather(self.win, self.indexes).apply(grad_outputs)


def upsampling_2d(
    x, indexes, ksize, stride=None, pad=0, outsize=None, cover_all: bool = True
) -> Variable:
    """Upsampling using pooling indices.

    The inverse of :func:`~chainer.functions.max_pooling_2d`: each pixel of ``x`` is placed
    where the maximum of its window was, and the other pixels are zero.

    Args:
        x: Images of shape ``(n, c, h, w)`` and floating-point dtype.
        indexes: The integer array of the same shape returned by
            ``max_pooling_2d(..., return_indices=True)``: flat (C-order) taps of the windows.
        ksize, stride, pad, cover_all: The arguments of that pooling.
        outsize: Output size ``(out_h, out_w)``; by default the smallest size that the pooling
            maps to ``(h, w)``.

    Returns:
        A variable of shape ``(n, c, out_h, out_w)``.

    Raises:
        TypeError: ``indexes`` is not an integer array.
        chainer.utils.type_check.InvalidType: ``indexes`` does not match ``x`` or ``outsize``
            does not pool back to ``(h, w)``.

    Example:
        >>> x = numpy.array([[[[1, 3], [2, 4]]]], dtype=numpy.float32)
        >>> y, indexes = F.max_pooling_2d(x, 2, return_indices=True)
        >>> F.upsampling_2d(y, indexes, 2, outsize=(2, 2)).array
        array([[[[0., 0.],
                 [0., 4.]]]], dtype=float32)
    """
    return Upsampling2D(indexes, ksize, stride, pad, outsize, cover_all).apply((x,))[0]
