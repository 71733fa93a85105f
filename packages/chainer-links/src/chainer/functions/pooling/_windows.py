"""Sliding-window geometry and the window ops every pooling function is made of.

A pooling of images ``(n, c, *dims)`` with kernel ``ksize``, stride ``stride`` and padding
``pad`` reads, for output position ``o`` and kernel tap ``t``, the padded-input element at
``o * stride + t``. Each op below loops over the kernel taps (a handful) and moves one whole
strided slice per tap, as :mod:`chainer.utils.conv` does for im2col; nothing loops over pixels.
The same code runs on NumPy and CuPy arrays.

The ops come in adjoint pairs, each the other's gradient, so gradients of any order exist:
``WindowSum`` / ``WindowSpread`` (average pooling and unpooling) and ``WindowGather`` /
``WindowScatter`` (max pooling and upsampling, with the chosen tap of each window fixed).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.utils import conv, conv_nd, type_check

_ALL = slice(None)


def _positive_ints(name: str, values: tuple, allow_zero: bool = False) -> tuple:
    low = 0 if allow_zero else 1
    if not all(isinstance(v, (int, numpy.integer)) and v >= low for v in values):
        what = "non-negative" if allow_zero else "positive"
        raise ValueError(f"{name} must be {what} integers, got {values}")
    return tuple(int(v) for v in values)


class Window:
    """Where the windows of a pooling lie.

    Args:
        ksize, stride, pad: One int per spatial axis.
        dims: Spatial shape of the (unpadded) image.
        outs: Spatial shape of the pooled array (one entry per window position).
    """

    __slots__ = ("dims", "ksize", "outs", "pad", "stride")

    def __init__(self, ksize: tuple, stride: tuple, pad: tuple, dims: tuple, outs: tuple) -> None:
        self.ksize = ksize
        self.stride = stride
        self.pad = pad
        self.dims = tuple(dims)
        self.outs = tuple(outs)

    @classmethod
    def parse(cls, ndim: int, ksize, stride, pad) -> tuple[tuple, tuple, tuple]:
        """Validate pooling arguments and expand them to one int per axis (stride defaults
        to ``ksize``)."""
        ksize = _positive_ints("ksize", conv_nd.as_tuple(ksize, ndim))
        stride = ksize if stride is None else conv_nd.as_tuple(stride, ndim)
        stride = _positive_ints("stride", stride)
        pad = _positive_ints("pad", conv_nd.as_tuple(pad, ndim), allow_zero=True)
        return ksize, stride, pad

    @classmethod
    def over_image(
        cls, dims: Sequence[int], ksize: tuple, stride: tuple, pad: tuple, cover_all: bool
    ) -> Window:
        """The windows of a pooling of an image of spatial shape ``dims``."""
        outs = cls(ksize, stride, pad, dims, ()).pooled_dims(cover_all)
        if any(o <= 0 for o in outs):
            raise ValueError(
                f"the input of spatial shape {tuple(dims)} is too small for ksize {ksize} with "
                f"pad {pad}: the output would have shape {outs}"
            )
        return cls(ksize, stride, pad, dims, outs)

    @classmethod
    def into_image(
        cls,
        outs: Sequence[int],
        ksize: tuple,
        stride: tuple,
        pad: tuple,
        cover_all: bool,
        outsize: Sequence[int] | None,
    ) -> Window:
        """The windows of an unpooling of ``outs`` positions into an image of spatial shape
        ``outsize`` (by default the smallest image whose pooling has ``outs`` positions)."""
        if outsize is None:
            outsize = tuple(
                conv.get_deconv_outsize(o, k, s, p, cover_all)
                for o, k, s, p in zip(outs, ksize, stride, pad)
            )
        # An empty axis is a valid (if useless) image, as in Chainer.
        dims = _positive_ints("outsize", conv_nd.as_tuple(outsize, len(outs)), allow_zero=True)
        return cls(ksize, stride, pad, dims, outs)

    def pooled_dims(self, cover_all: bool) -> tuple:
        """Number of window positions of a pooling of the image (``outs`` when consistent)."""
        return tuple(
            conv.get_conv_outsize(d, k, s, p, cover_all)
            for d, k, s, p in zip(self.dims, self.ksize, self.stride, self.pad)
        )

    @property
    def size(self) -> int:
        """Number of taps of a window."""
        return int(numpy.prod(self.ksize))

    def padded_dims(self) -> tuple:
        # The last window may run past the padded image (cover_all, or a given outsize).
        return tuple(
            max(d + 2 * p, (k - 1) + (o - 1) * s + 1)
            for d, k, s, p, o in zip(self.dims, self.ksize, self.stride, self.pad, self.outs)
        )

    def taps(self):
        """The kernel taps in C order: the order of the flat indexes of max pooling."""
        return enumerate(itertools.product(*map(range, self.ksize)))

    def tap_slice(self, tap: tuple) -> tuple:
        """Index of the padded image that tap ``tap`` reads for all window positions."""
        return (_ALL, _ALL) + tuple(
            slice(t, t + s * (o - 1) + 1, s) for t, s, o in zip(tap, self.stride, self.outs)
        )

    def pad_image(self, x, value):
        """``x`` padded with ``value`` to :meth:`padded_dims` (``x`` itself when unpadded)."""
        widths = [(p, n - d - p) for d, p, n in zip(self.dims, self.pad, self.padded_dims())]
        if not any(a or b for a, b in widths):
            return x
        xp = backend.get_array_module(x)
        return xp.pad(x, [(0, 0), (0, 0), *widths], mode="constant", constant_values=value)

    def zero_image(self, like, n: int, c: int):
        xp = backend.get_array_module(like)
        return xp.zeros((n, c, *self.padded_dims()), dtype=like.dtype)

    def crop(self, padded):
        """The unpadded image inside ``padded``, as a contiguous array."""
        if padded.shape[2:] == self.dims:
            return padded
        index = (_ALL, _ALL) + tuple(slice(p, p + d) for p, d in zip(self.pad, self.dims))
        return backend.get_array_module(padded).ascontiguousarray(padded[index])


# -- array kernels ------------------------------------------------------------------------------


def window_sum(x, win: Window):
    """Sum of each window of ``x`` (zero padding): ``(n, c, *dims) -> (n, c, *outs)``."""
    padded = win.pad_image(x, 0)
    taps = win.taps()
    _, first = next(taps)
    y = padded[win.tap_slice(first)].copy()
    for _, tap in taps:
        y += padded[win.tap_slice(tap)]
    return y


def window_spread(y, win: Window):
    """Adjoint of :func:`window_sum`: add each value to every pixel of its window."""
    n, c = y.shape[:2]
    padded = win.zero_image(y, n, c)
    for _, tap in win.taps():
        padded[win.tap_slice(tap)] += y
    return win.crop(padded)


def window_max(x, win: Window):
    """Maximum of each window (padding never wins) and the flat tap index where it is."""
    xp = backend.get_array_module(x)
    padded = win.pad_image(x, -numpy.inf)
    slices = [win.tap_slice(tap) for _, tap in win.taps()]
    y = padded[slices[0]].copy()
    for index in slices[1:]:
        xp.maximum(y, padded[index], out=y)
    # Walk the taps backwards so that the first of equal maxima wins, as argmax does.
    indexes = xp.full(y.shape, len(slices) - 1, dtype=numpy.intp)
    for t in range(len(slices) - 2, -1, -1):
        indexes = xp.where(padded[slices[t]] == y, t, indexes)
    return y, indexes


def window_gather(x, indexes, win: Window):
    """The element of each window of ``x`` at flat tap ``indexes`` (zero where it is padding)."""
    padded = win.pad_image(x, 0)
    # Multiplying by the boolean masks is much faster than masked copies on strided views.
    taps = win.taps()
    t, tap = next(taps)
    y = padded[win.tap_slice(tap)] * (indexes == t)
    for t, tap in taps:
        y += padded[win.tap_slice(tap)] * (indexes == t)
    return y


def window_scatter(y, indexes, win: Window):
    """Adjoint of :func:`window_gather`: add each value to the pixel its index points at."""
    xp = backend.get_array_module(y)
    n, c = y.shape[:2]
    padded = win.zero_image(y, n, c)
    overlapping = any(s < k for s, k in zip(win.stride, win.ksize))
    for t, tap in win.taps():
        index = win.tap_slice(tap)
        if overlapping:
            padded[index] += y * (indexes == t)
        else:
            xp.multiply(y, indexes == t, out=padded[index])
    return win.crop(padded)


# -- differentiable adjoint pairs ---------------------------------------------------------------


class WindowSum(FunctionNode):
    """Window sums divided by ``divisor`` (a scalar or an array broadcast to the output)."""

    def __init__(self, win: Window, divisor) -> None:
        self.win = win
        self.divisor = divisor

    def forward(self, inputs: tuple) -> tuple:
        y = window_sum(inputs[0], self.win)
        y /= self.divisor
        return (y,)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        return WindowSpread(self.win, self.divisor).apply(grad_outputs)


class WindowSpread(FunctionNode):
    """Each value divided by ``divisor`` and added to every pixel of its window."""

    def __init__(self, win: Window, divisor) -> None:
        self.win = win
        self.divisor = divisor

    def forward(self, inputs: tuple) -> tuple:
        return (window_spread(inputs[0] / self.divisor, self.win),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        return WindowSum(self.win, self.divisor).apply(grad_outputs)


class WindowGather(FunctionNode):
    """The element of each window at fixed flat tap indexes."""

    def __init__(self, win: Window, indexes) -> None:
        self.win = win
        self.indexes = indexes

    def forward(self, inputs: tuple) -> tuple:
        return (window_gather(inputs[0], self.indexes, self.win),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        return WindowScatter(self.win, self.indexes).apply(grad_outputs)


class WindowScatter(FunctionNode):
    """Each value added to the pixel of its window at a fixed flat tap index."""

    def __init__(self, win: Window, indexes) -> None:
        self.win = win
        self.indexes = indexes

    def forward(self, inputs: tuple) -> tuple:
        return (window_scatter(inputs[0], self.indexes, self.win),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        return WindowGather(self.win, self.indexes).apply(grad_outputs)


def check_images(in_types, ndim: int) -> None:
    """Type check of a pooling input: floating point, ``(n, c, *spatial)`` with ``ndim``
    spatial axes."""
    type_check.argname(in_types, ("x",))
    (x_type,) = in_types
    type_check.expect(x_type.dtype.kind == "f", x_type.ndim == 2 + ndim)


def check_unpooling(in_types, ndim: int, ksize, stride, pad, cover_all, outsize) -> Window:
    """Type check of an unpooling input: pooling the output image must give back its shape.

    Returns:
        The windows of the unpooling.
    """
    check_images(in_types, ndim)
    x_type = in_types[0]
    outs = type_check.eval(x_type.shape)[2:]
    win = Window.into_image(outs, ksize, stride, pad, cover_all, outsize)
    pooled = win.pooled_dims(cover_all)
    type_check.expect(*(x_type.shape[2 + i] == pooled[i] for i in range(ndim)))
    return win


def check_spatial_ndim(x, ndim: int) -> None:
    """Raise ValueError unless ``x`` has ``ndim`` axes after the batch and channel ones."""
    actual = len(x.shape) - 2
    if actual != ndim:
        raise ValueError(
            f"The number of dimensions under channel dimension of the input 'x' should be "
            f"{ndim}. But the actual ndim was {actual} (x.shape={tuple(x.shape)})."
        )
