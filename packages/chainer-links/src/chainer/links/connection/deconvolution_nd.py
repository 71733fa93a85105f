"""``DeconvolutionND`` and its fixed-dimension forms ``Deconvolution1D`` / ``Deconvolution3D``."""

from __future__ import annotations

import typing as tp

from chainer import link, variable
from chainer.functions.connection.deconvolution_nd import deconvolution_nd
from chainer.links.connection._conv_common import (
    fixed_ndim_init,
    initialize_grouped_W,
    setup_grouped_conv,
)
from chainer.utils import conv_nd


class DeconvolutionND(link.Link):
    """N-dimensional deconvolution (transposed convolution) layer.

    Wraps :func:`~chainer.functions.deconvolution_nd`.

    Args:
        ndim: Number of spatial dimensions.
        in_channels: Number of input channels; ``None`` reads it from the first input. It may
            be left out altogether: ``DeconvolutionND(ndim, out_channels, ksize)``.
        out_channels: Number of output channels.
        ksize: Size of the filters, an int or ``ndim`` ints.
        stride: Stride of filter application, an int or ``ndim`` ints.
        pad: Spatial padding width, an int or ``ndim`` ints.
        nobias: Do not use a bias.
        outsize: Expected output size, ``ndim`` ints; ``None`` computes the smallest one.
        initialW: Initializer of ``W``; ``None`` means
            :class:`~chainer.initializers.LeCunNormal`.
        initial_bias: Initializer of ``b``; ``None`` means zeros.
        dilate: Dilation factor of the filters, an int or ``ndim`` ints.
        groups: Number of channel groups; both channel counts must be divisible by it.

    Attributes:
        W (~chainer.Parameter): Filters, ``(in_channels, out_channels // groups, *ksize)``.
        b (~chainer.Parameter): Bias, ``(out_channels,)``, or ``None`` with ``nobias``.

    Example:
        >>> deconv = L.DeconvolutionND(1, 3, 2, 3)
        >>> deconv(numpy.zeros((1, 3, 4), numpy.float32)).shape
        (1, 2, 6)
    """

    def __init__(
        self,
        ndim: int,
        in_channels: int | None,
        out_channels: int,
        ksize: tp.Any = None,
        stride: tp.Any = 1,
        pad: tp.Any = 0,
        nobias: bool = False,
        outsize: tp.Any = None,
        initialW: tp.Any = None,
        initial_bias: tp.Any = None,
        dilate: tp.Any = 1,
        groups: int = 1,
    ) -> None:
        super().__init__()
        self.stride = stride
        self.pad = pad
        self.outsize = outsize
        self.dilate = conv_nd.as_tuple(dilate, ndim)
        setup_grouped_conv(
            self, in_channels, out_channels, ksize, groups, initialW, nobias, initial_bias, ndim
        )

    def _initialize_params(self, in_channels: int) -> None:
        initialize_grouped_W(self, in_channels, self.ksize, transposed=True)

    def forward(self, x: tp.Any) -> variable.Variable:
        """Upsample ``x`` of shape ``(n, c, d_1, ..., d_ndim)``."""
        if self.W.array is None:
            self._initialize_params(x.shape[1])
        return deconvolution_nd(
            x,
            self.W,
            b=self.b,
            stride=self.stride,
            pad=self.pad,
            outsize=self.outsize,
            dilate=self.dilate,
            groups=self.groups,
        )


class Deconvolution1D(DeconvolutionND):
    """One-dimensional deconvolution layer: :class:`DeconvolutionND` with ``ndim=1``."""

    __init__ = fixed_ndim_init(DeconvolutionND, 1)


class Deconvolution3D(DeconvolutionND):
    """Three-dimensional deconvolution layer: :class:`DeconvolutionND` with ``ndim=3``."""

    __init__ = fixed_ndim_init(DeconvolutionND, 3)
