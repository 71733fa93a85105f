"""Activation functions of v7's Python module, composed of differentiable ChainerX routines.

Each is written with routines whose gradients already exist, so every one is differentiable to
any order; the branch a ``where`` does not select is kept finite so no NaN leaks into gradients.
"""

from chainerx._core import (
    clip,
    concatenate,
    exp,
    expm1,
    fabs,
    log1p,
    maximum,
    minimum,
    ndarray,
    relu,
    where,
)


def clipped_relu(x: ndarray, z: float = 20.0) -> ndarray:
    """``min(max(0, x), z)`` elementwise (Chainer's ``clipped_relu``)."""
    return clip(x, 0, z)


def crelu(x: ndarray, axis: int = 1) -> ndarray:
    """Concatenated ReLU: ``relu(x)`` and ``relu(-x)`` joined along ``axis``."""
    return concatenate((relu(x), relu(-x)), axis)


def elu(x: ndarray, alpha: float = 1.0) -> ndarray:
    """Exponential linear unit: ``x`` where ``x > 0``, else ``alpha * (exp(x) - 1)``."""
    return where(x > 0, x, alpha * expm1(minimum(x, 0)))


def leaky_relu(x: ndarray, slope: float = 0.2) -> ndarray:
    """``x`` where ``x >= 0``, else ``slope * x``."""
    return where(x >= 0, x, x * slope)


def softplus(x: ndarray, beta: float = 1.0) -> ndarray:
    """``log(1 + exp(beta * x)) / beta``, computed without overflow for large ``|beta * x|``."""
    bx = beta * x
    return (maximum(bx, 0) + log1p(exp(-fabs(bx)))) * (1.0 / beta)
