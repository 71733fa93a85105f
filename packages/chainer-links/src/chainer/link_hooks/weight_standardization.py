"""``WeightStandardization``: a link hook that standardizes each output unit's weights."""

from __future__ import annotations

import typing as tp

from chainer.functions.array.reshape import reshape
from chainer.functions.math.average import mean
from chainer.functions.math.sqrt import sqrt
from chainer.functions.math.square import square
from chainer.link_hooks._weight_hook import WeightTransformHook
from chainer.variable import Variable


class WeightStandardization(WeightTransformHook):
    """Weight Standardization (Qiao et al., 2019) of a link's weight.

    In every forward pass the link computes with the weight standardized per output unit
    (axis 0): with ``W_o`` the weights of output ``o`` (all the other axes),

    .. math::
        \\hat W_o = \\frac{W_o - \\mathrm{mean}(W_o)}{\\sqrt{\\mathrm{var}(W_o) + \\epsilon}}

    The gradient flows through the standardization to the parameter. Register it on one link
    with ``link.add_hook``; it cannot be used as a context manager.

    Args:
        eps: Added to the variance for numerical stability.
        weight_name: Name of the link's weight parameter.
        name: Name of the hook (default ``'WeightStandardization'``).

    Example:
        >>> conv = L.Convolution2D(3, 4, 3).add_hook(WeightStandardization())
        >>> conv(numpy.ones((1, 3, 5, 5), numpy.float32)).shape
        (1, 4, 3, 3)
    """

    name = "WeightStandardization"

    def __init__(self, *, eps: float = 1e-5, weight_name: str = "W", name: str | None = None):
        super().__init__(weight_name, name)
        self.eps = eps

    def transform(self, link: tp.Any, weight: Variable) -> Variable:
        rows = reshape(weight, (weight.shape[0], -1))
        centered = rows - mean(rows, axis=1, keepdims=True)
        std = sqrt(mean(square(centered), axis=1, keepdims=True) + self.eps)
        return reshape(centered / std, weight.shape)
