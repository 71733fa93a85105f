"""Construction steps shared by the grouped convolution links, direct and transposed, 2D and ND.

``Convolution2D``, ``ConvolutionND``, ``Deconvolution2D`` and ``DeconvolutionND`` resolve the
``(out_channels, ksize)`` shorthand, register ``W`` and ``b`` and shape ``W`` from the input
channel count in the same way; they differ only in the layout of ``W`` and in how they store
their spatial arguments.
"""

from __future__ import annotations

import inspect
import typing as tp
from collections.abc import Callable

from chainer.link import Link
from chainer.links._weights import add_weight_and_bias, check_groups, split_lazy_channels
from chainer.utils import conv_nd


def setup_grouped_conv(
    link: Link,
    in_channels: int | None,
    out_channels: int,
    ksize: tp.Any,
    groups: int,
    initialW: tp.Any,
    nobias: bool,
    initial_bias: tp.Any,
    ndim: int | None = None,
) -> None:
    """Set the channel attributes of ``link`` and register its ``W`` and ``b``.

    ``ksize`` is kept as given when ``ndim`` is ``None`` (the 2D links, as in Chainer) and made
    a tuple of ``ndim`` ints otherwise. ``W`` is shaped now, by ``link._initialize_params``,
    when the input channel count is known; otherwise the first forward call shapes it.
    """
    in_channels, out_channels, ksize = split_lazy_channels(in_channels, out_channels, ksize)
    link.in_channels = in_channels
    link.out_channels = out_channels
    link.ksize = ksize if ndim is None else conv_nd.as_tuple(ksize, ndim)
    link.groups = int(groups)
    add_weight_and_bias(link, initialW, nobias, initial_bias, out_channels)
    if in_channels is not None:
        link._initialize_params(in_channels)


def initialize_grouped_W(
    link: Link, in_channels: int, kernel: tuple[int, ...], transposed: bool
) -> None:
    """Shape ``link.W`` for ``in_channels`` inputs and record the count on ``link``.

    A convolution's filters are ``(out_channels, in_channels // groups, *kernel)``; a
    transposed one's are ``(in_channels, out_channels // groups, *kernel)``.
    """
    check_groups(in_channels, link.out_channels, link.groups)
    link.in_channels = in_channels
    if transposed:
        shape = (in_channels, link.out_channels // link.groups, *kernel)
    else:
        shape = (link.out_channels, in_channels // link.groups, *kernel)
    link.W.initialize(shape)


def check_bias_matches(W: tp.Any, b: tp.Any) -> None:
    """Raise ``ValueError`` unless ``b`` is ``None`` or has one element per filter of ``W``."""
    if b is not None and b.size != W.shape[0]:
        raise ValueError(
            f"b must have out_channels={W.shape[0]} elements to match W {W.shape}, got {b.shape}"
        )


def fixed_ndim_init(nd_class: type[Link], ndim: int) -> Callable[..., None]:
    """The constructor of a fixed-dimension form (``Convolution1D`` ...) of ``nd_class``.

    It takes ``nd_class``'s arguments without ``ndim`` and with ``ksize`` required, as Chainer's
    1D/3D classes do; its signature is derived from ``nd_class``'s so the two cannot drift.
    """
    nd_signature = inspect.signature(nd_class.__init__)
    self_param, _ndim, *rest = nd_signature.parameters.values()
    required_ksize = [
        p.replace(default=inspect.Parameter.empty) if p.name == "ksize" else p for p in rest
    ]
    signature = nd_signature.replace(parameters=[self_param, *required_ksize])

    def __init__(self: Link, *args: tp.Any, **kwargs: tp.Any) -> None:
        # Binding first gives the TypeError of an explicit signature (e.g. a missing ksize)
        # instead of letting a short call fall into ND's (out_channels, ksize) shorthand.
        try:
            bound = signature.bind(self, *args, **kwargs)
        except TypeError as error:
            raise TypeError(f"{type(self).__name__}(): {error}") from None
        nd_class.__init__(self, ndim, *bound.args[1:], **bound.kwargs)

    __init__.__signature__ = signature  # type: ignore[attr-defined]
    return __init__
