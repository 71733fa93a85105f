"""Pieces shared by the links that own a weight ``W`` and an optional bias ``b``."""

from __future__ import annotations

import copy
import typing as tp
from collections.abc import Sequence

from chainer import initializers
from chainer.initializer import Initializer
from chainer.link import Link
from chainer.variable import Parameter


def add_weight_and_bias(
    link: Link,
    initialW: tp.Any,
    nobias: bool,
    initial_bias: tp.Any,
    bias_shape: int | tuple[int, ...] | None,
) -> None:
    """Register ``link.W`` (uninitialized) and ``link.b`` (``None`` when ``nobias``).

    ``W`` gets its shape later, from ``link._initialize_params``; ``b`` is initialized now when
    ``bias_shape`` is given, and left for ``_initialize_params`` when it is ``None``. A missing
    ``initial_bias`` means zeros, as in Chainer.
    """
    with link.init_scope():
        link.W = Parameter(initializers._get_initializer(initialW))
        if nobias:
            link.b = None
        else:
            bias_init = initializers._get_initializer(0 if initial_bias is None else initial_bias)
            link.b = Parameter(bias_init, bias_shape)


def split_lazy_channels(in_channels: tp.Any, out_channels: tp.Any, ksize: tp.Any) -> tuple:
    """Resolve the ``(out_channels, ksize)`` shorthand of the convolution links.

    ``Convolution2D(16, 3)`` means 16 output channels, a 3x3 kernel and an input channel count
    read from the first input; it is written with ``ksize=None``.
    """
    if ksize is None:
        return None, in_channels, out_channels
    return in_channels, out_channels, ksize


def check_groups(in_channels: int, out_channels: int, groups: int) -> None:
    """Raise ``ValueError`` unless both channel counts are divisible by ``groups``."""
    for name, channels in (("in_channels", in_channels), ("out_channels", out_channels)):
        if channels % groups != 0:
            raise ValueError(
                f"{name} must be divisible by groups: got {name}={channels}, groups={groups}"
            )


def pair(value: int | Sequence[int]) -> tuple[int, int]:
    """``value`` as a pair ``(height, width)``: an int is used for both."""
    if isinstance(value, Sequence):
        if len(value) != 2:
            raise ValueError(f"expected an int or a pair of ints, got {tuple(value)}")
        return tuple(value)
    return value, value


def with_dtype(initializer: tp.Any, dtype: tp.Any) -> tp.Any:
    """``initializer`` made to produce ``dtype`` (a copy: the caller's is left unchanged).

    Links whose parameters have a fixed dtype whatever the initializer says (as in Chainer)
    use this; values that are not :class:`~chainer.Initializer` objects are returned as is.
    """
    if isinstance(initializer, Initializer):
        initializer = copy.copy(initializer)
        initializer.dtype = dtype
    return initializer


def add_gamma_and_beta(
    link: Link, initial_gamma: tp.Any, initial_beta: tp.Any, dtype: tp.Any = None
) -> None:
    """Register ``link.gamma`` (ones by default) and ``link.beta`` (zeros), uninitialized.

    With ``dtype``, both parameters get that dtype whatever their initializers say.
    """
    gamma = initializers._get_initializer(1 if initial_gamma is None else initial_gamma)
    beta = initializers._get_initializer(0 if initial_beta is None else initial_beta)
    if dtype is not None:
        gamma, beta = with_dtype(gamma, dtype), with_dtype(beta, dtype)
    with link.init_scope():
        link.gamma = Parameter(gamma)
        link.beta = Parameter(beta)


class InvalidArgumentError(ValueError, AssertionError):
    """A link got arguments or inputs it cannot work with.

    Chainer checked these with ``assert``; deriving from ``AssertionError`` as well keeps v7
    code that catches it working, while the message says what was expected and given.
    """


def split_operand(link: Link, name: str, xs: tuple) -> tuple:
    """``(x, operand)`` for a link that learns its operand (``Bias.b``, ``Scale.W``) and takes
    one input, or learns none and takes the operand as a second input.

    Raises:
        InvalidArgumentError: The number of inputs does not fit the link.
    """
    owner = type(link).__name__
    if hasattr(link, name):
        if len(xs) != 1:
            raise InvalidArgumentError(
                f"this {owner} learns {name}: call it with one input (x), got {len(xs)}"
            )
        return xs[0], getattr(link, name)
    if len(xs) != 2:
        raise InvalidArgumentError(
            f"this {owner} learns no {name}: call it with two inputs (x, {name}), got {len(xs)}"
        )
    return xs[0], xs[1]
