"""MLPConvolution2D: a convolution then 1x1 convolutions with activations between."""

import numpy
import pytest

import chainer.functions as F
import chainer.links as L

from .._references import conv


def _uniform(*shape):
    return numpy.random.uniform(-1, 1, shape).astype(numpy.float32)


def test_forward_matches_the_stacked_convolutions():
    link = L.MLPConvolution2D(2, (4, 3, 2), 3, stride=1, pad=1)
    x = _uniform(2, 2, 4, 4)
    h = x.astype(numpy.float64)
    for index, child in enumerate(link):
        h = conv(h, child.W.array, child.b.array, 1, 1 if index == 0 else 0)
        if index < 2:
            h = numpy.maximum(h, 0)
    numpy.testing.assert_allclose(link(x).array, h, rtol=1e-4, atol=1e-5)
    assert [child.W.shape for child in link] == [(4, 2, 3, 3), (3, 4, 1, 1), (2, 3, 1, 1)]


def test_shorthand_activation_and_initializers():
    link = L.MLPConvolution2D((2, 2), 1, activation=F.tanh, conv_init=0.5, bias_init=1.0)
    x = _uniform(1, 3, 2, 2)
    first = numpy.tanh(x.sum(axis=1, keepdims=True) * 0.5 + 1.0).repeat(2, axis=1)
    expected = first.sum(axis=1, keepdims=True) * 0.5 + 1.0
    numpy.testing.assert_allclose(link(x).array, expected.repeat(2, axis=1), rtol=1e-5)
    assert link[0].W.shape == (2, 3, 1, 1)


def test_errors():
    with pytest.raises(TypeError, match="wscale argument is not supported anymore"):
        L.MLPConvolution2D(1, (2,), 1, 1, 0, F.relu, 1.0)
    with pytest.raises(ValueError, match="wscale argument is not supported anymore"):
        L.MLPConvolution2D(1, (2,), 1, wscale=1.0)
    with pytest.raises(ValueError, match=r"out_channels must be a non-empty sequence of ints"):
        L.MLPConvolution2D(1, (), 1)
