"""im2col: patches against a pixel-by-pixel loop, gradients (col2im), and the checks."""

import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX


def _im2col_loops(x, ksize, stride, pad, cover_all, dilate):
    n, c, h, w = x.shape
    kh, kw = ksize
    sy, sx = stride
    ph, pw = pad
    dy, dx = dilate
    extent_h, extent_w = (kh - 1) * dy + 1, (kw - 1) * dx + 1
    if cover_all:
        out_h = (h + 2 * ph - extent_h + sy - 1) // sy + 1
        out_w = (w + 2 * pw - extent_w + sx - 1) // sx + 1
    else:
        out_h = (h + 2 * ph - extent_h) // sy + 1
        out_w = (w + 2 * pw - extent_w) // sx + 1
    y = numpy.zeros((n, c * kh * kw, out_h, out_w), x.dtype)
    for k in range(c):
        for i in range(kh):
            for j in range(kw):
                for oy in range(out_h):
                    for ox in range(out_w):
                        py = oy * sy + i * dy - ph
                        px = ox * sx + j * dx - pw
                        if 0 <= py < h and 0 <= px < w:
                            y[:, (k * kh + i) * kw + j, oy, ox] = x[:, k, py, px]
    return y


@testing.parameterize(
    *testing.product(
        {
            "params": [
                ((2, 2), (1, 1), (0, 0), False, (1, 1)),
                ((3, 2), (2, 1), (1, 0), False, (1, 1)),
                ((2, 2), (2, 2), (0, 0), True, (1, 1)),
                ((2, 2), (1, 1), (1, 1), False, (2, 1)),
            ],
            "dtype": [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.fix_random()
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestIm2Col(testing.FunctionTestCase):
    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_backward_options = {"atol": 5e-3, "rtol": 5e-2}
            self.check_double_backward_options = {"atol": 5e-3, "rtol": 5e-2}

    def generate_inputs(self):
        return (numpy.random.uniform(-1, 1, (2, 2, 5, 4)).astype(self.dtype),)

    def forward(self, inputs, device):
        ksize, stride, pad, cover_all, dilate = self.params
        return (F.im2col(inputs[0], ksize, stride, pad, cover_all, dilate),)

    def forward_expected(self, inputs):
        return (_im2col_loops(inputs[0], *self.params),)


def test_scalar_options_apply_to_both_axes():
    x = numpy.random.uniform(-1, 1, (1, 1, 4, 4)).astype(numpy.float32)
    expected = _im2col_loops(x, (2, 2), (2, 2), (1, 1), False, (1, 1))
    numpy.testing.assert_array_equal(F.im2col(x, 2, stride=2, pad=1).array, expected)


def test_non_4d_input_is_rejected():
    with pytest.raises(type_check.InvalidType, match=r"x.ndim == 4"):
        F.im2col(numpy.zeros((1, 4, 4), numpy.float32), 2)


def test_integer_input_is_rejected():
    with pytest.raises(type_check.InvalidType, match=r"x.dtype.kind == f"):
        F.im2col(numpy.zeros((1, 1, 4, 4), numpy.int32), 2)


def test_bad_geometry_is_rejected():
    x = numpy.zeros((1, 1, 4, 4), numpy.float32)
    with pytest.raises(ValueError, match=r"stride must be positive, got \(0, 1\)"):
        F.im2col(x, 2, stride=(0, 1))
    with pytest.raises(ValueError, match=r"pad must be non-negative"):
        F.im2col(x, 2, pad=-1)
    with pytest.raises(ValueError, match=r"expected 2 values"):
        F.im2col(x, (1, 2, 3))
