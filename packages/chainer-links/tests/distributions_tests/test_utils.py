"""Helpers of the distributions: modified_xlogx."""

import numpy

import chainer
from chainer import gradient_check
from chainer.distributions import utils


def test_modified_xlogx_takes_arrays_and_is_zero_at_zero():
    x = numpy.array([0.0, 0.25, 1.0, 2.0])
    expected = numpy.array([0.0, 0.25 * numpy.log(0.25), 0.0, 2 * numpy.log(2.0)])
    numpy.testing.assert_allclose(utils.modified_xlogx(x).array, expected, rtol=1e-12)
    assert utils._modified_xlogx is utils.modified_xlogx  # v7's private name


def test_modified_xlogx_gradients():
    x = numpy.array([0.3, 0.9, 1.7])
    gradient_check.check_backward(utils.modified_xlogx, x, numpy.ones(3))
    gradient_check.check_double_backward(utils.modified_xlogx, x, numpy.ones(3), numpy.ones(3))
    zero = chainer.Variable(numpy.zeros(2))
    chainer.functions.sum(utils.modified_xlogx(zero)).backward()
    numpy.testing.assert_array_equal(zero.grad, [0.0, 0.0])  # the limit, without warnings
