"""Average pooling over 1, 3 or any number of spatial axes (with a choice of padding)."""

from __future__ import annotations

from chainer import backend
from chainer.function_node import Fallback
from chainer.functions.pooling import _windows
from chainer.functions.pooling._windows import Window, WindowSpread
from chainer.functions.pooling.pooling_nd import _PoolingND
from chainer.variable import Variable


class AveragePoolingND(_PoolingND):
    """Average pooling over ``ndim`` spatial axes.

    With ``pad_value=0`` padded elements count as zeros (every window is divided by its full
    size); with ``pad_value=None`` they are left out (each window is divided by the number of
    input elements in it).
    """

    def __init__(
        self, ndim: int, ksize, stride=None, pad=0, cover_all: bool = False, pad_value=0
    ) -> None:
        if pad_value not in (0, None):
            raise ValueError(f"pad_value must be either 0 or None, not {pad_value!r}")
        super().__init__(ndim, ksize, stride, pad, cover_all)
        self.pad_value = pad_value
        self.win = None
        self.divisor = None

    def forward(self, inputs: tuple) -> tuple:
        x = inputs[0]
        win = Window.over_image(x.shape[2:], self.ksize, self.stride, self.pad, self.cover_all)
        if self.pad_value is None:
            # Count the input elements of each window: the window sums of an all-ones image.
            xp = backend.get_array_module(x)
            ones = xp.ones((1, 1, *win.dims), dtype=x.dtype)
            counts = _windows.window_sum(ones, win)
            # A window wholly in the padding averages nothing: 0 as in v7 (not 0 / 0).
            self.divisor = xp.maximum(counts, 1, out=counts)
        else:
            self.divisor = x.dtype.type(win.size)
        self.win = win
        y = _windows.window_sum(x, win)
        y /= self.divisor
        return (y,)

    def forward_chainerx(self, inputs: tuple):
        if self.cover_all:  # chainerx.average_pool has no cover_all
            return Fallback
        import chainerx

        pad_mode = "zero" if self.pad_value == 0 else "ignore"
        return (chainerx.average_pool(inputs[0], self.ksize, self.stride, self.pad, pad_mode),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        return AveragePoolingNDGrad(self.win, self.divisor).apply(grad_outputs)


class AveragePoolingNDGrad(WindowSpread):
    """Gradient of average pooling: each output gradient, divided by its window's divisor,
    goes to every element of the window (its own gradient is the pooling again)."""


def average_pooling_nd(x, ksize, stride=None, pad=0, pad_value=0) -> Variable:
    """N-dimensional spatial average pooling.

    Args:
        x: Input of shape ``(n, c, d_1, ..., d_N)`` and floating-point dtype.
        ksize: Window size: an int for all axes or a tuple of ``N`` ints.
        stride: Window step (int or tuple); ``None`` uses ``ksize``.
        pad: Padding on each side (int or tuple).
        pad_value: ``0`` to average padded elements as zeros, ``None`` to leave them out of
            the average.

    Returns:
        A variable of shape ``(n, c, o_1, ..., o_N)`` with
        ``o_i = (d_i + 2 * p_i - k_i) // s_i + 1``.

    Example:
        >>> x = numpy.arange(4, dtype=numpy.float32).reshape(1, 1, 4)
        >>> F.average_pooling_nd(x, 2).array
        array([[[0.5, 2.5]]], dtype=float32)
        >>> F.average_pooling_nd(x, 2, pad=1, pad_value=None).array
        array([[[0. , 1.5, 3. ]]], dtype=float32)
    """
    ndim = len(x.shape[2:])
    return AveragePoolingND(ndim, ksize, stride, pad, False, pad_value).apply((x,))[0]


def average_pooling_1d(x, ksize, stride=None, pad=0, pad_value=0) -> Variable:
    """1-dimensional spatial average pooling of ``x`` of shape ``(n, c, w)``.

    The arguments and the result are those of :func:`average_pooling_nd`.

    Raises:
        ValueError: ``x`` does not have exactly one spatial axis.
    """
    _windows.check_spatial_ndim(x, 1)
    return average_pooling_nd(x, ksize, stride, pad, pad_value)


def average_pooling_3d(x, ksize, stride=None, pad=0, pad_value=0) -> Variable:
    """3-dimensional spatial average pooling of ``x`` of shape ``(n, c, d, h, w)``.

    The arguments and the result are those of :func:`average_pooling_nd`.

    Raises:
        ValueError: ``x`` does not have exactly three spatial axes.
    """
    _windows.check_spatial_ndim(x, 3)
    return average_pooling_nd(x, ksize, stride, pad, pad_value)
