"""Scaled exponential linear unit: ``scale * elu(x, alpha)``."""

from __future__ import annotations

from chainer.functions.activation.elu import elu
from chainer.variable import Variable


def selu(x, alpha: float = 1.6732632423543772, scale: float = 1.0507009873554805) -> Variable:
    """Scaled Exponential Linear Unit: :math:`f(x) = \\lambda x` if :math:`x > 0`, else
    :math:`\\lambda \\alpha (\\exp(x) - 1)`.

    The default constants make activations self-normalizing (Klambauer et al., 2017).

    Args:
        x: Input variable or array of floating-point dtype, of any shape.
        alpha: The saturation scale :math:`\\alpha` of the negative part.
        scale: The overall scale :math:`\\lambda`.

    Returns:
        A variable of the shape and dtype of ``x``.

    Example:
        >>> F.selu(numpy.array([-1.0, 1.0], numpy.float32)).array
        array([-1.1113307,  1.050701 ], dtype=float32)
    """
    return elu(x, alpha) * scale
