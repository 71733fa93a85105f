"""Elementwise maximum of two arrays."""

from __future__ import annotations

from chainer import backend, utils
from chainer.function_node import FunctionNode
from chainer.functions.math._broadcast import expect_broadcastable, reduce_to
from chainer.utils import type_check
from chainer.variable import Variable


class ElementwiseChoice(FunctionNode):
    """Pick ``x1`` or ``x2`` per element; the gradient goes to the input picked.

    Subclasses name the array-module function in ``_xp_name`` and say in ``_first_wins``
    where ``x1`` was picked (ties go to ``x1``).
    """

    is_elementwise = True
    _xp_name = ""

    def check_type_forward(self, in_types) -> None:
        type_check.argname(in_types, ("x1", "x2"))
        x1, x2 = in_types
        type_check.expect(x1.dtype.kind == "f", x1.dtype == x2.dtype)
        expect_broadcastable(x1, x2)

    def forward(self, inputs: tuple) -> tuple:
        self.retain_inputs((0, 1))
        x1, x2 = inputs
        xp = backend.get_array_module(x1, x2)
        return (utils.force_array(getattr(xp, self._xp_name)(x1, x2)),)

    def forward_chainerx(self, inputs: tuple) -> tuple:
        import chainerx

        # where(), not maximum(): the gradient goes to the input backward names, ties to x1.
        x1, x2 = inputs
        return (chainerx.where(self._first_wins(x1, x2), x1, x2),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        x1, x2 = self.get_retained_inputs()
        gy = grad_outputs[0]
        first = self._first_wins(x1.array, x2.array)
        grads = []
        for i in indexes:
            mask = (first if i == 0 else ~first).astype(gy.dtype)
            grads.append(reduce_to(gy * mask, self.inputs[i].shape))
        return tuple(grads)

    @staticmethod
    def _first_wins(x1, x2):
        raise NotImplementedError


class Maximum(ElementwiseChoice):
    _xp_name = "maximum"

    @staticmethod
    def _first_wins(x1, x2):
        return x1 >= x2


def maximum(x1, x2) -> Variable:
    """Elementwise maximum of two arrays (broadcast against each other).

    Args:
        x1 (:class:`~chainer.Variable` or :ref:`ndarray`): Input of a floating-point dtype.
        x2 (:class:`~chainer.Variable` or :ref:`ndarray`): Input of the dtype of ``x1``.

    Returns:
        ~chainer.Variable: ``max(x1, x2)`` per element. At ties the gradient goes to ``x1``.

    Example:
        >>> F.maximum(np.array([1.0, 4.0]), np.array([3.0, 2.0])).array
        array([3., 4.])
    """
    return Maximum().apply((x1, x2))[0]
