"""Unpooling of images: the inverse of 2-D pooling's windows."""

from __future__ import annotations

from chainer.functions.pooling import _windows
from chainer.functions.pooling.unpooling_nd import UnpoolingND
from chainer.variable import Variable


class Unpooling2D(UnpoolingND):
    """Unpooling of images ``(n, c, h, w)``."""

    def __init__(self, ksize, stride=None, pad=0, outsize=None, cover_all: bool = True) -> None:
        super().__init__(2, ksize, stride, pad, outsize, cover_all)


def unpooling_2d(x, ksize, stride=None, pad=0, outsize=None, cover_all: bool = True) -> Variable:
    """Inverse operation of pooling for 2d array.

    Each pixel is copied to every pixel of the window a pooling with the same arguments would
    have read it from (overlapping copies add up).

    Args:
        x: Images of shape ``(n, c, h, w)`` and floating-point dtype.
        ksize: Window size: an int or a pair ``(kh, kw)``.
        stride: Window step (int or pair); ``None`` uses ``ksize``.
        pad: Padding on each side (int or pair), cropped from the output.
        outsize: Output size ``(out_h, out_w)``; by default the smallest size that the pooling
            maps back to ``(h, w)``.
        cover_all: The ``cover_all`` of the pooling this inverts.

    Returns:
        A variable of shape ``(n, c, out_h, out_w)``.

    Raises:
        ValueError: ``x`` does not have exactly two spatial axes.
        chainer.utils.type_check.InvalidType: ``outsize`` does not pool back to ``(h, w)``.

    Example:
        >>> x = numpy.array([[[[1, 2], [3, 4]]]], dtype=numpy.float32)
        >>> F.unpooling_2d(x, 2, cover_all=False).array
        array([[[[1., 1., 2., 2.],
                 [1., 1., 2., 2.],
                 [3., 3., 4., 4.],
                 [3., 3., 4., 4.]]]], dtype=float32)
    """
    _windows.check_spatial_ndim(x, 2)
    return Unpooling2D(ksize, stride, pad, outsize, cover_all).apply((x,))[0]
