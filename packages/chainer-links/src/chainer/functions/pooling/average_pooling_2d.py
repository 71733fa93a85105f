"""Spatial average pooling of images."""

from __future__ import annotations

from chainer.functions.pooling import _windows
from chainer.functions.pooling.average_pooling_nd import AveragePoolingND
from chainer.variable import Variable


class AveragePooling2D(AveragePoolingND):
    """Average pooling of images ``(n, c, h, w)``; padded pixels count as zeros."""

    def __init__(self, ksize, stride=None, pad=0, cover_all: bool = False) -> None:
        super().__init__(2, ksize, stride, pad, cover_all, pad_value=0)


def average_pooling_2d(x, ksize, stride=None, pad=0) -> Variable:
    """Spatial average pooling of images.

    Every window is divided by its full size ``kh * kw``: padded pixels count as zeros (use
    :func:`~chainer.functions.average_pooling_nd` with ``pad_value=None`` to leave them out).

    Args:
        x: Images of shape ``(n, c, h, w)`` and floating-point dtype.
        ksize: Window size: an int or a pair ``(kh, kw)``.
        stride: Window step (int or pair); ``None`` uses ``ksize``.
        pad: Padding on each side (int or pair).

    Returns:
        A variable of shape ``(n, c, (h + 2 * ph - kh) // sy + 1, (w + 2 * pw - kw) // sx + 1)``.

    Raises:
        ValueError: ``x`` does not have exactly two spatial axes.

    Example:
        >>> x = numpy.arange(16, dtype=numpy.float32).reshape(1, 1, 4, 4)
        >>> F.average_pooling_2d(x, 2).array
        array([[[[ 2.5,  4.5],
                 [10.5, 12.5]]]], dtype=float32)
    """
    _windows.check_spatial_ndim(x, 2)
    return AveragePooling2D(ksize, stride, pad).apply((x,))[0]
