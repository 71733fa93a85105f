"""DeformableConvolution2D: zero offsets at first, offsets learnt through bilinear sampling."""

import numpy

import chainer
import chainer.links as L
from chainer import gradient_check, initializers

from .._references import conv


def _uniform(*shape, dtype=numpy.float32):
    return numpy.random.uniform(-1, 1, shape).astype(dtype)


def test_starts_as_a_plain_convolution():
    link = L.DeformableConvolution2D(2, 3, 3, stride=1, pad=1)
    assert link.offset_conv.W.shape == (18, 2, 3, 3)
    numpy.testing.assert_array_equal(link.offset_conv.W.array, 0)
    numpy.testing.assert_array_equal(link.offset_conv.b.array, 0)
    x = _uniform(2, 2, 4, 4)
    expected = conv(x, link.deform_conv.W.array, link.deform_conv.b.array, 1, 1)
    numpy.testing.assert_allclose(link(x).array, expected, atol=1e-5)


def test_lazy_input_channels():
    link = L.DeformableConvolution2D(None, 3, 2, deform_nobias=True)
    assert link.deform_conv.b is None
    assert link(_uniform(1, 4, 3, 3)).shape == (1, 3, 2, 2)
    assert link.offset_conv.W.shape == (8, 4, 2, 2) and link.deform_conv.W.shape == (3, 4, 2, 2)


def test_gradients_reach_both_convolutions():
    with chainer.using_config("dtype", numpy.float64):
        link = L.DeformableConvolution2D(
            2, 2, 2, offset_initialW=initializers.Uniform(0.3), offset_initial_bias=0.25
        )
    x = _uniform(1, 2, 3, 3, dtype=numpy.float64)
    gy = _uniform(1, 2, 2, 2, dtype=numpy.float64)
    params = [link.offset_conv.W, link.offset_conv.b, link.deform_conv.W, link.deform_conv.b]
    gradient_check.check_backward(link, x, gy, params=params, atol=1e-4, rtol=1e-4)
