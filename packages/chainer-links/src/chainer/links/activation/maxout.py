"""``Maxout``: a fully-connected layer followed by a maximum over groups of units."""

from __future__ import annotations

import numbers
import typing as tp

import numpy

import chainer
from chainer import backend, link, variable
from chainer.functions.activation.maxout import maxout
from chainer.links.connection.linear import Linear


class _PoolAxisInitializer(chainer.Initializer):
    """Fills a parameter of Linear through a view with the pool axis split out, so that
    ``initializer`` sees ``(out_size, pool_size, ...)``."""

    def __init__(self, initializer: tp.Callable, out_size: int, pool_size: int) -> None:
        super().__init__(getattr(initializer, "dtype", None))
        self.initializer = initializer
        self.pool_shape = (out_size, pool_size)

    def __call__(self, array: tp.Any) -> None:
        self.initializer(array.reshape(self.pool_shape + tuple(array.shape[1:])))


def _merge_pool_axis(name: str, initial: tp.Any, shape: tuple) -> tp.Any:
    """Turn an initializer given for ``shape`` (``(out_size, pool_size, ...)``) into one for
    the matching parameter of Linear, whose first axis is ``out_size * pool_size``."""
    if initial is None or isinstance(initial, (numbers.Number, numpy.generic)):
        return initial
    if isinstance(initial, backend.get_array_types()):
        if initial.ndim != len(shape) or any(
            expected is not None and size != expected
            for size, expected in zip(initial.shape, shape)
        ):
            raise ValueError(f"{name} must have shape {shape}, got {initial.shape}")
        return initial.reshape((shape[0] * shape[1], *initial.shape[2:]))
    if callable(initial):
        return _PoolAxisInitializer(initial, shape[0], shape[1])
    raise TypeError(
        f"{name} must be None, a scalar, an array or an initializer, got {type(initial).__name__}"
    )


class Maxout(link.Chain):
    """Fully-connected maxout layer (Goodfellow et al., 2013).

    A linear layer computes ``out_size * pool_size`` units; the output keeps the maximum of
    each group of ``pool_size`` consecutive units: ``y_i = max_j (W_ij x + b_ij)``.

    Args:
        in_size: Dimension of the input vectors; ``None`` reads it from the first input.
        out_size: Dimension of the output vectors.
        pool_size: Number of units per group.
        initialW: Initializer of the weight, seen with shape ``(out_size, pool_size,
            in_size)``; ``None`` means :class:`~chainer.initializers.LeCunNormal`.
        initial_bias: Initializer of the bias, seen with shape ``(out_size, pool_size)``;
            ``None`` means no bias.

    Attributes:
        linear (~chainer.links.Linear): The linear layer; its ``W`` has shape
            ``(out_size * pool_size, in_size)``.

    Example:
        >>> layer = L.Maxout(4, 3, 2)
        >>> layer(numpy.ones((5, 4), numpy.float32)).shape
        (5, 3)
    """

    def __init__(
        self,
        in_size: int | None,
        out_size: int,
        pool_size: int,
        initialW: tp.Any = None,
        initial_bias: tp.Any = 0,
    ) -> None:
        super().__init__()
        linear_out_size = out_size * pool_size
        initialW = _merge_pool_axis("initialW", initialW, (out_size, pool_size, in_size))
        initial_bias = _merge_pool_axis("initial_bias", initial_bias, (out_size, pool_size))
        with self.init_scope():
            self.linear = Linear(
                in_size,
                linear_out_size,
                nobias=initial_bias is None,
                initialW=initialW,
                initial_bias=initial_bias,
            )
        self.out_size = out_size
        self.pool_size = pool_size

    def forward(self, x: tp.Any) -> variable.Variable:
        """Apply the layer to ``x`` of shape ``(n, in_size)``."""
        return maxout(self.linear(x), self.pool_size)
