"""deconvolution_2d: values against a direct scatter, gradients of two orders, errors."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.functions.connection.convolution_nd import ConvolutionND, ConvolutionNDGradW
from chainer.functions.connection.deconvolution_2d import Deconvolution2DFunction
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX
from .conftest import FLOAT_DTYPES, deconv_reference, loosen_for_float16, uniform

CASES = [
    {"n": 2, "c_in": 3, "c_out": 2, "size": (3, 2), "ksize": (3, 2), "stride": 1, "pad": 0},
    {"n": 2, "c_in": 2, "c_out": 3, "size": (3, 3), "ksize": 3, "stride": (2, 1), "pad": (1, 0),
     "outsize": (6, 5)},
    {"n": 1, "c_in": 2, "c_out": 2, "size": (2, 3), "ksize": 2, "stride": 2, "pad": 1,
     "dilate": 2, "nobias": True},
    {"n": 2, "c_in": 4, "c_out": 6, "size": (3, 2), "ksize": 2, "stride": 2, "pad": 0,
     "groups": 2},
    {"n": 2, "c_in": 6, "c_out": 2, "size": (2, 2), "ksize": 3, "stride": 1, "pad": 1},
]  # fmt: skip


@testing.parameterize(
    *testing.product_dict(
        [{"outsize": None, "dilate": 1, "groups": 1, "nobias": False, **case} for case in CASES],
        [{"dtype": dtype} for dtype in FLOAT_DTYPES],
    )
)
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestDeconvolution2D(testing.FunctionTestCase):
    def setUp(self):
        loosen_for_float16(self)

    def generate_inputs(self):
        ksize = self.ksize if isinstance(self.ksize, tuple) else (self.ksize,) * 2
        x = uniform((self.n, self.c_in, *self.size), self.dtype)
        W = uniform((self.c_in, self.c_out // self.groups, *ksize), self.dtype)
        return (x, W) if self.nobias else (x, W, uniform((self.c_out,), self.dtype))

    def forward(self, inputs, device):
        options = {"stride": self.stride, "pad": self.pad, "outsize": self.outsize}
        return (F.deconvolution_2d(*inputs, **options, dilate=self.dilate, groups=self.groups),)

    def forward_expected(self, inputs):
        b = None if self.nobias else inputs[2]
        stride, pad, dilate = (
            v if isinstance(v, tuple) else (v, v) for v in (self.stride, self.pad, self.dilate)
        )
        y = deconv_reference(
            inputs[0], inputs[1], b, stride, pad, dilate, self.groups, self.outsize
        )
        return (y,)


def test_backward_is_a_convolution_and_a_weight_gradient_node():
    x = chainer.Variable(uniform((2, 3, 3, 3), numpy.float32))
    W = chainer.Variable(uniform((3, 2, 2, 2), numpy.float32))
    y = F.deconvolution_2d(x, W, stride=2, outsize=(5, 5))  # one short of the default
    assert isinstance(y.creator_node, Deconvolution2DFunction)
    assert y.shape == (2, 2, 5, 5)
    gx, gW = chainer.grad(
        [y], [x, W], [numpy.ones(y.shape, numpy.float32)], enable_double_backprop=True
    )
    assert isinstance(gx.creator_node, ConvolutionND) and gx.creator_node.cover_all
    assert isinstance(gW.creator_node, ConvolutionNDGradW)


def test_channel_mismatch_is_an_invalid_type():
    x, W = numpy.ones((1, 3, 4, 4), numpy.float32), numpy.ones((2, 2, 3, 3), numpy.float32)
    with pytest.raises(type_check.InvalidType, match=r"x\.shape\[1\] == W\.shape\[0\]"):
        F.deconvolution_2d(x, W)


def test_outsize_that_does_not_map_back_to_x_is_an_invalid_type():
    x, W = numpy.ones((1, 1, 3, 3), numpy.float32), numpy.ones((1, 1, 3, 3), numpy.float32)
    with pytest.raises(type_check.InvalidType, match=r"outsize[\s\S]*x\.shape\[2:\] == \(3, 3\)"):
        F.deconvolution_2d(x, W, stride=2, outsize=(9, 7))


def test_non_positive_default_output_is_an_invalid_type():
    x, W = numpy.ones((1, 1, 1, 1), numpy.float32), numpy.ones((1, 1, 2, 2), numpy.float32)
    with pytest.raises(type_check.InvalidType, match=r"positive output size[\s\S]*\(0, 0\)"):
        F.deconvolution_2d(x, W, pad=1)


def test_bias_must_have_one_entry_per_output_channel():
    x, W = numpy.ones((1, 4, 2, 2), numpy.float32), numpy.ones((4, 3, 2, 2), numpy.float32)
    with pytest.raises(type_check.InvalidType, match=r"b\.shape\[0\] == W\.shape\[1\] \* groups"):
        F.deconvolution_2d(x, W, numpy.zeros(3, numpy.float32), groups=2)


def test_bad_arguments_raise_value_error():
    x, W = numpy.ones((1, 1, 2, 2), numpy.float32), numpy.ones((1, 1, 2, 2), numpy.float32)
    with pytest.raises(ValueError, match=r"stride must be positive, got \(2, -1\)"):
        F.deconvolution_2d(x, W, stride=(2, -1))
    with pytest.raises(ValueError, match="deterministic argument is not supported anymore"):
        F.deconvolution_2d(x, W, deterministic=True)


def test_node_has_the_per_axis_attributes_of_chainer():
    node = Deconvolution2DFunction(stride=2, pad=(0, 1), outsize=(7, 8), dilate=2)
    assert (node.sy, node.sx, node.ph, node.pw, node.dy, node.dx) == (2, 2, 0, 1, 2, 2)
    assert (node.outh, node.outw) == (7, 8)
    assert Deconvolution2DFunction().outh is None
