"""``Deconvolution2D``: the two-dimensional transposed convolutional layer."""

from __future__ import annotations

import typing as tp

from chainer import link, variable
from chainer.functions.connection.deconvolution_2d import deconvolution_2d
from chainer.links._weights import pair
from chainer.links.connection._conv_common import initialize_grouped_W, setup_grouped_conv
from chainer.links.connection.convolution_2d import _DETERMINISTIC_REMOVED
from chainer.utils import argument


class Deconvolution2D(link.Link):
    """Two-dimensional deconvolution (transposed convolution) layer.

    Wraps :func:`~chainer.functions.deconvolution_2d`: the gradient of a convolution with
    respect to its input, used to upsample feature maps.

    Args:
        in_channels: Number of input channels; ``None`` reads it from the first input. It may
            be left out altogether: ``Deconvolution2D(out_channels, ksize)``.
        out_channels: Number of output channels.
        ksize: Size of the filters, ``k`` or ``(kh, kw)``.
        stride: Stride of filter application, ``s`` or ``(sy, sx)``.
        pad: Spatial padding width, ``p`` or ``(ph, pw)``.
        nobias: Do not use a bias.
        outsize: Expected output size ``(oh, ow)``; ``None`` computes the smallest one.
        initialW: Initializer of ``W``; ``None`` means
            :class:`~chainer.initializers.LeCunNormal`.
        initial_bias: Initializer of ``b``; ``None`` means zeros.
        dilate (int or pair of ints): Dilation factor of the filters (keyword only).
        groups (int): Number of channel groups (keyword only).

    Attributes:
        W (~chainer.Parameter): Filters, ``(in_channels, out_channels // groups, kh, kw)``.
        b (~chainer.Parameter): Bias, ``(out_channels,)``, or ``None`` with ``nobias``.

    Example:
        >>> deconv = L.Deconvolution2D(3, 2, 4, stride=2, pad=1)
        >>> deconv(numpy.zeros((1, 3, 5, 5), numpy.float32)).shape
        (1, 2, 10, 10)
    """

    def __init__(
        self,
        in_channels: int | None,
        out_channels: int,
        ksize: tp.Any = None,
        stride: tp.Any = 1,
        pad: tp.Any = 0,
        nobias: bool = False,
        outsize: tp.Any = None,
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
        self.outsize = outsize
        self.dilate = pair(dilate)
        setup_grouped_conv(
            self, in_channels, out_channels, ksize, groups, initialW, nobias, initial_bias
        )

    def _initialize_params(self, in_channels: int) -> None:
        initialize_grouped_W(self, in_channels, pair(self.ksize), transposed=True)

    def forward(self, x: tp.Any) -> variable.Variable:
        """Upsample ``x`` of shape ``(n, c, h, w)``."""
        if self.W.array is None:
            self._initialize_params(x.shape[1])
        return deconvolution_2d(
            x,
            self.W,
            self.b,
            self.stride,
            self.pad,
            self.outsize,
            dilate=self.dilate,
            groups=self.groups,
        )
