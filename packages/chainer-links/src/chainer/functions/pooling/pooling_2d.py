"""The base of 2-D pooling functions (``chainer.functions.pooling.pooling_2d``)."""

from __future__ import annotations

from chainer.functions.pooling.pooling_nd import _PoolingND


class Pooling2D(_PoolingND):
    """Base of poolings over images ``(n, c, h, w)``: subclasses implement ``forward``.

    Args:
        ksize: Window size: an int or a pair ``(kh, kw)``.
        stride: Window step (int or pair); ``None`` uses ``ksize``.
        pad: Padding on each side (int or pair).
        cover_all: Whether the last windows may extend past the border so that every pixel
            is covered.
        return_indices: Whether a subclass also returns where each output came from.
    """

    def __init__(
        self, ksize, stride=None, pad=0, cover_all: bool = True, return_indices: bool = False
    ) -> None:
        super().__init__(2, ksize, stride, pad, cover_all)
        self.return_indices = return_indices
