"""``DilatedConvolution2D``: a convolution whose filter taps are spread apart."""

from __future__ import annotations

import typing as tp

from chainer import link, variable
from chainer.functions.connection.dilated_convolution_2d import dilated_convolution_2d
from chainer.links._weights import add_weight_and_bias, pair, split_lazy_channels


class DilatedConvolution2D(link.Link):
    """Two-dimensional dilated convolutional layer.

    Wraps :func:`~chainer.functions.dilated_convolution_2d`.

    Args:
        in_channels: Number of input channels; ``None`` reads it from the first input. It may
            be left out altogether: ``DilatedConvolution2D(out_channels, ksize)``.
        out_channels: Number of output channels.
        ksize: Size of the filters, ``k`` or ``(kh, kw)``.
        stride: Stride of filter application, ``s`` or ``(sy, sx)``.
        pad: Spatial padding width, ``p`` or ``(ph, pw)``.
        dilate: Dilation factor of the filters, ``d`` or ``(dy, dx)``.
        nobias: Do not use a bias.
        initialW: Initializer of ``W``; ``None`` means
            :class:`~chainer.initializers.LeCunNormal`.
        initial_bias: Initializer of ``b``; ``None`` means zeros.

    Attributes:
        W (~chainer.Parameter): Filters, ``(out_channels, in_channels, kh, kw)``.
        b (~chainer.Parameter): Bias, ``(out_channels,)``, or ``None`` with ``nobias``.

    Example:
        >>> conv = L.DilatedConvolution2D(3, 2, 3, dilate=2)
        >>> conv(numpy.zeros((1, 3, 7, 7), numpy.float32)).shape
        (1, 2, 3, 3)
    """

    def __init__(
        self,
        in_channels: int | None,
        out_channels: int,
        ksize: tp.Any = None,
        stride: tp.Any = 1,
        pad: tp.Any = 0,
        dilate: tp.Any = 1,
        nobias: bool = False,
        initialW: tp.Any = None,
        initial_bias: tp.Any = None,
    ) -> None:
        super().__init__()
        in_channels, out_channels, ksize = split_lazy_channels(in_channels, out_channels, ksize)
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.ksize = ksize
        self.stride = pair(stride)
        self.pad = pair(pad)
        self.dilate = pair(dilate)
        add_weight_and_bias(self, initialW, nobias, initial_bias, out_channels)
        if in_channels is not None:
            self._initialize_params(in_channels)

    def _initialize_params(self, in_channels: int) -> None:
        self.in_channels = in_channels
        self.W.initialize((self.out_channels, in_channels, *pair(self.ksize)))

    def forward(self, x: tp.Any) -> variable.Variable:
        """Convolve ``x`` of shape ``(n, c, h, w)``."""
        if self.W.array is None:
            self._initialize_params(x.shape[1])
        return dilated_convolution_2d(x, self.W, self.b, self.stride, self.pad, self.dilate)
