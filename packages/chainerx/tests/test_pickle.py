"""Pickling and deep copies of arrays and devices."""

import copy
import pickle

import numpy
import pytest

import chainerx


@pytest.mark.parametrize("device_name", ["native:0", "native:1"])
@pytest.mark.parametrize("dtype", ["float16", "int8", "bool_"])
def test_array_round_trip(device_name, dtype):
    values = numpy.array([[1, 0, 3], [4, 5, 0]]).astype(dtype)
    x = chainerx.array(values, device=device_name)[:, ::2]
    for y in (pickle.loads(pickle.dumps(x)), copy.deepcopy(x)):
        assert y.device is x.device and y.dtype == x.dtype
        numpy.testing.assert_array_equal(chainerx.to_numpy(y), values[:, ::2])
        y[...] = 0  # a copy, not a view
    numpy.testing.assert_array_equal(chainerx.to_numpy(x), values[:, ::2])


def test_array_pickles_without_graph():
    x = chainerx.array([1.0, 2.0]).require_grad()
    y = pickle.loads(pickle.dumps(x * 2))
    assert not y.is_grad_required()
    numpy.testing.assert_array_equal(chainerx.to_numpy(y), [2.0, 4.0])


@pytest.mark.parametrize("device_name", ["native:0", "native:1"])
def test_device_round_trip_is_the_same_device(device_name):
    device = chainerx.get_device(device_name)
    assert pickle.loads(pickle.dumps(device)) is device
    assert copy.deepcopy(device) is device
