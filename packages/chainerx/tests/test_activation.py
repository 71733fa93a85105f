"""clipped_relu, crelu, elu, leaky_relu and softplus against NumPy, with gradients."""

import numpy
import pytest

import chainerx
from chainerx.testing._gradient import check_backward

# Values away from the kinks at 0 (and at z for clipped_relu), so central differences hold.
_X = numpy.array([[-2.5, -1.2, -0.3, 0.4], [0.9, 1.7, 2.6, -0.8]])


def _reference(name, x, param):
    if name == "clipped_relu":
        return numpy.clip(x, 0, param)
    if name == "elu":
        return numpy.where(x > 0, x, param * numpy.expm1(numpy.minimum(x, 0)))
    if name == "leaky_relu":
        return numpy.where(x >= 0, x, x * param)
    return numpy.logaddexp(0, param * x) / param  # softplus


@pytest.mark.parametrize(
    "name,param", [("clipped_relu", 1.5), ("elu", 0.7), ("leaky_relu", 0.3), ("softplus", 2.0)]
)
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_forward_matches_numpy(name, param, dtype):
    x = _X.astype(dtype)
    y = getattr(chainerx, name)(chainerx.array(x), param)
    assert y.dtype == numpy.dtype(dtype)
    rtol = 2e-3 if dtype == "float16" else 1e-6
    numpy.testing.assert_allclose(
        chainerx.to_numpy(y), _reference(name, x.astype("float64"), param), rtol=rtol, atol=rtol
    )


@pytest.mark.parametrize(
    "name,param", [("clipped_relu", 1.5), ("elu", 0.7), ("leaky_relu", 0.3), ("softplus", 2.0)]
)
def test_gradients_first_and_second_order(name, param):
    check_backward(lambda x: getattr(chainerx, name)(x, param), [_X], double_backprop=True)


def test_defaults_are_chainers():
    x = chainerx.array(numpy.array([-30.0, -1.0, 25.0]))
    numpy.testing.assert_allclose(chainerx.to_numpy(chainerx.clipped_relu(x)), [0, 0, 20])
    numpy.testing.assert_allclose(
        chainerx.to_numpy(chainerx.elu(x)), [numpy.expm1(-30.0), numpy.expm1(-1.0), 25]
    )
    numpy.testing.assert_allclose(chainerx.to_numpy(chainerx.leaky_relu(x)), [-6, -0.2, 25])
    numpy.testing.assert_allclose(
        chainerx.to_numpy(chainerx.softplus(x)), numpy.logaddexp(0, [-30.0, -1.0, 25.0])
    )


def test_elu_and_softplus_stay_finite_for_large_inputs():
    x = chainerx.array(numpy.array([1000.0, -1000.0])).require_grad()
    y = chainerx.elu(x) + chainerx.softplus(x)
    y.sum().backward()
    numpy.testing.assert_allclose(chainerx.to_numpy(y), [2000.0, -1.0])
    numpy.testing.assert_allclose(chainerx.to_numpy(x.grad), [2.0, 0.0])


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_crelu_concatenates_both_halves(axis):
    y = chainerx.crelu(chainerx.array(_X), axis)
    expected = numpy.concatenate([numpy.maximum(_X, 0), numpy.maximum(-_X, 0)], axis)
    numpy.testing.assert_array_equal(chainerx.to_numpy(y), expected)
    check_backward(lambda x: chainerx.crelu(x, axis), [_X], double_backprop=True)
