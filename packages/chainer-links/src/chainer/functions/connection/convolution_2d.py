"""Two-dimensional convolution: the N-d convolution with two spatial axes."""

from __future__ import annotations

from chainer.functions.connection.convolution_nd import ConvolutionND, ConvolutionNDGradW
from chainer.utils import argument
from chainer.variable import Variable

_DETERMINISTIC_REMOVED = (
    "deterministic argument is not supported anymore. Use "
    "chainer.using_config('cudnn_deterministic', value) context where value is either "
    "`True` or `False`."
)

#: The weight-gradient node of 2-D convolutions (the N-d one).
Convolution2DGradW = ConvolutionNDGradW


def parse_dilate_groups(kwargs: dict) -> tuple:
    """Read the keyword-only ``dilate`` and ``groups`` options of the 2-D (de)convolutions."""
    return argument.parse_kwargs(
        kwargs, ("dilate", 1), ("groups", 1), deterministic=_DETERMINISTIC_REMOVED
    )


class Convolution2DFunction(ConvolutionND):
    """2-D convolution node; ``dilate`` and ``groups`` are keyword-only options.

    Besides the N-d attributes it has Chainer's per-axis ones (``sy, sx``, ``ph, pw``,
    ``dy, dx``), which graph exporters read.
    """

    def __init__(self, stride=1, pad=0, cover_all: bool = False, **kwargs) -> None:
        dilate, groups = parse_dilate_groups(kwargs)
        super().__init__(2, stride, pad, cover_all, dilate, groups)
        self.sy, self.sx = self.stride
        self.ph, self.pw = self.pad
        self.dy, self.dx = self.dilate


def convolution_2d(x, W, b=None, stride=1, pad=0, cover_all: bool = False, **kwargs) -> Variable:
    """Two-dimensional convolution.

    Output pixel ``(y, x)`` of channel ``j`` is
    ``sum_{c, i, k} W[j, c, i, k] * x[c, y * sy + i * dy - ph, x * sx + k * dx - pw] + b[j]``
    (zero outside the input), the sum running over the input channels of ``j``'s group.

    Args:
        x: Input of shape ``(n, c_in, h, w)`` (float).
        W: Weight of shape ``(c_out, c_in / groups, kh, kw)``.
        b: Optional bias of shape ``(c_out,)``, dtype of ``x``.
        stride: Stride ``sy, sx``: an int or a pair.
        pad: Zero padding ``ph, pw`` on both sides: an int or a pair.
        cover_all: Add output positions so that every pixel is covered even when the stride
            does not divide the padded size.
        dilate (int or pair): Keyword-only spacing ``dy, dx`` between kernel taps (default 1).
        groups (int): Keyword-only number of channel groups convolved independently.

    Returns:
        A variable of shape ``(n, c_out, out_h, out_w)``, where
        ``out_h = (h + 2 * ph - (kh - 1) * dy - 1) // sy + 1`` (and likewise ``out_w``).

    Raises:
        ValueError: Bad stride, padding, dilation or groups, or the removed ``deterministic``.
        TypeError: An unknown keyword argument.
        InvalidType: Wrong dtype or rank, mismatching channels, or a kernel larger than the
            padded input.

    Example:
        >>> x = np.random.uniform(0, 1, (10, 3, 32, 32)).astype(np.float32)
        >>> W = np.random.uniform(0, 1, (8, 3, 5, 5)).astype(np.float32)
        >>> F.convolution_2d(x, W, stride=2, pad=2).shape
        (10, 8, 16, 16)
    """
    func = Convolution2DFunction(stride, pad, cover_all, **kwargs)
    return func.apply((x, W) if b is None else (x, W, b))[0]
