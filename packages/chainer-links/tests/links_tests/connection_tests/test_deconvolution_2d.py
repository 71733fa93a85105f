"""Deconvolution2D against a NumPy transposed convolution."""

import numpy
import pytest

import chainer.links as L
from chainer import testing

from .._references import deconv


def _uniform(*shape):
    return numpy.random.uniform(-1, 1, shape).astype(numpy.float32)


@testing.parameterize(
    {"lazy": False, "nobias": False, "stride": 1, "pad": 0, "outsize": None, "groups": 1},
    {"lazy": True, "nobias": False, "stride": 2, "pad": 1, "outsize": None, "groups": 1},
    {"lazy": False, "nobias": True, "stride": 2, "pad": 1, "outsize": (6, 5), "groups": 2},
)
@testing.inject_backend_tests(None, [{}])
class TestDeconvolution2D(testing.LinkTestCase):
    check_backward_options = {"atol": 1e-3, "rtol": 1e-3}

    @property
    def param_names(self):
        return ("W",) if self.nobias else ("W", "b")

    def generate_params(self):
        self.W = _uniform(4, 4 // self.groups, 3, 2)
        self.b = _uniform(4)
        return (self.W,) if self.nobias else (self.W, self.b)

    def create_link(self, initializers):
        args = (4, (3, 2)) if self.lazy else (4, 4, (3, 2))
        return L.Deconvolution2D(
            *args,
            stride=self.stride,
            pad=self.pad,
            nobias=self.nobias,
            outsize=self.outsize,
            initialW=initializers[0],
            initial_bias=None if self.nobias else initializers[1],
            groups=self.groups,
        )

    def generate_inputs(self):
        return (_uniform(2, 4, 3, 3),)

    def forward_expected(self, link, inputs):
        b = None if self.nobias else self.b
        y = deconv(inputs[0], self.W, b, self.stride, self.pad, self.outsize, 1, self.groups)
        return (y.astype(numpy.float32),)


def test_weight_shape_is_in_by_out_per_group():
    link = L.Deconvolution2D(4, 6, 3, groups=2)
    assert link.W.shape == (4, 3, 3, 3) and link.b.shape == (6,)


def test_upsampling_shape_as_in_the_dcgan_generator():
    link = L.Deconvolution2D(8, 4, 4, 2, 1)
    assert link(_uniform(2, 8, 4, 4)).shape == (2, 4, 8, 8)


def test_dilate_is_applied():
    link = L.Deconvolution2D(1, 1, 2, dilate=2, nobias=True, initialW=1.0)
    y = link(numpy.ones((1, 1, 1, 1), numpy.float32))
    numpy.testing.assert_array_equal(y.array[0, 0], [[1, 0, 1], [0, 0, 0], [1, 0, 1]])


def test_groups_must_divide_the_channels():
    with pytest.raises(ValueError, match="out_channels must be divisible by groups"):
        L.Deconvolution2D(4, 3, 1, groups=2)
