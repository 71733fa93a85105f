"""N-dimensional convolution: ``convolution_nd`` and its 1-D and 3-D shorthands."""

from __future__ import annotations

from chainer.functions.connection._convolution_nodes import ConvolutionND, ConvolutionNDGradW
from chainer.variable import Variable

__all__ = [
    "ConvolutionND",
    "ConvolutionNDGradW",
    "convolution_1d",
    "convolution_3d",
    "convolution_nd",
]


def convolution_nd(
    x, W, b=None, stride=1, pad=0, cover_all: bool = False, dilate=1, groups: int = 1
) -> Variable:
    """N-dimensional convolution (cross-correlation, as in every deep learning framework).

    With ``d`` spatial axes, output position ``o`` of channel ``j`` is
    ``sum_{c, k} W[j, c, k] * x[c, o * stride + k * dilate - pad] + b[j]`` (zero outside the
    input), the sum running over the ``c_in / groups`` input channels of ``j``'s group.

    Args:
        x: Input of shape ``(n, c_in, d_1, ..., d_N)`` (float).
        W: Weight of shape ``(c_out, c_in / groups, k_1, ..., k_N)``.
        b: Optional bias of shape ``(c_out,)``, dtype of ``x``.
        stride: Stride: an int for every axis or a tuple of ``N`` ints.
        pad: Zero padding on both sides of each axis: an int or ``N`` ints.
        cover_all: Add output positions so that every input element is covered even when the
            stride does not divide the padded input (the last windows read zeros past it).
        dilate: Spacing between kernel taps: an int or ``N`` ints.
        groups: Split the channels into this many groups convolved independently.

    Returns:
        A variable of shape ``(n, c_out, o_1, ..., o_N)`` with
        ``o_i = (d_i + 2 * pad_i - (k_i - 1) * dilate_i - 1) // stride_i + 1``.

    Raises:
        ValueError: A stride or dilation below 1, a negative padding or bad ``groups``.
        InvalidType: Inputs of wrong dtype or rank, channel counts that do not match, or a
            kernel that does not fit in the padded input.

    Example:
        >>> x = np.ones((2, 3, 5, 5, 5), np.float32)
        >>> W = np.ones((4, 3, 2, 2, 2), np.float32)
        >>> F.convolution_nd(x, W, pad=1).shape
        (2, 4, 6, 6, 6)
    """
    ndim = len(x.shape[2:])
    func = ConvolutionND(ndim, stride, pad, cover_all, dilate, groups)
    return func.apply((x, W) if b is None else (x, W, b))[0]


def expect_spatial_axes(x, ndim: int) -> None:
    if len(x.shape[2:]) != ndim:
        raise ValueError(
            f"the input x must have {ndim} spatial axis(es) after the batch and channel axes, "
            f"got shape {tuple(x.shape)}"
        )


def convolution_1d(
    x, W, b=None, stride=1, pad=0, cover_all: bool = False, dilate=1, groups: int = 1
) -> Variable:
    """1-dimensional convolution: :func:`convolution_nd` for inputs ``(n, c_in, w)``.

    Example:
        >>> F.convolution_1d(np.ones((2, 3, 7), np.float32), np.ones((4, 3, 3), np.float32)).shape
        (2, 4, 5)
    """
    expect_spatial_axes(x, 1)
    return convolution_nd(x, W, b, stride, pad, cover_all, dilate, groups)


def convolution_3d(
    x, W, b=None, stride=1, pad=0, cover_all: bool = False, dilate=1, groups: int = 1
) -> Variable:
    """3-dimensional convolution: :func:`convolution_nd` for inputs ``(n, c_in, d, h, w)``.

    Example:
        >>> x = np.ones((1, 2, 4, 4, 4), np.float32)
        >>> F.convolution_3d(x, np.ones((3, 2, 3, 3, 3), np.float32), pad=1).shape
        (1, 3, 4, 4, 4)
    """
    expect_spatial_axes(x, 3)
    return convolution_nd(x, W, b, stride, pad, cover_all, dilate, groups)
