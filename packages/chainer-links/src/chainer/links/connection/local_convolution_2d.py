"""``LocalConvolution2D``: a convolution with separate (unshared) filters per position."""

from __future__ import annotations

import typing as tp

from chainer import link, variable
from chainer.functions.connection.local_convolution_2d import local_convolution_2d
from chainer.links._weights import add_weight_and_bias, pair
from chainer.utils import argument, conv


class LocalConvolution2D(link.Link):
    """Two-dimensional local convolutional layer (filters not shared between positions).

    Wraps :func:`~chainer.functions.local_convolution_2d`. Since every output position has its
    own filter, the parameter shapes depend on the input size; without padding the output has
    ``oh = (h - kh) // sy + 1`` rows and ``ow = (w - kw) // sx + 1`` columns.

    Args:
        in_channels: Number of input channels; ``None`` reads it from the first input.
        out_channels: Number of output channels.
        in_size: Spatial size of the input, ``s`` or ``(h, w)``; ``None`` reads it from the
            first input.
        ksize: Size of the filters, ``k`` or ``(kh, kw)``.
        stride: Stride of filter application, ``s`` or ``(sy, sx)``.
        nobias: Do not use a bias.
        initialW: Initializer of ``W``; ``None`` means
            :class:`~chainer.initializers.LeCunNormal`.
        initial_bias: Initializer of ``b``; ``None`` means zeros.

    Attributes:
        W (~chainer.Parameter): Filters, ``(out_channels, oh, ow, in_channels, kh, kw)``.
        b (~chainer.Parameter): Bias, ``(out_channels, oh, ow)``, or ``None`` with ``nobias``.

    Example:
        >>> conv = L.LocalConvolution2D(3, 2, in_size=5, ksize=3)
        >>> conv(numpy.zeros((1, 3, 5, 5), numpy.float32)).shape
        (1, 2, 3, 3)
    """

    def __init__(
        self,
        in_channels: int | None,
        out_channels: int,
        in_size: tp.Any = None,
        ksize: tp.Any = None,
        stride: tp.Any = 1,
        nobias: bool = False,
        initialW: tp.Any = None,
        initial_bias: tp.Any = None,
        **kwargs: tp.Any,
    ) -> None:
        super().__init__()
        argument.assert_kwargs_empty(kwargs)
        if ksize is None:
            raise ValueError("LocalConvolution2D needs ksize, the size of the filters")
        self.ksize = ksize
        self.stride = pair(stride)
        self.nobias = nobias
        self.out_channels = out_channels
        # b has no shape before W has one: both are initialized by _initialize_params.
        add_weight_and_bias(self, initialW, nobias, initial_bias, None)
        if in_channels is not None and in_size is not None:
            self._initialize_params(in_channels, pair(in_size))

    def _initialize_params(self, in_channels: int, in_size: tuple[int, int]) -> None:
        kh, kw = pair(self.ksize)
        sy, sx = self.stride
        out_h = conv.get_conv_outsize(in_size[0], kh, sy, 0)
        out_w = conv.get_conv_outsize(in_size[1], kw, sx, 0)
        if out_h <= 0 or out_w <= 0:
            raise ValueError(
                f"LocalConvolution2D: the input size {tuple(in_size)} is smaller than the "
                f"filters {(kh, kw)}"
            )
        self.W.initialize((self.out_channels, out_h, out_w, in_channels, kh, kw))
        if self.b is not None:
            self.b.initialize((self.out_channels, out_h, out_w))

    def forward(self, x: tp.Any) -> variable.Variable:
        """Convolve ``x`` of shape ``(n, in_channels, h, w)``."""
        if self.W.array is None:
            self._initialize_params(x.shape[1], x.shape[2:])
        return local_convolution_2d(x, self.W, self.b, self.stride)
