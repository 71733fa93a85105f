"""``DepthwiseConvolution2D``: a convolution applied to each input channel separately."""

from __future__ import annotations

import typing as tp

from chainer import link, variable
from chainer.functions.connection.depthwise_convolution_2d import depthwise_convolution_2d
from chainer.links._weights import add_weight_and_bias, pair


class DepthwiseConvolution2D(link.Link):
    """Two-dimensional depthwise convolutional layer.

    Wraps :func:`~chainer.functions.depthwise_convolution_2d`: each input channel is convolved
    with its own ``channel_multiplier`` filters, giving ``in_channels * channel_multiplier``
    output channels.

    Args:
        in_channels: Number of input channels; ``None`` reads it from the first input.
        channel_multiplier: Number of filters per input channel.
        ksize: Size of the filters, ``k`` or ``(kh, kw)``.
        stride: Stride of filter application, ``s`` or ``(sy, sx)``.
        pad: Spatial padding width, ``p`` or ``(ph, pw)``.
        nobias: Do not use a bias.
        initialW: Initializer of ``W``; ``None`` means
            :class:`~chainer.initializers.LeCunNormal`.
        initial_bias: Initializer of ``b``; ``None`` means zeros.

    Attributes:
        W (~chainer.Parameter): Filters, ``(channel_multiplier, in_channels, kh, kw)``.
        b (~chainer.Parameter): Bias, ``(in_channels * channel_multiplier,)``, or ``None``.

    Example:
        >>> conv = L.DepthwiseConvolution2D(3, 2, 3)
        >>> conv(numpy.zeros((1, 3, 5, 5), numpy.float32)).shape
        (1, 6, 3, 3)
    """

    def __init__(
        self,
        in_channels: int | None,
        channel_multiplier: int,
        ksize: tp.Any,
        stride: tp.Any = 1,
        pad: tp.Any = 0,
        nobias: bool = False,
        initialW: tp.Any = None,
        initial_bias: tp.Any = None,
    ) -> None:
        super().__init__()
        self.ksize = ksize
        self.stride = pair(stride)
        self.pad = pair(pad)
        self.channel_multiplier = channel_multiplier
        self.nobias = nobias
        # b has no shape before W has one: both are initialized by _initialize_params.
        add_weight_and_bias(self, initialW, nobias, initial_bias, None)
        if in_channels is not None:
            self._initialize_params(in_channels)

    def _initialize_params(self, in_channels: int) -> None:
        self.W.initialize((self.channel_multiplier, in_channels, *pair(self.ksize)))
        if self.b is not None:
            self.b.initialize((self.channel_multiplier * in_channels,))

    def forward(self, x: tp.Any) -> variable.Variable:
        """Convolve ``x`` of shape ``(n, in_channels, h, w)``."""
        if self.W.array is None:
            self._initialize_params(x.shape[1])
        return depthwise_convolution_2d(x, self.W, self.b, self.stride, self.pad)
