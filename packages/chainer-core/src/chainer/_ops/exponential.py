"""``exp`` and ``log``: core needs them for the gradients of ``**``."""

from __future__ import annotations

from chainer._ops import _util
from chainer._ops._util import force_array
from chainer.function_node import FunctionNode
from chainer.variable import Variable


class Exp(FunctionNode):
    is_elementwise = True

    @property
    def label(self) -> str:
        return "exp"

    def _check_arrays(self, in_data: tuple) -> None:
        _util.check_float(in_data)

    def forward(self, inputs: tuple) -> tuple:
        self.retain_outputs((0,))
        x = inputs[0]
        return (force_array(_xp(x).exp(x)),)

    def forward_chainerx(self, inputs: tuple) -> tuple:
        import chainerx

        return (chainerx.exp(inputs[0]),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        return (self.get_retained_outputs()[0] * grad_outputs[0],)


class Log(FunctionNode):
    is_elementwise = True

    @property
    def label(self) -> str:
        return "log"

    def _check_arrays(self, in_data: tuple) -> None:
        _util.check_float(in_data)

    def forward(self, inputs: tuple) -> tuple:
        self.retain_inputs((0,))
        x = inputs[0]
        return (force_array(_xp(x).log(x)),)

    def forward_chainerx(self, inputs: tuple) -> tuple:
        import chainerx

        return (chainerx.log(inputs[0]),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        return (grad_outputs[0] / self.get_retained_inputs()[0],)


def _xp(x):
    import numpy

    if type(x) is numpy.ndarray:
        return numpy
    from chainer import backend

    return backend.get_array_module(x)


def exp(x) -> Variable:
    """Elementwise exponential."""
    return Exp().apply((x,))[0]


def log(x) -> Variable:
    """Elementwise natural logarithm."""
    return Log().apply((x,))[0]
