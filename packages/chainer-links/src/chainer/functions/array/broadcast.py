"""``broadcast`` (variables to their common shape) and ``broadcast_to`` (to a given shape).

``broadcast_to`` and its node ``BroadcastTo`` are chainer-core's; ``broadcast`` is built here on
the same rules.
"""

from __future__ import annotations

import numpy

from chainer import backend
from chainer._ops.array_ops import BroadcastTo, broadcast_to, sum_to
from chainer.function_node import FunctionNode
from chainer.utils import type_check
from chainer.variable import Variable, as_variable

__all__ = ["Broadcast", "BroadcastTo", "broadcast", "broadcast_to"]


class Broadcast(FunctionNode):
    """Broadcast any number of inputs to their common shape (NumPy rules)."""

    def check_type_forward(self, in_types) -> None:
        type_check.expect(in_types.size() > 0)
        shapes = [type_check.eval(t.shape) for t in in_types]
        try:
            numpy.broadcast_shapes(*shapes)
        except ValueError:
            listed = ", ".join(str(s) for s in shapes)
            raise type_check.InvalidType(
                "the input shapes are broadcastable", f"cannot broadcast {listed}"
            ) from None

    def forward(self, inputs: tuple) -> tuple:
        xp = backend.get_array_module(*inputs)
        return tuple(xp.broadcast_arrays(*inputs))

    def forward_chainerx(self, inputs: tuple) -> tuple:
        import chainerx

        shape = numpy.broadcast_shapes(*[x.shape for x in inputs])
        return tuple([chainerx.broadcast_to(x, shape) for x in inputs])

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        ret = []
        for i in indexes:
            gy = grad_outputs[i]
            shape = self.inputs[i].shape
            if gy is not None and gy.shape != shape:
                gy = sum_to(gy, shape)
            ret.append(gy)
        return tuple(ret)


def broadcast(*args) -> Variable | tuple:
    """Broadcast variables to their common shape.

    Args:
        *args: Input variables or arrays; their shapes must be broadcastable.

    Returns:
        The broadcast variable when one argument is given, otherwise a tuple of them, all of the
        common shape.

    Example:
        >>> x = np.ones((2, 1), np.float32)
        >>> y = np.ones((3,), np.float32)
        >>> bx, by = F.broadcast(x, y)
        >>> bx.shape, by.shape
        ((2, 3), (2, 3))
    """
    if len(args) == 1:
        return as_variable(args[0])
    return Broadcast().apply(args)
