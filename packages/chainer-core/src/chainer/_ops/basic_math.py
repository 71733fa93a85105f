"""Arithmetic on variables: +, -, *, /, **, unary -, abs (with NumPy broadcasting)."""

from __future__ import annotations

from typing import Any

import numpy

from chainer import _variable_checks
from chainer._ops import _util
from chainer._ops._util import force_array
from chainer.function_node import Fallback, FunctionNode
from chainer.variable import Variable, _new_variable

_ndarray = numpy.ndarray


def constant_label(value) -> str:
    """How a constant operand appears in labels (as v7): ``2``, ``(-2.0)``, ``constant array``."""
    if isinstance(value, Variable):
        value = value._array
    if numpy.isscalar(value):
        scalar: Any = value
        return f"({scalar})" if scalar < 0 else str(scalar)
    if _variable_checks.is_supported_array(value):
        return "constant array"
    raise ValueError(
        f"a constant operand must be a Variable, a scalar or an array, got {type(value).__name__}"
    )


def _chainerx_constant(value):
    """``value`` if ChainerX can take it as a scalar operand (it keeps the array's dtype),
    else None: array constants go through the NumPy forward."""
    return value if isinstance(value, _SCALARS) else None


def _sum_to(gx: Variable, shape: tuple) -> Variable:
    if gx._array.shape == shape:
        return gx
    from chainer._ops.array_ops import sum_to

    return sum_to(gx, shape)


def _same_shape(gy: Variable, func: FunctionNode):
    """The NumPy array of ``gy`` when it has the shape of ``func``'s single input, else None.

    The fast backward of an elementwise node declines every other case (broadcasting, CuPy,
    a gradient of the wrong shape, which backward reports): backward handles them.
    """
    g = gy._array
    if type(g) is not _ndarray or g.shape != func.inputs[0].shape:
        return None
    return g


def _binary_same_shape(gy: Variable, func: FunctionNode):
    """:func:`_same_shape` for a node of two inputs of one shape."""
    g = gy._array
    node0, node1 = func.inputs
    if type(g) is not _ndarray or g.shape != node0.shape or g.shape != node1.shape:
        return None
    return g


class _Binary(FunctionNode):
    """Two same-dtype inputs with broadcastable shapes."""

    is_elementwise = True

    def _check_arrays(self, in_data: tuple) -> None:
        if len(in_data) != 2:
            _util.fail("in_types.size() == 2", f"{len(in_data)} != 2")
        a, b = in_data
        if a.dtype != b.dtype:
            _util.fail("lhs.dtype == rhs.dtype", f"{a.dtype} != {b.dtype}")
        if a.shape != b.shape:
            _util.check_broadcastable(in_data)


class Add(FunctionNode):
    """Sum of any number of same-dtype, broadcastable inputs."""

    is_elementwise = True
    label = "_ + _"

    def _check_arrays(self, in_data: tuple) -> None:
        if len(in_data) == 2:  # x + y: both rules at once
            a, b = in_data
            if a.dtype == b.dtype and a.shape == b.shape:
                return
        if not in_data:
            _util.fail("in_types.size() > 0", "0 <= 0")
        _util.check_same_dtype(in_data)
        shape = in_data[0].shape
        for x in in_data:
            if x.shape != shape:
                _util.check_broadcastable(in_data)
                break

    def forward(self, inputs: tuple) -> tuple:
        y = inputs[0] + inputs[1]
        for x in inputs[2:]:
            y = y + x
        return (force_array(y),)

    def forward_chainerx(self, inputs: tuple) -> tuple:
        y = inputs[0] + inputs[1]
        for x in inputs[2:]:
            y = y + x
        return (y,)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        gy = grad_outputs[0]
        return tuple([_sum_to(gy, self.inputs[i].shape) for i in indexes])

    def _backward_fast(self, indexes: tuple, grad_outputs: tuple) -> tuple | None:
        gy = grad_outputs[0]
        shape = gy._array.shape
        inputs = self.inputs
        for i in indexes:
            if inputs[i].shape != shape:
                return None
        return (gy,) * len(indexes)


class AddConstant(FunctionNode):
    is_elementwise = True
    # ``value`` as a read-only 0-d array, given by the operators (chainer._ops.operators).
    _operand = None

    def __init__(self, value) -> None:
        self.value = value

    @property
    def label(self) -> str:
        return f"_ + {constant_label(self.value)}"

    def forward(self, inputs: tuple) -> tuple:
        x = inputs[0]
        operand = self._operand
        if operand is None or type(x) is not _ndarray:
            operand = self.value
        return (force_array(x + operand),)

    def forward_chainerx(self, inputs: tuple):
        value = _chainerx_constant(self.value)
        return Fallback if value is None else (inputs[0] + value,)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        return grad_outputs

    def _backward_fast(self, indexes: tuple, grad_outputs: tuple) -> tuple | None:
        return grad_outputs if _same_shape(grad_outputs[0], self) is not None else None


class Sub(_Binary):
    label = "_ - _"

    def forward(self, inputs: tuple) -> tuple:
        return (force_array(inputs[0] - inputs[1]),)

    def forward_chainerx(self, inputs: tuple):
        a, b = inputs
        if a.dtype.kind == "b":  # NumPy refuses boolean subtraction; ChainerX would not
            return Fallback
        return (a - b,)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        gy = grad_outputs[0]
        return tuple([_sum_to(gy if i == 0 else -gy, self.inputs[i].shape) for i in indexes])

    def _backward_fast(self, indexes: tuple, grad_outputs: tuple) -> tuple | None:
        gy = grad_outputs[0]
        g = _binary_same_shape(gy, self)
        if g is None:
            return None
        return tuple(
            [gy if i == 0 else _new_variable(force_array(-g), gy._requires_grad) for i in indexes]
        )


class SubFromConstant(FunctionNode):
    is_elementwise = True

    def __init__(self, value) -> None:
        self.value = value

    @property
    def label(self) -> str:
        return f"{constant_label(self.value)} - _"

    def forward(self, inputs: tuple) -> tuple:
        return (force_array(self.value - inputs[0]),)

    def forward_chainerx(self, inputs: tuple):
        value = _chainerx_constant(self.value)
        if value is None or inputs[0].dtype.kind == "b":
            return Fallback
        return (value - inputs[0],)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        return (-grad_outputs[0],)


class Neg(FunctionNode):
    is_elementwise = True
    label = "__neg__"

    def forward(self, inputs: tuple) -> tuple:
        return (force_array(-inputs[0]),)

    def forward_chainerx(self, inputs: tuple):
        x = inputs[0]
        return Fallback if x.dtype.kind == "b" else (-x,)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        return (-grad_outputs[0],)

    def _backward_fast(self, indexes: tuple, grad_outputs: tuple) -> tuple | None:
        gy = grad_outputs[0]
        g = _same_shape(gy, self)
        if g is None:
            return None
        return (_new_variable(force_array(-g), gy._requires_grad),)


class Mul(_Binary):
    label = "_ * _"

    def forward(self, inputs: tuple) -> tuple:
        self._input_indexes_to_retain = (0, 1)
        return (force_array(inputs[0] * inputs[1]),)

    def forward_chainerx(self, inputs: tuple) -> tuple:
        return (inputs[0] * inputs[1],)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        gy = grad_outputs[0]
        x0, x1 = self.get_retained_inputs()
        return tuple([_sum_to(gy * (x1 if i == 0 else x0), self.inputs[i].shape) for i in indexes])

    def _backward_fast(self, indexes: tuple, grad_outputs: tuple) -> tuple | None:
        gy = grad_outputs[0]
        g = _binary_same_shape(gy, self)
        if g is None:
            return None
        node0, node1 = self.inputs
        x0, x1 = node0.data, node1.data
        if g.dtype != x0.dtype or g.dtype != x1.dtype:
            return None  # backward's Mul would refuse the mixed dtypes
        gy_rg = gy._requires_grad
        ret = []
        for i in indexes:
            if i == 0:
                ret.append(_new_variable(force_array(g * x1), gy_rg or node1._requires_grad))
            else:
                ret.append(_new_variable(force_array(g * x0), gy_rg or node0._requires_grad))
        return tuple(ret)


class MulConstant(FunctionNode):
    is_elementwise = True
    # ``value`` as a read-only 0-d array, given by the operators (chainer._ops.operators).
    _operand = None

    def __init__(self, value) -> None:
        self.value = value

    @property
    def label(self) -> str:
        return f"_ * {constant_label(self.value)}"

    def forward(self, inputs: tuple) -> tuple:
        x = inputs[0]
        operand = self._operand
        if operand is None or type(x) is not _ndarray:
            operand = self.value
        return (force_array(x * operand),)

    def forward_chainerx(self, inputs: tuple):
        value = _chainerx_constant(self.value)
        return Fallback if value is None else (inputs[0] * value,)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        return (grad_outputs[0] * self.value,)

    def _backward_fast(self, indexes: tuple, grad_outputs: tuple) -> tuple | None:
        gy = grad_outputs[0]
        g = _same_shape(gy, self)
        if g is None or not isinstance(self.value, _SCALARS):
            return None
        # backward's ``gy * value`` casts the scalar to the gradient's dtype (the operators'
        # rule), which the 0-d operand already has unless the gradient's dtype differs
        operand = self._operand
        if operand is None or operand.dtype != g.dtype:
            operand = g.dtype.type(self.value)
        return (_new_variable(force_array(g * operand), gy._requires_grad),)


class Div(_Binary):
    label = "_ / _"

    def forward(self, inputs: tuple) -> tuple:
        self._input_indexes_to_retain = (0, 1)
        return (force_array(inputs[0] / inputs[1]),)

    def forward_chainerx(self, inputs: tuple):
        a, b = inputs
        if a.dtype == numpy.float16:
            # ChainerX's float16 divide backward loses precision that v7's gradient checks of
            # functions built on division (prod's double backward) see.
            return Fallback
        return (a / b,)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        gy = grad_outputs[0]
        x0, x1 = self.get_retained_inputs()
        gx0 = gy / x1
        ret = []
        for i in indexes:
            g = gx0 if i == 0 else -gx0 * x0 / x1
            ret.append(_sum_to(g, self.inputs[i].shape))
        return tuple(ret)


class DivFromConstant(FunctionNode):
    is_elementwise = True

    def __init__(self, value) -> None:
        self.value = value

    @property
    def label(self) -> str:
        return f"{constant_label(self.value)} / _"

    def forward(self, inputs: tuple) -> tuple:
        self._input_indexes_to_retain = (0,)
        return (force_array(self.value / inputs[0]),)

    def forward_chainerx(self, inputs: tuple):
        value = _chainerx_constant(self.value)
        return Fallback if value is None else (value / inputs[0],)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        (x,) = self.get_retained_inputs()
        return (grad_outputs[0] * (-self.value) / (x * x),)


class PowVarVar(_Binary):
    label = "_ ** _"

    def forward(self, inputs: tuple) -> tuple:
        self._input_indexes_to_retain = (0, 1)
        return (force_array(inputs[0] ** inputs[1]),)

    def forward_chainerx(self, inputs: tuple):
        a, b = inputs
        if a.dtype.kind == "b":  # NumPy computes booleans' powers in int8; ChainerX refuses
            return Fallback
        return (a**b,)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        from chainer._ops.exponential import log

        gy = grad_outputs[0]
        x0, x1 = self.get_retained_inputs()
        ret = []
        for i in indexes:
            if i == 0:
                g = gy * x1 * x0 ** (x1 - 1)
            else:
                g = gy * x0**x1 * log(x0)
            ret.append(_sum_to(g, self.inputs[i].shape))
        return tuple(ret)


class PowVarConst(FunctionNode):
    is_elementwise = True

    def __init__(self, value) -> None:
        self.value = value

    @property
    def label(self) -> str:
        return f"_ ** {constant_label(self.value)}"

    def _check_arrays(self, in_data: tuple) -> None:
        _util.check_float(in_data)

    def forward(self, inputs: tuple) -> tuple:
        self._input_indexes_to_retain = (0,)
        return (force_array(inputs[0] ** self.value),)

    def forward_chainerx(self, inputs: tuple):
        value = _chainerx_constant(self.value)
        return Fallback if value is None else (inputs[0] ** value,)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        (x,) = self.get_retained_inputs()
        c = self.value
        return (grad_outputs[0] * (c * x ** (c - 1)),)


class PowConstVar(FunctionNode):
    is_elementwise = True

    def __init__(self, value) -> None:
        self.value = value

    @property
    def label(self) -> str:
        return f"{constant_label(self.value)} ** _"

    def _check_arrays(self, in_data: tuple) -> None:
        _util.check_float(in_data)

    def forward(self, inputs: tuple) -> tuple:
        self.retain_outputs((0,))
        return (force_array(self.value ** inputs[0]),)

    def forward_chainerx(self, inputs: tuple):
        value = _chainerx_constant(self.value)
        return Fallback if value is None else (value ** inputs[0],)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        (y,) = self.get_retained_outputs()
        log_c = (
            numpy.log(self.value).astype(y.dtype)
            if numpy.ndim(self.value)
            else (y.dtype.type(numpy.log(self.value)))
        )
        return (grad_outputs[0] * y * log_c,)


class Absolute(FunctionNode):
    is_elementwise = True
    label = "|_|"

    def _check_arrays(self, in_data: tuple) -> None:
        _util.check_float(in_data)

    def forward(self, inputs: tuple) -> tuple:
        self._input_indexes_to_retain = (0,)
        return (force_array(abs(inputs[0])),)

    def forward_chainerx(self, inputs: tuple) -> tuple:
        return (abs(inputs[0]),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        (x,) = self.get_retained_inputs()
        sign = force_array(x.xp.sign(x._array))
        return (grad_outputs[0] * Variable(sign, requires_grad=False),)


class FloorDivide(_Binary):
    """``//``: piecewise constant, so its gradient is zero (reported as no gradient)."""

    label = "_ // _"

    def forward(self, inputs: tuple) -> tuple:
        return (force_array(inputs[0] // inputs[1]),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        return (None,) * len(indexes)


_SCALARS = (int, float, numpy.generic)


def add(*xs) -> Variable:
    """Elementwise sum of variables (with broadcasting)."""
    if len(xs) == 1:
        return xs[0] if isinstance(xs[0], Variable) else Variable(xs[0], requires_grad=False)
    return Add().apply(xs)[0]
