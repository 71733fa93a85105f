"""Per-axis arguments and output sizes shared by the convolution functions."""

from __future__ import annotations

import numbers
from collections.abc import Sequence

from chainer.functions.connection._checks import fail
from chainer.utils.conv import get_conv_outsize, get_deconv_outsize


def int_tuple(value, ndim: int, name: str) -> tuple[int, ...]:
    """``value`` as one int per spatial axis (a single int applies to every axis)."""
    if isinstance(value, numbers.Integral):
        return (int(value),) * ndim
    try:
        values = tuple(int(v) for v in value)
    except TypeError:
        raise TypeError(
            f"{name} must be an int or a sequence of {ndim} ints, got {value!r}"
        ) from None
    if len(values) != ndim:
        raise ValueError(
            f"{name} must be an int or {ndim} ints (one per spatial axis), got {value!r}"
        )
    return values


def _bounded_tuple(value, ndim: int, name: str, low: int) -> tuple[int, ...]:
    """:func:`int_tuple` with every entry at least ``low`` (0 or 1)."""
    # The backward of every convolution builds nodes from its checked tuples: take them as
    # they are.
    if type(value) is tuple and len(value) == ndim:
        if all(type(v) is int and v >= low for v in value):
            return value
    values = int_tuple(value, ndim, name)
    if min(values) < low:
        what = "positive" if low == 1 else "non-negative"
        raise ValueError(f"{name} must be {what}, got {value!r}")
    return values


class ConvArgs:
    """Validated ``stride``, ``pad``, ``dilate`` (tuples) and ``groups`` of an N-d convolution.

    Raises:
        ValueError: A stride or dilation below 1, a negative padding, or groups below 1.
    """

    def __init__(self, ndim: int, stride, pad, dilate, groups) -> None:
        if ndim < 1:
            raise ValueError(
                "a convolution needs at least one spatial axis after the batch and channel "
                f"axes, got {ndim}"
            )
        self.ndim = ndim
        self.stride = _bounded_tuple(stride, ndim, "stride", 1)
        self.pad = _bounded_tuple(pad, ndim, "pad", 0)
        self.dilate = _bounded_tuple(dilate, ndim, "dilate", 1)
        if not isinstance(groups, numbers.Integral) or groups < 1:
            raise ValueError(f"groups must be a positive int, got {groups!r}")
        self.groups = int(groups)

    def conv_outs(self, dims: Sequence[int], ksize: Sequence[int], cover_all: bool) -> tuple:
        """Output sizes of the convolution of an input of spatial shape ``dims``."""
        return tuple(
            get_conv_outsize(d, k, s, p, cover_all, dl)
            for d, k, s, p, dl in zip(dims, ksize, self.stride, self.pad, self.dilate)
        )

    def deconv_outs(self, dims: Sequence[int], ksize: Sequence[int]) -> tuple:
        """Default output sizes of the transposed convolution of an input of shape ``dims``."""
        return tuple(
            get_deconv_outsize(d, k, s, p, False, dl)
            for d, k, s, p, dl in zip(dims, ksize, self.stride, self.pad, self.dilate)
        )

    def covers_all(self, dims: Sequence[int], ksize: Sequence[int], outs: Sequence[int]) -> bool:
        """Whether ``outs`` needs ``cover_all=True`` to be the convolution output of ``dims``."""
        return tuple(outs) != self.conv_outs(dims, ksize, False)

    def expect_positive_outs(self, outs: tuple, dims: tuple, ksize: tuple) -> None:
        """Raise ``InvalidType`` when the (dilated) kernel does not fit the padded input."""
        if min(outs, default=1) <= 0:
            fail(
                "(ksize - 1) * dilate + 1 <= x.shape[2:] + 2 * pad (positive output size)",
                f"x.shape[2:]={dims}, ksize={ksize}, pad={self.pad}, dilate={self.dilate}, "
                f"stride={self.stride} give output size {outs}",
            )
