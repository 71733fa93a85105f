"""DeconvolutionND, Deconvolution1D and Deconvolution3D against NumPy."""

import numpy

import chainer.links as L
from chainer import testing

from .._references import deconv


def _uniform(*shape):
    return numpy.random.uniform(-1, 1, shape).astype(numpy.float32)


@testing.parameterize(
    {"ndim": 1, "lazy": True, "stride": 2, "pad": 0, "outsize": None, "groups": 1, "cls": None},
    {"ndim": 1, "lazy": False, "stride": 1, "pad": 1, "outsize": None, "groups": 2, "cls": "1D"},
    {"ndim": 2, "lazy": False, "stride": 2, "pad": 1, "outsize": (5, 4), "groups": 1, "cls": None},
    {"ndim": 3, "lazy": True, "stride": 1, "pad": 0, "outsize": None, "groups": 1, "cls": "3D"},
)
@testing.inject_backend_tests(None, [{}])
class TestDeconvolutionND(testing.LinkTestCase):
    param_names = ("W", "b")
    check_backward_options = {"atol": 1e-3, "rtol": 1e-3}

    def generate_params(self):
        self.W = _uniform(2, 4 // self.groups, *(2,) * self.ndim)
        self.b = _uniform(4)
        return self.W, self.b

    def create_link(self, initializers):
        in_channels = None if self.lazy else 2
        kwargs = {
            "stride": self.stride,
            "pad": self.pad,
            "outsize": self.outsize,
            "initialW": initializers[0],
            "initial_bias": initializers[1],
            "groups": self.groups,
        }
        if self.cls == "1D":
            return L.Deconvolution1D(in_channels, 4, 2, **kwargs)
        if self.cls == "3D":
            return L.Deconvolution3D(in_channels, 4, 2, **kwargs)
        return L.DeconvolutionND(self.ndim, in_channels, 4, 2, **kwargs)

    def generate_inputs(self):
        return (_uniform(2, 2, *(3,) * self.ndim),)

    def forward_expected(self, link, inputs):
        y = deconv(inputs[0], self.W, self.b, self.stride, self.pad, self.outsize, 1, self.groups)
        return (y.astype(numpy.float32),)


def test_shorthand_without_in_channels():
    link = L.DeconvolutionND(1, 5, 3)
    assert (link.in_channels, link.out_channels, link.ksize) == (None, 5, (3,))
    assert link(_uniform(1, 2, 4)).shape == (1, 5, 6)
    assert link.W.shape == (2, 5, 3)
