"""DilatedConvolution2D against a NumPy dilated convolution."""

import numpy

import chainer.links as L
from chainer import testing

from .._references import conv


def _uniform(*shape):
    return numpy.random.uniform(-1, 1, shape).astype(numpy.float32)


@testing.parameterize(
    {"lazy": False, "nobias": False, "stride": 1, "pad": 0, "dilate": 2},
    {"lazy": True, "nobias": True, "stride": 2, "pad": 2, "dilate": (1, 2)},
)
@testing.inject_backend_tests(None, [{}])
class TestDilatedConvolution2D(testing.LinkTestCase):
    check_backward_options = {"atol": 1e-3, "rtol": 1e-3}

    @property
    def param_names(self):
        return ("W",) if self.nobias else ("W", "b")

    def generate_params(self):
        self.W = _uniform(3, 2, 2, 2)
        self.b = _uniform(3)
        return (self.W,) if self.nobias else (self.W, self.b)

    def create_link(self, initializers):
        args = (3, 2) if self.lazy else (2, 3, 2)
        return L.DilatedConvolution2D(
            *args,
            stride=self.stride,
            pad=self.pad,
            dilate=self.dilate,
            nobias=self.nobias,
            initialW=initializers[0],
            initial_bias=None if self.nobias else initializers[1],
        )

    def generate_inputs(self):
        return (_uniform(2, 2, 5, 5),)

    def forward_expected(self, link, inputs):
        b = None if self.nobias else self.b
        y = conv(inputs[0], self.W, b, self.stride, self.pad, self.dilate)
        return (y.astype(numpy.float32),)


def test_lazy_shorthand_sets_the_filter_shape():
    link = L.DilatedConvolution2D(4, 3, dilate=2)
    assert link(_uniform(1, 2, 6, 6)).shape == (1, 4, 2, 2)
    assert link.W.shape == (4, 2, 3, 3) and link.dilate == (2, 2)
