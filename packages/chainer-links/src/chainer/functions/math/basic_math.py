"""Arithmetic of variables. The operators (``+``, ``-``, ``*``, ``/``, ``**``, ``abs``) are the
core's own ops in :mod:`chainer._ops.basic_math`; this module gives them their public names."""

from __future__ import annotations

from chainer._ops.basic_math import (
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
    add,
    constant_label,
)
from chainer.variable import Variable

__all__ = [
    "Absolute",
    "Add",
    "AddConstant",
    "Div",
    "DivFromConstant",
    "FloorDivide",
    "Mul",
    "MulConstant",
    "Neg",
    "PowConstVar",
    "PowVarConst",
    "PowVarVar",
    "Sub",
    "SubFromConstant",
    "absolute",
    "add",
]


def absolute(self) -> Variable:
    """Elementwise absolute value, the function behind ``abs(variable)``.

    Args:
        self (:class:`~chainer.Variable` or :ref:`ndarray`): Input of a floating-point dtype.

    Returns:
        ~chainer.Variable: ``|x|``, of the shape and dtype of the input.

    Example:
        >>> F.absolute(np.array([-1.0, 2.0])).array
        array([1., 2.])
    """
    return Absolute().apply((self,))[0]


# Chainer v7's private name of the label text of a constant operand.
_convert_value_to_string = constant_label
