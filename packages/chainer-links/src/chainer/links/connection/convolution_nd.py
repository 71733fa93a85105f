"""``ConvolutionND`` and its fixed-dimension forms ``Convolution1D`` / ``Convolution3D``."""

from __future__ import annotations

import typing as tp

from chainer import link, variable
from chainer.functions.connection.convolution_nd import convolution_nd
from chainer.links.connection._conv_common import (
    check_bias_matches,
    fixed_ndim_init,
    initialize_grouped_W,
    setup_grouped_conv,
)
from chainer.utils import argument, conv_nd


class ConvolutionND(link.Link):
    """N-dimensional convolutional layer: wraps :func:`~chainer.functions.convolution_nd`.

    Args:
        ndim: Number of spatial dimensions.
        in_channels: Number of input channels; ``None`` reads it from the first input. It may
            be left out altogether: ``ConvolutionND(ndim, out_channels, ksize)``.
        out_channels: Number of output channels.
        ksize: Size of the filters, an int or ``ndim`` ints.
        stride: Stride of filter application, an int or ``ndim`` ints.
        pad: Spatial padding width, an int or ``ndim`` ints.
        nobias: Do not use a bias.
        initialW: Initializer of ``W``; ``None`` means
            :class:`~chainer.initializers.LeCunNormal`.
        initial_bias: Initializer of ``b``; ``None`` means zeros.
        cover_all: Add output positions so that every input element is covered.
        dilate: Dilation factor of the filters, an int or ``ndim`` ints.
        groups: Number of channel groups; both channel counts must be divisible by it.

    Attributes:
        W (~chainer.Parameter): Filters, ``(out_channels, in_channels // groups, *ksize)``.
        b (~chainer.Parameter): Bias, ``(out_channels,)``, or ``None`` with ``nobias``.

    Example:
        >>> conv = L.ConvolutionND(3, 2, 4, 3)
        >>> conv(numpy.zeros((1, 2, 5, 5, 5), numpy.float32)).shape
        (1, 4, 3, 3, 3)
    """

    # Set by the fixed-dimension subclasses, whose constructors take no ``ndim``.
    _fixed_ndim: int | None = None

    def __init__(
        self,
        ndim: int,
        in_channels: int | None,
        out_channels: int,
        ksize: tp.Any = None,
        stride: tp.Any = 1,
        pad: tp.Any = 0,
        nobias: bool = False,
        initialW: tp.Any = None,
        initial_bias: tp.Any = None,
        cover_all: bool = False,
        dilate: tp.Any = 1,
        groups: int = 1,
    ) -> None:
        super().__init__()
        self.stride = stride
        self.pad = pad
        self.cover_all = cover_all
        self.dilate = conv_nd.as_tuple(dilate, ndim)
        setup_grouped_conv(
            self, in_channels, out_channels, ksize, groups, initialW, nobias, initial_bias, ndim
        )

    def _initialize_params(self, in_channels: int) -> None:
        initialize_grouped_W(self, in_channels, self.ksize, transposed=False)

    @classmethod
    def from_params(
        cls,
        W: tp.Any,
        b: tp.Any = None,
        stride: tp.Any = 1,
        pad: tp.Any = 0,
        nobias: bool = False,
        **kwargs: tp.Any,
    ) -> ConvolutionND:
        """Create a ``ConvolutionND`` whose parameters are copies of ``W`` (and ``b``).

        Args:
            W: Filters of shape ``(out_channels, in_channels // groups, *ksize)``.
            b: Bias of ``out_channels`` elements, or ``None``.
            stride, pad, nobias: As in the constructor.
            cover_all, dilate, groups: As in the constructor (keyword only).

        Raises:
            ValueError: ``b`` does not have ``W.shape[0]`` elements, or ``W`` does not have
                the spatial dimensions of this class.
        """
        cover_all, dilate, groups = argument.parse_kwargs(
            kwargs, ("cover_all", False), ("dilate", 1), ("groups", 1)
        )
        check_bias_matches(W, b)
        out_channels, in_per_group, *ksize = W.shape
        ndim_argument: tuple = (len(ksize),)
        if cls._fixed_ndim is not None:
            if len(ksize) != cls._fixed_ndim:
                raise ValueError(
                    f"{cls.__name__} needs W with {cls._fixed_ndim} spatial axes, "
                    f"got W of shape {W.shape}"
                )
            ndim_argument = ()
        return cls(
            *ndim_argument,
            in_per_group * groups,
            out_channels,
            tuple(ksize),
            stride,
            pad,
            nobias,
            initialW=variable.as_array(W),
            initial_bias=variable.as_array(b),
            cover_all=cover_all,
            dilate=dilate,
            groups=groups,
        )

    def forward(self, x: tp.Any) -> variable.Variable:
        """Convolve ``x`` of shape ``(n, c, d_1, ..., d_ndim)``."""
        if self.W.array is None:
            self._initialize_params(x.shape[1])
        return convolution_nd(
            x,
            self.W,
            self.b,
            self.stride,
            self.pad,
            cover_all=self.cover_all,
            dilate=self.dilate,
            groups=self.groups,
        )


class Convolution1D(ConvolutionND):
    """One-dimensional convolutional layer: :class:`ConvolutionND` with ``ndim=1``."""

    _fixed_ndim = 1
    __init__ = fixed_ndim_init(ConvolutionND, 1)


class Convolution3D(ConvolutionND):
    """Three-dimensional convolutional layer: :class:`ConvolutionND` with ``ndim=3``."""

    _fixed_ndim = 3
    __init__ = fixed_ndim_init(ConvolutionND, 3)
