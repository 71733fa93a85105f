"""Convolution2D: forward against a NumPy convolution, lazy channels, groups, errors."""

import numpy
import pytest

import chainer.links as L
from chainer import testing

from .._references import conv


def _uniform(*shape):
    return numpy.random.uniform(-1, 1, shape).astype(numpy.float32)


@testing.parameterize(
    {"lazy": False, "nobias": False, "stride": 1, "pad": 0, "dilate": 1, "groups": 1},
    {"lazy": True, "nobias": False, "stride": 2, "pad": 1, "dilate": 1, "groups": 1},
    {"lazy": False, "nobias": True, "stride": (1, 2), "pad": (1, 0), "dilate": 2, "groups": 1},
    {"lazy": True, "nobias": False, "stride": 1, "pad": 1, "dilate": 1, "groups": 2},
)
@testing.inject_backend_tests(None, [{}])
class TestConvolution2D(testing.LinkTestCase):
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
        return L.Convolution2D(
            *args,
            stride=self.stride,
            pad=self.pad,
            nobias=self.nobias,
            initialW=initializers[0],
            initial_bias=None if self.nobias else initializers[1],
            dilate=self.dilate,
            groups=self.groups,
        )

    def generate_inputs(self):
        return (_uniform(2, 4, 5, 5),)

    def forward_expected(self, link, inputs):
        b = None if self.nobias else self.b
        y = conv(inputs[0], self.W, b, self.stride, self.pad, self.dilate, self.groups)
        return (y.astype(numpy.float32),)


def test_shorthand_without_in_channels():
    link = L.Convolution2D(6, 3)
    assert (link.in_channels, link.out_channels, link.ksize) == (None, 6, 3)
    assert link.W.array is None and link.b.shape == (6,)
    assert link(_uniform(1, 2, 4, 4)).shape == (1, 6, 2, 2)
    assert link.W.shape == (6, 2, 3, 3) and link.in_channels == 2


def test_attributes_are_pairs():
    link = L.Convolution2D(1, 2, 3, stride=2, pad=(1, 0), dilate=3)
    assert (link.stride, link.pad, link.dilate) == ((2, 2), (1, 0), (3, 3))


def test_groups_must_divide_the_channels():
    with pytest.raises(ValueError, match="in_channels must be divisible by groups: got"):
        L.Convolution2D(3, 4, 1, groups=2)
    with pytest.raises(ValueError, match="out_channels=3, groups=2"):
        L.Convolution2D(4, 3, 1, groups=2)
    lazy = L.Convolution2D(None, 4, 1, groups=2)
    with pytest.raises(ValueError, match="in_channels=3, groups=2"):
        lazy(_uniform(1, 3, 2, 2))


def test_retired_and_unknown_keywords():
    with pytest.raises(ValueError, match="deterministic argument is not supported anymore"):
        L.Convolution2D(1, 2, 3, deterministic=True)
    with pytest.raises(TypeError, match="wscale"):
        L.Convolution2D(1, 2, 3, wscale=1)


def test_from_params_keeps_shape_and_grouping():
    W, b = _uniform(4, 1, 3, 2), _uniform(4)
    link = L.Convolution2D.from_params(W, b, stride=2, groups=2)
    assert (link.in_channels, link.out_channels, link.groups, link.stride) == (2, 4, 2, (2, 2))
    numpy.testing.assert_array_equal(link.W.array, W)
    numpy.testing.assert_array_equal(link.b.array, b)
    with pytest.raises(ValueError, match="b must have out_channels=4 elements"):
        L.Convolution2D.from_params(W, _uniform(3))


def test_str_lists_the_arguments():
    assert str(L.Convolution2D(1, 2, 3)) == (
        "Convolution2D(in_channels=1, out_channels=2, ksize=3, stride=(1, 1), pad=(0, 0), "
        "nobias=False, dilate=(1, 1), groups=1)"
    )
