"""Two-dimensional deconvolution: the N-d transposed convolution with two spatial axes."""

from __future__ import annotations

from chainer.functions.connection.convolution_2d import parse_dilate_groups
from chainer.functions.connection.deconvolution_nd import DeconvolutionND
from chainer.variable import Variable


class Deconvolution2DFunction(DeconvolutionND):
    """2-D deconvolution node; ``dilate`` and ``groups`` are keyword-only options.

    Besides the N-d attributes it has Chainer's per-axis ones (``sy, sx``, ``ph, pw``,
    ``dy, dx``, and ``outh, outw``, ``None`` when not given), which graph exporters read.
    """

    def __init__(self, stride=1, pad=0, outsize=None, **kwargs) -> None:
        dilate, groups = parse_dilate_groups(kwargs)
        super().__init__(2, stride, pad, outsize, dilate, groups)
        self.sy, self.sx = self.stride
        self.ph, self.pw = self.pad
        self.dy, self.dx = self.dilate
        self.outh, self.outw = (None, None) if self.outsize is None else self.outsize


def deconvolution_2d(x, W, b=None, stride=1, pad=0, outsize=None, **kwargs) -> Variable:
    """Two-dimensional deconvolution (transposed convolution).

    It is the adjoint of :func:`convolution_2d`: input pixel ``(y, x)`` of channel ``c``
    scatters ``x[c, y, x] * W[c, j, i, k]`` onto output pixel
    ``(y * sy + i * dy - ph, x * sx + k * dx - pw)`` of channel ``j`` (of ``c``'s group).

    Args:
        x: Input of shape ``(n, c_in, h, w)`` (float).
        W: Weight of shape ``(c_in, c_out / groups, kh, kw)``.
        b: Optional bias of shape ``(c_out,)``, dtype of ``x``.
        stride: Stride ``sy, sx``: an int or a pair.
        pad: Padding ``ph, pw`` cropped from both sides of the output: an int or a pair.
        outsize: Output size ``(out_h, out_w)``. By default
            ``out_h = sy * (h - 1) + (kh - 1) * dy + 1 - 2 * ph`` (and likewise ``out_w``); a
            given size may exceed it by less than the stride.
        dilate (int or pair): Keyword-only spacing ``dy, dx`` between kernel taps (default 1).
        groups (int): Keyword-only number of channel groups handled independently.

    Returns:
        A variable of shape ``(n, c_out, out_h, out_w)``.

    Raises:
        ValueError: Bad stride, padding, dilation or groups, or the removed ``deterministic``.
        TypeError: An unknown keyword argument.
        InvalidType: Wrong dtype or rank, ``x.shape[1] != W.shape[0]``, or an ``outsize`` that
            the convolution does not map back to the size of ``x``.

    Example:
        >>> x = np.random.uniform(0, 1, (10, 3, 16, 16)).astype(np.float32)
        >>> W = np.random.uniform(0, 1, (3, 8, 4, 4)).astype(np.float32)
        >>> F.deconvolution_2d(x, W, stride=2, pad=1).shape
        (10, 8, 32, 32)
    """
    func = Deconvolution2DFunction(stride, pad, outsize, **kwargs)
    return func.apply((x, W) if b is None else (x, W, b))[0]
