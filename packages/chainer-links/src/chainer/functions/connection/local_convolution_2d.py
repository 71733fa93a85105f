"""Two-dimensional local convolution: a convolution whose weights differ at every position."""

from __future__ import annotations

from chainer._ops.array_ops import cast, reshape, transpose
from chainer._ops.matmul import matmul
from chainer.functions.array.im2col import im2col
from chainer.functions.connection._checks import checking, expect_float, expect_ndim, fail
from chainer.functions.connection._conv_args import ConvArgs
from chainer.functions.rnn._recompute import Recompute
from chainer.variable import Variable


def _check(x, W, b, args: ConvArgs) -> None:
    expect_float(x, "x")
    expect_float(W, "W")
    expect_ndim(x, 4, "x")
    expect_ndim(W, 6, "W")
    if x.shape[1] != W.shape[3]:
        fail("x.shape[1] == W.shape[3]", f"{x.shape[1]} != {W.shape[3]}")
    outs = args.conv_outs(x.shape[2:], W.shape[4:], False)
    args.expect_positive_outs(outs, x.shape[2:], W.shape[4:])
    if outs != W.shape[1:3]:
        fail(
            "W.shape[1:3] == output size (h - kh) // sy + 1, (w - kw) // sx + 1",
            f"W.shape[1:3] == {W.shape[1:3]}, output size {outs}",
        )
    if b is not None:
        if b.dtype != x.dtype:
            fail("b.dtype == x.dtype", f"{b.dtype} != {x.dtype}")
        if b.shape != W.shape[:3]:
            fail("b.shape == W.shape[:3]", f"{b.shape} != {W.shape[:3]}")


def local_convolution_2d(x, W, b=None, stride=1) -> Variable:
    """Two-dimensional local convolution (a convolution with unshared weights).

    Output pixel ``(p, q)`` of channel ``o`` is
    ``sum_{c, i, j} W[o, p, q, c, i, j] * x[c, p * sy + i, q * sx + j] + b[o, p, q]``: like
    :func:`convolution_2d` without padding, but every output position has its own kernel.

    Args:
        x: Input of shape ``(n, c_in, h, w)`` (float); the output has its dtype.
        W: Weight of shape ``(c_out, out_h, out_w, c_in, kh, kw)`` (any float dtype), where
            ``out_h = (h - kh) // sy + 1`` and ``out_w = (w - kw) // sx + 1``.
        b: Optional bias of shape ``(c_out, out_h, out_w)``.
        stride: Stride ``sy, sx``: an int or a pair.

    Returns:
        A variable of shape ``(n, c_out, out_h, out_w)``.

    Raises:
        InvalidType: Wrong dtypes or ranks, mismatching channels, or a ``W`` whose output
            size does not match the input.

    Example:
        >>> x = np.ones((2, 3, 7, 7), np.float32)
        >>> W = np.ones((4, 5, 5, 3, 3, 3), np.float32)
        >>> F.local_convolution_2d(x, W).shape
        (2, 4, 5, 5)
    """
    args = ConvArgs(2, stride, 0, 1, 1)
    with checking("LocalConvolution2DFunction") as enabled:
        if enabled:
            _check(x, W, b, args)
    n = x.shape[0]
    c_out, out_h, out_w, c_in, kh, kw = W.shape
    positions, taps = out_h * out_w, c_in * kh * kw
    col = im2col(x, (kh, kw), args.stride)  # (n, c_in * kh * kw, out_h, out_w)
    col = transpose(reshape(col, (n, taps, positions)), (2, 0, 1))
    w = transpose(reshape(W, (c_out, positions, taps)), (1, 2, 0))
    y = matmul(col, w)  # one (n, taps) x (taps, c_out) product per position
    y = reshape(transpose(y, (1, 2, 0)), (n, c_out, out_h, out_w))
    if y.dtype != x.dtype:  # a W of another float dtype: the output keeps x's, as in Chainer
        y = cast(y, x.dtype)
    return y if b is None else y + b


class LocalConvolution2DFunction(Recompute):
    """:func:`local_convolution_2d` as one graph node, applied to ``(x, W)`` or ``(x, W, b)``.

    Chainer's public node class; its gradients (of any order) come from evaluating the
    function again with differentiable operations.
    """

    def __init__(self, stride=1) -> None:
        self.stride = stride
        super().__init__(lambda *inputs: (local_convolution_2d(*inputs, stride=stride),))
