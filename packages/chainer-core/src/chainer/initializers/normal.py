"""Initializers that draw from a zero-mean normal (Gaussian) distribution."""

from __future__ import annotations

from typing import Any

from chainer.initializer import Initializer, _fan_scale, get_fans
from chainer.initializers._arrays import assign
from chainer.initializers._random import pop_rng, random_source

_FAN_OPTIONS = ("fan_in", "fan_out")


class Normal(Initializer):
    """Initializes array with a normal distribution of mean 0 and standard deviation ``scale``.

    Args:
        scale: Standard deviation of the distribution.
        dtype: Dtype the arrays to fill must have (``None`` accepts any).
        rng: Keyword only. A random number generator with a ``normal(loc, scale, size)`` method,
            such as ``numpy.random.RandomState``; by default ``numpy.random`` (``cupy.random``
            for CuPy arrays) is used.

    Example:
        >>> numpy.random.seed(0)
        >>> w = numpy.empty((3, 4), numpy.float32)
        >>> chainer.initializers.Normal(0.1)(w)
    """

    def __init__(self, scale: float = 0.05, dtype: Any | None = None, **kwargs: Any) -> None:
        self.scale = scale
        self.rng = pop_rng(kwargs, type(self).__name__, "normal")
        super().__init__(dtype)

    def __call__(self, array: Any) -> None:
        self._check_dtype(array)
        source = random_source(self.rng, array)
        assign(array, source.normal(loc=0.0, scale=self.scale, size=array.shape))


class LeCunNormal(Initializer):
    """Initializes array with scaled Gaussian distribution (LeCun et al., 1998).

    The standard deviation is ``scale * sqrt(1 / fan_in)``, with ``fan_in`` from
    :func:`chainer.initializer.get_fans`.

    Args:
        scale: Factor applied to the standard deviation.
        dtype: Dtype the arrays to fill must have (``None`` accepts any).
        rng: Keyword only; see :class:`Normal`.
    """

    def __init__(self, scale: float = 1.0, dtype: Any | None = None, **kwargs: Any) -> None:
        self.scale = scale
        self.rng = pop_rng(kwargs, type(self).__name__, "normal")
        super().__init__(dtype)

    def __call__(self, array: Any) -> None:
        fan_in, _ = get_fans(array.shape)
        std = self.scale * _fan_scale(1.0, fan_in)
        Normal(std, self.dtype, rng=self.rng)(array)


class GlorotNormal(Initializer):
    """Initializes array with scaled Gaussian distribution (Glorot & Bengio, 2010).

    The standard deviation is ``scale * sqrt(2 / (fan_in + fan_out))``, with the fans from
    :func:`chainer.initializer.get_fans`.

    Args:
        scale: Factor applied to the standard deviation.
        dtype: Dtype the arrays to fill must have (``None`` accepts any).
        rng: Keyword only; see :class:`Normal`.
    """

    def __init__(self, scale: float = 1.0, dtype: Any | None = None, **kwargs: Any) -> None:
        self.scale = scale
        self.rng = pop_rng(kwargs, type(self).__name__, "normal")
        super().__init__(dtype)

    def __call__(self, array: Any) -> None:
        fan_in, fan_out = get_fans(array.shape)
        std = self.scale * _fan_scale(2.0, fan_in + fan_out)
        Normal(std, self.dtype, rng=self.rng)(array)


class HeNormal(Initializer):
    """Initializes array with scaled Gaussian distribution (He et al., 2015).

    The standard deviation is ``scale * sqrt(2 / fan)``, where ``fan`` is ``fan_in`` or
    ``fan_out`` of :func:`chainer.initializer.get_fans` as chosen by ``fan_option``.

    Args:
        scale: Factor applied to the standard deviation.
        dtype: Dtype the arrays to fill must have (``None`` accepts any).
        fan_option: ``'fan_in'`` (preserves the variance of the forward pass) or ``'fan_out'``
            (preserves it in the backward pass).
        rng: Keyword only; see :class:`Normal`.
    """

    def __init__(
        self,
        scale: float = 1.0,
        dtype: Any | None = None,
        fan_option: str = "fan_in",
        **kwargs: Any,
    ) -> None:
        if fan_option not in _FAN_OPTIONS:
            raise ValueError(f"fan_option must be 'fan_in' or 'fan_out', got {fan_option!r}")
        self.scale = scale
        self.fan_option = fan_option
        self.rng = pop_rng(kwargs, type(self).__name__, "normal")
        super().__init__(dtype)

    def __call__(self, array: Any) -> None:
        fan_in, fan_out = get_fans(array.shape)
        fan = fan_in if self.fan_option == "fan_in" else fan_out
        std = self.scale * _fan_scale(2.0, fan)
        Normal(std, self.dtype, rng=self.rng)(array)
