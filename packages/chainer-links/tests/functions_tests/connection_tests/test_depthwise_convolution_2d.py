"""depthwise_convolution_2d: every channel with its own kernels, output channel c * m + k."""

import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX
from .conftest import FLOAT_DTYPES, conv_reference, loosen_for_float16, uniform


@testing.parameterize(
    *testing.product_dict(
        [
            {"n": 2, "multiplier": 2, "size": (5, 4), "stride": 1, "pad": 0, "nobias": False},
            {"n": 1, "multiplier": 1, "size": (4, 5), "stride": (2, 1), "pad": 1, "nobias": True},
        ],
        [{"dtype": dtype} for dtype in FLOAT_DTYPES],
    )
)
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestDepthwiseConvolution2D(testing.FunctionTestCase):
    def setUp(self):
        loosen_for_float16(self)

    def generate_inputs(self):
        x = uniform((self.n, 3, *self.size), self.dtype)
        W = uniform((self.multiplier, 3, 3, 2), self.dtype)
        return (x, W) if self.nobias else (x, W, uniform((3 * self.multiplier,), self.dtype))

    def forward(self, inputs, device):
        return (F.depthwise_convolution_2d(*inputs, stride=self.stride, pad=self.pad),)

    def forward_expected(self, inputs):
        x, W = inputs[:2]
        stride, pad = (v if isinstance(v, tuple) else (v, v) for v in (self.stride, self.pad))
        outputs = []
        for c in range(3):  # channel c convolved with W[m, c] gives channel c * multiplier + m
            for m in range(self.multiplier):
                kernel = W[m, c][None, None]
                outputs.append(conv_reference(x[:, c : c + 1], kernel, None, stride, pad))
        y = numpy.concatenate(outputs, axis=1)
        if not self.nobias:
            y = (y + inputs[2].reshape(1, -1, 1, 1)).astype(self.dtype)
        return (y,)


def test_channel_mismatch_is_an_invalid_type():
    x, W = numpy.ones((1, 3, 4, 4), numpy.float32), numpy.ones((2, 2, 3, 3), numpy.float32)
    with pytest.raises(
        type_check.InvalidType,
        match=r"DepthwiseConvolution2D[\s\S]*x\.shape\[1\] == W\.shape\[1\]",
    ):
        F.depthwise_convolution_2d(x, W)


def test_bias_covers_every_output_channel():
    x, W = numpy.ones((1, 3, 4, 4), numpy.float32), numpy.ones((2, 3, 3, 3), numpy.float32)
    with pytest.raises(type_check.InvalidType, match=r"W\.shape\[0\] \* W\.shape\[1\]"):
        F.depthwise_convolution_2d(x, W, numpy.zeros(3, numpy.float32))
