"""``repeat``: repeat the elements of a variable, as :func:`numpy.repeat`."""

from __future__ import annotations

import numpy

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.variable import Variable

__all__ = ["Repeat", "RepeatGrad", "repeat"]


def _is_int(value) -> bool:
    return isinstance(value, (int, numpy.integer))


def _normalize_repeats(repeats) -> tuple:
    # As in NumPy, bools count as ints here (unlike for axis).
    if _is_int(repeats):
        repeats = (repeats,)
    elif not (isinstance(repeats, (tuple, list)) and all(_is_int(r) for r in repeats)):
        raise TypeError(
            f"repeats must be an int or a tuple of ints, got {type(repeats).__name__}: {repeats!r}"
        )
    if any(r < 0 for r in repeats):
        raise ValueError(f"repeats must be zero or larger, got {tuple(repeats)}")
    return tuple(int(r) for r in repeats)


class Repeat(FunctionNode):
    """Repeat each element along ``axis`` (of the flattened input when ``axis`` is None)."""

    def __init__(self, repeats, axis: int | None = None) -> None:
        self.repeats = _normalize_repeats(repeats)
        if axis is not None and (not _is_int(axis) or isinstance(axis, bool)):
            raise TypeError(f"axis must be an int or None, got {type(axis).__name__}: {axis!r}")
        self.axis = axis

    def forward(self, inputs: tuple) -> tuple:
        x = inputs[0]
        xp = backend.get_array_module(x)
        repeats = self.repeats[0] if len(self.repeats) == 1 else self.repeats
        return (xp.repeat(x, repeats, self.axis),)

    forward_chainerx = forward  # chainerx.repeat

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        node = self.inputs[0]
        grad = RepeatGrad(self.repeats, self.axis, node.shape, node.dtype)
        return grad.apply(grad_outputs)


class RepeatGrad(FunctionNode):
    """Sum each run of repeated gradients back onto its source element."""

    def __init__(self, repeats: tuple, axis: int | None, in_shape: tuple, in_dtype) -> None:
        self.repeats = repeats
        self.axis = axis
        self.in_shape = in_shape
        self.in_dtype = in_dtype

    def forward(self, inputs: tuple) -> tuple:
        gy = inputs[0]
        xp = backend.get_array_module(gy)
        if self.axis is None:
            axis = 0
            length = int(numpy.prod(self.in_shape))
            gy = gy.reshape(-1)
            shape = (length,)
        else:
            axis = self.axis % len(self.in_shape)
            length = self.in_shape[axis]
            shape = self.in_shape
        if len(self.repeats) == 1:
            # Equal runs: fold each run into its own axis and sum it.
            r = self.repeats[0]
            folded = gy.reshape(shape[:axis] + (length, r) + shape[axis + 1 :])
            gx = folded.sum(axis=axis + 1)
        else:
            sources = numpy.repeat(numpy.arange(length), self.repeats)
            gx = xp.zeros(shape, dtype=gy.dtype)
            xp.add.at(gx, (slice(None),) * axis + (xp.asarray(sources),), gy)
        return (gx.reshape(self.in_shape).astype(self.in_dtype, copy=False),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        return Repeat(self.repeats, self.axis).apply(grad_outputs)


def repeat(x, repeats, axis: int | None = None) -> Variable:
    """Repeat the elements of a variable.

    Args:
        x: Input variable or array.
        repeats: How many times each element is repeated: one int for all, or a tuple with
            one int per element along ``axis``.
        axis: The axis to repeat along; ``None`` repeats the flattened input.

    Returns:
        The repeated variable (1-D when ``axis`` is None).

    Example:
        >>> x = np.array([[1, 2], [3, 4]], np.float32)
        >>> F.repeat(x, 2).array
        array([1., 1., 2., 2., 3., 3., 4., 4.], dtype=float32)
        >>> F.repeat(x, (1, 2), axis=0).array
        array([[1., 2.],
               [3., 4.],
               [3., 4.]], dtype=float32)
    """
    return Repeat(repeats, axis).apply((x,))[0]
