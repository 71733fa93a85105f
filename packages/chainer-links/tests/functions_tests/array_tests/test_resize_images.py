"""resize_images: bilinear (both corner conventions) and nearest against per-pixel formulas."""

import math

import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX


def _source(i, out_size, in_size, align_corners):
    """Fractional source position of output pixel ``i`` (bilinear mode)."""
    if align_corners:
        return 0.0 if out_size == 1 else i * (in_size - 1) / (out_size - 1)
    return max((i + 0.5) * in_size / out_size - 0.5, 0.0)


def _resize_loops(x, out_h, out_w, mode, align_corners):
    n, c, h, w = x.shape
    y = numpy.zeros((n, c, out_h, out_w))
    xf = x.astype(numpy.float64)
    for i in range(out_h):
        for j in range(out_w):
            if mode == "nearest":
                y[:, :, i, j] = xf[
                    :,
                    :,
                    min(math.floor(i * h / out_h), h - 1),
                    min(math.floor(j * w / out_w), w - 1),
                ]
                continue
            p = _source(i, out_h, h, align_corners)
            q = _source(j, out_w, w, align_corners)
            p0, q0 = math.floor(p), math.floor(q)
            p1, q1 = min(p0 + 1, h - 1), min(q0 + 1, w - 1)
            a, b = p - p0, q - q0
            y[:, :, i, j] = (
                (1 - a) * (1 - b) * xf[:, :, p0, q0]
                + (1 - a) * b * xf[:, :, p0, q1]
                + a * (1 - b) * xf[:, :, p1, q0]
                + a * b * xf[:, :, p1, q1]
            )
    return y.astype(x.dtype)


@testing.parameterize(
    *testing.product(
        {
            "case": [
                ((1, 1, 2, 3), (3, 5), "bilinear", True),
                ((2, 2, 4, 3), (2, 2), "bilinear", True),
                ((1, 2, 3, 2), (5, 3), "bilinear", False),
                ((1, 1, 4, 4), (3, 2), "bilinear", False),
                ((1, 1, 3, 3), (1, 1), "bilinear", True),
                ((1, 2, 3, 2), (5, 4), "nearest", True),
                ((1, 1, 4, 4), (2, 3), "nearest", False),
            ],
            "dtype": [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.fix_random()
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestResizeImages(testing.FunctionTestCase):
    def setUp(self):
        self.shape, self.output_shape, self.mode, self.align_corners = self.case
        if self.dtype == numpy.float16:
            self.check_forward_options = {"atol": 2e-3, "rtol": 2e-3}
            self.check_backward_options = {"atol": 5e-3, "rtol": 5e-2}
            self.check_double_backward_options = {"atol": 5e-3, "rtol": 5e-2}

    def generate_inputs(self):
        return (numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),)

    def forward(self, inputs, device):
        y = F.resize_images(
            inputs[0], self.output_shape, mode=self.mode, align_corners=self.align_corners
        )
        return (y,)

    def forward_expected(self, inputs):
        return (_resize_loops(inputs[0], *self.output_shape, self.mode, self.align_corners),)


def test_bad_arguments_are_rejected():
    x = numpy.zeros((1, 1, 2, 2), numpy.float32)
    with pytest.raises(ValueError, match=r"mode must be one of \('bilinear', 'nearest'\)"):
        F.resize_images(x, (3, 3), mode="bicubic")
    with pytest.raises(ValueError, match=r"output_shape must be two positive ints, got \(0, 3\)"):
        F.resize_images(x, (0, 3))
    with pytest.raises(TypeError):
        F.resize_images(x, (3, 3), "nearest")  # mode is keyword-only


def test_bad_inputs_are_rejected():
    with pytest.raises(type_check.InvalidType, match=r"x.ndim == 4"):
        F.resize_images(numpy.zeros((1, 2, 2), numpy.float32), (3, 3))
    with pytest.raises(type_check.InvalidType, match=r"x.dtype.kind == f"):
        F.resize_images(numpy.zeros((1, 1, 2, 2), numpy.int32), (3, 3))
