"""The Hurwitz zeta function."""

from __future__ import annotations

import numpy

from chainer import backend, utils
from chainer.function_node import FunctionNode
from chainer.functions.math._broadcast import reduce_to
from chainer.functions.math._special import special_function
from chainer.utils import type_check
from chainer.variable import Variable, as_array


class Zeta(FunctionNode):
    """``sum_k (k + q) ** -x``, differentiable in ``q`` only (``x`` is a constant)."""

    is_elementwise = True

    def __init__(self, x) -> None:
        self.x = as_array(x)

    def check_type_forward(self, in_types) -> None:
        type_check.argname(in_types, ("q",))
        type_check.expect(in_types[0].dtype.kind == "f")

    def forward(self, inputs: tuple) -> tuple:
        self.retain_inputs((0,))
        (q,) = inputs
        xp = backend.get_array_module(q)
        # The order goes to q's device and dtype, ready for the gradient.
        self._x = utils.force_type(
            q.dtype, self.x if numpy.isscalar(self.x) else xp.asarray(self.x)
        )
        y = special_function(xp, "zeta", "zeta")(self._x, q)
        return (utils.force_array(y, q.dtype),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        (q,) = self.get_retained_inputs()
        x = self._x
        if not numpy.isscalar(x):  # on q's device: a fallback forward left it on the host
            x = backend.get_device_from_array(q.array).send(x)
        g = grad_outputs[0] * zeta(x + 1, q) * -x
        return (reduce_to(g, q.shape),)


def zeta(x, q) -> Variable:
    """Elementwise Hurwitz zeta function ``sum_{k >= 0} (k + q) ** -x``.

    Args:
        x (float or :ref:`ndarray`): The order, greater than one; a constant (no gradient).
        q (:class:`~chainer.Variable` or :ref:`ndarray`): The offset, positive, of a
            floating-point dtype.

    Returns:
        ~chainer.Variable: The values, of the broadcast shape and the dtype of ``q``.

    Raises:
        ImportError: On the CPU, when SciPy is not installed.

    Example:
        >>> F.zeta(2.0, np.array([1.0])).array
        array([1.64493407])
    """
    return Zeta(x).apply((q,))[0]
