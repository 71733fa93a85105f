"""dilated_convolution_2d: a convolution whose taps are ``dilate`` pixels apart."""

import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.functions.connection.dilated_convolution_2d import DilatedConvolution2DFunction

from ..backend_configs import CPU_AND_CHAINERX
from .conftest import FLOAT_DTYPES, conv_reference, loosen_for_float16, uniform


@testing.parameterize(
    *testing.product_dict(
        [
            {"dilate": 2, "stride": 1, "pad": 1, "cover_all": False},
            {"dilate": (1, 3), "stride": 2, "pad": 0, "cover_all": True},
        ],
        [{"dtype": dtype} for dtype in FLOAT_DTYPES],
    )
)
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestDilatedConvolution2D(testing.FunctionTestCase):
    def setUp(self):
        loosen_for_float16(self)

    def generate_inputs(self):
        x = uniform((2, 2, 6, 7), self.dtype)
        return x, uniform((3, 2, 2, 2), self.dtype), uniform((3,), self.dtype)

    def forward(self, inputs, device):
        options = {"stride": self.stride, "pad": self.pad, "cover_all": self.cover_all}
        y = F.dilated_convolution_2d(*inputs, dilate=self.dilate, **options)
        if device.xp is numpy:  # (ChainerX may keep the graph in its own C++ nodes)
            assert isinstance(y.creator_node, DilatedConvolution2DFunction)
        return (y,)

    def forward_expected(self, inputs):
        stride, pad, dilate = (
            v if isinstance(v, tuple) else (v, v) for v in (self.stride, self.pad, self.dilate)
        )
        return (conv_reference(*inputs, stride, pad, dilate, 1, self.cover_all),)


def test_zero_dilation_is_a_value_error():
    x, W = numpy.ones((1, 1, 4, 4), numpy.float32), numpy.ones((1, 1, 2, 2), numpy.float32)
    with pytest.raises(ValueError, match="dilate must be positive, got 0"):
        F.dilated_convolution_2d(x, W, dilate=0)
