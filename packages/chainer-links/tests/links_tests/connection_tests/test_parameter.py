"""Parameter: returns its array; gradients reach it."""

import numpy

import chainer.links as L


def test_forward_returns_the_array_and_gradients_flow_back():
    array = numpy.arange(3, dtype=numpy.float32)
    link = L.Parameter(array)
    assert link.W.array is array
    y = link()
    assert y is not link.W
    numpy.testing.assert_array_equal(y.array, array)
    z = y * 2
    z.grad = numpy.ones(3, numpy.float32)
    z.backward()
    numpy.testing.assert_array_equal(link.W.grad, [2, 2, 2])
    assert link(volatile="on").shape == (3,)
