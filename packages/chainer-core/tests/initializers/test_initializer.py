import re

import numpy
import pytest

import chainer
from chainer.initializer import Initializer, get_fans


@pytest.mark.parametrize(
    ("shape", "expected"),
    [
        ((5, 3), (3, 5)),
        ((5, 3, 2), (6, 10)),
        ((4, 3, 2, 7), (42, 56)),
        ([6, 2, 1, 1, 3], (6, 18)),
        ((0, 3), (3, 0)),
    ],
)
def test_get_fans(shape, expected):
    assert get_fans(shape) == expected


@pytest.mark.parametrize("shape", [(), (3,)])
def test_get_fans_needs_two_axes(shape):
    with pytest.raises(ValueError, match=r"at least 2 axes.*shape=" + re.escape(repr(shape))):
        get_fans(shape)


def test_get_fans_rejects_non_sequence():
    with pytest.raises(ValueError, match="shape must be a tuple of ints, got int: 3"):
        get_fans(3)


def test_base_call_is_abstract():
    with pytest.raises(NotImplementedError, match="Initializer does not implement __call__"):
        Initializer()(numpy.empty(3))


def test_base_keeps_dtype():
    assert Initializer().dtype is None
    assert Initializer(numpy.float16).dtype is numpy.float16


class _Fives(Initializer):
    def __call__(self, array):
        self._check_dtype(array)
        array[...] = 5


def test_subclass_fills_in_place():
    array = numpy.zeros((2, 3), numpy.float32)
    assert _Fives()(array) is None
    numpy.testing.assert_array_equal(array, numpy.full((2, 3), 5, numpy.float32))


def test_dtype_mismatch_is_value_and_assertion_error():
    array = numpy.zeros(3, numpy.float64)
    with pytest.raises(ValueError, match="created for dtype float32.*has dtype float64"):
        _Fives(numpy.float32)(array)
    with pytest.raises(AssertionError):
        _Fives("float32")(array)
    numpy.testing.assert_array_equal(array, numpy.zeros(3))


def test_mixed16_dtype_means_float16():
    array = numpy.zeros(2, numpy.float16)
    _Fives(chainer.mixed16)(array)
    numpy.testing.assert_array_equal(array, [5, 5])
