"""deformable_convolution_2d_sampler: taps read at offset locations by bilinear sampling."""

import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

from .conftest import conv_reference, uniform


def _sample(image, y, x):
    """Bilinear interpolation of ``image`` (c, h, w) at (y, x); zero outside the image."""
    h, w = image.shape[1:]
    y0, x0 = int(numpy.floor(y)), int(numpy.floor(x))
    value = numpy.zeros(image.shape[0])
    for yy in (y0, y0 + 1):
        for xx in (x0, x0 + 1):
            if 0 <= yy < h and 0 <= xx < w:
                value += image[:, yy, xx] * (1 - abs(y - yy)) * (1 - abs(x - xx))
    return value


def _reference(x, offset, W, b, stride, pad):
    sy, sx = stride
    ph, pw = pad
    n = x.shape[0]
    c_out, c_in, kh, kw = W.shape
    out_h, out_w = offset.shape[2:]
    padded = numpy.pad(x.astype(numpy.float64), ((0, 0), (0, 0), (ph, ph), (pw, pw)))
    y = numpy.zeros((n, c_out, out_h, out_w))
    for i in range(n):
        for p in range(out_h):
            for q in range(out_w):
                samples = numpy.zeros((c_in, kh, kw))
                for a in range(kh):
                    for c in range(kw):
                        tap = a * kw + c
                        sample_y = p * sy + a + offset[i, kh * kw + tap, p, q]
                        sample_x = q * sx + c + offset[i, tap, p, q]
                        samples[:, a, c] = _sample(padded[i], sample_y, sample_x)
                y[i, :, p, q] = numpy.einsum("cab,ocab->o", samples, W)
    if b is not None:
        y += b.reshape(1, -1, 1, 1)
    return y.astype(x.dtype)


@testing.parameterize(
    {"dtype": numpy.float32, "stride": (1, 1), "pad": (0, 0), "nobias": False},
    {"dtype": numpy.float64, "stride": (2, 1), "pad": (1, 0), "nobias": True},
    {"dtype": numpy.float16, "stride": (1, 2), "pad": (0, 1), "nobias": False},
)
@testing.inject_backend_tests(None, [{}])
class TestDeformableConvolution2DSampler(testing.FunctionTestCase):
    def setUp(self):
        tight = self.dtype != numpy.float16
        self.check_forward_options = {"atol": 1e-6, "rtol": 1e-6} if tight else {"atol": 2e-2}
        options = {"atol": 1e-3, "rtol": 1e-3} if tight else {"atol": 5e-2, "rtol": 5e-2}
        self.check_backward_options = options
        self.check_double_backward_options = options

    def generate_inputs(self):
        x = uniform((2, 2, 4, 3), self.dtype)
        W = uniform((2, 2, 2, 2), self.dtype)
        out_h = (4 + 2 * self.pad[0] - 2) // self.stride[0] + 1
        out_w = (3 + 2 * self.pad[1] - 2) // self.stride[1] + 1
        # Offsets away from integers: bilinear sampling has kinks at whole pixels.
        offset = uniform((2, 8, out_h, out_w), self.dtype, 0.1, 0.9) * numpy.random.choice(
            [-1, 1], (2, 8, out_h, out_w)
        ).astype(self.dtype)
        inputs = (x, offset, W)
        return inputs if self.nobias else inputs + (uniform((2,), self.dtype),)

    def forward(self, inputs, device):
        y = F.deformable_convolution_2d_sampler(*inputs, stride=self.stride, pad=self.pad)
        return (y,)

    def forward_expected(self, inputs):
        b = None if self.nobias else inputs[3]
        return (_reference(*inputs[:3], b, self.stride, self.pad),)


def test_zero_offsets_give_the_plain_convolution():
    x, W = uniform((1, 3, 5, 5), numpy.float64), uniform((4, 3, 3, 3), numpy.float64)
    offset = numpy.zeros((1, 18, 3, 3))
    y = F.deformable_convolution_2d_sampler(x, offset, W, stride=2, pad=1)
    numpy.testing.assert_allclose(y.array, conv_reference(x, W, None, 2, 1), rtol=1e-12)


def test_offset_channels_must_match_the_kernel():
    x, W = numpy.ones((1, 3, 5, 5), numpy.float32), numpy.ones((4, 3, 3, 3), numpy.float32)
    with pytest.raises(
        type_check.InvalidType,
        match=r"DeformableConvolution2DSampler[\s\S]*offset\.shape\[1\] == 2 \* W",
    ):
        F.deformable_convolution_2d_sampler(x, numpy.zeros((1, 9, 3, 3), numpy.float32), W)


def test_channel_mismatch_is_an_invalid_type():
    x, W = numpy.ones((1, 2, 5, 5), numpy.float32), numpy.ones((4, 3, 3, 3), numpy.float32)
    with pytest.raises(type_check.InvalidType, match=r"x\.shape\[1\] == W\.shape\[1\]"):
        F.deformable_convolution_2d_sampler(x, numpy.zeros((1, 18, 3, 3), numpy.float32), W)
