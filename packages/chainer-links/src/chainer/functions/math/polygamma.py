"""Polygamma functions: the derivatives of digamma."""

from __future__ import annotations

from chainer import backend, utils
from chainer.function_node import FunctionNode
from chainer.functions.math._broadcast import expect_broadcastable, reduce_to
from chainer.functions.math._special import special_function
from chainer.utils import type_check
from chainer.variable import Variable


class PolyGamma(FunctionNode):
    """``psi^(n)(x)``, the ``n``-th derivative of digamma; differentiable in ``x`` only."""

    is_elementwise = True

    def check_type_forward(self, in_types) -> None:
        type_check.argname(in_types, ("n", "x"))
        n_type, x_type = in_types
        type_check.expect(n_type.dtype.kind == "i", x_type.dtype.kind == "f")
        expect_broadcastable(n_type, x_type)

    def forward(self, inputs: tuple) -> tuple:
        self.retain_inputs((0, 1))
        n, x = inputs
        xp = backend.get_array_module(n, x)
        y = special_function(xp, "polygamma", "polygamma")(n, x)
        return (utils.force_array(y, x.dtype),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        n, x = self.get_retained_inputs()
        grads = []
        for i in indexes:
            if i == 0:
                grads.append(None)  # the order is an integer
            else:
                g = grad_outputs[0] * polygamma(utils.force_array(n.array + 1), x)
                grads.append(reduce_to(g, x.shape))
        return tuple(grads)


def polygamma(n, x) -> Variable:
    """Elementwise polygamma function, the ``n``-th derivative of digamma.

    Args:
        n (:class:`~chainer.Variable` or :ref:`ndarray`): The non-negative orders, of an
            integer dtype; not differentiated.
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input of a floating-point dtype,
            broadcastable with ``n``.

    Returns:
        ~chainer.Variable: ``psi^(n)(x)``, of the broadcast shape and the dtype of ``x``.

    Raises:
        ImportError: On the CPU, when SciPy is not installed.

    Example:
        >>> F.polygamma(np.array([1]), np.array([1.0])).array
        array([1.64493407])
    """
    return PolyGamma().apply((n, x))[0]
