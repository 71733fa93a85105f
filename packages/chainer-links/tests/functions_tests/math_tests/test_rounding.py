"""ceil, floor, fix and sign: piecewise constant, so they build no graph."""

import numpy
import pytest

import chainer
import chainer.functions as F

from ..chainerx_native import to_chainerx, to_numpy

_EXPECTED = {
    "ceil": [-1.0, -0.0, 0.0, 1.0, 2.0],
    "floor": [-2.0, -1.0, 0.0, 0.0, 1.0],
    "fix": [-1.0, -0.0, 0.0, 0.0, 1.0],
    "sign": [-1.0, -1.0, 0.0, 1.0, 1.0],
}


@pytest.mark.parametrize("name", sorted(_EXPECTED))
@pytest.mark.parametrize("dtype", [numpy.float16, numpy.float32, numpy.float64])
def test_values_dtype_and_no_gradient(name, dtype):
    x = chainer.Variable(numpy.array([-1.5, -0.5, 0.0, 0.5, 1.5], dtype))
    y = getattr(F, name)(x)
    assert y.dtype == dtype and y.creator is None and not y.requires_grad
    numpy.testing.assert_array_equal(y.array, numpy.array(_EXPECTED[name], dtype))


@pytest.mark.parametrize("name", sorted(_EXPECTED))
def test_arrays_0d_and_zero_size(name):
    f = getattr(F, name)
    assert f(numpy.array(-1.5)).array == _EXPECTED[name][0]
    assert f(numpy.empty((0, 2), numpy.float32)).shape == (0, 2)


@pytest.mark.parametrize("name", sorted(_EXPECTED))
@pytest.mark.parametrize("dtype", [numpy.float16, numpy.float32])
def test_chainerx_values_and_dtype(name, dtype):
    (x,) = to_chainerx(numpy.array([-1.5, -0.5, 0.0, 0.5, 1.5], dtype))
    y = getattr(F, name)(x)
    assert y.dtype == dtype and not y.requires_grad
    expected = numpy.array(_EXPECTED[name], dtype)
    numpy.testing.assert_array_equal(to_numpy(y), expected)
    numpy.testing.assert_array_equal(numpy.signbit(to_numpy(y)), numpy.signbit(expected))
