"""``InceptionBN``: the inception module with batch normalization (Inception v2)."""

from __future__ import annotations

import typing as tp

import chainer
from chainer import link, variable
from chainer.functions.activation.relu import relu
from chainer.functions.array.concat import concat
from chainer.functions.pooling.average_pooling_2d import average_pooling_2d
from chainer.functions.pooling.max_pooling_nd import max_pooling_2d
from chainer.links._weights import InvalidArgumentError
from chainer.links.connection.convolution_2d import Convolution2D
from chainer.links.normalization.batch_normalization import BatchNormalization


class InceptionBN(link.Chain):
    """Inception module with batch normalization (Ioffe and Szegedy, 2015).

    Branches, each convolution followed by batch normalization and ReLU, concatenated along
    the channels: an optional 1x1 convolution (``conv1``, when ``out1 > 0``); a 1x1
    projection then a 3x3 convolution (``proj3``, ``conv3``); a 1x1 projection then two 3x3
    convolutions (``proj33``, ``conv33a``, ``conv33b``); and 3x3 max or average pooling,
    optionally followed by a 1x1 projection (``poolp``). With ``stride > 1`` the module
    downsamples (and then has no 1x1 branch).

    Args:
        in_channels: Number of input channels; ``None`` reads it from the first input.
        out1: Output channels of the 1x1 convolution (``0`` for none).
        proj3: Channels of the projection before the 3x3 convolution.
        out3: Output channels of the 3x3 convolution.
        proj33: Channels of the projection before the double 3x3 convolution.
        out33: Output channels of the double 3x3 convolution.
        pooltype: ``'max'`` or ``'avg'``.
        proj_pool: Output channels of the projection after pooling (``None`` for none).
        stride: Stride of the 3x3 convolutions and the pooling.
        conv_init: Initializer of every convolution's ``W``.
        dtype: Dtype of the batch normalization parameters (``None``: the default dtype).

    Raises:
        NotImplementedError: ``pooltype`` is neither ``'max'`` nor ``'avg'``.
        InvalidArgumentError: (a ``ValueError`` and, as in Chainer, an ``AssertionError``)
            ``out1 > 0`` with ``stride != 1`` or without ``proj_pool``.

    Example:
        >>> block = L.InceptionBN(3, 2, 2, 3, 2, 4, 'avg', proj_pool=5)
        >>> block(numpy.zeros((2, 3, 6, 6), numpy.float32)).shape
        (2, 14, 6, 6)
    """

    def __init__(
        self,
        in_channels: int | None,
        out1: int,
        proj3: int,
        out3: int,
        proj33: int,
        out33: int,
        pooltype: str,
        proj_pool: int | None = None,
        stride: int = 1,
        conv_init: tp.Any = None,
        dtype: tp.Any = None,
    ) -> None:
        super().__init__()
        if pooltype not in ("max", "avg"):
            raise NotImplementedError(f"pooltype must be 'max' or 'avg', got {pooltype!r}")
        if out1 > 0 and (stride != 1 or proj_pool is None):
            raise InvalidArgumentError(
                "the 1x1 branch (out1 > 0) needs stride=1 and proj_pool, got "
                f"stride={stride}, proj_pool={proj_pool}"
            )
        self.out1 = out1
        self.proj_pool = proj_pool
        self.stride = stride
        self.pooltype = pooltype
        dtype = chainer.get_dtype(dtype)

        def conv(n_in, n_out, ksize, **kwargs):
            return Convolution2D(n_in, n_out, ksize, initialW=conv_init, nobias=True, **kwargs)

        with self.init_scope():
            self.proj3 = conv(in_channels, proj3, 1)
            self.conv3 = conv(proj3, out3, 3, pad=1, stride=stride)
            self.proj33 = conv(in_channels, proj33, 1)
            self.conv33a = conv(proj33, out33, 3, pad=1)
            self.conv33b = conv(out33, out33, 3, pad=1, stride=stride)
            self.proj3n = BatchNormalization(proj3, dtype=dtype)
            self.conv3n = BatchNormalization(out3, dtype=dtype)
            self.proj33n = BatchNormalization(proj33, dtype=dtype)
            self.conv33an = BatchNormalization(out33, dtype=dtype)
            self.conv33bn = BatchNormalization(out33, dtype=dtype)
            if out1 > 0:
                self.conv1 = conv(in_channels, out1, 1, stride=stride)
                self.conv1n = BatchNormalization(out1, dtype=dtype)
            if proj_pool is not None:
                self.poolp = conv(in_channels, proj_pool, 1)
                self.poolpn = BatchNormalization(proj_pool, dtype=dtype)

    def forward(self, x: tp.Any) -> variable.Variable:
        """Apply the module to ``x`` of shape ``(n, in_channels, h, w)``."""
        outs = []
        if self.out1 > 0:
            outs.append(relu(self.conv1n(self.conv1(x))))
        h3 = relu(self.proj3n(self.proj3(x)))
        outs.append(relu(self.conv3n(self.conv3(h3))))
        h33 = relu(self.proj33n(self.proj33(x)))
        h33 = relu(self.conv33an(self.conv33a(h33)))
        outs.append(relu(self.conv33bn(self.conv33b(h33))))
        if self.pooltype == "max":
            pooled = max_pooling_2d(x, 3, stride=self.stride, pad=1, cover_all=False)
        else:
            pooled = average_pooling_2d(x, 3, stride=self.stride, pad=1)
        if self.proj_pool is not None:
            pooled = relu(self.poolpn(self.poolp(pooled)))
        outs.append(pooled)
        return concat(outs, axis=1)
