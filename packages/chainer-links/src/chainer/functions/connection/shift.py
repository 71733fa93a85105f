"""Shift: move groups of channels by fixed offsets, a parameter-free spatial convolution."""

from __future__ import annotations

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions.connection._checks import expect_count, expect_float, expect_ndim, fail
from chainer.functions.connection._conv_args import int_tuple
from chainer.variable import Variable


def _group_offsets(kh: int, kw: int) -> list[tuple[int, int]]:
    """``(dy, dx)`` offset of each channel group, in units of the dilation.

    Group ``i`` takes tap ``i`` of the ``kh x kw`` window in row-major order, except that the
    centre tap (no shift) and the last tap trade places: the last group, which also receives
    the channels left over by the division, is the one that stays in place.
    """
    taps = list(range(kh * kw))
    centre = (kh * kw - 1) // 2
    taps[centre], taps[-1] = taps[-1], taps[centre]
    return [(t // kw - kh // 2, t % kw - kw // 2) for t in taps]


def _source_and_target(offset: int, size: int) -> tuple[slice, slice]:
    """Slices with ``y[target] = x[source]`` for a shift of ``offset`` along one axis."""
    if offset >= 0:
        return slice(0, max(size - offset, 0)), slice(min(offset, size), size)
    return slice(min(-offset, size), size), slice(0, max(size + offset, 0))


class Shift(FunctionNode):
    """Channel group ``i`` moved by ``offset_i * dilate`` pixels, zero-filled at the border.

    It is linear and its adjoint moves every group back: the gradient is a :class:`Shift` with
    the opposite dilation, which makes every order of differentiation available.
    """

    def __init__(self, ksize=3, dilate=1) -> None:
        self.kh, self.kw = int_tuple(ksize, 2, "ksize")
        self.dy, self.dx = int_tuple(dilate, 2, "dilate")
        if self.kh % 2 != 1 or self.kw % 2 != 1 or self.kh < 1 or self.kw < 1:
            raise ValueError(f"ksize must be odd and positive, got {(self.kh, self.kw)}")
        if self.dy == 0 or self.dx == 0:
            raise ValueError(f"dilate must not be zero, got {(self.dy, self.dx)}")

    def _check_arrays(self, in_data: tuple) -> None:
        expect_count(in_data, 1, 1)
        x = in_data[0]
        expect_float(x, "x")
        expect_ndim(x, 4, "x")
        if x.shape[1] < self.kh * self.kw:
            fail(
                "x.shape[1] >= ksize[0] * ksize[1] (one channel per shift at least)",
                f"{x.shape[1]} < {self.kh} * {self.kw}",
            )

    def forward(self, inputs: tuple) -> tuple:
        x = inputs[0]
        c, h, w = x.shape[1:]
        y = backend.get_array_module(x).zeros_like(x)
        offsets = _group_offsets(self.kh, self.kw)
        size = c // len(offsets)
        for i, (oy, ox) in enumerate(offsets):
            channels = slice(i * size, (i + 1) * size if i < len(offsets) - 1 else c)
            src_y, dst_y = _source_and_target(oy * self.dy, h)
            src_x, dst_x = _source_and_target(ox * self.dx, w)
            y[:, channels, dst_y, dst_x] = x[:, channels, src_y, src_x]
        return (y,)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        return Shift((self.kh, self.kw), (-self.dy, -self.dx)).apply(grad_outputs)


def shift(x, ksize=3, dilate=1) -> Variable:
    """Shift function (a zero-FLOP, zero-parameter alternative to spatial convolutions).

    The channels are split into ``kh * kw`` groups of ``c // (kh * kw)`` channels (the last
    group also takes the remainder). Each group is moved by one offset
    ``(i - kh // 2, j - kw // 2) * dilate`` of the ``kh x kw`` window, so that
    ``y[:, group, r, s] = x[:, group, r - dy * oi, s - dx * oj]`` (zero where that falls
    outside). The groups take the window's offsets in row-major order, except that the last
    group is the unshifted one (it trades places with the centre offset).

    Args:
        x: Input of shape ``(n, c, h, w)`` with ``c >= kh * kw`` (float).
        ksize: Window size ``kh, kw`` (odd): an int or a pair.
        dilate: Scale ``dy, dx`` of the offsets (non-zero; negative reverses them).

    Returns:
        A variable of the shape and dtype of ``x``.

    Raises:
        ValueError: An even or non-positive ``ksize``, or a zero ``dilate``.
        InvalidType: ``x`` is not a 4-D float array with at least ``kh * kw`` channels.

    Example:
        >>> x = np.arange(9 * 9, dtype=np.float32).reshape(1, 9, 3, 3)
        >>> F.shift(x).array[0, 0]  # group 0, offset (-1, -1): y[r, s] = x[r + 1, s + 1]
        array([[4., 5., 0.],
               [7., 8., 0.],
               [0., 0., 0.]], dtype=float32)
    """
    return Shift(ksize, dilate).apply((x,))[0]
