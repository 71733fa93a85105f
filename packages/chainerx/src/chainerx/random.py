"""Random arrays drawn on a ChainerX device by its native generator (``uniform``,
``normal``), so that ``import chainerx.random`` works as it did in Chainer 7."""

from chainerx._core import random as _random

normal = _random.normal
uniform = _random.uniform

__all__ = ["normal", "uniform"]
