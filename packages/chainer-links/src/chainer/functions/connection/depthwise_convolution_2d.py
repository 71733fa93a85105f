"""Two-dimensional depthwise convolution: every input channel convolved on its own."""

from __future__ import annotations

from chainer._ops.array_ops import reshape, transpose
from chainer.functions.connection._checks import (
    checking,
    expect_bias,
    expect_float,
    expect_ndim,
    fail,
)
from chainer.functions.connection.convolution_2d import convolution_2d
from chainer.variable import Variable


def _check(x, W, b) -> None:
    expect_float(x, "x")
    expect_float(W, "W")
    expect_ndim(x, 4, "x")
    expect_ndim(W, 4, "W")
    if x.shape[1] != W.shape[1]:
        fail("x.shape[1] == W.shape[1]", f"{x.shape[1]} != {W.shape[1]}")
    if b is not None:
        expect_bias(b, x, W.shape[0] * W.shape[1], "W.shape[0] * W.shape[1]")


def depthwise_convolution_2d(x, W, b=None, stride=1, pad=0) -> Variable:
    """Two-dimensional depthwise convolution.

    Each input channel ``c`` is convolved with its own ``multiplier`` kernels ``W[:, c]``;
    output channel ``c * multiplier + m`` is input channel ``c`` convolved with ``W[m, c]``
    (plus ``b[c * multiplier + m]``). It is a grouped convolution with one group per channel.

    Args:
        x: Input of shape ``(n, c_in, h, w)`` (float).
        W: Weight of shape ``(multiplier, c_in, kh, kw)``.
        b: Optional bias of shape ``(multiplier * c_in,)``.
        stride: Stride ``sy, sx``: an int or a pair.
        pad: Zero padding ``ph, pw``: an int or a pair.

    Returns:
        A variable of shape ``(n, multiplier * c_in, out_h, out_w)``.

    Raises:
        InvalidType: Wrong dtypes or ranks, or ``x.shape[1] != W.shape[1]``.

    Example:
        >>> x = np.ones((2, 3, 6, 6), np.float32)
        >>> F.depthwise_convolution_2d(x, np.ones((2, 3, 3, 3), np.float32)).shape
        (2, 6, 4, 4)
    """
    with checking("DepthwiseConvolution2D") as enabled:
        if enabled:
            _check(x, W, b)
    multiplier, channels, kh, kw = W.shape
    grouped = reshape(transpose(W, (1, 0, 2, 3)), (channels * multiplier, 1, kh, kw))
    return convolution_2d(x, grouped, b, stride, pad, groups=channels)
