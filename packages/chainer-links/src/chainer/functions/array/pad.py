"""``pad``: pad a variable along each axis, as :func:`numpy.pad`."""

from __future__ import annotations

import numpy

from chainer import backend
from chainer._ops.array_ops import reshape
from chainer._ops.get_item import GetItemGrad, get_item
from chainer.function_node import Fallback, FunctionNode
from chainer.utils import type_check
from chainer.variable import Variable

__all__ = ["Pad", "pad"]

# Modes whose every output element is a copy of one input element (or a constant): their
# gradient gathers the output gradient back onto the elements copied.
_COPY_MODES = ("constant", "edge", "reflect", "symmetric", "wrap")


class Pad(FunctionNode):
    """Pad the input with :func:`numpy.pad` (or :func:`cupy.pad`).

    Backprop is supported for the modes that copy elements: ``'constant'``, ``'edge'``,
    ``'reflect'``, ``'symmetric'`` and ``'wrap'`` (the last three with the default
    ``reflect_type='even'``).
    """

    def __init__(self, pad_width, mode: str, **keywords) -> None:
        self.pad_width = pad_width
        self.mode = mode
        self.keywords = keywords

    def check_type_forward(self, in_types) -> None:
        # numpy.pad itself rejects bad pad widths and keywords with a precise message.
        type_check.argname(in_types, ("x",))
        type_check.expect(in_types[0].dtype.kind == "f")

    def forward(self, inputs: tuple) -> tuple:
        xp = backend.get_array_module(inputs[0])
        return (xp.pad(inputs[0], self.pad_width, mode=self.mode, **self.keywords),)

    def forward_chainerx(self, inputs: tuple):
        import chainerx

        # The positions are padded on the host; the output gathers the elements they name (the
        # constant is one more element), so ChainerX differentiates a plain gather.
        x = inputs[0]
        options = dict(self.keywords)
        constant = options.pop("constant_values", 0) if self.mode == "constant" else None
        if (
            options.pop("reflect_type", "even") != "even"
            or options
            or self.mode not in _COPY_MODES
        ):
            return Fallback
        if self.mode == "constant" and not numpy.isscalar(constant):
            return Fallback
        positions = numpy.arange(x.size).reshape(x.shape)
        flat = x.reshape(x.size)
        if self.mode == "constant":
            sources = numpy.pad(positions, self.pad_width, mode="constant", constant_values=x.size)
            value = chainerx.asarray(numpy.full(1, constant, x.dtype), device=x.device)
            flat = chainerx.concatenate([flat, value])
        else:
            sources = numpy.pad(positions, self.pad_width, mode=self.mode)
        return (flat[sources],)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        gy = grad_outputs[0]
        shape = self.inputs[0].shape
        if self.mode == "constant":
            widths = numpy.broadcast_to(numpy.asarray(self.pad_width), (len(shape), 2))
            inner = tuple(
                slice(int(before), int(before) + n) for (before, _), n in zip(widths, shape)
            )
            return (get_item(gy, inner),)
        if self.mode not in _COPY_MODES or self.keywords.get("reflect_type", "even") != "even":
            raise NotImplementedError(
                f"pad with mode={self.mode!r} and options {self.keywords} has no gradient; "
                f"backprop supports the modes {_COPY_MODES} (reflect_type='even')"
            )
        # Pad the positions instead of the values: each output element then names its source.
        size = int(numpy.prod(shape))
        sources = numpy.pad(numpy.arange(size).reshape(shape), self.pad_width, mode=self.mode)
        xp = backend.get_array_module(gy)
        sources = xp.asarray(sources.ravel())
        flat = GetItemGrad((sources,), (size,), gy.dtype).apply((reshape(gy, (gy.size,)),))[0]
        return (reshape(flat, shape),)


def pad(x, pad_width, mode: str, **keywords) -> Variable:
    """Pad a variable, as :func:`numpy.pad`.

    Args:
        x: Input variable or array (float).
        pad_width: Number of values padded to the edges of each axis: an int for all,
            ``(before, after)`` for all axes, or one such pair per axis.
        mode: ``'constant'`` pads with a constant value; ``'edge'``, ``'reflect'``,
            ``'symmetric'`` and ``'wrap'`` copy elements as NumPy does. Other NumPy modes work
            forward only.
        **keywords: Options of :func:`numpy.pad`, e.g. ``constant_values`` (the padded value,
            0 by default) for ``'constant'``.

    Returns:
        The padded variable.

    Example:
        >>> x = np.array([[1, 2], [3, 4]], np.float32)
        >>> F.pad(x, 1, 'constant').array
        array([[0., 0., 0., 0.],
               [0., 1., 2., 0.],
               [0., 3., 4., 0.],
               [0., 0., 0., 0.]], dtype=float32)
        >>> F.pad(x, ((0, 0), (1, 1)), 'edge').array
        array([[1., 1., 2., 2.],
               [3., 3., 4., 4.]], dtype=float32)
    """
    return Pad(pad_width, mode, **keywords).apply((x,))[0]
