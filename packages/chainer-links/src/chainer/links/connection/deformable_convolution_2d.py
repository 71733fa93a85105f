"""``DeformableConvolution2D``: a convolution whose sampling grid is shifted by learnt offsets."""

from __future__ import annotations

import typing as tp

from chainer import initializers, link, variable
from chainer.functions.connection.deformable_convolution_2d_sampler import (
    deformable_convolution_2d_sampler,
)
from chainer.links._weights import add_weight_and_bias, pair
from chainer.links.connection.convolution_2d import Convolution2D


class DeformableConvolution2D(link.Chain):
    """Two-dimensional deformable convolutional layer (Dai et al., 2017).

    A regular convolution (``offset_conv``) predicts, for every output position, an offset of
    each of the ``kh * kw`` filter taps; the main convolution (``deform_conv``) then samples
    its input at the shifted positions with bilinear interpolation. The offset convolution
    starts at zero, so the layer starts as a plain convolution.

    Args:
        in_channels: Number of input channels; ``None`` reads it from the first input.
        out_channels: Number of output channels.
        ksize: Size of the filters, ``k`` or ``(kh, kw)``.
        stride: Stride of filter application, ``s`` or ``(sy, sx)``.
        pad: Spatial padding width, ``p`` or ``(ph, pw)``.
        offset_nobias: Do not use a bias in the offset convolution.
        offset_initialW: Initializer of the offset convolution's ``W``; ``None`` means zeros.
        offset_initial_bias: Initializer of its bias; ``None`` means zeros.
        deform_nobias: Do not use a bias in the deformable convolution.
        deform_initialW: Initializer of the deformable convolution's ``W``; ``None`` means
            :class:`~chainer.initializers.LeCunNormal`.
        deform_initial_bias: Initializer of its bias; ``None`` means zeros.

    Example:
        >>> conv = L.DeformableConvolution2D(3, 2, 3, pad=1)
        >>> conv(numpy.zeros((1, 3, 5, 5), numpy.float32)).shape
        (1, 2, 5, 5)
    """

    def __init__(
        self,
        in_channels: int | None,
        out_channels: int,
        ksize: tp.Any,
        stride: tp.Any = 1,
        pad: tp.Any = 0,
        offset_nobias: bool = False,
        offset_initialW: tp.Any = None,
        offset_initial_bias: tp.Any = None,
        deform_nobias: bool = False,
        deform_initialW: tp.Any = None,
        deform_initial_bias: tp.Any = None,
    ) -> None:
        super().__init__()
        kh, kw = pair(ksize)
        if offset_initialW is None:
            offset_initialW = initializers.Zero()
        with self.init_scope():
            self.offset_conv = Convolution2D(
                in_channels,
                2 * kh * kw,
                ksize,
                stride,
                pad,
                offset_nobias,
                offset_initialW,
                offset_initial_bias,
            )
            self.deform_conv = DeformableConvolution2DSampler(
                in_channels,
                out_channels,
                ksize,
                stride,
                pad,
                deform_nobias,
                deform_initialW,
                deform_initial_bias,
            )

    def forward(self, x: tp.Any) -> variable.Variable:
        """Convolve ``x`` of shape ``(n, c, h, w)`` along the predicted offsets."""
        return self.deform_conv(x, self.offset_conv(x))


class DeformableConvolution2DSampler(link.Link):
    """The sampling half of :class:`DeformableConvolution2D`: a convolution at given offsets.

    Wraps :func:`~chainer.functions.deformable_convolution_2d_sampler`; the arguments mean the
    same as the ``deform_*`` ones of :class:`DeformableConvolution2D`.

    Attributes:
        W (~chainer.Parameter): Filters, ``(out_channels, in_channels, kh, kw)``.
        b (~chainer.Parameter): Bias, ``(out_channels,)``, or ``None`` with ``nobias``.
    """

    def __init__(
        self,
        in_channels: int | None,
        out_channels: int,
        ksize: tp.Any,
        stride: tp.Any = 1,
        pad: tp.Any = 0,
        nobias: bool = False,
        initialW: tp.Any = None,
        initial_bias: tp.Any = None,
    ) -> None:
        super().__init__()
        self.ksize = pair(ksize)
        self.stride = pair(stride)
        self.pad = pair(pad)
        self.out_channels = out_channels
        add_weight_and_bias(self, initialW, nobias, initial_bias, out_channels)
        if in_channels is not None:
            self._initialize_params(in_channels)

    def _initialize_params(self, in_channels: int) -> None:
        self.W.initialize((self.out_channels, in_channels, *self.ksize))

    def forward(self, x: tp.Any, offset: tp.Any) -> variable.Variable:
        """Convolve ``x`` ``(n, c, h, w)`` at ``offset`` ``(n, 2 * kh * kw, oh, ow)``."""
        if self.W.array is None:
            self._initialize_params(x.shape[1])
        return deformable_convolution_2d_sampler(x, offset, self.W, self.b, self.stride, self.pad)
