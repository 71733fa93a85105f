"""DepthwiseConvolution2D: one set of filters per input channel."""

import numpy

import chainer.links as L
from chainer import testing

from .._references import conv


def _uniform(*shape):
    return numpy.random.uniform(-1, 1, shape).astype(numpy.float32)


def depthwise_reference(x, W, b, stride, pad):
    # Output channel c * multiplier + m is input channel c convolved with W[m, c].
    multiplier, channels = W.shape[:2]
    grouped = W.transpose(1, 0, 2, 3).reshape(channels * multiplier, 1, *W.shape[2:])
    return conv(x, grouped, b, stride, pad, groups=channels)


@testing.parameterize(
    {"lazy": False, "nobias": False, "stride": 1, "pad": 0},
    {"lazy": True, "nobias": False, "stride": 2, "pad": 1},
    {"lazy": True, "nobias": True, "stride": (1, 2), "pad": (1, 0)},
)
@testing.inject_backend_tests(None, [{}])
class TestDepthwiseConvolution2D(testing.LinkTestCase):
    check_backward_options = {"atol": 1e-3, "rtol": 1e-3}

    @property
    def param_names(self):
        return ("W",) if self.nobias else ("W", "b")

    def generate_params(self):
        self.W = _uniform(2, 3, 2, 2)
        self.b = _uniform(6)
        return (self.W,) if self.nobias else (self.W, self.b)

    def create_link(self, initializers):
        return L.DepthwiseConvolution2D(
            None if self.lazy else 3,
            2,
            2,
            self.stride,
            self.pad,
            self.nobias,
            initializers[0],
            None if self.nobias else initializers[1],
        )

    def generate_inputs(self):
        return (_uniform(2, 3, 4, 4),)

    def forward_expected(self, link, inputs):
        b = None if self.nobias else self.b
        return (depthwise_reference(inputs[0], self.W, b, self.stride, self.pad).astype("f"),)


def test_bias_waits_for_the_input_channels():
    link = L.DepthwiseConvolution2D(None, 3, 2)
    assert link.W.array is None and link.b.array is None
    link(_uniform(1, 2, 3, 3))
    assert link.W.shape == (3, 2, 2, 2) and link.b.shape == (6,)
    numpy.testing.assert_array_equal(link.b.array, numpy.zeros(6, numpy.float32))
