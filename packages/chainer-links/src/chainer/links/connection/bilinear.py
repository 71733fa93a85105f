"""``Bilinear``: a layer that combines two inputs through a bilinear form."""

from __future__ import annotations

import typing as tp

from chainer import backend, initializers, link, variable
from chainer.functions.connection.bilinear import bilinear
from chainer.links._weights import InvalidArgumentError


def _check_array_shape(name: str, initial: tp.Any, shape: tuple) -> None:
    # Array initializers are copied as they are, so their shape must already be right.
    if isinstance(initial, backend.get_array_types()) and initial.shape != shape:
        raise InvalidArgumentError(f"{name} must have shape {shape}, got {initial.shape}")


class Bilinear(link.Link):
    """Bilinear layer: ``y_k = e1^T W_k e2 + V1_k^T e1 + V2_k^T e2 + b_k``.

    Wraps :func:`~chainer.functions.bilinear`.

    Args:
        left_size: Dimension of the first input ``e1``.
        right_size: Dimension of the second input ``e2``.
        out_size: Dimension of the output.
        nobias: Use only the bilinear term (no ``V1``, ``V2``, ``b``).
        initialW: Initializer of ``W``; ``None`` means
            :class:`~chainer.initializers.LeCunNormal`.
        initial_bias: ``None`` (``V1`` and ``V2`` from LeCunNormal, ``b`` zeros) or a tuple
            ``(initialV1, initialV2, initialb)`` of initializers.

    Raises:
        InvalidArgumentError: (a ``ValueError`` and, as in Chainer, an ``AssertionError``) an
            initial array of the wrong shape.

    Attributes:
        W (~chainer.Parameter): ``(left_size, right_size, out_size)``.
        V1 (~chainer.Parameter): ``(left_size, out_size)`` (absent with ``nobias``).
        V2 (~chainer.Parameter): ``(right_size, out_size)`` (absent with ``nobias``).
        b (~chainer.Parameter): ``(out_size,)`` (absent with ``nobias``).

    Example:
        >>> layer = L.Bilinear(2, 3, 4)
        >>> e1, e2 = numpy.ones((5, 2), numpy.float32), numpy.ones((5, 3), numpy.float32)
        >>> layer(e1, e2).shape
        (5, 4)
    """

    def __init__(
        self,
        left_size: int,
        right_size: int,
        out_size: int,
        nobias: bool = False,
        initialW: tp.Any = None,
        initial_bias: tp.Any = None,
    ) -> None:
        super().__init__()
        self.in_sizes = (left_size, right_size)
        self.nobias = nobias
        shape = (left_size, right_size, out_size)
        _check_array_shape("initialW", initialW, shape)
        with self.init_scope():
            self.W = variable.Parameter(initializers._get_initializer(initialW), shape)
            if nobias:
                return
            if initial_bias is None:
                initial_bias = (None, None, 0)
            elif not isinstance(initial_bias, tuple) or len(initial_bias) != 3:
                raise ValueError(
                    "initial_bias must be None or a tuple (initialV1, initialV2, initialb), "
                    f"got {initial_bias!r}"
                )
            shapes = {"V1": (left_size, out_size), "V2": (right_size, out_size), "b": (out_size,)}
            for (name, param_shape), initial in zip(shapes.items(), initial_bias):
                _check_array_shape(f"initial {name}", initial, param_shape)
                param = variable.Parameter(initializers._get_initializer(initial), param_shape)
                setattr(self, name, param)

    def forward(self, e1: tp.Any, e2: tp.Any) -> variable.Variable:
        """Combine ``e1`` ``(n, left_size)`` and ``e2`` ``(n, right_size)``."""
        if self.nobias:
            return bilinear(e1, e2, self.W)
        return bilinear(e1, e2, self.W, self.V1, self.V2, self.b)

    def zero_grads(self) -> None:
        """Fill every gradient with zeros (kept for old code; prefer ``cleargrads``)."""
        self.zerograds()
