"""``Linear``: the fully-connected layer."""

from __future__ import annotations

import typing as tp
from collections.abc import Iterator

from chainer import link, utils, variable
from chainer.functions.connection.linear import LinearFunction, linear
from chainer.links._weights import add_weight_and_bias


class Linear(link.Link):
    """Linear layer (a.k.a. fully-connected layer): ``y = x W^T + b``.

    The weight ``W`` has shape ``(out_size, in_size)`` and the bias ``b`` shape
    ``(out_size,)``. Axes of the input after the ``n_batch_axes`` batch axes are flattened.

    Args:
        in_size: Dimension of the input vectors. ``None`` (or giving only one size, as in
            ``Linear(10)``) defers the initialization of ``W`` to the first forward pass,
            where the size is read from the input.
        out_size: Dimension of the output vectors.
        nobias: Do not use a bias.
        initialW: Initializer of ``W`` (an initializer, scalar or array); ``None`` means
            :class:`~chainer.initializers.LeCunNormal`.
        initial_bias: Initializer of ``b``; ``None`` means zeros.

    Attributes:
        W (~chainer.Parameter): Weight, ``(out_size, in_size)``.
        b (~chainer.Parameter): Bias, ``(out_size,)``, or ``None`` with ``nobias``.

    Example:
        >>> l = L.Linear(2, 3)
        >>> l(numpy.zeros((4, 2), numpy.float32)).shape
        (4, 3)
        >>> lazy = L.Linear(3)  # the input size comes from the first input
        >>> lazy(numpy.zeros((4, 5), numpy.float32)).shape, lazy.W.shape
        ((4, 3), (3, 5))
    """

    def __init__(
        self,
        in_size: int | None,
        out_size: int | None = None,
        nobias: bool = False,
        initialW: tp.Any = None,
        initial_bias: tp.Any = None,
    ) -> None:
        super().__init__()
        if out_size is None:
            in_size, out_size = None, in_size
        if out_size is None:
            raise ValueError("Linear needs out_size: give Linear(out_size) or Linear(in, out)")
        self.in_size = in_size
        self.out_size = out_size
        add_weight_and_bias(self, initialW, nobias, initial_bias, out_size)
        if in_size is not None:
            self._initialize_params(in_size)

    def _initialize_params(self, in_size: int) -> None:
        self.in_size = in_size
        self.W.initialize((self.out_size, in_size))

    @property
    def printable_specs(self) -> Iterator[tuple[str, tp.Any]]:
        yield "in_size", self.in_size
        yield "out_size", self.out_size
        yield "nobias", self.b is None

    @classmethod
    def from_params(cls, W: tp.Any, b: tp.Any = None, nobias: bool = False) -> Linear:
        """Create a ``Linear`` whose parameters are copies of ``W`` (and ``b``).

        Raises:
            ValueError: ``b`` does not have ``W.shape[0]`` elements.
        """
        out_size, in_size = W.shape
        if b is not None and b.size != out_size:
            raise ValueError(
                f"b must have out_size={out_size} elements to match W {W.shape}, got {b.shape}"
            )
        return cls(
            in_size,
            out_size,
            nobias,
            initialW=variable.as_array(W),
            initial_bias=variable.as_array(b),
        )

    def forward(self, x: tp.Any, n_batch_axes: int = 1) -> variable.Variable:
        """Apply the layer to ``x`` of shape ``(batch..., features...)``."""
        W = self.W
        if W.array is None:
            self._initialize_params(utils.size_of_shape(x.shape[n_batch_axes:]))
        if n_batch_axes == 1 and x.ndim == 2:  # what linear() does then, without its checks
            b = self.b
            return LinearFunction().apply((x, W) if b is None else (x, W, b))[0]
        return linear(x, W, self.b, n_batch_axes=n_batch_axes)
