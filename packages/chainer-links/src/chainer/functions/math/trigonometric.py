"""Trigonometric functions and their inverses: sin, cos, tan, arcsin, arccos, arctan, arctan2."""

from __future__ import annotations

from chainer import backend, utils
from chainer.function_node import FunctionNode
from chainer.functions.math._broadcast import expect_broadcastable, reduce_to
from chainer.functions.math._unary import UnaryFloat
from chainer.utils import type_check
from chainer.variable import Variable


class Sin(UnaryFloat):
    _xp_name = "sin"

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        (x,) = self.get_retained_inputs()
        return (grad_outputs[0] * cos(x),)


class Cos(UnaryFloat):
    _xp_name = "cos"

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        (x,) = self.get_retained_inputs()
        return (-grad_outputs[0] * sin(x),)


class Tan(UnaryFloat):
    _xp_name = "tan"
    _retain = "y"

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        (y,) = self.get_retained_outputs()
        return (grad_outputs[0] * (y * y + 1),)


class Arcsin(UnaryFloat):
    _xp_name = "arcsin"

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        (x,) = self.get_retained_inputs()
        return (grad_outputs[0] * (1 - x * x) ** -0.5,)


class Arccos(UnaryFloat):
    _xp_name = "arccos"

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        (x,) = self.get_retained_inputs()
        return (-grad_outputs[0] * (1 - x * x) ** -0.5,)


class Arctan(UnaryFloat):
    _xp_name = "arctan"

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        (x,) = self.get_retained_inputs()
        return (grad_outputs[0] / (x * x + 1),)


class Arctan2(FunctionNode):
    """``arctan(x1 / x2)`` in the right quadrant; the inputs broadcast against each other."""

    is_elementwise = True

    def check_type_forward(self, in_types) -> None:
        type_check.argname(in_types, ("x1", "x2"))
        x1, x2 = in_types
        type_check.expect(x1.dtype.kind == "f", x1.dtype == x2.dtype)
        expect_broadcastable(x1, x2)

    def forward(self, inputs: tuple) -> tuple:
        self.retain_inputs((0, 1))
        x1, x2 = inputs
        xp = backend.get_array_module(x1, x2)
        return (utils.force_array(xp.arctan2(x1, x2)),)

    def forward_chainerx(self, inputs: tuple) -> tuple:
        import chainerx

        return (chainerx.arctan2(*inputs),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        x1, x2 = self.get_retained_inputs()
        g = grad_outputs[0] / (x1 * x1 + x2 * x2)
        grads = {0: g * x2, 1: -g * x1}
        return tuple([reduce_to(grads[i], self.inputs[i].shape) for i in indexes])


def sin(x) -> Variable:
    """Elementwise sine.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input of a floating-point dtype.

    Returns:
        ~chainer.Variable: ``sin(x)``, of the shape and dtype of ``x``.

    Example:
        >>> F.sin(np.array([0.0, np.pi / 2])).array
        array([0., 1.])
    """
    return Sin().apply((x,))[0]


def cos(x) -> Variable:
    """Elementwise cosine.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input of a floating-point dtype.

    Returns:
        ~chainer.Variable: ``cos(x)``, of the shape and dtype of ``x``.

    Example:
        >>> F.cos(np.array([0.0])).array
        array([1.])
    """
    return Cos().apply((x,))[0]


def tan(x) -> Variable:
    """Elementwise tangent.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input of a floating-point dtype.

    Returns:
        ~chainer.Variable: ``tan(x)``, of the shape and dtype of ``x``.

    Example:
        >>> F.tan(np.array([0.0])).array
        array([0.])
    """
    return Tan().apply((x,))[0]


def arcsin(x) -> Variable:
    """Elementwise arcsine (inverse sine), defined on ``[-1, 1]``.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input of a floating-point dtype.

    Returns:
        ~chainer.Variable: ``arcsin(x)``, of the shape and dtype of ``x``.

    Example:
        >>> F.arcsin(np.array([1.0])).array
        array([1.57079633])
    """
    return Arcsin().apply((x,))[0]


def arccos(x) -> Variable:
    """Elementwise arccosine (inverse cosine), defined on ``[-1, 1]``.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input of a floating-point dtype.

    Returns:
        ~chainer.Variable: ``arccos(x)``, of the shape and dtype of ``x``.

    Example:
        >>> F.arccos(np.array([1.0])).array
        array([0.])
    """
    return Arccos().apply((x,))[0]


def arctan(x) -> Variable:
    """Elementwise arctangent (inverse tangent).

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input of a floating-point dtype.

    Returns:
        ~chainer.Variable: ``arctan(x)``, of the shape and dtype of ``x``.

    Example:
        >>> F.arctan(np.array([0.0])).array
        array([0.])
    """
    return Arctan().apply((x,))[0]


def arctan2(x1, x2) -> Variable:
    """Elementwise arctangent of ``x1 / x2``, choosing the quadrant by the signs of both.

    Args:
        x1 (:class:`~chainer.Variable` or :ref:`ndarray`): The y-coordinates.
        x2 (:class:`~chainer.Variable` or :ref:`ndarray`): The x-coordinates, of the dtype of
            ``x1`` and a shape that broadcasts with it.

    Returns:
        ~chainer.Variable: The angles in ``[-pi, pi]``, of the broadcast shape.

    Example:
        >>> F.arctan2(np.array([1.0]), np.array([-1.0])).array
        array([2.35619449])
    """
    return Arctan2().apply((x1, x2))[0]
