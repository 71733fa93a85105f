"""Spatial pyramid pooling: max pooling into 1, 2x2, 4x4, ... bins, flattened and joined."""

from __future__ import annotations

import math

from chainer._ops.array_ops import reshape
from chainer.functions.array.concat import concat
from chainer.functions.pooling.max_pooling_nd import MaxPoolingND
from chainer.utils import type_check
from chainer.variable import Variable


def _level_window(size: int, bins: int) -> tuple[int, int]:
    """Kernel (also the stride) and padding that split ``size`` into ``bins`` windows."""
    ksize = math.ceil(size / bins)
    return ksize, (ksize * bins - size) // 2


def spatial_pyramid_pooling_2d(x, pyramid_height: int, pooling=None) -> Variable:
    """Spatial pyramid pooling function.

    Level ``l`` (``0 <= l < pyramid_height``) max-pools the images into about ``2**l x 2**l``
    bins (kernel ``ceil(h / 2**l)`` used as its own stride, with the remainder padded evenly and
    ``cover_all=True``); every level is flattened to ``(n, c * bins_h * bins_w, 1, 1)`` and
    the levels are concatenated along the channels. The output size does not depend on the
    image size, which lets images of any size feed a fully connected layer.

    Args:
        x: Images of shape ``(n, c, h, w)`` and floating-point dtype.
        pyramid_height: Number of pyramid levels (positive).
        pooling: The pooling operation, ``'max'`` (the only one supported). Required, as
            in Chainer v7: leaving it out raises ``ValueError``.

    Returns:
        A variable of shape ``(n, c * sum_l bins_l, 1, 1)``; ``bins_l = 4 ** l`` whenever the
        images are at least ``2 ** (pyramid_height - 1)`` pixels on each side. As in Chainer,
        for some sizes (e.g. 5 pixels into 4 bins) the last window of a level lies entirely
        in the padding and yields ``-inf``.

    Example:
        >>> x = numpy.random.rand(2, 3, 8, 8).astype(numpy.float32)
        >>> F.spatial_pyramid_pooling_2d(x, 3, pooling="max").shape  # 3 * (1 + 4 + 16)
        (2, 63, 1, 1)
    """
    if pooling is None:
        raise ValueError("spatial_pyramid_pooling_2d: pooling is required; give pooling='max'")
    if pooling != "max":
        raise ValueError(f"Unsupported pooling operation: {pooling!r} (only 'max' is supported)")
    if not isinstance(pyramid_height, int) or pyramid_height < 1:
        raise ValueError(f"pyramid_height must be a positive int, got {pyramid_height!r}")
    if len(x.shape) != 4:
        raise type_check.InvalidType("x.ndim == 4", f"x.shape == {tuple(x.shape)}")
    n, _, h, w = x.shape
    ys = []
    for level in range(pyramid_height):
        bins = 2**level
        kh, ph = _level_window(h, bins)
        kw, pw = _level_window(w, bins)
        y = MaxPoolingND(2, (kh, kw), None, (ph, pw), cover_all=True).apply((x,))[0]
        ys.append(reshape(y, (n, -1, 1, 1)))
    return concat(ys, axis=1)
