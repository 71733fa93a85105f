"""``MLPConvolution2D``: the "network in network" convolution block."""

from __future__ import annotations

import typing as tp
from collections.abc import Callable, Sequence

from chainer import link, variable
from chainer.functions.activation.relu import relu
from chainer.links._weights import split_lazy_channels
from chainer.links.connection.convolution_2d import Convolution2D
from chainer.utils import argument

_WSCALE_REMOVED = (
    "wscale argument is not supported anymore. Use conv_init and bias_init argument to change "
    "the scale of initial parameters."
)


class MLPConvolution2D(link.ChainList):
    """Two-dimensional MLP convolution layer of Network in Network (Lin et al., 2014).

    A convolution with ``ksize`` followed by 1x1 convolutions, with ``activation`` between
    them (not after the last one): a small multi-layer perceptron slid over the image. The
    convolutions are the children ``0``, ``1``, ...

    Args:
        in_channels: Number of input channels; ``None`` reads it from the first input. It may
            be left out altogether: ``MLPConvolution2D(out_channels, ksize)``.
        out_channels: Output channels of each convolution, a non-empty sequence.
        ksize: Size of the first convolution's filters.
        stride: Stride of the first convolution.
        pad: Padding of the first convolution.
        activation: Activation between the convolutions.
        conv_init: Initializer of every convolution's ``W`` (keyword only).
        bias_init: Initializer of every convolution's ``b`` (keyword only).

    Example:
        >>> block = L.MLPConvolution2D(3, (8, 8, 4), 3)
        >>> block(numpy.zeros((1, 3, 5, 5), numpy.float32)).shape
        (1, 4, 3, 3)
    """

    def __init__(
        self,
        in_channels: int | None,
        out_channels: tp.Any,
        ksize: tp.Any = None,
        stride: tp.Any = 1,
        pad: tp.Any = 0,
        activation: Callable = relu,
        *args: tp.Any,
        **kwargs: tp.Any,
    ) -> None:
        if args:
            # Chainer v1 took wscale as the next positional argument.
            raise TypeError(_WSCALE_REMOVED)
        conv_init, bias_init = argument.parse_kwargs(
            kwargs, ("conv_init", None), ("bias_init", None), wscale=_WSCALE_REMOVED
        )
        in_channels, out_channels, ksize = split_lazy_channels(in_channels, out_channels, ksize)
        if not isinstance(out_channels, Sequence) or len(out_channels) == 0:
            raise ValueError(
                f"out_channels must be a non-empty sequence of ints, got {out_channels!r}"
            )
        init = {"initialW": conv_init, "initial_bias": bias_init}
        convs = [Convolution2D(in_channels, out_channels[0], ksize, stride, pad, **init)]
        for n_in, n_out in zip(out_channels, out_channels[1:]):
            convs.append(Convolution2D(n_in, n_out, 1, **init))
        super().__init__(*convs)
        self.activation = activation

    def forward(self, x: tp.Any) -> variable.Variable:
        """Apply the block to ``x`` of shape ``(n, in_channels, h, w)``."""
        *hidden, last = self
        for conv in hidden:
            x = self.activation(conv(x))
        return last(x)
