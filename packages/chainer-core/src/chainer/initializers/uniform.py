"""Initializers that draw from a uniform distribution symmetric around 0.

The fan-based ones have three times the gain of the normal initializer of the same name in their
bound, since a uniform distribution on ``[-b, b]`` has variance ``b**2 / 3``: both then give the
weights the same variance.
"""

from __future__ import annotations

from typing import Any

from chainer.initializer import Initializer, _fan_scale, get_fans
from chainer.initializers._arrays import assign
from chainer.initializers._random import pop_rng, random_source


class Uniform(Initializer):
    """Initializes array with a scaled uniform distribution on ``[-scale, scale)``.

    Args:
        scale: Upper bound of the distribution (the lower bound is ``-scale``).
        dtype: Dtype the arrays to fill must have (``None`` accepts any).
        rng: Keyword only. A random number generator with a ``uniform(low, high, size)``
            method, such as ``numpy.random.RandomState``; by default ``numpy.random``
            (``cupy.random`` for CuPy arrays) is used.

    Example:
        >>> w = numpy.empty((3, 4), numpy.float32)
        >>> chainer.initializers.Uniform(0.1, rng=numpy.random.RandomState(0))(w)
    """

    def __init__(self, scale: float = 0.05, dtype: Any | None = None, **kwargs: Any) -> None:
        self.scale = scale
        self.rng = pop_rng(kwargs, type(self).__name__, "uniform")
        super().__init__(dtype)

    def __call__(self, array: Any) -> None:
        self._check_dtype(array)
        source = random_source(self.rng, array)
        assign(array, source.uniform(low=-self.scale, high=self.scale, size=array.shape))


class LeCunUniform(Initializer):
    """Initializes array with a scaled uniform distribution (LeCun et al., 1998).

    The bound is ``scale * sqrt(3 / fan_in)``, with ``fan_in`` from
    :func:`chainer.initializer.get_fans`.

    Args:
        scale: Factor applied to the bound.
        dtype: Dtype the arrays to fill must have (``None`` accepts any).
        rng: Keyword only; see :class:`Uniform`.
    """

    def __init__(self, scale: float = 1.0, dtype: Any | None = None, **kwargs: Any) -> None:
        self.scale = scale
        self.rng = pop_rng(kwargs, type(self).__name__, "uniform")
        super().__init__(dtype)

    def __call__(self, array: Any) -> None:
        fan_in, _ = get_fans(array.shape)
        bound = self.scale * _fan_scale(3.0, fan_in)
        Uniform(bound, self.dtype, rng=self.rng)(array)


class GlorotUniform(Initializer):
    """Initializes array with a scaled uniform distribution (Glorot & Bengio, 2010).

    The bound is ``scale * sqrt(6 / (fan_in + fan_out))``, with the fans from
    :func:`chainer.initializer.get_fans`.

    Args:
        scale: Factor applied to the bound.
        dtype: Dtype the arrays to fill must have (``None`` accepts any).
        rng: Keyword only; see :class:`Uniform`.
    """

    def __init__(self, scale: float = 1.0, dtype: Any | None = None, **kwargs: Any) -> None:
        self.scale = scale
        self.rng = pop_rng(kwargs, type(self).__name__, "uniform")
        super().__init__(dtype)

    def __call__(self, array: Any) -> None:
        fan_in, fan_out = get_fans(array.shape)
        bound = self.scale * _fan_scale(6.0, fan_in + fan_out)
        Uniform(bound, self.dtype, rng=self.rng)(array)


class HeUniform(Initializer):
    """Initializes array with scaled uniform distribution (He et al., 2015).

    The bound is ``scale * sqrt(6 / fan_in)``, with ``fan_in`` from
    :func:`chainer.initializer.get_fans`.

    Args:
        scale: Factor applied to the bound.
        dtype: Dtype the arrays to fill must have (``None`` accepts any).
        rng: Keyword only; see :class:`Uniform`.
    """

    def __init__(self, scale: float = 1.0, dtype: Any | None = None, **kwargs: Any) -> None:
        self.scale = scale
        self.rng = pop_rng(kwargs, type(self).__name__, "uniform")
        super().__init__(dtype)

    def __call__(self, array: Any) -> None:
        fan_in, _ = get_fans(array.shape)
        bound = self.scale * _fan_scale(6.0, fan_in)
        Uniform(bound, self.dtype, rng=self.rng)(array)
