"""Comparison operators: elementwise, not differentiable, return boolean variables."""

from __future__ import annotations

import operator

import numpy

from chainer import _variable_checks
from chainer._ops._util import force_array
from chainer.variable import Variable


def _compare(op):
    def method(self, other):
        if isinstance(other, Variable):
            other = other._array
        elif not (
            isinstance(other, (int, float, numpy.generic))
            or _variable_checks.is_supported_array(other)
        ):
            return NotImplemented  # e.g. ``var == None`` falls back to identity
        return Variable(force_array(op(self._array, other)), requires_grad=False)

    method.__name__ = f"__{op.__name__}__"
    method.__doc__ = f"Elementwise ``{op.__name__}`` as a boolean variable (no gradient)."
    return method


OPERATORS = {
    f"__{op.__name__}__": _compare(op)
    for op in (operator.lt, operator.le, operator.eq, operator.ne, operator.gt, operator.ge)
}
