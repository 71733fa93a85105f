"""N-dimensional deconvolution (transposed convolution) and its 1-D and 3-D shorthands."""

from __future__ import annotations

from chainer.functions.connection._convolution_nodes import DeconvolutionND
from chainer.functions.connection.convolution_nd import expect_spatial_axes
from chainer.variable import Variable

__all__ = ["DeconvolutionND", "deconvolution_1d", "deconvolution_3d", "deconvolution_nd"]


def deconvolution_nd(
    x, W, b=None, stride=1, pad=0, outsize=None, dilate=1, groups: int = 1
) -> Variable:
    """N-dimensional deconvolution (transposed convolution).

    It is the adjoint of :func:`convolution_nd` with the same ``stride``, ``pad``, ``dilate``
    and ``groups``: every input element scatters ``x[c, i] * W[c, j, k]`` onto output position
    ``i * stride + k * dilate - pad`` of channel ``j`` (of ``c``'s group).

    Args:
        x: Input of shape ``(n, c_in, d_1, ..., d_N)`` (float).
        W: Weight of shape ``(c_in, c_out / groups, k_1, ..., k_N)``.
        b: Optional bias of shape ``(c_out,)``, dtype of ``x``.
        stride: Stride: an int for every axis or a tuple of ``N`` ints.
        pad: Padding removed from both sides of each output axis: an int or ``N`` ints.
        outsize: Output spatial size ``(o_1, ..., o_N)``. By default
            ``o_i = stride_i * (d_i - 1) + (k_i - 1) * dilate_i + 1 - 2 * pad_i``; a given size
            may be larger by less than a stride (a convolution with ``cover_all=True`` maps it
            back to ``d_i``).
        dilate: Spacing between kernel taps: an int or ``N`` ints.
        groups: Split the channels into this many groups handled independently.

    Returns:
        A variable of shape ``(n, c_out, o_1, ..., o_N)``.

    Raises:
        ValueError: A stride or dilation below 1, a negative padding or bad ``groups``.
        InvalidType: Inputs of wrong dtype or rank, ``x.shape[1] != W.shape[0]``, or an
            ``outsize`` that the convolution does not map back to the size of ``x``.

    Example:
        >>> x = np.ones((2, 3, 4, 4, 4), np.float32)
        >>> W = np.ones((3, 5, 2, 2, 2), np.float32)
        >>> F.deconvolution_nd(x, W, stride=2).shape
        (2, 5, 8, 8, 8)
    """
    ndim = len(x.shape[2:])
    func = DeconvolutionND(ndim, stride, pad, outsize, dilate, groups)
    return func.apply((x, W) if b is None else (x, W, b))[0]


def deconvolution_1d(
    x, W, b=None, stride=1, pad=0, outsize=None, dilate=1, groups: int = 1
) -> Variable:
    """1-dimensional deconvolution: :func:`deconvolution_nd` for inputs ``(n, c_in, w)``.

    Example:
        >>> x, W = np.ones((2, 3, 4), np.float32), np.ones((3, 5, 3), np.float32)
        >>> F.deconvolution_1d(x, W, stride=2).shape
        (2, 5, 9)
    """
    expect_spatial_axes(x, 1)
    return deconvolution_nd(x, W, b, stride, pad, outsize, dilate, groups)


def deconvolution_3d(
    x, W, b=None, stride=1, pad=0, outsize=None, dilate=1, groups: int = 1
) -> Variable:
    """3-dimensional deconvolution: :func:`deconvolution_nd` for inputs ``(n, c_in, d, h, w)``.

    Example:
        >>> x, W = np.ones((1, 2, 3, 3, 3), np.float32), np.ones((2, 4, 2, 2, 2), np.float32)
        >>> F.deconvolution_3d(x, W).shape
        (1, 4, 4, 4, 4)
    """
    expect_spatial_axes(x, 3)
    return deconvolution_nd(x, W, b, stride, pad, outsize, dilate, groups)
