"""``Inception``: the inception module of GoogLeNet."""

from __future__ import annotations

import typing as tp

from chainer import link, variable
from chainer.functions.activation.relu import relu
from chainer.functions.array.concat import concat
from chainer.functions.pooling.max_pooling_nd import max_pooling_2d
from chainer.links.connection.convolution_2d import Convolution2D


class Inception(link.Chain):
    """Inception module of GoogLeNet (Szegedy et al., 2015).

    Four branches run on the input and their outputs are concatenated along the channels,
    followed by ReLU: a 1x1 convolution (``conv1``); a 1x1 projection then a 3x3 convolution
    (``proj3``, ``conv3``); a 1x1 projection then a 5x5 convolution (``proj5``, ``conv5``);
    3x3 max pooling then a 1x1 projection (``projp``). The spatial size is kept.

    Args:
        in_channels: Number of input channels; ``None`` reads it from the first input.
        out1: Output channels of the 1x1 convolution.
        proj3: Channels of the projection before the 3x3 convolution.
        out3: Output channels of the 3x3 convolution.
        proj5: Channels of the projection before the 5x5 convolution.
        out5: Output channels of the 5x5 convolution.
        proj_pool: Output channels of the projection after max pooling.
        conv_init: Initializer of every convolution's ``W``.
        bias_init: Initializer of every convolution's ``b``.

    Example:
        >>> block = L.Inception(3, 2, 2, 3, 2, 4, 5)
        >>> block(numpy.zeros((1, 3, 6, 6), numpy.float32)).shape
        (1, 14, 6, 6)
    """

    def __init__(
        self,
        in_channels: int | None,
        out1: int,
        proj3: int,
        out3: int,
        proj5: int,
        out5: int,
        proj_pool: int,
        conv_init: tp.Any = None,
        bias_init: tp.Any = None,
    ) -> None:
        super().__init__()
        init = {"initialW": conv_init, "initial_bias": bias_init}
        with self.init_scope():
            self.conv1 = Convolution2D(in_channels, out1, 1, **init)
            self.proj3 = Convolution2D(in_channels, proj3, 1, **init)
            self.conv3 = Convolution2D(proj3, out3, 3, pad=1, **init)
            self.proj5 = Convolution2D(in_channels, proj5, 1, **init)
            self.conv5 = Convolution2D(proj5, out5, 5, pad=2, **init)
            self.projp = Convolution2D(in_channels, proj_pool, 1, **init)

    def forward(self, x: tp.Any) -> variable.Variable:
        """Apply the module to ``x`` of shape ``(n, in_channels, h, w)``."""
        out1 = self.conv1(x)
        out3 = self.conv3(relu(self.proj3(x)))
        out5 = self.conv5(relu(self.proj5(x)))
        pool = self.projp(max_pooling_2d(x, 3, stride=1, pad=1))
        return relu(concat((out1, out3, out5, pool), axis=1))
