"""The base of the poolings over any number of spatial axes (``chainer.functions.pooling``)."""

from __future__ import annotations

from chainer.function_node import FunctionNode
from chainer.functions.pooling import _windows
from chainer.functions.pooling._windows import Window


class _PoolingND(FunctionNode):
    """Window parameters and input checks shared by the poolings over ``ndim`` spatial axes.

    Inputs are ``(n, c, d_1, ..., d_ndim)``; ``ksize``, ``stride`` and ``pad`` are an int for
    every axis or a tuple of ``ndim`` ints (``stride=None`` uses ``ksize``).
    """

    def __init__(self, ndim: int, ksize, stride=None, pad=0, cover_all: bool = True) -> None:
        self.ndim = ndim
        self.ksize, self.stride, self.pad = Window.parse(ndim, ksize, stride, pad)
        self.cover_all = cover_all

    def check_type_forward(self, in_types) -> None:
        _windows.check_images(in_types, self.ndim)
