"""The arithmetic operators of ``Variable`` (+, -, *, /, //, **, unary -, abs, unary +).

A scalar operand is cast to the variable's dtype, as Chainer does, and handed to a constant
node (``x * 2.0`` is ``MulConstant``); arrays and variables go through the binary nodes.
"""

from __future__ import annotations

import operator

import numpy

from chainer import _variable_checks
from chainer._ops.basic_math import (
    _SCALARS,
    Absolute,
    Add,
    AddConstant,
    Div,
    DivFromConstant,
    FloorDivide,
    Mul,
    MulConstant,
    Neg,
    PowConstVar,
    PowVarConst,
    PowVarVar,
    Sub,
    SubFromConstant,
)
from chainer.variable import Variable

_NUMPY_1 = int(numpy.__version__.split(".")[0]) < 2


def _reciprocal(c):
    """``1 / c``, in the dtype of a float constant (NumPy 1's value-based casting would
    promote ``1 / numpy.float32(c)`` to float64; NumPy 2 keeps the dtype by itself)."""
    if _NUMPY_1 and c.dtype.kind == "f":
        return c.dtype.type(1) / c
    return 1 / c


# (dtype, type, value, transform) -> (constant, the constant as a read-only 0-d array).
# Zero (0.0 == -0.0) and NaN (never equal) are not kept; the table is emptied when full.
_SCALAR_OPERANDS: dict = {}
_SCALAR_OPERANDS_SIZE = 256


def _scalar_operand(array, value, transform) -> tuple:
    """The constant of a scalar operand: ``value`` in ``array``'s dtype, then ``transform``.

    Also returns it as a 0-d array, which NumPy multiplies or adds faster than a scalar, bit
    for bit the same (one dtype, one loop). Both are cached: a model uses a few constants
    again and again.
    """
    key = (array.dtype, type(value), value, transform)
    hit = _SCALAR_OPERANDS.get(key)
    if hit is not None:
        return hit
    constant = array.dtype.type(value)
    if transform is not None:
        constant = transform(constant)
    operand = numpy.asarray(constant)
    operand.flags.writeable = False
    hit = (constant, operand)
    if value and value == value:
        if len(_SCALAR_OPERANDS) >= _SCALAR_OPERANDS_SIZE:
            _SCALAR_OPERANDS.clear()
        _SCALAR_OPERANDS[key] = hit
    return hit


def _array_operand(value, x: Variable) -> Variable:
    """A constant variable for an array operand, cast to ``x``'s dtype as Chainer v7 does
    (arrays never get gradients here)."""
    if _variable_checks.is_supported_array(value):
        dtype = x._array.dtype
        if value.dtype != dtype:
            value = value.astype(dtype)
        return Variable(value, requires_grad=False)
    raise TypeError(
        f"unsupported operand type for a Variable operation: {type(value).__name__} "
        "(expected a Variable, an array or a scalar)"
    )


def _operator(binary, constant, reflected: bool = False, transform=None):
    """A ``Variable`` operator method.

    Variable and array operands go through the ``binary`` node (``other op self`` when
    ``reflected``); a scalar operand, cast to the variable's dtype as Chainer does (then
    ``transform``-ed), goes through ``constant(scalar)``, or is wrapped as a 0-d array when
    ``constant`` is None. The constant node also gets the scalar as a 0-d array in
    ``_operand``, which ``AddConstant`` and ``MulConstant`` compute with on NumPy.
    """

    def operator_method(self, other):
        if isinstance(other, Variable):
            pass
        elif isinstance(other, _SCALARS):
            if constant is not None:
                value, operand = _scalar_operand(self._array, other, transform)
                node = constant(value)
                node._operand = operand
                return node.apply((self,))[0]
            other = Variable(self.xp.full((), other, dtype=self.dtype), requires_grad=False)
        else:
            other = _array_operand(other, self)
        return binary().apply((other, self) if reflected else (self, other))[0]

    return operator_method


def _neg(self):
    return Neg().apply((self,))[0]


def _abs(self):
    return Absolute().apply((self,))[0]


def _pos(self):
    return self


OPERATORS = {
    "__add__": _operator(Add, AddConstant),
    "__radd__": _operator(Add, AddConstant),
    "__sub__": _operator(Sub, AddConstant, transform=operator.neg),
    "__rsub__": _operator(Sub, SubFromConstant, reflected=True),
    "__mul__": _operator(Mul, MulConstant),
    "__rmul__": _operator(Mul, MulConstant),
    "__truediv__": _operator(Div, MulConstant, transform=_reciprocal),
    "__rtruediv__": _operator(Div, DivFromConstant, reflected=True),
    "__floordiv__": _operator(FloorDivide, None),
    "__rfloordiv__": _operator(FloorDivide, None, reflected=True),
    "__pow__": _operator(PowVarVar, PowVarConst),
    "__rpow__": _operator(PowVarVar, PowConstVar, reflected=True),
    "__neg__": _neg,
    "__abs__": _abs,
    "__pos__": _pos,
}
