"""count_nonzero, nansum, nanargmax and nanargmin against NumPy."""

import numpy
import pytest

import chainerx
from chainerx.testing._gradient import check_backward

_WITH_NANS = numpy.array([[1.5, numpy.nan, -2.0], [numpy.nan, 4.0, 0.5]])


@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1)])
def test_count_nonzero(axis):
    a = numpy.array([[0, 3, 0], [1, 0, -2]], "int32")
    got = chainerx.count_nonzero(chainerx.array(a), axis)
    assert got.dtype == numpy.int64
    numpy.testing.assert_array_equal(chainerx.to_numpy(got), numpy.count_nonzero(a, axis))


@pytest.mark.parametrize("axis,keepdims", [(None, False), (0, False), (1, True)])
def test_nansum_values_and_gradient(axis, keepdims):
    got = chainerx.nansum(chainerx.array(_WITH_NANS), axis=axis, keepdims=keepdims)
    numpy.testing.assert_allclose(
        chainerx.to_numpy(got), numpy.nansum(_WITH_NANS, axis=axis, keepdims=keepdims)
    )
    x = chainerx.array(_WITH_NANS).require_grad()
    chainerx.nansum(x).backward()
    numpy.testing.assert_array_equal(chainerx.to_numpy(x.grad), ~numpy.isnan(_WITH_NANS))
    check_backward(lambda v: chainerx.nansum(v, axis), [numpy.nan_to_num(_WITH_NANS)])


def test_nansum_of_integers_is_sum():
    a = numpy.array([1, 2, 3], "int8")
    got = chainerx.nansum(chainerx.array(a))
    assert got.dtype == numpy.sum(a).dtype
    assert int(got) == 6


@pytest.mark.parametrize("name", ["nanargmax", "nanargmin"])
@pytest.mark.parametrize("axis", [None, 0, 1])
def test_nanarg(name, axis):
    got = getattr(chainerx, name)(chainerx.array(_WITH_NANS), axis)
    expected = getattr(numpy, name)(_WITH_NANS, axis)
    numpy.testing.assert_array_equal(chainerx.to_numpy(got), expected)


@pytest.mark.parametrize("name", ["nanargmax", "nanargmin"])
def test_nanarg_of_an_all_nan_slice_raises(name):
    a = chainerx.array(numpy.array([[numpy.nan, numpy.nan], [1.0, 2.0]]))
    with pytest.raises(ValueError, match="All-NaN slice"):
        getattr(chainerx, name)(a, 1)
    numpy.testing.assert_array_equal(chainerx.to_numpy(getattr(chainerx, name)(a, 0)), [1, 1])
