"""Two-dimensional dilated convolution: :func:`convolution_2d` with a ``dilate`` argument."""

from __future__ import annotations

from chainer.functions.connection.convolution_nd import ConvolutionND
from chainer.variable import Variable


class DilatedConvolution2DFunction(ConvolutionND):
    """2-D convolution node with dilated (spaced-out) kernel taps."""

    def __init__(self, stride=1, pad=0, dilate=1, cover_all: bool = False) -> None:
        super().__init__(2, stride, pad, cover_all, dilate)


def dilated_convolution_2d(
    x, W, b=None, stride=1, pad=0, dilate=1, cover_all: bool = False
) -> Variable:
    """Two-dimensional dilated convolution.

    The kernel taps are ``dilate`` pixels apart, so a ``k x k`` kernel sees a
    ``(k - 1) * dilate + 1`` wide window with the cost of a ``k x k`` one. Equivalent to
    ``convolution_2d(x, W, b, stride, pad, cover_all, dilate=dilate)``.

    Args:
        x: Input of shape ``(n, c_in, h, w)`` (float).
        W: Weight of shape ``(c_out, c_in, kh, kw)``.
        b: Optional bias of shape ``(c_out,)``.
        stride: Stride ``sy, sx``: an int or a pair.
        pad: Zero padding ``ph, pw``: an int or a pair.
        dilate: Spacing ``dy, dx`` between kernel taps: an int or a pair.
        cover_all: Add output positions so that every pixel is covered.

    Returns:
        A variable of shape ``(n, c_out, out_h, out_w)`` with
        ``out_h = (h + 2 * ph - (kh - 1) * dy - 1) // sy + 1`` (likewise ``out_w``).

    Example:
        >>> x = np.ones((1, 2, 9, 9), np.float32)
        >>> F.dilated_convolution_2d(x, np.ones((3, 2, 3, 3), np.float32), dilate=2).shape
        (1, 3, 5, 5)
    """
    func = DilatedConvolution2DFunction(stride, pad, dilate, cover_all)
    return func.apply((x, W) if b is None else (x, W, b))[0]
