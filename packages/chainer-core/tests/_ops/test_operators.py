"""Scalar operands of the Variable operators: cached constants, bitwise NumPy's results."""

import numpy
import pytest

from chainer import Variable
from chainer._ops import operators
from chainer._ops.array_ops import sum as sum_


def _same_bits(a, b):
    assert a.dtype == b.dtype and a.shape == b.shape
    assert a.tobytes() == b.tobytes(), f"{a} != {b}"


@pytest.mark.parametrize("dtype", [numpy.float16, numpy.float32, numpy.float64, numpy.int32])
@pytest.mark.parametrize("value", [0.1, 3, -2.5, 7.0])
def test_results_are_numpy_with_the_scalar_in_the_variable_dtype(dtype, value):
    x = numpy.array([1.5, -2.0, 3.25], dtype)
    c = numpy.dtype(dtype).type(value)
    for _ in range(2):  # the second time from the cache
        _same_bits((Variable(x) * value).array, x * c)
        _same_bits((value * Variable(x)).array, x * c)
        _same_bits((Variable(x) + value).array, x + c)
        _same_bits((Variable(x) - value).array, x + -c)
        if c:
            _same_bits((Variable(x) / value).array, x * operators._reciprocal(c))


def test_signed_zero_and_nan_are_not_confused():
    x = Variable(numpy.array([1.0, 2.0], numpy.float32))
    assert not numpy.signbit((x * 0.0).array).any()
    assert numpy.signbit((x * -0.0).array).all()
    assert not numpy.signbit((x * 0.0).array).any()
    assert numpy.isnan((x + float("nan")).array).all()
    assert all(key[2] != 0 for key in operators._SCALAR_OPERANDS)


def test_cached_operands_are_read_only_and_bounded():
    x = Variable(numpy.ones(2, numpy.float32))
    for i in range(operators._SCALAR_OPERANDS_SIZE + 10):
        x * float(i + 1)
    assert 0 < len(operators._SCALAR_OPERANDS) <= operators._SCALAR_OPERANDS_SIZE
    _, operand = operators._scalar_operand(x.array, 2.0, None)
    with pytest.raises(ValueError):
        operand[...] = 5


def test_constant_node_keeps_the_scalar_value_and_label():
    x = Variable(numpy.ones(2, numpy.float32))
    y = x * 2.0
    assert type(y.creator.value) is numpy.float32
    assert y.creator.label == "_ * 2.0"
    z = x - 2.0
    assert z.creator.label == "_ + (-2.0)"


def test_gradient_of_a_constant_product():
    x = Variable(numpy.array([1.0, 2.0], numpy.float32))
    sum_(x * 3.0 / 4.0).backward()
    quarter = operators._reciprocal(numpy.float32(4.0))
    _same_bits(x.grad, numpy.ones(2, numpy.float32) * quarter * numpy.float32(3.0))
    assert x.grad[0] == pytest.approx(0.75)
