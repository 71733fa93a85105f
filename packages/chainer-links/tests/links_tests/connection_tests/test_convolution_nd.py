"""ConvolutionND, Convolution1D and Convolution3D against a NumPy convolution."""

import numpy
import pytest

import chainer.links as L
from chainer import testing

from .._references import conv


def _uniform(*shape):
    return numpy.random.uniform(-1, 1, shape).astype(numpy.float32)


@testing.parameterize(
    {"ndim": 1, "lazy": False, "stride": 2, "pad": 1, "dilate": 1, "groups": 1, "cls": None},
    {"ndim": 1, "lazy": True, "stride": 1, "pad": 0, "dilate": 2, "groups": 2, "cls": "1D"},
    {"ndim": 2, "lazy": True, "stride": (1, 2), "pad": 1, "dilate": 1, "groups": 1, "cls": None},
    {
        "ndim": 3,
        "lazy": False,
        "stride": 1,
        "pad": (0, 1, 0),
        "dilate": 1,
        "groups": 2,
        "cls": "3D",
    },
)
@testing.inject_backend_tests(None, [{}])
class TestConvolutionND(testing.LinkTestCase):
    param_names = ("W", "b")
    check_backward_options = {"atol": 1e-3, "rtol": 1e-3}

    def generate_params(self):
        self.W = _uniform(4, 4 // self.groups, *(2,) * self.ndim)
        self.b = _uniform(4)
        return self.W, self.b

    def create_link(self, initializers):
        in_channels = None if self.lazy else 4
        kwargs = {
            "stride": self.stride,
            "pad": self.pad,
            "initialW": initializers[0],
            "initial_bias": initializers[1],
            "dilate": self.dilate,
            "groups": self.groups,
        }
        if self.cls == "1D":
            return L.Convolution1D(in_channels, 4, 2, **kwargs)
        if self.cls == "3D":
            return L.Convolution3D(in_channels, 4, 2, **kwargs)
        return L.ConvolutionND(self.ndim, in_channels, 4, 2, **kwargs)

    def generate_inputs(self):
        return (_uniform(2, 4, *(4,) * self.ndim),)

    def forward_expected(self, link, inputs):
        y = conv(inputs[0], self.W, self.b, self.stride, self.pad, self.dilate, self.groups)
        return (y.astype(numpy.float32),)


def test_cover_all_adds_an_output_position():
    link = L.Convolution1D(1, 1, 2, stride=2, cover_all=True)
    assert link(_uniform(1, 1, 5)).shape == (1, 1, 3)
    assert L.Convolution1D(1, 1, 2, stride=2)(_uniform(1, 1, 5)).shape == (1, 1, 2)


def test_shorthand_and_ksize_tuple():
    link = L.ConvolutionND(2, 5, (3, 1))
    assert (link.in_channels, link.out_channels, link.ksize) == (None, 5, (3, 1))
    link(_uniform(1, 2, 4, 4))
    assert link.W.shape == (5, 2, 3, 1)


def test_ksize_of_the_wrong_length():
    with pytest.raises(ValueError, match=r"expected 3 values \(one per spatial axis\)"):
        L.ConvolutionND(3, 1, 1, (2, 2))


def test_from_params_picks_the_class_dimension():
    W = _uniform(3, 2, 2, 2)
    link = L.ConvolutionND.from_params(W, groups=1, stride=2)
    assert type(link) is L.ConvolutionND and link.ksize == (2, 2) and link.in_channels == 2
    numpy.testing.assert_array_equal(link.W.array, W)
    one_d = L.Convolution1D.from_params(_uniform(3, 2, 4))
    assert type(one_d) is L.Convolution1D and one_d.ksize == (4,)
    with pytest.raises(ValueError, match=r"Convolution3D needs W with 3 spatial axes"):
        L.Convolution3D.from_params(W)
