"""Deformable convolution: a convolution whose taps sample the input at learned offsets."""

from __future__ import annotations

from chainer import backend
from chainer._ops.array_ops import reshape, transpose
from chainer.functions.array.pad import pad as _pad
from chainer.functions.array.spatial_transformer_sampler import spatial_transformer_sampler
from chainer.functions.connection._checks import (
    checking,
    expect_bias,
    expect_float,
    expect_ndim,
    fail,
)
from chainer.functions.connection._conv_args import ConvArgs
from chainer.functions.connection.linear import linear
from chainer.variable import Variable


def _check(x, offset, W, b) -> None:
    for name, array in (("x", x), ("offset", offset), ("W", W)):
        expect_float(array, name)
        expect_ndim(array, 4, name)
    if offset.dtype != x.dtype:
        fail("offset.dtype == x.dtype", f"{offset.dtype} != {x.dtype}")
    if offset.shape[0] != x.shape[0]:
        fail("offset.shape[0] == x.shape[0]", f"{offset.shape[0]} != {x.shape[0]}")
    if x.shape[1] != W.shape[1]:
        fail("x.shape[1] == W.shape[1]", f"{x.shape[1]} != {W.shape[1]}")
    taps = W.shape[2] * W.shape[3]
    if offset.shape[1] != 2 * taps:
        fail("offset.shape[1] == 2 * W.shape[2] * W.shape[3]", f"{offset.shape[1]} != {2 * taps}")
    if b is not None:
        expect_bias(b, x, W.shape[0], "W.shape[0]")


def _sampling_grid(offset, kh: int, kw: int, args: ConvArgs, padded_hw: tuple):
    """``(n, 2, kh * kw, out_h * out_w)`` locations in ``[-1, 1]``: x first, then y."""
    xp = backend.get_array_module(offset.array)
    n, _, out_h, out_w = offset.shape
    dtype = offset.dtype
    sy, sx = args.stride
    # Undeformed positions in padded pixels: output position times stride plus kernel tap.
    tap_y, tap_x = (a.reshape(kh * kw, 1, 1) for a in xp.indices((kh, kw), dtype=dtype))
    grid_y, grid_x = xp.indices((out_h, out_w), dtype=dtype)
    base = xp.stack((grid_x * sx + tap_x, grid_y * sy + tap_y))  # (2, taps, out_h, out_w)
    # Map pixel 0 to -1 and the last padded pixel to 1 (as spatial_transformer_sampler does).
    scale = xp.asarray([2 / max(size - 1, 1) for size in padded_hw[::-1]], dtype=dtype)
    scale = scale.reshape(2, 1, 1, 1)
    located = (reshape(offset, (n, 2, kh * kw, out_h, out_w)) + base) * scale - 1
    return reshape(located, (n, 2, kh * kw, out_h * out_w))


def deformable_convolution_2d_sampler(x, offset, W, b=None, stride=1, pad=0) -> Variable:
    """Two-dimensional deformable convolution function using computed offset.

    Kernel tap ``(i, j)`` of output position ``(p, q)`` reads the zero-padded input at
    ``(p * sy + i + offset[:, kh * kw + i * kw + j, p, q],
    q * sx + j + offset[:, i * kw + j, p, q])`` by bilinear interpolation (x offsets come
    first, then y offsets); the samples are then weighted by ``W`` as in a convolution.
    With a zero offset it equals :func:`convolution_2d`.

    Args:
        x: Input of shape ``(n, c_in, h, w)`` (float).
        offset: Offsets of shape ``(n, 2 * kh * kw, out_h, out_w)``, dtype of ``x``.
        W: Weight of shape ``(c_out, c_in, kh, kw)``.
        b: Optional bias of shape ``(c_out,)``.
        stride: Stride ``sy, sx``: an int or a pair.
        pad: Zero padding ``ph, pw``: an int or a pair.

    Returns:
        A variable of shape ``(n, c_out, out_h, out_w)``.

    Raises:
        ValueError: Bad stride or padding.
        InvalidType: Dtypes or shapes that do not fit together.

    Example:
        >>> x = np.ones((1, 2, 5, 5), np.float32)
        >>> W = np.ones((3, 2, 3, 3), np.float32)
        >>> offset = np.zeros((1, 18, 3, 3), np.float32)
        >>> float(F.deformable_convolution_2d_sampler(x, offset, W).array[0, 0, 0, 0])
        18.0
    """
    args = ConvArgs(2, stride, pad, 1, 1)
    with checking("DeformableConvolution2DSampler") as enabled:
        if enabled:
            _check(x, offset, W, b)
    offset = offset if isinstance(offset, Variable) else Variable(offset, requires_grad=False)
    c_out, c_in, kh, kw = W.shape
    n, _, h, w = x.shape
    out_h, out_w = offset.shape[2:]
    ph, pw = args.pad
    if ph or pw:
        x = _pad(x, ((0, 0), (0, 0), (ph, ph), (pw, pw)), "constant")
    grid = _sampling_grid(offset, kh, kw, args, (h + 2 * ph, w + 2 * pw))
    samples = spatial_transformer_sampler(x, grid)  # (n, c_in, kh * kw, out_h * out_w)
    rows = reshape(transpose(samples, (0, 3, 1, 2)), (n * out_h * out_w, c_in * kh * kw))
    y = linear(rows, reshape(W, (c_out, c_in * kh * kw)), b)
    return transpose(reshape(y, (n, out_h, out_w, c_out)), (0, 3, 1, 2))
