"""``Convolution2D``: the two-dimensional convolutional layer."""

from __future__ import annotations

import typing as tp
from collections.abc import Iterator

from chainer import link, variable
from chainer.functions.connection.convolution_2d import convolution_2d
from chainer.links._weights import pair
from chainer.links.connection._conv_common import (
    check_bias_matches,
    initialize_grouped_W,
    setup_grouped_conv,
)
from chainer.utils import argument

_DETERMINISTIC_REMOVED = (
    "deterministic argument is not supported anymore. Use "
    "chainer.using_config('cudnn_deterministic', value) context where value is either `True` "
    "or `False`."
)


class Convolution2D(link.Link):
    """Two-dimensional convolutional layer: wraps :func:`~chainer.functions.convolution_2d`.

    Args:
        in_channels: Number of input channels; ``None`` reads it from the first input. It may
            be left out altogether: ``Convolution2D(out_channels, ksize)``.
        out_channels: Number of output channels.
        ksize: Size of the filters, ``k`` or ``(kh, kw)``.
        stride: Stride of filter application, ``s`` or ``(sy, sx)``.
        pad: Spatial padding width for input arrays, ``p`` or ``(ph, pw)``.
        nobias: Do not use a bias.
        initialW: Initializer of ``W``; ``None`` means
            :class:`~chainer.initializers.LeCunNormal`.
        initial_bias: Initializer of ``b``; ``None`` means zeros.
        dilate (int or pair of ints): Dilation factor of the filters (keyword only).
        groups (int): Number of channel groups; both channel counts must be divisible by it
            (keyword only).

    Attributes:
        W (~chainer.Parameter): Filters, ``(out_channels, in_channels // groups, kh, kw)``.
        b (~chainer.Parameter): Bias, ``(out_channels,)``, or ``None`` with ``nobias``.

    Example:
        >>> conv = L.Convolution2D(None, 4, 3, pad=1)
        >>> conv(numpy.zeros((2, 3, 8, 8), numpy.float32)).shape
        (2, 4, 8, 8)
    """

    def __init__(
        self,
        in_channels: int | None,
        out_channels: int,
        ksize: tp.Any = None,
        stride: tp.Any = 1,
        pad: tp.Any = 0,
        nobias: bool = False,
        initialW: tp.Any = None,
        initial_bias: tp.Any = None,
        **kwargs: tp.Any,
    ) -> None:
        super().__init__()
        dilate, groups = argument.parse_kwargs(
            kwargs, ("dilate", 1), ("groups", 1), deterministic=_DETERMINISTIC_REMOVED
        )
        self.stride = pair(stride)
        self.pad = pair(pad)
        self.dilate = pair(dilate)
        setup_grouped_conv(
            self, in_channels, out_channels, ksize, groups, initialW, nobias, initial_bias
        )

    def _initialize_params(self, in_channels: int) -> None:
        initialize_grouped_W(self, in_channels, pair(self.ksize), transposed=False)

    @property
    def printable_specs(self) -> Iterator[tuple[str, tp.Any]]:
        yield "in_channels", self.in_channels
        yield "out_channels", self.out_channels
        yield "ksize", self.ksize
        yield "stride", self.stride
        yield "pad", self.pad
        yield "nobias", self.b is None
        yield "dilate", self.dilate
        yield "groups", self.groups

    @classmethod
    def from_params(
        cls,
        W: tp.Any,
        b: tp.Any = None,
        stride: tp.Any = 1,
        pad: tp.Any = 0,
        nobias: bool = False,
        **kwargs: tp.Any,
    ) -> Convolution2D:
        """Create a ``Convolution2D`` whose parameters are copies of ``W`` (and ``b``).

        Args:
            W: Filters of shape ``(out_channels, in_channels // groups, kh, kw)``.
            b: Bias of ``out_channels`` elements, or ``None``.
            stride, pad, nobias: As in the constructor.
            dilate, groups: As in the constructor (keyword only).

        Raises:
            ValueError: ``b`` does not have ``W.shape[0]`` elements.
        """
        dilate, groups = argument.parse_kwargs(kwargs, ("dilate", 1), ("groups", 1))
        check_bias_matches(W, b)
        out_channels, in_per_group, kh, kw = W.shape
        return cls(
            in_per_group * groups,
            out_channels,
            (kh, kw),
            stride,
            pad,
            nobias,
            initialW=variable.as_array(W),
            initial_bias=variable.as_array(b),
            dilate=dilate,
            groups=groups,
        )

    def forward(self, x: tp.Any) -> variable.Variable:
        """Convolve ``x`` of shape ``(n, c, h, w)``."""
        if self.W.array is None:
            self._initialize_params(x.shape[1])
        return convolution_2d(
            x, self.W, self.b, self.stride, self.pad, dilate=self.dilate, groups=self.groups
        )
