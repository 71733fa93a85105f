"""Gaussian sampling with the reparameterization trick: ``mean + exp(ln_var / 2) * eps``."""

from __future__ import annotations

import numpy

from chainer import backend
from chainer._ops._util import force_array
from chainer._ops.exponential import exp
from chainer.function_node import FunctionNode
from chainer.functions.noise.dropout import chainerx_constant
from chainer.utils import argument, type_check
from chainer.variable import Variable


class Gaussian(FunctionNode):
    """A sample of :math:`N(\\mu, \\sigma^2)` from inputs ``(mean, ln_var)``.

    Args:
        eps: Standard-normal noise to use instead of a random draw (shape of ``ln_var``).
    """

    def __init__(self, eps=None) -> None:
        self.eps = eps

    def check_type_forward(self, in_types) -> None:
        type_check.argname(in_types, ("mean", "ln_var"))
        m_type, v_type = in_types
        type_check.expect(
            m_type.dtype.kind == "f",
            m_type.dtype == v_type.dtype,
            m_type.shape == v_type.shape,
        )
        if self.eps is not None:
            eps = type_check.make_variable(self.eps, "eps")
            type_check.expect(eps.shape == v_type.shape)

    def forward(self, inputs: tuple) -> tuple:
        self.retain_inputs((1,))
        mean, ln_var = inputs
        xp = backend.get_array_module(mean)
        if self.eps is None:
            self.eps = xp.random.standard_normal(ln_var.shape).astype(mean.dtype)
        elif self.eps.dtype != mean.dtype:  # the gradient must keep the inputs' dtype too
            self.eps = self.eps.astype(mean.dtype)
        noise = xp.exp(ln_var * ln_var.dtype.type(0.5))  # NumPy 1 promotes a 0-d x * 0.5
        noise *= self.eps
        return (force_array(mean + noise),)

    def forward_chainerx(self, inputs: tuple) -> tuple:
        import chainerx

        mean, ln_var = inputs
        eps = self.eps
        if eps is None:  # the draw of the NumPy forward, from NumPy's generator
            eps = numpy.random.standard_normal(ln_var.shape)
        self.eps = chainerx_constant(eps, mean.device, mean.dtype)
        return (mean + chainerx.exp(ln_var * 0.5) * self.eps,)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        ln_var = self.get_retained_inputs()[0]
        gy = grad_outputs[0]
        ret = []
        for i in indexes:
            if i == 0:
                ret.append(gy)
            else:
                ret.append(gy * exp(ln_var * 0.5) * self.eps * 0.5)
        return tuple(ret)


def gaussian(mean, ln_var, **kwargs) -> Variable | tuple:
    """Gaussian sampling function: :math:`y = \\mu + \\exp(\\ln \\sigma^2 / 2)\\,\\epsilon`
    with :math:`\\epsilon \\sim N(0, 1)`.

    The sample is differentiable with respect to ``mean`` and ``ln_var`` (the
    reparameterization trick of variational autoencoders). It draws in training and test mode
    alike.

    Args:
        mean: Mean :math:`\\mu`, a variable or array of floating-point dtype.
        ln_var: Log-variance :math:`\\ln \\sigma^2`, of ``mean``'s shape and dtype.
        eps (keyword only): Standard-normal noise of ``mean``'s shape to use instead of a
            random draw.
        return_eps (keyword only): Also return the noise used.

    Returns:
        A variable of ``mean``'s shape and dtype, or ``(y, eps)`` when ``return_eps``.

    Example:
        >>> mean = numpy.zeros(3, numpy.float32)
        >>> ln_var = numpy.zeros(3, numpy.float32)
        >>> eps = numpy.array([1.0, -1.0, 0.5], numpy.float32)
        >>> F.gaussian(mean, ln_var, eps=eps).array
        array([ 1. , -1. ,  0.5], dtype=float32)
    """
    eps, return_eps = argument.parse_kwargs(kwargs, ("eps", None), ("return_eps", False))
    func = Gaussian(eps)
    y = func.apply((mean, ln_var))[0]
    if return_eps:
        return y, func.eps
    return y
