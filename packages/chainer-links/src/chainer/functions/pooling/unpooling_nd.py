"""Unpooling over 1, 3 or any number of spatial axes: the inverse of pooling's windows."""

from __future__ import annotations

from chainer.function_node import Fallback, FunctionNode
from chainer.functions.pooling import _windows
from chainer.functions.pooling._windows import Window, WindowSum
from chainer.variable import Variable


class UnpoolingND(FunctionNode):
    """Copy every input element to each element of its pooling window (overlaps add up)."""

    def __init__(
        self, ndim: int, ksize, stride=None, pad=0, outsize=None, cover_all: bool = True
    ) -> None:
        self.ndim = ndim
        self.ksize, self.stride, self.pad = Window.parse(ndim, ksize, stride, pad)
        self.outsize = outsize
        self.cover_all = cover_all
        self.win = None

    def _window(self, outs) -> Window:
        return Window.into_image(
            outs, self.ksize, self.stride, self.pad, self.cover_all, self.outsize
        )

    def check_type_forward(self, in_types) -> None:
        _windows.check_unpooling(
            in_types, self.ndim, self.ksize, self.stride, self.pad, self.cover_all, self.outsize
        )

    def forward(self, inputs: tuple) -> tuple:
        x = inputs[0]
        self.win = self._window(x.shape[2:])
        return (_windows.window_spread(x, self.win),)

    def forward_chainerx(self, inputs: tuple):
        x = inputs[0]
        dims = self._window(x.shape[2:]).dims
        if x.size == 0 or 0 in dims:
            return Fallback  # chainerx.conv_transpose makes no empty outputs
        import chainerx

        # Spreading each element over its window (overlaps adding up) is a transposed
        # convolution of every channel alone with a kernel of ones.
        n, c = x.shape[:2]
        ones = chainerx.ones((1, 1, *self.ksize), x.dtype, x.device)
        planes = x.reshape((n * c, 1, *x.shape[2:]))
        y = chainerx.conv_transpose(planes, ones, None, self.stride, self.pad, dims)
        return (y.reshape((n, c, *dims)),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        # The gradient sums each window of the output gradient: a pooling by sum.
        return WindowSum(self.win, 1).apply(grad_outputs)


def unpooling_nd(x, ksize, stride=None, pad=0, outsize=None, cover_all: bool = True) -> Variable:
    """Inverse operation of N-dimensional spatial pooling.

    Each input element is copied to every element of the window that a pooling with the same
    arguments would have read it from; where windows overlap the copies add up.

    Args:
        x: Input of shape ``(n, c, o_1, ..., o_N)`` and floating-point dtype.
        ksize: Window size: an int for all axes or a tuple of ``N`` ints.
        stride: Window step (int or tuple); ``None`` uses ``ksize``.
        pad: Padding on each side (int or tuple), cropped from the output.
        outsize: Spatial shape ``(d_1, ..., d_N)`` of the output; by default the smallest one
            that the pooling maps back to ``(o_1, ..., o_N)``.
        cover_all: The ``cover_all`` of the pooling this inverts.

    Returns:
        A variable of shape ``(n, c, d_1, ..., d_N)``.

    Raises:
        chainer.utils.type_check.InvalidType: Pooling an image of ``outsize`` would not give
            ``x``'s spatial shape.

    Example:
        >>> x = numpy.array([[[1, 2]]], dtype=numpy.float32)
        >>> F.unpooling_nd(x, 2, cover_all=False).array
        array([[[1., 1., 2., 2.]]], dtype=float32)
        >>> F.unpooling_nd(x, 2).shape  # cover_all: the last window may be cut off
        (1, 1, 3)
    """
    ndim = len(x.shape[2:])
    return UnpoolingND(ndim, ksize, stride, pad, outsize, cover_all).apply((x,))[0]


def unpooling_1d(x, ksize, stride=None, pad=0, outsize=None, cover_all: bool = True) -> Variable:
    """Inverse operation of 1-dimensional spatial pooling, for ``x`` of shape ``(n, c, w)``.

    The arguments and the result are those of :func:`unpooling_nd`.

    Raises:
        ValueError: ``x`` does not have exactly one spatial axis.
    """
    _windows.check_spatial_ndim(x, 1)
    return unpooling_nd(x, ksize, stride, pad, outsize, cover_all)


def unpooling_3d(x, ksize, stride=None, pad=0, outsize=None, cover_all: bool = True) -> Variable:
    """Inverse operation of 3-dimensional spatial pooling, for ``x`` of shape
    ``(n, c, d, h, w)``.

    The arguments and the result are those of :func:`unpooling_nd`.

    Raises:
        ValueError: ``x`` does not have exactly three spatial axes.
    """
    _windows.check_spatial_ndim(x, 3)
    return unpooling_nd(x, ksize, stride, pad, outsize, cover_all)
