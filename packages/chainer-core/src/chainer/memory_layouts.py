"""Memory layouts of image-like arrays (``chainer.memory_layouts``).

A layout names how the axes of an array are stored. ``None`` (``CUDNN_CHANNEL_FIRST_X`` and
``CUDNN_CHANNEL_FIRST_W``) is Chainer's standard order: images ``(n, c, d_1, ..., d_k)`` and
convolution weights ``(out, in, k_1, ..., k_k)``. The channel-last layouts store the channel axis
(``c``, or ``in`` for weights) last: ``(n, d_1, ..., d_k, c)``.

Variables of this implementation always hold the standard layout (``Variable.layout`` is
``None``); :class:`AsLayout` converts a standard-layout array to a channel-last one (and back in
backward), and :func:`get_semantic_shape` reads a channel-last array's standard shape.
"""

from __future__ import annotations

from typing import Any

from chainer._ops import array_ops
from chainer.function_node import FunctionNode
from chainer.utils import type_check
from chainer.variable import Variable

__all__ = [
    "CUDNN_CHANNEL_FIRST_W",
    "CUDNN_CHANNEL_FIRST_X",
    "CUDNN_CHANNEL_LAST_W",
    "CUDNN_CHANNEL_LAST_X",
    "AsLayout",
    "get_raw_shape",
    "get_semantic_shape",
]

CUDNN_CHANNEL_FIRST_X = None
CUDNN_CHANNEL_LAST_X = "CUDNN_CHANNEL_LAST_X"
CUDNN_CHANNEL_FIRST_W = None
CUDNN_CHANNEL_LAST_W = "CUDNN_CHANNEL_LAST_W"

_LAYOUTS = (CUDNN_CHANNEL_FIRST_X, CUDNN_CHANNEL_LAST_X, CUDNN_CHANNEL_LAST_W)


def _check_layout(layout) -> None:
    if layout not in _LAYOUTS:
        raise ValueError(
            f"unknown memory layout {layout!r}; expected None, {CUDNN_CHANNEL_LAST_X!r} or "
            f"{CUDNN_CHANNEL_LAST_W!r}"
        )


def _standard_to_raw_axes(ndim: int, layout) -> tuple[int, ...]:
    """Axes that turn a standard-layout array of ``ndim`` axes into ``layout``."""
    if layout is None:
        return tuple(range(ndim))
    if ndim < 2:
        raise ValueError(f"layout {layout!r} needs at least 2 axes, got an array of {ndim}")
    return (0, *range(2, ndim), 1)


def _raw_to_standard_axes(ndim: int, layout) -> tuple[int, ...]:
    """Axes that turn an array stored in ``layout`` into the standard layout."""
    if layout is None:
        return tuple(range(ndim))
    if ndim < 2:
        raise ValueError(f"layout {layout!r} needs at least 2 axes, got an array of {ndim}")
    return (0, ndim - 1, *range(1, ndim - 1))


def get_raw_shape(arr_or_var) -> tuple[int, ...]:
    """The shape of the array as it is stored in memory."""
    return tuple(arr_or_var.shape)


def get_semantic_shape(arr_or_var, *, assumed_layout=None) -> tuple[int, ...]:
    """The shape in the standard layout of an array stored in ``assumed_layout``.

    A :class:`~chainer.Variable` carries its own layout (always the standard one here), so
    ``assumed_layout`` applies to raw arrays only.
    """
    layout = arr_or_var.layout if isinstance(arr_or_var, Variable) else assumed_layout
    _check_layout(layout)
    shape = tuple(arr_or_var.shape)
    return tuple(shape[axis] for axis in _raw_to_standard_axes(len(shape), layout))


class AsLayout(FunctionNode):
    """Store a standard-layout input in ``layout``; backward turns gradients back.

    Args:
        layout: The target layout (``None``, ``CUDNN_CHANNEL_LAST_X`` or
            ``CUDNN_CHANNEL_LAST_W``).
    """

    #: The layout of the input (inputs are always standard-layout Variables here).
    in_layout = None

    def __init__(self, layout) -> None:
        _check_layout(layout)
        self.layout = layout
        self.axes: Any = None  # the raw axes order, set by forward

    @property
    def label(self) -> str:
        return f"AsLayout({self.layout})"

    def check_type_forward(self, in_types) -> None:
        type_check.expect(in_types.size() == 1)

    def check_layout_forward(self, inputs) -> None:
        """Inputs are standard-layout arrays or Variables: nothing to check."""

    def forward(self, inputs: tuple) -> tuple:
        x = inputs[0]
        self.axes = _standard_to_raw_axes(x.ndim, self.layout)
        return (x.transpose(self.axes),)

    forward_chainerx = forward

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        inverse = _raw_to_standard_axes(len(self.axes), self.layout)
        return (array_ops.transpose(grad_outputs[0], inverse),)
