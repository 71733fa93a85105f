"""Binary accuracy: the fraction of positive/negative decisions ``y >= 0`` that match ``t``."""

from __future__ import annotations

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.utils import type_check
from chainer.variable import Variable


class BinaryAccuracy(FunctionNode):
    """Accuracy of the sign of ``y`` against 0/1 labels ``t`` (-1 is ignored)."""

    ignore_label = -1

    def check_type_forward(self, in_types) -> None:
        type_check.argname(in_types, ("y", "t"))
        y_type, t_type = in_types
        type_check.expect(
            y_type.dtype.kind == "f",
            t_type.dtype.kind == "i",
            t_type.shape == y_type.shape,
        )

    def forward(self, inputs: tuple) -> tuple:
        y, t = inputs
        xp = backend.get_array_module(y)
        # A label of -1 never equals a 0/1 decision, so it drops out of the count by itself.
        correct = ((y >= 0) == t).sum()
        total = xp.maximum((t != self.ignore_label).sum(), 1)
        return (xp.asarray(correct / total, dtype=y.dtype),)

    def forward_chainerx(self, inputs: tuple) -> tuple:
        import chainerx

        y, t = inputs
        correct = ((y >= 0) == t).sum()
        total = chainerx.maximum((t != self.ignore_label).sum(), 1)
        ratio = correct.astype("float64") / total.astype("float64")  # as NumPy's int / int
        return (ratio.astype(y.dtype),)


def binary_accuracy(y, t) -> Variable:
    """Fraction of labels ``t`` matched by the decisions ``y >= 0``.

    Args:
        y: Scores (logits) of any shape, float. A score ``>= 0`` predicts 1.
        t: Integer labels of the shape of ``y``: 0, 1, or -1 to ignore the element.

    Returns:
        A scalar variable of the dtype of ``y`` (0 when every label is ignored). It is not
        differentiable.

    Example:
        >>> y = numpy.array([-1.0, 2.0, 0.5, -3.0], numpy.float32)
        >>> t = numpy.array([0, 1, 0, -1], numpy.int32)
        >>> F.binary_accuracy(y, t).array
        array(0.6666667, dtype=float32)
    """
    return BinaryAccuracy().apply((y, t))[0]
